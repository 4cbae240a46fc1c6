import ArgumentParser
import Vitals

extension StreamSampleFormat: ExpressibleByArgument {}
extension SignalKind: ExpressibleByArgument {}

/// `vitals stream --rate HZ [--signal ecg|ppg|accelerometer …] [--format csv|f32|i16] [--channels N] [--lead K]
/// [--axes X,Y,Z]`: live events.
public struct StreamCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "stream",
    abstract: "Analyze samples arriving on standard input; write events and metrics as JSON Lines.",
    discussion: """
      Input: --format csv (lines of N fields separated by commas, semicolons or tabs, or else spaces, each \
      read as a CSV file's field: a number with a '.', NaN for an empty field and nan/na/n/a/null, \
      inf, hexadecimal floats; a header line is skipped), f32 or i16 (raw little-endian Float32 / Int16 frames of N interleaved channels). \
      --signal ecg (the default) reads the ECG from channel --lead of each frame, --signal ppg the PPG \
      from channel --lead; --signal accelerometer reads the x, y, z axes from channels --axes (default: \
      the last three channels of the frame). Several may be given: --signal ecg --signal accelerometer, or \
      --signal ppg --signal accelerometer (the PPG heart rate then subtracts the motion spectrum).

      Output, one JSON object per line, flushed as it is decided: {"type":"beat","sample":…,"time_s":…} \
      at most 0.49 s of signal after each R peak (the same beats as `vitals analyze` finds in the same \
      samples); {"type":"heart_rate","bpm":…} every second; {"type":"hrv","SDNN":…,"RMSSD":…,"MeanNN":…, \
      "MeanHR":…,"window_s":300} every minute over the last 5 minutes; {"type":"irregular_rhythm_start"} \
      and {"type":"irregular_rhythm_end","duration_s":…} once decided (about a minute after the change); \
      PPG: {"type":"beat","signal":"ppg"} per systolic peak (the pulses `vitals analyze` finds) and \
      {"type":"heart_rate","bpm":…,"quality":…,"reliable":1|0} per 8 s window every 2 s. \
      {"type":"step"} about 0.5 s after each step's peak inside a walking bout (the first steps of a bout \
      once it is recognized, up to 15 s later; the same steps as `vitals analyze`); \
      {"type":"walking_bout","steps":…,"duration_s":…,"cadence_spm":…} at each bout's first step once it \
      has ended; {"type":"motion","g":…,"window_s":10} per 10 s window (standard deviation of the \
      acceleration magnitude). At the end of input one {"type":"summary","ecg":{…},"ppg":{…},"steps":{…}} \
      line (ECG and PPG variability over the last 5 minutes; steps, walking time and cadence of the whole \
      stream). Every \
      time_s counts from the first sample. Memory stays constant over an unbounded stream.
      """)

  @Option(help: "A signal on the stream: ecg, ppg or accelerometer (repeatable).")
  public var signal: [SignalKind] = [.ecg]

  @Option(
    help:
      "Samples per second per channel (the pipelines' rates: ECG \(optionRange(SupportedRates.qrsDetector.range)) Hz, PPG \(optionRange(SupportedRates.ppgAnalysis.range)) Hz, accelerometer \(optionRange(SupportedRates.stepDetector.range)) Hz)."
  )
  public var rate: Double

  @Option(help: "Sample format: csv, f32 or i16.")
  public var format: StreamSampleFormat = .csv

  @Option(help: "Channels per frame, \(optionRange(OptionRange.streamChannels)).")
  public var channels = 1

  @Option(help: "The 0-based channel of each frame that holds the ECG (or PPG).")
  public var lead = 0

  @Option(
    help: "The 0-based channels of the accelerometer's x, y and z axes, X,Y,Z (default: the last three).")
  public var axes: String?

  public init() {}

  public func validate() throws {
    for kind in signal { try SupportedRates.pipeline(kind).check("--rate", rate) }
    try checkOption("--channels", channels, in: OptionRange.streamChannels)
    try checkOption("--lead", lead, in: 0...(channels - 1), source: "below --channels")
    guard Set(signal).count == signal.count else { throw ValidationError("--signal names a kind twice") }
    guard !(signal.contains(.ecg) && signal.contains(.ppg)) else {
      throw ValidationError("--signal ecg and --signal ppg would both read channel --lead; give one of them")
    }
    if signal.contains(.accelerometer) {
      let axes = accelerometerAxes
      guard axes.count == 3, Set(axes).count == 3, axes.allSatisfy((0..<channels).contains) else {
        throw ValidationError("--axes must name three distinct channels below --channels")
      }
    }
  }

  /// The accelerometer axes: --axes, else the last three channels of the frame.
  var accelerometerAxes: [Int] {
    if let axes {
      return axes.split(separator: ",").map { field in
        Int(String(field.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())) ?? -1
      }
    }
    return Array((0..<channels).suffix(3))
  }

  /// The live analysis these options ask for; a rate a pipeline cannot take is a usage error.
  func liveAnalysis() throws -> LiveAnalysis {
    do {
      return try LiveAnalysis(
        signals: signal.map { ($0, $0 == .accelerometer ? accelerometerAxes : [lead]) }, sampleRate: rate,
        format: format, channelCount: channels)
    } catch {
      throw ValidationError("--rate \(rate): \(error.reason)")
    }
  }

  public func run() throws {
    try exitingOneOnFileErrors {
      try stream { StandardStream.output.write($0 + "\n") }
    }
  }

  /// Reads the file descriptor `descriptor` (standard input by default) to its end, writing each output
  /// line through `write` as soon as it is decided.
  func stream(from descriptor: Int32 = 0, write: (String) -> Void) throws {
    var analysis = try liveAnalysis()
    try StandardStream.readInput(descriptor: descriptor) { bytes in
      try analysis.consume(bytes) { write($0.jsonLine()) }
    }
    let sections = try analysis.finish { write($0.jsonLine()) }
    let fields = sections.sorted { $0.kind.sectionName < $1.kind.sectionName }.map {
      "\"\($0.kind.sectionName)\":\(compactJSON($0.section))"
    }
    write("{" + fields.joined(separator: ",") + ",\"type\":\"summary\"}")
  }
}
