import ArgumentParser
import Vitals

/// `vitals convert INPUT -o OUT.csv|OUT.hea`: the signals in physical units as CSV, or as a WFDB record
/// in format 16 (what WFDB's `rdsamp` and `edf2mit` give users).
public struct Convert: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "convert",
    abstract: "Write a recording's signals in physical units as CSV or as a WFDB record (format 16).",
    discussion: """
      CSV: time_s, then one column per signal, named as in the source. WFDB (-o NAME.hea): NAME.hea and \
      NAME.dat in format 16, signal names and units as in the source, start time kept. For an EDF file with signals at several rates, the signals \
      of one rate are written (the first signal's, or those picked with --channel).
      """)

  @Argument(
    help:
      "The recording (a WFDB record such as dir/100 or dir/100.hea, EDF/EDF+, CSV/TSV, Apple Health ECG CSV, or - for CSV on stdin)."
  )
  public var inputPath: String

  @Option(
    name: [.short, .customLong("output")],
    help: "The file to write: NAME.csv (or - for standard output) or NAME.hea for a WFDB record.")
  public var output: String

  @Option(help: "Samples per channel read at a time, \(optionRange(OptionRange.chunkSize)).")
  public var chunkSize = SignalChunk.defaultSampleCount

  @OptionGroup public var input: InputOptions

  public init() {}

  public func validate() throws {
    guard output == "-" || output.lowercased().hasSuffix(".csv") || output.hasSuffix(".hea") else {
      throw ValidationError("--output must be a .csv file, a .hea WFDB header or -, got '\(output)'")
    }
    try checkOption("--chunk-size", chunkSize, in: OptionRange.chunkSize)
  }

  public func run() throws {
    try exitingOneOnFileErrors {
      var reader = try RecordingOpener.open(path: inputPath, options: input.recordingOptions)
      if output.hasSuffix(".hea") {
        let writer = try WFDBRecordWriter(
          path: output, signals: reader.signals, frameRate: reader.chunkSampleRate,
          startTime: reader.startTime)
        while let chunk = try reader.nextChunk(maxSamples: chunkSize) { try writer.append(chunk) }
        try writer.finish()
      } else {
        let writer = try CSVSignalWriter(path: output, signalNames: reader.signals.map(\.name))
        while let chunk = try reader.nextChunk(maxSamples: chunkSize) { try writer.write(chunk) }
        try writer.close()
      }
    }
  }
}
