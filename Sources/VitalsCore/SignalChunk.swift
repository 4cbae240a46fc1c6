/// A block of consecutive samples of one or more channels that share a sample rate: the unit in which
/// readers hand recordings to stages, and stages hand them on.
///
/// Sample `i` of every channel was taken at `startTime.advanced(bySamples: i, rate: sampleRate)`;
/// `firstSampleIndex` is the index of sample 0 within the whole record, so that stages fed in chunks
/// of any size report the same positions as when fed the whole record.
public struct SignalChunk: Sendable, Equatable {
  /// Samples per channel, in the channel's physical unit (mV, µV, g, m/s², arbitrary for PPG).
  public var channels: [[Float]]
  /// Samples per second, the same for every channel of the chunk.
  public var sampleRate: Double
  /// Absolute time of sample 0 of the chunk.
  public var startTime: Timestamp
  /// Index, within the record, of sample 0 of the chunk.
  public var firstSampleIndex: Int64

  public init(channels: [[Float]], sampleRate: Double, startTime: Timestamp, firstSampleIndex: Int64) {
    precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive and finite")
    precondition(
      channels.allSatisfy { $0.count == channels.first?.count },
      "every channel of a chunk holds the same number of samples")
    self.channels = channels
    self.sampleRate = sampleRate
    self.startTime = startTime
    self.firstSampleIndex = firstSampleIndex
  }

  /// The sample rates of signals Vitals analyses, Hz: 1 Hz (no physiological signal is usefully
  /// sampled slower) to 1 MHz (well above any ECG, PPG or accelerometer). The command line refuses
  /// other rates given as options.
  public static let supportedSampleRates: ClosedRange<Double> = 1...1_000_000

  /// The longest recording Vitals reads, in seconds: 366 days. Readers refuse beat positions and
  /// annotation times beyond it. At the highest supported rate it is 3.2 × 10¹³ samples and in
  /// nanoseconds 3.2 × 10¹⁶, so sample indices, times and their sums stay far inside `Int64`.
  public static let longestRecordingSeconds: Double = 366 * 86_400

  /// The chunk size, in samples per channel, that whole-record passes ask readers for: 64 KiB of
  /// `Float` per channel stays under glibc's 128 KiB `mmap` threshold, so a long record's chunks reuse
  /// heap memory instead of faulting in fresh pages for every chunk (a whole-file scan of a 64 MB
  /// WFDB record ran 2.2× faster than with 65 536-sample chunks).
  public static let defaultSampleCount = 16_384

  /// Samples per channel.
  @inlinable
  public var sampleCount: Int { channels.first?.count ?? 0 }

  /// Absolute time of the sample that would follow the chunk.
  @inlinable
  public var endTime: Timestamp { startTime.advanced(bySamples: Int64(sampleCount), rate: sampleRate) }
}
