import VitalsCore

/// Unit of a numeric time column.
public enum CSVTimeUnit: String, Sendable, CaseIterable, Codable {
  case seconds = "s"
  case milliseconds = "ms"
  case microseconds = "us"
  case nanoseconds = "ns"

  /// Power of ten that turns a value in this unit into nanoseconds.
  var nanosecondExponent: Int {
    switch self {
    case .seconds: 9
    case .milliseconds: 6
    case .microseconds: 3
    case .nanoseconds: 0
    }
  }
}

/// How to read a delimited text file; every `nil` means "recognize from the content".
public struct CSVOptions: Sendable, Equatable {
  /// Field delimiter byte (`,` `;` tab); `nil` detects among the three.
  public var delimiter: UInt8?
  /// Whether a line names the columns; `nil` detects (the line before the first data line, when there
  /// is one: a field neither a number nor a date-time makes a line not data).
  public var hasHeader: Bool?
  /// Lines to skip before the header or data; `nil` detects a preamble: every line before the
  /// header, the header being the non-numeric line just before the first all-numeric line, or the
  /// one before that when that line is a units row (`s,mV,g`).
  public var skipLines: Int?
  /// The time column, by name or 0-based file column; `nil` detects one by name (`time…`,
  /// `timestamp…`, `datetime`, `date`), by date-time content, or (without a header) a first column
  /// of increasing values ≥ 10⁶ (epoch or since-boot stamps).
  public var timeColumn: ChannelSelector?
  /// Unit of a numeric time column; `nil` takes the one a units row under the header or the column's
  /// name states (a word of it: `time_ms`, `Time (msec)`, `timestamp_usec`; `CSVLayout.unitFromName`),
  /// else infers it from the median interval (the first of s, ms, µs, ns giving a rate in 0.5–5000 Hz).
  public var timeUnit: CSVTimeUnit?
  /// Samples per second: required without a time column (unless a preamble states `… N Hz`); with a
  /// time column, the rate of the uniform grid to resample onto.
  public var sampleRate: Double?
  /// Interpolation used when the time stamps are not uniform.
  public var interpolation: UniformGridInterpolator.Method
  /// Irregular time stamps only: the longest interval, in seconds, between two stamps that is still
  /// interpolated; longer ones are gaps (``TimeStampTimeline``). `nil`: three sample intervals or
  /// twice the 99th-percentile interval of the first 8192 rows, whichever is longer.
  public var gapThreshold: Double?

  /// Options with every unspecified field recognized from the content.
  public init(
    delimiter: UInt8? = nil, hasHeader: Bool? = nil, skipLines: Int? = nil,
    timeColumn: ChannelSelector? = nil,
    timeUnit: CSVTimeUnit? = nil, sampleRate: Double? = nil,
    interpolation: UniformGridInterpolator.Method = .linear, gapThreshold: Double? = nil
  ) {
    precondition(gapThreshold.map { $0 > 0 && $0.isFinite } ?? true, "the gap threshold must be positive")
    self.delimiter = delimiter
    self.hasHeader = hasHeader
    self.skipLines = skipLines
    self.timeColumn = timeColumn
    self.timeUnit = timeUnit
    self.sampleRate = sampleRate
    self.interpolation = interpolation
    self.gapThreshold = gapThreshold
  }
}

/// How a CSV file's samples were put on the uniform grid of the chunks.
public enum CSVTiming: Sendable, Equatable {
  /// No time column: samples at the given (or preamble-stated) rate.
  case fixedRate
  /// Time stamps uniform within 1 % of the measured interval (or of a whole multiple of it, a gap):
  /// samples passed through unchanged, the samples missing in gaps NaN.
  case uniformTimestamps
  /// Irregular stamps: resampled onto a uniform grid at `sampleRate` by
  /// `UniformGridInterpolator`, the grid points inside gaps NaN.
  case resampled(UniformGridInterpolator.Method)
}
