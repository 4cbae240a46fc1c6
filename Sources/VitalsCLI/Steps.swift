import ArgumentParser
import Foundation
import Vitals

extension StepDetector.InputUnit: ExpressibleByArgument {}

/// `vitals steps INPUT [--events FILE] [--unit automatic|g|m/s^2]`: steps, cadence and walking bouts.
public struct Steps: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "steps",
    abstract: "Count steps and find walking bouts in 3-axis acceleration.",
    discussion: """
      The step detector (acceleration magnitude, a 0.5–2.5 Hz band-pass, peaks counted only inside a \
      regular rhythm of at least 10 steps; Zhao 2010, Brajdic & Harle 2013) on three axes: the ones \
      given with --channel (x,y,z), else the signals named acc_x, acc_y, acc_z (or ending in x, y, z), \
      else the first three signals. Works for any placement of the device at 15 Hz to 1 kHz; irregular \
      CSV time stamps are resampled onto a uniform grid. The unit (g or m/s²) is recognised from the \
      gravity level unless --unit says it.

      Writes one JSON object: steps, walking_s (time from the first to the last step of each bout, \
      summed), cadence_spm (steps per minute of walking: step intervals over walking_s), bouts as \
      [{"start_s":…,"end_s":…,"steps":…}] (seconds from the first sample). --events FILE writes the step \
      times as CSV with the header sample,time_s.

      A headerless phone log with nanosecond time stamps in the first column (e.g. the Oxford step \
      dataset) is read as is; otherwise see --no-header, --time-column and --time-unit.
      """)

  @Argument(help: "The recording (CSV/TSV, WFDB record, EDF/EDF+, or - for CSV on stdin).")
  public var inputPath: String

  @Option(help: "Also write the step times as CSV (sample,time_s) to this file (- for standard output).")
  public var events: String?

  @Option(help: "Unit of the acceleration: automatic (from the gravity level), g or m/s^2.")
  public var unit: StepDetector.InputUnit = .automatic

  @Option(name: [.short, .customLong("output")], help: "Where to write the JSON (- for standard output).")
  public var output = "-"

  @OptionGroup public var input: InputOptions

  public init() {}

  public func validate() throws {
    if let channel = input.channel, ChannelSelector.list(channel).count != 3 {
      throw ValidationError("--channel must name the three axes x,y,z, got '\(channel)'")
    }
    if events == "-" && output == "-" {
      throw ValidationError("--events - and the JSON cannot both go to standard output; give -o FILE")
    }
  }

  public func run() throws {
    try exitingOneOnFileErrors {
      let detection = try StepCounting(path: inputPath, options: input.recordingOptions, unit: unit)
      try writeOutput(Data((detection.json() + "\n").utf8), to: output)
      if let events {
        try EventCSVWriter.write(
          samples: detection.output.steps.map(\.sampleIndex), sampleRate: detection.sampleRate, to: events)
      }
    }
  }
}

/// The steps and bouts the step detector finds in a recording's three acceleration axes.
struct StepCounting {
  var sampleRate: Double
  /// Record sample indices and times of the steps, and the bouts.
  var output: StepDetector.Output
  /// Absolute time of the record's first sample.
  var startTime: Timestamp

  /// Reads the recording at `path` and counts its steps. Throws ``InputError`` for unreadable input, for
  /// fewer than three signals and for a rate the detector does not support.
  init(
    path: String, options: RecordingOptions, unit: StepDetector.InputUnit,
    chunkSize: Int = SignalChunk.defaultSampleCount
  ) throws(InputError) {
    var reader = try RecordingOpener.open(path: path, options: options)
    let names = reader.signals.map(\.name)
    guard names.count >= 3 else {
      throw InputError(
        path: path, "step counting needs three acceleration axes, found \(names.count) signal(s)")
    }
    let axes = options.channels == nil ? Self.defaultAxes(names) : (0, 1, 2)
    var configuration = StepDetector.Configuration()
    configuration.unit = unit
    var detector: StepDetector
    do {
      detector = try StepDetector(
        sampleRate: reader.chunkSampleRate, startTime: reader.startTime, configuration: configuration)
    } catch {
      throw InputError(path: path, error.description)
    }
    var output = StepDetector.Output()
    while let chunk = try reader.nextChunk(maxSamples: chunkSize) {
      detector.process(chunk, axes: axes, into: &output)
    }
    detector.finish(into: &output)
    self.sampleRate = reader.chunkSampleRate
    self.output = output
    self.startTime = reader.startTime
  }

  /// The signals named acc_x, acc_y, acc_z (any case, also accx or x), else the first three whose names end
  /// in x, y and z, else the first three signals.
  static func defaultAxes(_ names: [String]) -> (Int, Int, Int) {
    let lower = names.map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
    func find(_ axis: String) -> Int? {
      lower.firstIndex { ["acc_\(axis)", "acc\(axis)", "accel_\(axis)", axis].contains($0) }
        ?? lower.firstIndex { $0.hasSuffix(axis) }
    }
    if let x = find("x"), let y = find("y"), let z = find("z"), Set([x, y, z]).count == 3 {
      return (x, y, z)
    }
    return (0, 1, 2)
  }

  /// The summary as one JSON object (see ``Steps``' discussion).
  func json() -> String {
    struct Bout: Encodable {
      var start_s: Double
      var end_s: Double
      var steps: Int
    }
    struct Document: Encodable {
      var steps: Int
      var walking_s: Double
      var cadence_spm: JSONNumber
      var bouts: [Bout]
    }
    let bouts = output.bouts
    let document = Document(
      steps: output.steps.count, walking_s: bouts.reduce(0) { $0 + $1.duration },
      cadence_spm: JSONNumber(bouts.overallCadence),
      bouts: bouts.map {
        Bout(
          start_s: Double($0.start.sampleIndex) / sampleRate, end_s: Double($0.end.sampleIndex) / sampleRate,
          steps: $0.steps)
      })
    return encodeJSON(document)
  }
}
