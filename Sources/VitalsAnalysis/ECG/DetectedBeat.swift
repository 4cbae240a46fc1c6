import VitalsCore

/// One heartbeat found by a detector: where its R peak (or dominant QRS deflection) lies.
public struct DetectedBeat: Sendable, Hashable, Codable {
  /// Index of the R-peak sample within the record (sample 0 is the record's first sample).
  public var sampleIndex: Int64
  /// Absolute time of the R-peak sample.
  public var time: Timestamp

  public init(sampleIndex: Int64, time: Timestamp) {
    self.sampleIndex = sampleIndex
    self.time = time
  }
}

/// Why a QRS detector could not be set up.
public enum QRSDetectorError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The sample rate lies outside the supported range (``QRSDetector/supportedSampleRates``).
  case unsupportedSampleRate(Double)
  /// A configuration value is out of its physiological range: the field's name and the value.
  case invalidConfiguration(String, Double)

  public var description: String {
    switch self {
    case .unsupportedSampleRate(let rate):
      "QRS detection needs a sample rate in \(QRSDetector.supportedSampleRates) Hz, got \(rate) Hz"
    case .invalidConfiguration(let name, let value): "QRS detector option \(name) is out of range: \(value)"
    }
  }
}
