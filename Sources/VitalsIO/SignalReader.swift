import VitalsCore

/// What a recording holds about one signal, as its file declares it.
public struct SignalDescription: Sendable, Equatable, Codable {
  /// The signal's name in the source (`MLII`, `ppg1`, `acc_x`, `Fp1`).
  public var name: String
  /// Physical unit of the samples the reader yields (`mV`, `uV`, `g`, `m/s^2`; empty when unknown).
  public var unit: String
  /// Samples per second of this signal.
  public var sampleRate: Double
  /// Number of samples in the record, when the file states or implies it.
  public var sampleCount: Int64?

  public init(name: String, unit: String, sampleRate: Double, sampleCount: Int64?) {
    self.name = name
    self.unit = unit
    self.sampleRate = sampleRate
    self.sampleCount = sampleCount
  }
}

/// A recording opened for reading as a stream of `SignalChunk`s, in bounded memory.
///
/// Readers yield the signals that share ``chunkSampleRate`` (all of them for most files; a reader
/// of a file with mixed rates documents how it groups them). Each call returns at most
/// `maxSamples` samples per channel; `nil` means the end of the record. Problems with the data throw
/// ``InputError`` naming the file and place; samples the file marks as invalid are `Float.nan`.
public protocol SignalReader: ~Copyable {
  /// The file's name for the format (`WFDB 212`, `EDF+C`, `CSV`, `Apple Health ECG`).
  var formatName: String { get }
  /// The signals yielded in each chunk, in chunk channel order.
  var signals: [SignalDescription] { get }
  /// Samples per second of every channel in the chunks.
  var chunkSampleRate: Double { get }
  /// Absolute time of the first sample; `nil` when the file does not state one, and chunk times then
  /// count from the epoch (they are times since the first sample, not dates).
  var startTime: Timestamp? { get }
  /// Reads the next chunk of at most `maxSamples` samples per channel, or `nil` at the end.
  mutating func nextChunk(maxSamples: Int) throws(InputError) -> SignalChunk?
}
