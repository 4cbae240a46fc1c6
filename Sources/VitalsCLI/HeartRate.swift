import ArgumentParser
import Vitals

/// `vitals hr INPUT --signal ppg|ecg [--window 8] [--step 2]`: heart rate per window.
public struct HeartRate: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "hr",
    abstract: "Heart rate per window, causal: one CSV row per window.",
    discussion: """
      Output: CSV with header window_start_s,window_end_s,bpm,quality: windows [j·step, j·step + window) \
      seconds from the first sample, j = 0, 1, … while the window ends within the record; each estimate \
      uses no signal after its window's end.

      PPG (default): the motion-robust spectral tracker (the PPG guide of the Vitals documentation): \
      the PPG channels given with --channel, else every signal named ppg… or pleth… (or containing PLETH), else the \
      recording's only signal that is not an accelerometer axis, unless it is an ECG lead; the \
      accelerometer axes given with --accel, else those `vitals analyze` recognizes (--accel's default), \
      subtracted from the PPG spectrum. Rates are searched in 36–210 BPM. Quality in 0–1 is the share of \
      the cleaned spectrum near the estimate, 0 when the pulse does not last through the window (a \
      transient such as one spike); below 0.3 the window is not reliable (the tracked rate is still given); an estimate on a strong accelerometer line has its quality halved (the pulse may be \
      locked to the cadence). Without accelerometer axes the quality is scaled by 0.75: motion cannot be \
      told from pulse. The rate must be at least 25 Hz.

      ECG: beats as `vitals beats` finds them; the rate is 60 / the mean RR interval of the beats inside the \
      window, intervals more than 20 % from the window's median left out; quality is the share of those \
      within, reliable from 0.8. A window with no usable signal, or whose median RR interval lies \
      outside 30–220 BPM, has bpm nan and quality 0.

      On stderr, a line with the share of reliable windows: `INPUT: K of N windows reliable (P %)`.
      """)

  @Argument(help: "The recording (WFDB record, EDF/EDF+, CSV/TSV, or - for CSV on stdin).")
  public var inputPath: String

  @Option(help: "The signal to take the heart rate from (ppg or ecg).")
  public var signal: BeatSignal = .ppg

  @Option(help: "Window length, \(optionRange(OptionRange.heartRateWindow)) s.")
  public var window = 8.0

  @Option(help: "Time between window starts, \(optionRange(OptionRange.heartRateStep)) s.")
  public var step = 2.0

  @OptionGroup public var input: InputOptions

  public init() {}

  public func validate() throws {
    try checkOption("--window", window, in: OptionRange.heartRateWindow, unit: "s")
    try checkOption("--step", step, in: OptionRange.heartRateStep, unit: "s")
    try input.checkRate(signal.supportedRates)
  }

  public func run() throws {
    try exitingOneOnFileErrors {
      let windows = try windows()
      try writeOutput(Array(HeartRateWindow.csv(windows).utf8), to: "-")
      printError(reliableShare(windows))
    }
  }

  /// `INPUT: K of N windows reliable (P %)`, P to 0.1.
  func reliableShare(_ windows: [HeartRateWindow]) -> String {
    let reliable = windows.count { $0.isReliable }
    let percent =
      windows.isEmpty ? "–" : "\((1000 * Double(reliable) / Double(windows.count)).rounded() / 10)"
    return "\(inputPath): \(reliable) of \(windows.count) windows reliable (\(percent) %)"
  }

  /// The windows of the input for the chosen signal.
  func windows() throws(InputError) -> [HeartRateWindow] {
    switch signal {
    case .ecg:
      let detection = try RecordingBeats(ecgPath: inputPath, options: input.recordingOptions)
      return BeatRateWindows.windows(
        beats: detection.beats, sampleRate: detection.sampleRate,
        duration: Double(detection.sampleCount) / detection.sampleRate, window: window, step: step,
        gaps: detection.gaps)
    case .ppg:
      var recording = try PPGRecording(
        path: inputPath, options: input.recordingOptions, accelerometer: input.accel.map(ChannelSelector.list)
      )
      var estimator: PPGHeartRateEstimator
      do {
        estimator = try Self.ppgEstimator(
          sampleRate: recording.sampleRate, ppgChannelCount: recording.ppg.count,
          axisCount: recording.axes.count, window: window, step: step)
      } catch {
        throw InputError(path: inputPath, error.description)
      }
      var windows: [HeartRateWindow] = []
      try recording.forEachChunk { ppg, axes in windows += estimator.process(ppg: ppg, acceleration: axes) }
      return windows
    }
  }

  /// The PPG heart-rate estimator `vitals hr --signal ppg` runs: for `ppgChannelCount` (at least one) PPG
  /// channels and `axisCount` accelerometer axes at `sampleRate` Hz, windows of `window` seconds every
  /// `step` seconds. Throws `PPGAnalysisError` for a rate or window outside the estimator's range.
  public static func ppgEstimator(
    sampleRate: Double, ppgChannelCount: Int, axisCount: Int, window: Double, step: Double
  ) throws(PPGAnalysisError) -> PPGHeartRateEstimator {
    var configuration = PPGHeartRateEstimator.Configuration()
    configuration.window = window
    configuration.step = step
    return try PPGHeartRateEstimator(
      sampleRate: sampleRate, ppgChannelCount: ppgChannelCount, accelerationAxisCount: axisCount,
      configuration: configuration)
  }
}
