/// What the time stamps of a time-stamped CSV file showed, accumulated as the file is read: the
/// intervals between consecutive stamps, which of them are gaps (missing data) and the jitter of the
/// rest. Complete once the reader has reached the end of the file.
///
/// The rules (``CSVSignalReader`` applies them to every stamp):
/// - With **uniform** stamps (``CSVTiming/uniformTimestamps``) an interval of `n` sample intervals
///   (rounded) holds `n − 1` missing samples: every interval of 1.5 sample intervals or more is a
///   gap, and its missing samples are NaN.
/// - With **irregular** stamps (``CSVTiming/resampled(_:)``) an interval longer than the reader's
///   ``CSVOptions/gapThreshold`` is a gap: the grid points strictly inside it are NaN, and the
///   interpolation starts afresh at the first stamp after it. Shorter intervals are interpolated.
/// - Stamps never go backwards (an error naming the line), and a forward jump longer than
///   ``CSVSignalReader/longestGap`` is an error too.
/// - A stamp equal to the one before is never an error. In irregular stamps it is part of the clock
///   (a timer coarser than the samples): the row is interpolated with the others. With uniform stamps
///   a row repeating the one before exactly (stamp and every value read) is dropped and counted
///   (``CSVSignalReader/duplicateRowCount``); one with other values is a sample of its own, in the
///   next slot: its interval (0) counts in the jitter, and the next interval longer than one sample
///   interval makes up for that slot instead of holding a missing sample (745, 745, 755 ms at 200 Hz
///   are three samples in a row, with no gap). When at most 1 % of the first 8192 rows repeat a
///   stamp, the rate is measured without the dropped rows, and such repeats leave the stamps uniform
///   if every one is made up for by the interval after it; otherwise the file is resampled, every
///   row kept.
public struct TimeStampTimeline: Sendable, Equatable {
  /// Intervals between consecutive stamps examined so far.
  public private(set) var intervalCount: Int64 = 0
  /// Intervals that were gaps.
  public private(set) var gapCount = 0
  /// Seconds of the gaps not covered by a sample interval: the sum over gaps of the interval minus one
  /// nominal sample interval.
  public private(set) var missingSeconds = 0.0
  /// The longest gap, seconds between the stamps on either side (0 without gaps).
  public private(set) var longestGapSeconds = 0.0
  private var squaredDeviationSum = 0.0

  public init() {}

  /// Root mean square deviation, in seconds, of the intervals that are not gaps from the nominal
  /// sample interval (0 when there are none).
  public var jitterSeconds: Double {
    let regular = intervalCount - Int64(gapCount)
    return regular > 0 ? (squaredDeviationSum / Double(regular)).squareRoot() : 0
  }

  /// Counts an interval that is not a gap, `deviation` seconds longer than the nominal interval.
  mutating func recordInterval(deviation: Double) {
    intervalCount += 1
    squaredDeviationSum += deviation * deviation
  }

  /// Counts a gap of `seconds` between two stamps, of which `missing` seconds hold no sample.
  mutating func recordGap(seconds: Double, missing: Double) {
    intervalCount += 1
    gapCount += 1
    missingSeconds += missing
    longestGapSeconds = max(longestGapSeconds, seconds)
  }
}
