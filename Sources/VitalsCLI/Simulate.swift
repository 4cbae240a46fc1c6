import ArgumentParser
import Vitals

extension Placement: ExpressibleByArgument {}
extension Activity: ExpressibleByArgument {}
extension AccelerationUnit: ExpressibleByArgument {}

/// `vitals simulate --signal ecg|ppg|acc --duration S --rate HZ -o FILE.csv`: a synthetic recording
/// with its ground truth, generated and written chunk by chunk (any duration in constant memory).
public struct Simulate: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "simulate",
    abstract: "Write a synthetic ECG, PPG or accelerometer recording as CSV, with its ground truth.",
    discussion: """
      FILE.csv: time_s, then one column per signal (ecg in mV; ppg or ppg1, ppg2 in arbitrary units, then \
      acc_x, acc_y, acc_z with --motion; acc_x, acc_y, acc_z in g or m/s^2). FILE.truth.csv: \
      sample,time_s,label,rate — one row per beat (label N, V or A; rate in bpm: 60 / the RR interval \
      ending there; for ECG the R peak, for PPG the systolic peak) or per step (label S, the exact \
      heel-strike time, rate in steps/min). The same --seed gives the same files; ECG and PPG made \
      with the same seed and rhythm options share their beats.
      """)

  /// The kinds of recording.
  public enum Signal: String, ExpressibleByArgument, Sendable, CaseIterable {
    case ecg, ppg, acc
  }

  /// Noise presets.
  public enum Noise: String, ExpressibleByArgument, Sendable, CaseIterable {
    /// No noise: the clean signal.
    case none
    /// The simulator's default (ECG: none; PPG: light white noise, drift and respiratory wander).
    case `default`
    /// Ambulatory quality: ECG white 0.02 mV, muscle 0.03 mV, drift 0.1 mV, respiratory wander 0.05 mV.
    case ambulatory
  }

  @Option(help: "The signal to simulate.")
  public var signal: Signal

  @Option(
    help:
      "Duration, \(optionRange(OptionRange.simulationDuration)) s (at most \(optionNumber(OptionRange.simulatedSamples)) samples per channel: duration × rate)."
  )
  public var duration: Double

  @Option(help: "Sample rate, \(optionRange(OptionRange.simulationRate)) Hz.")
  public var rate: Double

  @Option(
    name: [.short, .customLong("output")],
    help: "The CSV file to write; the truth goes to NAME.truth.csv beside it.")
  public var output: String

  @Option(help: "Random seed, 0–\(UInt64.max) (the same seed gives the same recording).")
  public var seed: UInt64 = 1

  @Option(
    help:
      "Mean heart rate, \(optionRange(OptionRange.heartRate)) bpm; with --heart-rate-end, the rate at the start of a linear ramp."
  )
  public var heartRate = 70.0

  @Option(
    help:
      "Heart rate at the end of the record, \(optionRange(OptionRange.heartRate)) bpm (a linear ramp from --heart-rate)."
  )
  public var heartRateEnd: Double?

  @Option(help: "Standard deviation of the sinus RR intervals (SDNN), \(optionRange(OptionRange.sdnn)) ms.")
  public var sdnn = 50.0

  @Option(help: "LF/HF power ratio of the RR variability, \(optionRange(OptionRange.lfHfRatio)).")
  public var lfHf = 0.5

  @Option(help: "Probability that a beat is a premature ventricular contraction (0–0.5).")
  public var pvc = 0.0

  @Option(help: "Probability that a beat is a premature atrial contraction (0–0.5).")
  public var pac = 0.0

  @Option(help: "Atrial fibrillation from START to END seconds, as START:END (repeatable).")
  public var afib: [String] = []

  @Option(help: "Noise: none, default or ambulatory.")
  public var noise = Noise.default

  @Option(
    help:
      "Amplitude of mains interference added to the ECG, \(optionRange(OptionRange.powerline)) mV (at --mains-frequency)."
  )
  public var powerline = 0.0

  @Option(help: "Mains frequency, \(optionRange(OptionRange.mainsFrequency)) Hz.")
  public var mainsFrequency = 50.0

  @Option(help: "Number of PPG channels (1 or 2).")
  public var ppgChannels = 1

  @Flag(help: "PPG: add the accelerometer (--activity, --placement, --cadence) and its motion artifacts.")
  public var motion = false

  @Option(help: "Accelerometer activity: \(Activity.allCases.map(\.rawValue).joined(separator: ", ")).")
  public var activity = Activity.walking

  @Option(help: "Where the device is worn: \(Placement.allCases.map(\.rawValue).joined(separator: ", ")).")
  public var placement = Placement.wrist

  @Option(
    help:
      "Walking or running cadence, \(optionRange(OptionRange.cadence)) steps/min (default 110 walking, 165 running)."
  )
  public var cadence: Double?

  @Option(help: "Accelerometer unit: g or m/s^2.")
  public var unit = AccelerationUnit.g

  @Option(help: "Samples per channel generated and written at a time, \(optionRange(OptionRange.chunkSize)).")
  public var chunkSize = SignalChunk.defaultSampleCount

  /// The command with its defaults (ArgumentParser fills the options).
  public init() {}

  /// `FILE.truth.csv` for `FILE.csv`.
  static func truthPath(for output: String) -> String {
    String(output.dropLast(4)) + ".truth.csv"
  }

  /// Writes the recording and its truth, chunk by chunk, each to a temporary file renamed into place
  /// when complete (simulate reads no input).
  public func run() throws {
    try exitingOneOnFileErrors {
      var simulator = try makeSimulator()
      let writer = try CSVSignalWriter(path: output, signalNames: simulator.channelNames)
      let truth = try BufferedOutput(path: Self.truthPath(for: output))
      try truth.write(Array("sample,time_s,label,rate\n".utf8))
      while let chunk = simulator.next(maxSamples: chunkSize) {
        try writer.write(chunk.signal)
        let rows = chunk.events.map { "\($0.sampleIndex),\($0.time),\($0.label.rawValue),\($0.rate)\n" }
          .joined()
        try truth.write(Array(rows.utf8))
      }
      try writer.close()
      try truth.close()
    }
  }
}
