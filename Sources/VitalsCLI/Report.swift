import ArgumentParser
import Vitals

/// `vitals report INPUT -o FILE.svg|FILE.html`: a picture of a recording and what was found in it.
public struct Report: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Draw a recording and what was found in it, as a self-contained SVG or HTML file.",
    discussion: """
      The report shows the main numbers, then the panels of every kind of signal analyzed, one under the \
      other. ECG: the whole lead (min/max per pixel column, irregular-rhythm episodes shaded), its first and \
      last seconds with the detected beats marked (and steps ticked), heart rate over time, the RR tachogram, \
      the Poincaré plot with its SD1/SD2 ellipse and the HRV spectrum (Welch) with the VLF, LF and HF bands \
      shaded. PPG: the first channel whole and its first and last seconds with the detected pulses marked, \
      the windowed heart rate (readings not reliable circled) and its quality. Accelerometer: the \
      acceleration magnitude whole (walking bouts shaded) and its first and last seconds with the detected \
      steps marked, steps per minute and each walking bout's cadence. The recording is read once, in \
      chunks, as `vitals analyze` reads it. -o FILE.html wraps the SVG in a page.
      """)

  @Argument(help: "The recording (WFDB record, EDF/EDF+, CSV/TSV, Apple Health ECG CSV).")
  public var inputPath: String

  @Option(name: [.short, .customLong("output")], help: "The picture to write: FILE.svg or FILE.html.")
  public var output: String

  @Option(help: "Seconds of signal in each excerpt, \(optionRange(OptionRange.excerpt)).")
  public var excerpt = 10.0

  @Option(help: "The ECG lead, by name or 0-based index (default: recognized).")
  public var ecg: String?

  @Option(help: "The PPG channels, by name or index, comma-separated (default: recognized).")
  public var ppg: String?

  @OptionGroup public var input: InputOptions

  public init() {}

  public func validate() throws {
    let lower = output.lowercased()
    guard lower.hasSuffix(".svg") || lower.hasSuffix(".html") || lower.hasSuffix(".htm") else {
      throw ValidationError("-o must name an .svg or .html file")
    }
    try checkOption("--excerpt", excerpt, in: OptionRange.excerpt, unit: "s")
  }

  public func run() throws {
    try refuseOverwritingInputs(outputs: [output], inputs: [inputPath])
    try exitingOneOnFileErrors {
      let options = AnalysisOptions(
        recording: input.recordingOptions,
        overrides: ChannelRoles.Overrides(
          ecg: ecg.map(ChannelSelector.list), ppg: ppg.map(ChannelSelector.list),
          accelerometer: input.accel.map(ChannelSelector.list)))
      let report = try RecordingReport.collect(path: inputPath, options: options, excerptSeconds: excerpt)
      let text = output.lowercased().hasSuffix(".svg") ? report.svg() : report.html()
      try AtomicFile.write(text, to: output)
    }
  }
}
