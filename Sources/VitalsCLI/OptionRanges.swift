import ArgumentParser
import Vitals

/// The accepted range of every numeric command-line option, in one place.
///
/// Each command's `validate()` checks its options against these before any work starts: a value
/// outside its range, NaN and the infinities included, is a usage error (exit 2) that names the option
/// and the range. Where a detector has its own supported range, the option takes that range (and the
/// message says whose it is).
///
/// The bounds keep every conversion of an option to samples or nanoseconds inside `Int64`: the longest
/// time an option can give (``longestTimeSpan``) at the highest signal rate (``signalRate``) is 10¹³
/// samples, and 10¹⁶ ns. They also bound the memory an option can ask for (see each constant); the
/// memory a recording needs is the readers' concern.
enum OptionRange {
  /// Samples per second of a signal, Hz: ``SignalChunk/supportedSampleRates``, 1 Hz to 1 MHz.
  static let signalRate = SignalChunk.supportedSampleRates

  /// The longest duration or time offset an option may give, seconds: 10⁷ s (about 116 days, longer
  /// than any ambulatory recording).
  static let longestTimeSpan = 10_000_000.0

  /// A time offset into a record (`score --skip`), seconds.
  static let timeOffset: ClosedRange<Double> = 0...longestTimeSpan

  /// Heart rates, beats per minute: the rhythm simulator's range (an RR interval of 0.24–3 s), and the
  /// range of the `analyze` event thresholds.
  static let heartRate: ClosedRange<Double> = 20...250

  /// `hr --window`, seconds: the PPG heart-rate estimator's range, used for ECG windows alike.
  static let heartRateWindow: ClosedRange<Double> = 2...60

  /// `hr --step`, seconds: the PPG heart-rate estimator's range, used for ECG windows alike.
  static let heartRateStep: ClosedRange<Double> = 0.1...60

  /// `score --window`, seconds: a beat is matched at most 1 s away (EC57's window is 0.15 s; at 1 s a
  /// detection can already be closer to a neighboring beat at any heart rate above 60 bpm).
  static let matchWindow: ClosedRange<Double> = 0...1

  /// `hrv --interpolation-rate`, Hz: at least twice the top of the VHF band (0.5 Hz), at most 100 Hz
  /// (NeuroKit2's `hrv_frequency` default). The tachogram holds this many 8-byte values per second of beats:
  /// 69 MB for 24 hours at 100 Hz.
  static let interpolationRate: ClosedRange<Double> = 1...100

  /// Samples per channel read or generated at a time (`--chunk-size`): at most 2²⁰, 4 MiB of `Float`
  /// per channel.
  static let chunkSize: ClosedRange<Int> = 1...(1 << 20)

  /// `analyze --jobs`: recordings analyzed at once, each with its own reader and pipelines.
  static let jobs: ClosedRange<Int> = 1...256

  /// `stream --channels`: samples per frame. The live analysis buffers at least 4 096 frames, 16 MiB at
  /// 1 024 channels.
  static let streamChannels: ClosedRange<Int> = 1...1024

  /// `analyze --shard I/N`: shards of the inputs.
  static let shards: ClosedRange<Int> = 1...100_000

  /// `analyze --event-minutes`: consecutive minutes, at most a day.
  static let eventMinutes: ClosedRange<Int> = 1...1440

  /// `report --excerpt`, seconds of signal per excerpt.
  static let excerpt: ClosedRange<Double> = 0.1...120

  /// `simulate --rate`, Hz.
  static let simulationRate: ClosedRange<Double> = 1...100_000

  /// `simulate --duration`, seconds.
  static let simulationDuration: ClosedRange<Double> = 0...longestTimeSpan

  /// `simulate`: the largest --duration × --rate, samples per channel: 10¹⁰ (24 hours at 100 kHz; about
  /// 200 GB of CSV). The simulator streams: its memory is one chunk and a beat's look-ahead, whatever
  /// the length.
  static let simulatedSamples = 10_000_000_000.0

  /// `simulate --sdnn`, milliseconds: the standard deviation of sinus RR intervals.
  static let sdnn: ClosedRange<Double> = 0...300

  /// `simulate --lf-hf`: the LF/HF power ratio of the RR variability.
  static let lfHfRatio: ClosedRange<Double> = 0...100

  /// `simulate --pvc` and `--pac`, each and together: probabilities that a beat is ectopic (the rhythm
  /// simulator's range).
  static let ectopicProbability: ClosedRange<Double> = 0...0.5

  /// `simulate --powerline`, mV of mains interference.
  static let powerline: ClosedRange<Double> = 0...10

  /// `simulate --mains-frequency`, Hz.
  static let mainsFrequency: ClosedRange<Double> = 1...1000

  /// `simulate --cadence`, steps per minute.
  static let cadence: ClosedRange<Double> = 1...300

  /// `simulate --ppg-channels`.
  static let ppgChannels: ClosedRange<Int> = 1...2

  /// `stats --interval` in calendar days (`day`, `2day`): up to ten years.
  static let calendarDays: ClosedRange<Int> = 1...3650
  /// `stats --interval` in calendar weeks: up to ten years.
  static let calendarWeeks: ClosedRange<Int> = 1...520
  /// `stats --interval` in calendar months: up to ten years.
  static let calendarMonths: ClosedRange<Int> = 1...120
  /// `stats --interval` of fixed length (`30s`, `15min`, `24h`), seconds: 1 ms (the smallest unit it
  /// names) to ten years.
  static let fixedInterval: ClosedRange<Double> = 0.001...(3650 * 86_400)

  /// `stats`: the most intervals a table may have, however long the samples' span: 10⁶ (about two
  /// years of minutes), a few hundred bytes each.
  static let statisticsIntervals = 1_000_000.0
}

/// Throws a ``ValidationError`` naming `option` and `range` (with `unit` and, when given, whose range
/// it is) unless `range` holds `value`; NaN is in no range.
func checkOption<Bound: Comparable>(
  _ option: String, _ value: Bound, in range: ClosedRange<Bound>, unit: String = "", source: String? = nil
) throws(ValidationError) {
  guard !range.contains(value) else { return }
  let bounds = optionRange(range)
  let units = unit.isEmpty ? "" : " " + unit
  let owner = source.map { " (\($0))" } ?? ""
  throw ValidationError("\(option) must be \(bounds)\(units)\(owner), got \(optionNumber(value))")
}

/// `range` as help texts and messages show it: `1–1000000`.
func optionRange<Bound>(_ range: ClosedRange<Bound>) -> String {
  "\(optionNumber(range.lowerBound))–\(optionNumber(range.upperBound))"
}

/// A bound or value as a message shows it: whole numbers without a fraction (`100`, not `100.0`).
func optionNumber<Value>(_ value: Value) -> String {
  if let double = value as? Double, double == double.rounded(), abs(double) < 1e15 {
    return String(Int64(double))
  }
  return "\(value)"
}

/// The sample rates a detector or pipeline accepts, and whose range it is.
public struct SupportedRates: Sendable {
  var range: ClosedRange<Double>
  var source: String

  /// The QRS detector's rates (``QRSDetector/supportedSampleRates``).
  public static let qrsDetector = SupportedRates(
    range: QRSDetector.supportedSampleRates, source: "the QRS detector's supported rates")
  /// The PPG estimators' rates: from ``PPGHeartRateEstimator/minimumSampleRate`` to the signal limit.
  public static let ppgAnalysis = SupportedRates(
    range: PPGHeartRateEstimator.minimumSampleRate...OptionRange.signalRate.upperBound,
    source: "the PPG analysis's supported rates")
  /// The ECG classifier's rates (``ElectrocardiogramClassifier/supportedSampleRates``).
  public static let electrocardiogramClassifier = SupportedRates(
    range: ElectrocardiogramClassifier.supportedSampleRates, source: "the ECG classifier's supported rates")
  /// The step detector's rates (``StepDetector/supportedSampleRates``).
  public static let stepDetector = SupportedRates(
    range: StepDetector.supportedSampleRates, source: "the step detector's supported rates")
  /// Any signal (``OptionRange/signalRate``).
  public static let signal = SupportedRates(range: OptionRange.signalRate, source: "the range of any signal")

  /// The rates the pipeline of `kind` runs at.
  static func pipeline(_ kind: SignalKind) -> SupportedRates {
    switch kind {
    case .ecg: .qrsDetector
    case .ppg: .ppgAnalysis
    case .accelerometer: .stepDetector
    }
  }

  /// Throws a `ValidationError` naming `option` and the range unless it holds `rate` (Hz); NaN is in
  /// no range.
  public func check(_ option: String, _ rate: Double) throws(ValidationError) {
    try checkOption(option, rate, in: range, unit: "Hz", source: source)
  }
}

extension BeatSignal {
  /// The rates the beat detector of this signal accepts.
  var supportedRates: SupportedRates { self == .ecg ? .qrsDetector : .ppgAnalysis }
}
