import ArgumentParser
import Vitals

extension StepDetector.Placement: ExpressibleByArgument {}

extension StepDetector.InputUnit: ExpressibleByArgument {}

/// `vitals steps INPUT [--events FILE] [--unit automatic|g|m/s^2]`: steps, cadence and walking bouts.
public struct Steps: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "steps",
    abstract: "Count steps and find walking bouts in 3-axis acceleration.",
    discussion: """
      The step detector (acceleration magnitude, a 0.5–2.5 Hz band-pass, peaks counted only inside a \
      regular rhythm of at least 5 steps (6 with --placement wrist; 14 when their peaks are weak), or 4 \
      within 10 s of a walk, the steps just before it back-filled; Zhao 2010, Brajdic & Harle 2013) on \
      three axes: the ones given with --channel (x,y,z), else the accelerometer axes `vitals analyze` \
      recognizes (signals named x, y, z or acc…, or in g or m/s^2; else three names of one stem ending in \
      x, y, z; else, in a CSV file without a header with three to six columns besides the time, the first \
      three). Works \
      for any placement of the device at 15 Hz to 1 kHz; irregular CSV time stamps are resampled onto a \
      uniform grid. The unit (g or m/s²) is recognized from the gravity level unless --unit says it.

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

  @Option(help: "Where the device is worn: body (trunk, pocket, bag, hand, arm, ankle) or wrist (a watch).")
  public var placement: StepDetector.Placement = .body

  @Option(name: [.short, .customLong("output")], help: "Where to write the JSON (- for standard output).")
  public var output = "-"

  @OptionGroup public var input: InputOptions

  public init() {}

  public func validate() throws {
    try input.checkRate(.stepDetector)
    if let channel = input.channel, ChannelSelector.list(channel).count != 3 {
      throw ValidationError("--channel must name the three axes x,y,z, got '\(channel)'")
    }
    if events == "-" && output == "-" {
      throw ValidationError("--events - and the JSON cannot both go to standard output; give -o FILE")
    }
  }

  public func run() throws {
    try refuseOverwritingInputs(outputs: [output] + (events.map { [$0] } ?? []), inputs: [inputPath])
    try exitingOneOnFileErrors {
      let detection = try StepCounting(
        path: inputPath, options: input.recordingOptions, unit: unit, placement: placement)
      try writeOutput(Array((detection.json() + "\n").utf8), to: output)
      if let events {
        try EventCSVWriter.write(
          samples: detection.output.steps.map(\.sampleIndex), sampleRate: detection.sampleRate, to: events)
      }
    }
  }
}
