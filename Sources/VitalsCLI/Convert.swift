import ArgumentParser
import Vitals

/// `vitals convert INPUT -o OUT.csv`: the signals in physical units as CSV.
public struct Convert: ParsableCommand {
  public static let configuration = CommandConfiguration(
    abstract: "Write a recording's signals in physical units as CSV: time_s, then one column per signal.",
    discussion: """
      Columns are named as in the source. For an EDF file with signals at several rates, the signals \
      of one rate are written (the first signal's, or those picked with --channel).
      """)

  @Argument(help: "The recording (EDF/EDF+, CSV/TSV, Apple Health ECG CSV, or - for CSV on stdin).")
  public var inputPath: String

  @Option(name: [.short, .customLong("output")], help: "The CSV file to write (- for standard output).")
  public var output: String

  @Option(help: "Samples per channel read at a time.")
  public var chunkSize = 65_536

  @OptionGroup public var input: InputOptions

  public init() {}

  public func validate() throws {
    guard output == "-" || output.lowercased().hasSuffix(".csv") else {
      throw ValidationError("--output must be a .csv file or -, got '\(output)'")
    }
    guard chunkSize > 0 else { throw ValidationError("--chunk-size must be positive") }
  }

  public func run() throws {
    do {
      var reader = try RecordingOpener.open(path: inputPath, options: input.recordingOptions)
      let writer = try CSVSignalWriter(path: output, signalNames: reader.signals.map(\.name))
      while let chunk = try reader.nextChunk(maxSamples: chunkSize) { try writer.write(chunk) }
      try writer.close()
    } catch let error as InputError {
      printError(error.description)
      throw ExitCode(1)
    } catch let error as OutputError {
      printError(error.description)
      throw ExitCode(1)
    }
  }
}
