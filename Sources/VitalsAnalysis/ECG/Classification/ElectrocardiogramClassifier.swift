/// Classifies a single-lead ECG recording of 5–60 s as a watch's ECG app does, in HealthKit's cases
/// (``ElectrocardiogramClassification``), with its average heart rate and the reasons.
///
/// Steps: QRS complexes (``QRSDetector``), their EC57 classes (``BeatClassifier``), then the features of
/// `ClassificationFeature` — RR irregularity with ectopic beats left out, P-wave presence and
/// consistency, f-wave power, template stability, and noise measures (pSQI, Li et al. 2008) — and two
/// logistic regressions, one on the noise measures (poor reading or not), one on every feature (sinus
/// rhythm, AF, other rhythm), whose parameters were chosen by cross-validation on the PhysioNet/CinC
/// Challenge 2017 recordings (Clifford et al. 2017) and 30-s pieces of MIT-BIH and CPSC 2021. The decision
/// is taken in this order, the first rule that applies deciding (``ElectrocardiogramRule``):
///
/// 1. fewer than ``minimumBeatCount`` beats, or no RR interval free of a lead-off run (no rate):
///    ``ElectrocardiogramClassification/inconclusivePoorReading``;
/// 2. the quality model's probability of a poor reading above 1/2: `inconclusivePoorReading` (a noisy
///    recording's rate and rhythm are not to be trusted, so quality comes first);
/// 3. average heart rate below ``lowHeartRateLimit``: `inconclusiveLowHeartRate`; above
///    ``highHeartRateLimit``: `inconclusiveHighHeartRate` (the rhythm is not judged there);
/// 4. the most probable of sinus rhythm (`sinusRhythm`), atrial fibrillation (`atrialFibrillation`) and
///    other rhythm (`inconclusiveOther`).
///
/// Cost: about linear in the samples (the QRS detector, three zero-phase band-passes, per-beat windows).
/// Accuracy and protocol: `make eval-classify`, <doc:ECGClassification>. Not a medical device.
public enum ElectrocardiogramClassifier {
  /// Sample rates accepted, Hz.
  public static let supportedSampleRates: ClosedRange<Double> = 125...1000
  /// Recording durations accepted, seconds.
  public static let supportedDurations: ClosedRange<Double> = 5...60
  /// Average heart rate below which the rhythm is not judged, bpm (as the watch's ECG app).
  public static let lowHeartRateLimit = 50.0
  /// Average heart rate above which the rhythm is not judged, bpm.
  public static let highHeartRateLimit = 150.0
  /// Fewest detected beats for a recording to be judged.
  public static let minimumBeatCount = 3

  /// The classification of `samples`, one ECG lead in any unit (NaN or infinite samples are missing),
  /// recorded at `sampleRate` Hz.
  ///
  /// - Throws: ``ElectrocardiogramClassifierError`` when the rate or the duration is out of range.
  public static func classify(_ samples: [Float], sampleRate: Double) throws(ElectrocardiogramClassifierError)
    -> ElectrocardiogramReport
  {
    guard supportedSampleRates.contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
    let duration = Double(samples.count) / sampleRate
    guard duration >= supportedDurations.lowerBound else { throw .tooShort(duration: duration) }
    guard duration <= supportedDurations.upperBound else { throw .tooLong(duration: duration) }
    let beats: [Int64]
    do { beats = try QRSDetector.detect(samples, sampleRate: sampleRate) } catch {
      throw .unsupportedSampleRate(sampleRate)
    }
    let features = ClassificationFeatures(samples: samples, sampleRate: sampleRate, beats: beats)
    return decide(features, beatCount: beats.count)
  }

  /// The report of a recording with `features` and `beatCount` detected beats, by the rules' order.
  static func decide(_ features: ClassificationFeatures, beatCount: Int) -> ElectrocardiogramReport {
    let rate = features[.heartRate]
    let reported = ClassificationFeature.allCases.map {
      ElectrocardiogramFeature(
        name: $0.name, value: features[$0].isNaN ? nil : features[$0], unit: $0.unit)
    }
    func report(
      _ classification: ElectrocardiogramClassification, _ rule: ElectrocardiogramRule,
      _ scores: ElectrocardiogramScores?
    ) -> ElectrocardiogramReport {
      ElectrocardiogramReport(
        classification: classification, averageHeartRate: rate.isNaN ? nil : rate, beatCount: beatCount,
        decidingRule: rule, scores: scores, features: reported)
    }
    // No rate: every RR interval holds a lead-off run (`ClassificationFeatures.heartRate`).
    guard beatCount >= minimumBeatCount, !rate.isNaN else {
      return report(.inconclusivePoorReading, .tooFewBeats, nil)
    }
    let scores = ElectrocardiogramModel.scores(features)
    if scores.poorReading > 0.5 { return report(.inconclusivePoorReading, .poorReadingScore, scores) }
    if rate < lowHeartRateLimit { return report(.inconclusiveLowHeartRate, .lowHeartRate, scores) }
    if rate > highHeartRateLimit { return report(.inconclusiveHighHeartRate, .highHeartRate, scores) }
    let rhythms = [
      (ElectrocardiogramClassification.sinusRhythm, scores.sinusRhythm),
      (.atrialFibrillation, scores.atrialFibrillation), (.inconclusiveOther, scores.otherRhythm),
    ]
    return report(rhythms.max { $0.1 < $1.1 }!.0, .rhythmScore, scores)
  }
}

/// Why ``ElectrocardiogramClassifier`` could not classify a recording.
public enum ElectrocardiogramClassifierError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The sample rate is outside ``ElectrocardiogramClassifier/supportedSampleRates``.
  case unsupportedSampleRate(Double)
  /// The recording is shorter than ``ElectrocardiogramClassifier/supportedDurations``' lower bound.
  case tooShort(duration: Double)
  /// The recording is longer than ``ElectrocardiogramClassifier/supportedDurations``' upper bound.
  case tooLong(duration: Double)

  public var description: String {
    let durations = ElectrocardiogramClassifier.supportedDurations
    let rates = ElectrocardiogramClassifier.supportedSampleRates
    return switch self {
    case .unsupportedSampleRate(let rate):
      "ECG classification needs a sample rate from \(rates.lowerBound) to \(rates.upperBound) Hz, "
        + "got \(rate) Hz"
    case .tooShort(let duration):
      "ECG classification needs at least \(durations.lowerBound) s of signal, got \(duration) s"
    case .tooLong(let duration):
      "ECG classification takes at most \(durations.upperBound) s of signal, got \(duration) s"
    }
  }
}
