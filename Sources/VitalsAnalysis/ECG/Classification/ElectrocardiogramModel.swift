import VitalsCore
import VitalsSupport

/// A multinomial logistic regression over the standardized features of ``ClassificationFeature``: the
/// class probabilities are the softmax of `intercepts[c] + Σ weights[c][f] · z[f]`, where
/// z = (value − mean) / scale, clamped to ±``standardizedLimit``, and 0 (the mean) for a feature that
/// could not be measured. Classes, in order: N (sinus rhythm), A (atrial fibrillation), O (other rhythm),
/// ~ (too noisy), the labels of the PhysioNet/CinC Challenge 2017. The parameters (``fitted``) are written
/// by `scripts/eval/fit_classifier.py` (`make fit-classify`) from the features `classify-eval` measures
/// on the shared recordings.
struct ElectrocardiogramModel: Sendable {
  /// Standardized values are clamped to ±5, so one outlying feature cannot decide alone.
  static let standardizedLimit = 5.0

  /// The feature names the parameters were fitted on, ``ClassificationFeature``'s names in its order (a test
  /// holds this; a name that is not measured would count as missing).
  let featureNames: [String]
  let means: [Double]
  let scales: [Double]
  /// One row per class (N, A, O, ~), one weight per feature.
  let weights: [[Double]]
  let intercepts: [Double]
  /// The measured feature of each of ``featureNames``.
  private let measured: [ClassificationFeature?]

  init(featureNames: [String], means: [Double], scales: [Double], weights: [[Double]], intercepts: [Double]) {
    precondition(means.count == featureNames.count && scales.count == featureNames.count)
    precondition(
      weights.count == 4 && intercepts.count == 4 && weights.allSatisfy { $0.count == means.count })
    self.featureNames = featureNames
    self.means = means
    self.scales = scales
    self.weights = weights
    self.intercepts = intercepts
    measured = featureNames.map { name in ClassificationFeature.allCases.first { $0.name == name } }
  }

  /// The class probabilities of `features`.
  func scores(_ features: ClassificationFeatures) -> ElectrocardiogramScores {
    var z = [Double](repeating: 0, count: means.count)
    for f in z.indices {
      guard let feature = measured[f], !features[feature].isNaN else { continue }
      let standardized = (features[feature] - means[f]) / scales[f]
      z[f] = min(max(standardized, -Self.standardizedLimit), Self.standardizedLimit)
    }
    let logits = intercepts.indices.map { c in
      intercepts[c] + zip(weights[c], z).reduce(0) { $0 + $1.0 * $1.1 }
    }
    let largest = logits.max()!
    let exponentials = logits.map { exp($0 - largest) }
    let total = exponentials.reduce(0, +)
    let p = exponentials.map { $0 / total }
    return ElectrocardiogramScores(
      sinusRhythm: p[0], atrialFibrillation: p[1], otherRhythm: p[2], poorReading: p[3])
  }
}
