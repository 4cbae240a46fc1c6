import ArgumentParser
import Vitals

/// The signal a beat command works on.
public enum BeatSignal: String, ExpressibleByArgument, Sendable, CaseIterable {
  case ecg
  case ppg

  /// The beats of this signal in the recording at `path`: the QRS detector's R peaks on the ECG lead, or the
  /// pulse detector's systolic peaks on the PPG channel (see ``PPGRecording``); with `assessingQuality`,
  /// the ECG lead's unusable stretches too (`RecordingBeats/unusableStretches`). Throws `InputError` for
  /// unreadable input and a rate the detector does not support.
  public func detect(path: String, input: InputOptions, assessingQuality: Bool = false) throws(InputError)
    -> RecordingBeats
  {
    switch self {
    case .ecg:
      try RecordingBeats(ecgPath: path, options: input.recordingOptions, assessingQuality: assessingQuality)
    case .ppg:
      try RecordingBeats(
        ppgPath: path, options: input.recordingOptions, accelerometer: input.accel.map(ChannelSelector.list))
    }
  }
}

/// `vitals beats INPUT [--signal ecg] [-o FILE] [--format csv|json|wfdb]`: detected heartbeats; with
/// `--out-dir DIR`, of several recordings in one process.
public struct Beats: ParsableCommand {
  /// How the beats are written.
  public enum Format: String, ExpressibleByArgument, Sendable, CaseIterable {
    case csv, json, wfdb
  }

  public static let configuration = CommandConfiguration(
    commandName: "beats",
    abstract: "Detect heartbeats and write one row per beat.",
    discussion: """
      ECG: the QRS detector (Pan & Tompkins 1985 with Hamilton & Tompkins' rules) on one lead: the \
      one given with --channel (the first, when several are), else the signal named MLII, else II, \
      else the first ECG-like signal (a name with ECG/EKG or a standard lead name), else the first \
      signal. Beats are found up to the end of the record, but for one within 50 ms of its last \
      sample (its QRS complex is cut off); a T wave at the start whose QRS complex came before the \
      record is no beat when the next QRS complex follows within 0.49 s. Each ECG beat gets its EC57 class (N, S, V, F, Q) from its \
      morphology on every ECG lead (every --channel given) and its timing.

      Formats: csv (header sample,time_s[,label]: the sample index at the record's rate, the time in \
      seconds from the first sample, and for ECG the class), json (one object: input, lead, \
      sample_rate, beats as [{"sample":…,"time_s":…,"label":…}], class_counts; for PPG, lead names \
      the PPG channel), wfdb (an MIT annotation file, e.g. -o 100.qrs, read by WFDB tools and \
      wfdb-python's rdann: N, A for S, V, F and Q beats). Without --format: json for -o *.json, wfdb for -o with any \
      other extension than .csv, csv otherwise.

      Several recordings (files, folders searched recursively, glob patterns) go with --out-dir DIR: \
      each one's beats go to DIR/NAME.beats.csv (DIR/NAME.beats.json, DIR/NAME.qrs), NAME the file name \
      without its extension (`mitdb/100` → 100; parent folders prepended where names clash, as `vitals \
      analyze --out` names them), in --format (default csv). A recording that fails is reported on \
      standard error (file and place) and the others complete; the exit code is then 1.
      """)

  @Argument(
    help:
      "The recording (WFDB record, EDF/EDF+, CSV/TSV, Apple Health ECG CSV, or - for CSV on stdin); with --out-dir, several recordings, folders or patterns."
  )
  public var inputs: [String]

  @Option(help: "The signal to detect beats in (ecg or ppg).")
  public var signal: BeatSignal = .ecg

  @Option(name: [.short, .customLong("output")], help: "Where to write the beats (- for standard output).")
  public var output = "-"

  @Option(help: "csv, json or wfdb (default: from the output's extension; csv with --out-dir).")
  public var format: Format?

  @Option(
    name: .customLong("out-dir"),
    help: "Write each recording's beats to DIR/NAME.beats.csv (.beats.json, .qrs) instead of -o.")
  public var outDir: String?

  @OptionGroup public var input: InputOptions

  public init() {}

  /// The format in effect: the option, else the output's extension (csv with --out-dir).
  var resolvedFormat: Format {
    if let format { return format }
    if outDir != nil { return .csv }
    let lower = output.lowercased()
    if lower.hasSuffix(".json") { return .json }
    if output == "-" || lower.hasSuffix(".csv") || !output.contains(".") { return .csv }
    return .wfdb
  }

  public func validate() throws {
    try input.checkRate(signal.supportedRates)
    if outDir == nil && inputs.count > 1 {
      throw ValidationError("several inputs write to --out-dir DIR, not to -o")
    }
    if outDir != nil && output != "-" { throw ValidationError("-o and --out-dir exclude each other") }
    if outDir != nil && inputs.contains("-") {
      throw ValidationError("standard input (-) has no name for --out-dir; give it alone with -o")
    }
    if resolvedFormat == .wfdb && output == "-" && outDir == nil {
      throw ValidationError("--format wfdb needs -o NAME.qrs (annotation files are binary)")
    }
  }

  public func run() throws {
    guard let outDir else {
      try refuseOverwritingInputs(outputs: [output], inputs: inputs)
      return try exitingOneOnFileErrors {
        try write(signal.detect(path: inputs[0], input: input), to: output)
      }
    }
    let recordings = try recordings(in: inputs, outputDirectory: outDir)
    let layout = BatchOutputLayout(directory: outDir)
    let names = BatchOutputLayout.names(for: recordings)
    try refuseOverwritingInputs(outputs: names.map { outputPath(layout, name: $0) }, inputs: recordings)
    try exitingOneOnFileErrors { try layout.prepare() }
    try exitingOneOnFileErrors(of: recordings.indices) { k in
      try write(signal.detect(path: recordings[k], input: input), to: outputPath(layout, name: names[k]))
    }
  }

  /// Where --out-dir puts the beats of output `name` in the format in effect.
  func outputPath(_ layout: BatchOutputLayout, name: String) -> String {
    switch resolvedFormat {
    case .csv: layout.tablePath(name: name, suffix: "beats")
    case .json: layout.directory + "/" + name + ".beats.json"
    case .wfdb: layout.directory + "/" + name + ".qrs"
    }
  }

  /// Writes `detection`'s beats to `path` (`-`: standard output; a file atomically) in the format in
  /// effect.
  private func write(_ detection: RecordingBeats, to path: String) throws(OutputError) {
    switch resolvedFormat {
    case .csv:
      try EventCSVWriter.write(
        samples: detection.beats, sampleRate: detection.sampleRate, labels: detection.classes?.map(\.letter),
        to: path)
    case .json: try writeOutput(Array((compactJSON(detection) + "\n").utf8), to: path)
    case .wfdb:
      let codes = detection.classes?.map(\.mitCode) ?? Array(repeating: "N", count: detection.beats.count)
      let annotations = zip(detection.beats, codes).map { WFDBAnnotation(sample: $0, symbol: $1)! }
      try writeOutput(WFDBAnnotationFile.encode(annotations), to: path)
    }
  }
}
