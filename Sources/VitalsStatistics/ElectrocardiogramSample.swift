import VitalsCore

/// A single-lead ECG recording's result, as HealthKit's `HKElectrocardiogram`: its classification,
/// average heart rate, lead, sampling frequency and number of voltage measurements (not the voltages).
///
/// Its type name in samples files is ``typeName``. `end` is never before `start`.
public struct ElectrocardiogramSample: Hashable, Sendable {
  /// `electrocardiogram`, the type name of samples files.
  public static let typeName = "electrocardiogram"

  /// HealthKit's name of the classification (`sinusRhythm`, `atrialFibrillation`,
  /// `inconclusiveLowHeartRate`, …: the raw values of `ElectrocardiogramClassification`), kept as
  /// read.
  public var classification: String
  /// The average heart rate of the recording, beats per minute (`count/min`); nil when unknown.
  public var averageHeartRate: Double?
  /// The lead's name (`Lead I`, HealthKit's `appleWatchSimilarToLeadI`).
  public var lead: String
  /// Voltage measurements per second, Hz.
  public var samplingFrequency: Double
  /// Voltage measurements of the recording.
  public var numberOfVoltageMeasurements: Int
  /// When the recording starts.
  public var start: Timestamp
  /// When it ends (not before ``start``).
  public var end: Timestamp
  /// The app or device that classified the recording.
  public var source: String
  /// A description of the recording device, if known.
  public var device: String?
  /// Extra key–value pairs.
  public var metadata: [String: String]

  /// A recording's result; `start` must not be after `end`.
  public init(
    classification: String, averageHeartRate: Double?, lead: String, samplingFrequency: Double,
    numberOfVoltageMeasurements: Int, start: Timestamp, end: Timestamp, source: String,
    device: String? = nil, metadata: [String: String] = [:]
  ) {
    precondition(start <= end, "a sample cannot end before it starts")
    self.classification = classification
    self.averageHeartRate = averageHeartRate
    self.lead = lead
    self.samplingFrequency = samplingFrequency
    self.numberOfVoltageMeasurements = numberOfVoltageMeasurements
    self.start = start
    self.end = end
    self.source = source
    self.device = device
    self.metadata = metadata
  }
}
