/// What ``ElectrocardiogramClassifier`` says of one recording, and why.
public struct ElectrocardiogramReport: Sendable, Equatable, Codable {
  /// The classification, in HealthKit's cases.
  public var classification: ElectrocardiogramClassification
  /// Average heart rate in beats per minute: 60 · (beats − 1) / (time from the first detected beat to
  /// the last); nil with fewer than two beats.
  public var averageHeartRate: Double?
  /// Number of QRS complexes detected.
  public var beatCount: Int
  /// The rule that decided (see ``ElectrocardiogramClassifier`` for their order).
  public var decidingRule: ElectrocardiogramRule
  /// The model's probabilities; nil when the recording had too few beats to measure its features.
  public var scores: ElectrocardiogramScores?
  /// Every feature measured, in a fixed order, with its unit; a feature that could not be measured
  /// (too few beats, no P-wave window) has a nil value.
  public var features: [ElectrocardiogramFeature]

  public init(
    classification: ElectrocardiogramClassification, averageHeartRate: Double?, beatCount: Int,
    decidingRule: ElectrocardiogramRule, scores: ElectrocardiogramScores?,
    features: [ElectrocardiogramFeature]
  ) {
    self.classification = classification
    self.averageHeartRate = averageHeartRate
    self.beatCount = beatCount
    self.decidingRule = decidingRule
    self.scores = scores
    self.features = features
  }

  /// The value of the feature named `name`, if it was measured.
  public func feature(_ name: String) -> Double? {
    features.first { $0.name == name }?.value
  }
}

/// One measured feature: its name (lower camel case, e.g. `normalizedRMSSD`), its value and its unit
/// (`bpm`, `s`, `dB`, or `1` for a ratio or a correlation).
public struct ElectrocardiogramFeature: Sendable, Equatable, Codable {
  public var name: String
  /// The value; nil when it could not be measured.
  public var value: Double?
  public var unit: String

  public init(name: String, value: Double?, unit: String) {
    self.name = name
    self.value = value
    self.unit = unit
  }
}

/// The rule of ``ElectrocardiogramClassifier`` that decided a classification.
public enum ElectrocardiogramRule: String, Sendable, Hashable, Codable, CaseIterable {
  /// Fewer than ``ElectrocardiogramClassifier/minimumBeatCount`` beats detected: poor reading.
  case tooFewBeats
  /// The quality model's probability of a poor reading exceeded 1/2: poor reading.
  case poorReadingScore
  /// Average heart rate below ``ElectrocardiogramClassifier/lowHeartRateLimit``.
  case lowHeartRate
  /// Average heart rate above ``ElectrocardiogramClassifier/highHeartRateLimit``.
  case highHeartRate
  /// The most probable of sinus rhythm, atrial fibrillation and other rhythm.
  case rhythmScore
}

/// The models' probabilities: of a poor reading (too noisy to classify), and of each rhythm (normal sinus
/// rhythm, atrial fibrillation, other rhythm: summing to 1), in the classes of the PhysioNet/CinC
/// Challenge 2017.
public struct ElectrocardiogramScores: Sendable, Equatable, Codable {
  public var sinusRhythm: Double
  public var atrialFibrillation: Double
  public var otherRhythm: Double
  public var poorReading: Double

  public init(sinusRhythm: Double, atrialFibrillation: Double, otherRhythm: Double, poorReading: Double) {
    self.sinusRhythm = sinusRhythm
    self.atrialFibrillation = atrialFibrillation
    self.otherRhythm = otherRhythm
    self.poorReading = poorReading
  }
}
