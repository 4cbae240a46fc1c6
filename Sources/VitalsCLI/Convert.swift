import ArgumentParser
import Vitals

/// `vitals convert INPUT -o OUT.csv|OUT.hea`: the signals in physical units as CSV, or as a WFDB record
/// that keeps the values (``RecordingConversion``).
public struct Convert: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "convert",
    abstract: "Write a recording's signals as CSV (physical units) or as a WFDB record, keeping the values.",
    discussion: """
      CSV: time_s, then one column per signal, named as in the source, values in their shortest exact \
      text. WFDB (-o NAME.hea): NAME.hea and NAME.dat, signal names and units as in the source, start \
      time kept. From a WFDB record the digital values, gains, baselines and header comments are kept \
      as they are and its annotation files are copied as NAME.EXT; from EDF the header's gains and \
      baselines, with the annotations of EDF+ in NAME.ann; from CSV and other files, a first pass \
      finds each signal's range and picks the gain (1, 2 or 5 × 10^n) that keeps every value within \
      half a step. A value that cannot be written is an error naming the signal and sample. A WFDB \
      signal of several samples per frame is written to CSV at the frame rate, each frame's samples \
      averaged (a note on stderr names it); an EDF+ annotation before the first sample is written at \
      sample 0 with its onset in the text (a note on stderr names it). For an EDF \
      file with signals at several rates, the signals of one rate are written (the first signal's, or \
      those picked with --channel). Outputs are written to a temporary file and renamed into place when \
      complete; an output that is one of the input's files is refused.
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
    if inputPath == "-" && RecordingConversion.writesWFDB(output) {
      throw ValidationError(
        "WFDB output reads the input twice (to fit each signal's gain to its range); standard input can be read once: give a file"
      )
    }
    try checkOption("--chunk-size", chunkSize, in: OptionRange.chunkSize)
  }

  public func run() throws {
    let options = input.recordingOptions
    try refuseOverwritingInputs(
      outputs: RecordingConversion.outputFiles(input: inputPath, output: output),
      inputs: [inputPath])
    try exitingOneOnFileErrors {
      let notes = try RecordingConversion.convert(
        path: inputPath, options: options, to: output, chunkSize: chunkSize)
      notes.forEach(printError)
    }
  }
}
