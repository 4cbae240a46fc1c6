// Scores the PPG heart-rate estimator on the shared data folder (SCORING.md, "Heart rate from PPG"):
// - IEEE SPC 2015: mean absolute error (BPM) against the `_bpm.csv` truth per recording and over all
//   windows, and the time to read the 12 CSV files and estimate (one core);
// - wfdb-formats v102s and a103l: PPG (PLETH, no accelerometer) heart rate against the ECG heart rate of
//   the same record (the QRS detector's beats, same windows), over the windows where both are clean:
//   the PPG window reliable, and the ECG window's every interval regular (quality 1: no missed or extra
//   beat, which a noisy lead such as v102s's gives often), as SCORING.md compares "where both are clean".
//
// The SPC files have no time column: 125 Hz.
//
// Usage: ppg-eval [--data DIR] [--chunk N] [--no-accel] [--set NAME=VALUE]… [--windows]
//   --data     the shared data folder (default: ../shared/data beside the repository, or
//              $VITALS_SHARED_DATA)
//   --chunk    read and feed the recordings in chunks of N samples (default 16384)
//   --no-accel ignore the accelerometer columns
//   --set NAME=VALUE  an estimator option (motionSubtraction, transitionPenalty, maximumChange,
//              reliableQuality, rateLow, rateHigh); repeatable
//   --windows  also print every window (truth, estimate, quality)
//   --json FILE write the SPC results as peer-comparison rows (scripts/peers protocol)
import EvalSupport
import Foundation
import Vitals

struct Options {
  var data: String
  var chunk = SignalChunk.defaultSampleCount
  var useAccelerometer = true
  var listWindows = false
  var json: String?
  var configuration = PPGHeartRateEstimator.Configuration()

  init(arguments: [String]) {
    data = sharedDataDirectory
    var iterator = arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--no-accel":
        useAccelerometer = false
        continue
      case "--windows":
        listWindows = true
        continue
      default: break
      }
      guard let value = iterator.next() else { fatalError("\(argument) needs a value") }
      switch argument {
      case "--data": data = value
      case "--chunk": chunk = Int(value) ?? chunk
      case "--json": json = value
      case "--set": set(value)
      default: fatalError("unknown option \(argument)")
      }
    }
  }

  mutating func set(_ assignment: String) {
    let parts = assignment.split(separator: "=")
    guard parts.count == 2, let value = Double(parts[1]) else { fatalError("--set needs NAME=NUMBER") }
    switch parts[0] {
    case "motionSubtraction": configuration.motionSubtraction = value
    case "transitionPenalty": configuration.transitionPenalty = value
    case "maximumChange": configuration.maximumChange = value
    case "reliableQuality": configuration.reliableQuality = value
    case "rateLow": configuration.rateRange = value...configuration.rateRange.upperBound
    case "rateHigh": configuration.rateRange = configuration.rateRange.lowerBound...value
    default: fatalError("unknown estimator option \(parts[0])")
    }
  }
}

let options = Options(arguments: CommandLine.arguments)

/// Reads `path` in chunks and estimates its windows from the PPG channels (`ppg*` / `PLETH`) and, unless
/// turned off, the `acc*` axes. Returns the windows and the record's duration in seconds.
func estimate(path: String) throws -> (windows: [HeartRateWindow], duration: Double, samples: Int) {
  var reader = try RecordingOpener.open(
    path: path, options: RecordingOptions(csv: CSVOptions(sampleRate: 125)))
  let names = reader.signals.map { $0.name.lowercased() }
  let ppg = names.indices.filter { names[$0].hasPrefix("ppg") || names[$0].hasPrefix("pleth") }
  let axes = options.useAccelerometer ? names.indices.filter { names[$0].hasPrefix("acc") } : []
  var estimator = try PPGHeartRateEstimator(
    sampleRate: reader.chunkSampleRate, ppgChannelCount: ppg.count, accelerationAxisCount: axes.count,
    configuration: options.configuration)
  var windows: [HeartRateWindow] = []
  var samples = 0
  while let chunk = try reader.nextChunk(maxSamples: options.chunk) {
    windows += estimator.process(
      ppg: ppg.map { chunk.channels[$0] }, acceleration: axes.map { chunk.channels[$0] })
    samples += chunk.sampleCount
  }
  return (windows, Double(samples) / reader.chunkSampleRate, samples)
}

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

/// User + system CPU seconds of this process (robust on a shared, loaded machine, unlike wall time).
func cpuSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
}

func mean(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }

// IEEE SPC 2015.
let spc = options.data + "/ieee-spc2015"
let files = try FileManager.default.contentsOfDirectory(atPath: spc)
  .filter { $0.hasSuffix(".csv") && !$0.hasSuffix("_bpm.csv") }.sorted()
var allErrors: [Double] = []
var reliableErrors: [Double] = []
var unreliableErrors: [Double] = []
var perRecording: [(String, Double)] = []
var totalSamples = 0
var totalDuration = 0.0
let clock = ContinuousClock.now
let cpuStart = cpuSeconds()
var results: [(String, [HeartRateWindow])] = []
for file in files {
  let (windows, duration, samples) = try estimate(path: spc + "/" + file)
  results.append((file, windows))
  totalSamples += samples
  totalDuration += duration
}
let elapsed = seconds(ContinuousClock.now - clock)
let cpu = cpuSeconds() - cpuStart
print("IEEE SPC 2015: \(files.count) recordings, mean absolute error against the ECG truth, BPM")
print("recording            windows   MAE  reliable  MAE(reliable)")
for (file, windows) in results {
  let truthText = try String(
    contentsOfFile: spc + "/" + file.replacingOccurrences(of: ".csv", with: "_bpm.csv"), encoding: .utf8)
  let truth = truthText.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
    line.split(separator: ",").last.flatMap { Double($0) }
  }
  let count = min(truth.count, windows.count)
  var errors: [Double] = []
  var reliable: [Double] = []
  for j in 0..<count {
    let error = abs(windows[j].beatsPerMinute - truth[j])
    errors.append(error)
    if windows[j].isReliable { reliable.append(error) } else { unreliableErrors.append(error) }
    if options.listWindows {
      print(
        String(
          format: "  %6.0f %7.1f %7.1f %5.2f%@", windows[j].startTime, truth[j], windows[j].beatsPerMinute,
          windows[j].quality, windows[j].isReliable ? "" : " unreliable"))
    }
  }
  if truth.count != windows.count { print("  \(file): \(truth.count) truth rows, \(windows.count) windows") }
  allErrors += errors
  reliableErrors += reliable
  perRecording.append((file, mean(errors)))
  print(
    String(
      format: "%-20@ %7d %6.2f %6.0f%% %10.2f", file, count, mean(errors),
      100 * Double(reliable.count) / Double(max(count, 1)), mean(reliable)))
}
let overall = mean(allErrors)
print(
  String(
    format: "all windows          %7d %6.2f %6.0f%% %10.2f   (unreliable windows: MAE %.2f)", allErrors.count,
    overall, 100 * Double(reliableErrors.count) / Double(max(allErrors.count, 1)), mean(reliableErrors),
    mean(unreliableErrors)))
print(
  String(
    format:
      "worst recording %.2f BPM; read + estimate: %.3f s CPU (%.3f s wall) for %.0f s of signal, %.2f M frames/s",
    perRecording.map(\.1).max() ?? .nan, cpu, elapsed, totalDuration, Double(totalSamples) / cpu / 1e6))

if let json = options.json {
  let row: [String: Any] = [
    "stage": "ppg-hr", "tool": "vitals", "dataset": "ieee-spc2015",
    "work": "\(files.count) recordings, \(Int(totalDuration)) s", "seconds": cpu,
    "throughput": totalDuration / cpu, "throughput_unit": "s of signal/s",
    "accuracy": ["mae_bpm": overall, "worst_recording_mae_bpm": perRecording.map(\.1).max() ?? .nan],
  ]
  let data = try JSONSerialization.data(withJSONObject: [row], options: [.prettyPrinted, .sortedKeys])
  try data.write(to: URL(fileURLWithPath: json))
}

// PPG against ECG on the same record.
print("\nPPG (PLETH, no accelerometer) against ECG heart rate, windows where both are clean")
print("record  windows  compared  MAE   within 2 BPM")
for record in ["v102s", "a103l"] {
  let path = options.data + "/wfdb-formats/" + record
  var reader = try RecordingOpener.open(path: path)
  let names = reader.signals.map { $0.name.uppercased() }
  guard let ecg = names.firstIndex(of: "II"), let pleth = names.firstIndex(of: "PLETH") else { continue }
  var channels = Array(repeating: [Float](), count: names.count)
  while let chunk = try reader.nextChunk(maxSamples: options.chunk) {
    for k in channels.indices { channels[k] += chunk.channels[k] }
  }
  let rate = reader.chunkSampleRate
  var detector = try QRSDetector(sampleRate: rate)
  let beats = detector.process(channels[ecg])
  let duration = Double(channels[ecg].count) / rate
  let c = options.configuration
  let ecgWindows = BeatRateWindows.windows(
    beats: beats, sampleRate: rate, duration: duration, window: c.window, step: c.step)
  var estimator = try PPGHeartRateEstimator(sampleRate: rate, configuration: c)
  let ppgWindows = estimator.process(ppg: [channels[pleth]])
  var differences: [Double] = []
  for (p, e) in zip(ppgWindows, ecgWindows) {
    if options.listWindows {
      print(
        String(
          format: "  %6.0f ECG %7.1f %5.2f PPG %7.1f %5.2f", p.startTime, e.beatsPerMinute, e.quality,
          p.beatsPerMinute, p.quality))
    }
    if p.isReliable && e.isReliable && e.quality == 1 {
      differences.append(abs(p.beatsPerMinute - e.beatsPerMinute))
    }
  }
  print(
    String(
      format: "%-7@ %7d %9d %5.2f %8.0f%%   (max %.2f)", record, ppgWindows.count, differences.count,
      mean(differences), 100 * Double(differences.count { $0 <= 2 }) / Double(max(differences.count, 1)),
      differences.max() ?? .nan))
}
