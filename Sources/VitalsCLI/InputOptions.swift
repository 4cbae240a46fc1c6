import ArgumentParser
import Vitals

extension CSVTimeUnit: ExpressibleByArgument {}
extension UniformGridInterpolator.Method: ExpressibleByArgument {}

/// The input options every signal-reading command shares (README, "The command line").
public struct InputOptions: ParsableArguments {
  @Option(
    help:
      "Signals by name (exact, else ignoring case; a name two signals share needs the index) or 0-based index, comma-separated (e.g. MLII or 0,2)."
  )
  public var channel: String?

  @Option(
    help:
      "The accelerometer axes, by name or 0-based index, comma-separated (default: the pipeline's accelerometer rule — signals named x/y/z or acc…, or in g or m/s^2; three names of one stem ending in x, y, z; the first three columns of a header-less CSV of three to six signals)."
  )
  public var accel: String?

  @Option(
    help:
      "CSV: samples per second (required without a time column), \(optionRange(OptionRange.signalRate)) Hz.")
  public var rate: Double?

  @Option(name: .customLong("time-column"), help: "CSV: the time column, by name or 0-based column index.")
  public var timeColumn: String?

  @Option(name: .customLong("time-unit"), help: "CSV: unit of a numeric time column (s, ms, us, ns).")
  public var timeUnit: CSVTimeUnit?

  @Flag(name: .customLong("no-header"), help: "CSV: the first line is data, not column names.")
  public var noHeader = false

  @Option(help: "CSV: field delimiter (one character, or 'tab').")
  public var delimiter: String?

  @Option(name: .customLong("skip-lines"), help: "CSV: lines to skip before the header (preamble).")
  public var skipLines: Int?

  @Option(help: "CSV: interpolation for irregular time stamps (linear, cubicHermite).")
  public var interpolation: UniformGridInterpolator.Method = .linear

  @Option(
    name: .customLong("max-gap"),
    help:
      "CSV with irregular time stamps: the longest interval between two stamps, in seconds, that is interpolated; longer ones are gaps (missing data). Default: 3 sample intervals or twice the 99th-percentile interval of the first 8192 rows."
  )
  public var maxGap: Double?

  @Option(
    help:
      "The date and time of the first sample (ISO 8601, e.g. 2024-03-10T06:00:00Z or 2024-03-10 06:00:00+01:00; UTC without a zone): supplies the start of a recording that states none, or replaces the file's."
  )
  public var start: String?

  public init() {}

  public func validate() throws {
    try checkRate(SupportedRates.signal)
    if let skipLines, skipLines < 0 {
      throw ValidationError("--skip-lines must be 0 or more, got \(skipLines)")
    }
    if let delimiter, delimiterByte(delimiter) == nil {
      throw ValidationError("--delimiter must be one ASCII character or 'tab', got '\(delimiter)'")
    }
    if let maxGap, !(maxGap > 0 && maxGap <= CSVSignalReader.longestGap) {
      throw ValidationError(
        "--max-gap must be more than 0 and at most \(Int(CSVSignalReader.longestGap)) seconds")
    }
    if let start, Timestamp(dateTime: start) == nil {
      throw ValidationError("--start must be a date and time like 2024-03-10T06:00:00Z, got '\(start)'")
    }
    if let channel, ChannelSelector.list(channel).isEmpty { throw ValidationError("--channel is empty") }
    if let accel, ChannelSelector.list(accel).isEmpty { throw ValidationError("--accel is empty") }
  }

  /// Throws a ``ValidationError`` naming --rate and `rates` unless --rate is absent or within them.
  func checkRate(_ rates: SupportedRates) throws(ValidationError) {
    if let rate { try rates.check("--rate", rate) }
  }

  private func delimiterByte(_ text: String) -> UInt8? {
    if text == "tab" || text == "\\t" || text == "\t" { return 0x09 }
    guard text.utf8.count == 1, let byte = text.utf8.first, byte < 0x80 else { return nil }
    return byte
  }

  /// The options as the library takes them.
  public var recordingOptions: RecordingOptions {
    RecordingOptions(
      channels: channel.map(ChannelSelector.list),
      csv: CSVOptions(
        delimiter: delimiter.flatMap(delimiterByte), hasHeader: noHeader ? false : nil, skipLines: skipLines,
        timeColumn: timeColumn.map(ChannelSelector.init), timeUnit: timeUnit, sampleRate: rate,
        interpolation: interpolation, gapThreshold: maxGap),
      startTime: start.flatMap(Timestamp.init(dateTime:)))
  }
}
