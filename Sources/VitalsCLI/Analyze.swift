import ArgumentParser
import Foundation
import Vitals

/// `vitals analyze INPUT… [--out DIR] [--jobs N] [--force]`: every metric of many recordings, on all cores.
public struct Analyze: ParsableCommand {
  public static let configuration = CommandConfiguration(
    abstract:
      "Analyse recordings (files, folders, globs) on all cores: one JSON Lines summary per recording.",
    discussion: """
      Each recording is read once, in chunks, and every pipeline its channels need runs over it: ECG \
      (beats, heart rate, HRV time domain, LF/HF, SD1/SD2, irregular-rhythm episodes, signal quality). \
      Channels are recognised by name, unit and rate (ECG: MLII, II, ECG…, standard leads; PPG: ppg…, \
      pleth…; accelerometer: x/y/z, acc…, units g or m/s^2); --ecg, --ppg and --accel override. Kinds \
      without a pipeline in this build are listed under "not_analysed" with the reason.

      Output: one JSON object per recording and line, in input order, on standard output; with --out DIR, \
      DIR/NAME.json (the same line) and DIR/NAME.beats.csv (sample,time_s), each written atomically, and \
      recordings whose DIR/NAME.json is newer than the input are skipped (--force redoes them), so an \
      interrupted run resumes. A progress bar goes to standard error when it is a terminal. A recording \
      that fails is reported on standard error (file and place) and the others complete; the exit code is \
      then 1.
      """)

  @Argument(help: "Recordings: files, folders (searched recursively) or glob patterns.")
  public var inputs: [String] = []

  @Option(help: "Write DIR/NAME.json and DIR/NAME.beats.csv per recording instead of standard output.")
  public var out: String?

  @Option(help: "Recordings analysed at once (default: the number of cores).")
  public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  @Flag(help: "Analyse recordings even when their results in --out are up to date.")
  public var force = false

  @Option(help: "The ECG lead, by name or 0-based index (default: recognised).")
  public var ecg: String?

  @Option(help: "The PPG channels, by name or index, comma-separated (default: recognised).")
  public var ppg: String?

  @OptionGroup public var input: InputOptions

  public init() {}

  public func validate() throws {
    if inputs.isEmpty { throw ValidationError("give at least one INPUT recording, folder or pattern") }
    if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    if let accel = input.accel, !(1...3).contains(ChannelSelector.list(accel).count) {
      throw ValidationError("--accel takes one to three channels")
    }
    if force && out == nil { throw ValidationError("--force goes with --out") }
  }

  /// The library's analysis options for these arguments.
  var analysisOptions: AnalysisOptions {
    AnalysisOptions(
      recording: input.recordingOptions,
      overrides: ChannelRoles.Overrides(
        ecg: ecg.map(ChannelSelector.list), ppg: ppg.map(ChannelSelector.list),
        accelerometer: input.accel.map(ChannelSelector.list)))
  }

  public func run() throws {
    let recordings = InputExpansion.expand(inputs)
    if recordings.isEmpty {
      printError("no recordings found in \(inputs.joined(separator: " "))")
      throw ExitCode(1)
    }
    let layout = out.map(BatchOutputLayout.init)
    try exitingOneOnFileErrors { try layout?.prepare() }
    let batch = BatchAnalysis(
      inputs: recordings, options: analysisOptions, output: layout, jobs: jobs, force: force)
    let showsProgress = isatty(STDERR_FILENO) == 1
    let writesSummaries = layout == nil
    let items = batch.run(
      progress: { progress in
        if showsProgress { FileHandle.standardError.write(Data(("\r" + progress.line() + "\u{1B}[K").utf8)) }
      },
      deliver: { item in
        switch item.outcome {
        case .analysed(let summary):
          if writesSummaries { FileHandle.standardOutput.write(Data((summary + "\n").utf8)) }
        case .skipped: break
        case .failed(let message):
          if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
          printError(message)
        }
      })
    if showsProgress { FileHandle.standardError.write(Data("\n".utf8)) }
    let failed = items.filter { if case .failed = $0.outcome { true } else { false } }.count
    if let out {
      let skipped = items.filter { $0.outcome == .skipped }.count
      printError(
        "\(items.count - failed - skipped) analysed, \(skipped) already done, \(failed) failed; results in \(out)"
      )
    }
    if failed > 0 { throw ExitCode(1) }
  }
}
