import VitalsCore
import VitalsSupport

/// The two models of ``ElectrocardiogramClassifier``, fitted by `scripts/eval/fit_classifier.py`
/// (`make fit-classify`) on the features `classify-eval` measures on the shared recordings (parameters in
/// `ElectrocardiogramModel+Fitted.swift`):
/// - ``quality``: a logistic regression on the noise measures alone (pSQI, unusable and flat samples,
///   amplitude spread, template match, beat coverage), classes usable and poor reading, so that neither
///   the rate nor the rhythm of a clean recording can make it a poor reading;
/// - ``rhythm``: a multinomial logistic regression on every feature, classes N (sinus rhythm), A (atrial
///   fibrillation) and O (other rhythm), the labels of the PhysioNet/CinC Challenge 2017.
enum ElectrocardiogramModel {
  /// The probabilities of both models for `features`.
  static func scores(_ features: ClassificationFeatures) -> ElectrocardiogramScores {
    let poor = quality.probabilities(features)[1]
    let p = rhythm.probabilities(features)
    return ElectrocardiogramScores(
      sinusRhythm: p[0], atrialFibrillation: p[1], otherRhythm: p[2], poorReading: poor)
  }
}

/// A logistic regression over standardized features: the class probabilities are the softmax of
/// `intercepts[c] + Σ weights[c][f] · z[f]`, where z = (value − mean) / scale, clamped to
/// ±``standardizedLimit``, and 0 (the mean) for a feature that could not be measured. A binary model has
/// a first row of zeros (the softmax of two classes is the logistic function).
struct LogisticRegressionModel: Sendable {
  /// Standardized values are clamped to ±5, so one outlying feature cannot decide alone.
  static let standardizedLimit = 5.0

  /// The names (of ``ClassificationFeature``) of the features the model takes, in its order; a test holds
  /// that each is measured (a name that is not would count as missing).
  let featureNames: [String]
  let means: [Double]
  let scales: [Double]
  /// One row per class, one weight per feature.
  let weights: [[Double]]
  let intercepts: [Double]
  /// The measured feature of each of ``featureNames``.
  private let measured: [ClassificationFeature?]

  init(featureNames: [String], means: [Double], scales: [Double], weights: [[Double]], intercepts: [Double]) {
    precondition(means.count == featureNames.count && scales.count == featureNames.count)
    precondition(weights.count == intercepts.count && weights.allSatisfy { $0.count == means.count })
    self.featureNames = featureNames
    self.means = means
    self.scales = scales
    self.weights = weights
    self.intercepts = intercepts
    measured = featureNames.map { name in ClassificationFeature.allCases.first { $0.name == name } }
  }

  /// The class probabilities of `features`, in the order of ``weights``' rows.
  func probabilities(_ features: ClassificationFeatures) -> [Double] {
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
    return exponentials.map { $0 / total }
  }
}
