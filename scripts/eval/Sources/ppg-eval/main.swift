// Scores the PPG heart-rate estimator on the shared data folder (SCORING.md, "Heart rate from PPG"):
// - IEEE SPC 2015 (125 Hz) and BAMI-1 (bami-ppg, 50 Hz, raw accelerometer counts): absolute error (BPM)
//   against the `_bpm.csv` truth per recording and over all windows, the share of windows flagged reliable
//   and the error on reliable and unreliable ones, the dataset authors' CNN-LSTM on its windows where
//   published, and the CPU time to read and estimate (one core);
// - wfdb-formats v102s and a103l: PPG (PLETH, no accelerometer) heart rate against the ECG heart rate of
//   the same record (the QRS detector's beats, same windows), over the windows where both are clean:
//   the PPG window reliable, and the ECG window's every interval regular (quality 1: no missed or extra
//   beat, which a noisy lead such as v102s's gives often), as SCORING.md compares "where both are clean";
//   and the pulse-rate variability of `vitals analyze` (clean stretches only) against the HRV of the
//   ECG's beats over the same stretches (SDNN, RMSSD, ms).
//
// The SPC files have no time column: 125 Hz.
//
// Usage: ppg-eval [--data DIR] [--chunk N] [--no-accel] [--set NAME=VALUE]… [--windows]
//   --data     the shared data folder (default: ../shared/data beside the repository, or
//              $VITALS_SHARED_DATA)
//   --chunk    read and feed the recordings in chunks of N samples (default 16384)
//   --no-accel ignore the accelerometer columns
//   --set NAME=VALUE  an estimator option (motionSubtraction, motionLineEvidence, locomotionRateFloor,
//              transitionPenalty, maximumChange, reliableQuality, rateLow, rateHigh); repeatable
//   --windows  also print every window (truth, estimate, quality)
//   --cv       also choose motionLineEvidence, locomotionRateFloor, transitionPenalty and maximumChange by
//              leave-one-recording-out
//              cross-validation over both sets (CrossValidation.swift)
//   --json FILE write the SPC results as peer-comparison rows (scripts/peers protocol)
import EvalSupport
import Foundation
import Vitals

struct Options {
  var data: String
  var chunk = SignalChunk.defaultSampleCount
  var useAccelerometer = true
  var listWindows = false
  var crossValidate = false
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
      case "--cv":
        crossValidate = true
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
    case "motionLineEvidence": configuration.motionLineEvidence = value
    case "locomotionRateFloor": configuration.locomotionRateFloor = value
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

/// User + system CPU seconds of this process (robust on a shared, loaded machine, unlike wall time).
func cpuSeconds() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
    + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6
}

/// Scores every recording of `set` with the options' configuration and prints a line per recording and
/// one for the set; returns the set's recordings and the CPU seconds and frames of the estimation.
func evaluate(_ set: PPGSet) throws -> (
  recordings: [PPGRecording], scores: [RecordingScore], cpu: Double, frames: Int
) {
  let recordings = try set.recordings.map { try PPGRecording(set: set, name: $0) }
  var cpu = 0.0
  var frames = 0
  var scores: [RecordingScore] = []
  for recording in recordings {
    let start = cpuSeconds()
    let (windows, read) = try estimate(
      recording, configuration: options.configuration, chunk: options.chunk,
      useAccelerometer: options.useAccelerometer)
    cpu += cpuSeconds() - start
    frames += read
    scores.append(RecordingScore(windows, against: recording))
    if options.listWindows {
      for window in windows {
        let truth = recording.truth[Int(window.startTime.rounded())] ?? .nan
        print(
          String(
            format: "  %6.0f %7.1f %7.1f %5.2f%@", window.startTime, truth, window.beatsPerMinute,
            window.quality, window.isReliable ? "" : " unreliable"))
      }
    }
  }
  let hasCNN = recordings.contains { $0.cnnLSTM != nil }
  print(
    "\(set.name): \(recordings.count) recordings at \(Int(set.sampleRate)) Hz, absolute error against the ECG"
      + " truth, BPM")
  print(
    "recording            windows   MAE  reliable  MAE(rel)  MAE(unrel)"
      + (hasCNN ? "  CNN-LSTM  Vitals on its windows" : ""))
  func line(_ name: String, _ s: [RecordingScore]) -> String {
    let errors = s.flatMap(\.errors)
    let reliable = s.flatMap(\.reliableErrors)
    var text = String(
      format: "%@ %7d %6.2f %7.0f%% %8.2f %10.2f", name.padding(toLength: 20, withPad: " ", startingAt: 0),
      errors.count, mean(errors),
      100 * Double(reliable.count) / Double(max(errors.count, 1)), mean(reliable),
      mean(s.flatMap(\.unreliableErrors)))
    if hasCNN {
      text += String(
        format: " %9.2f %10.2f", mean(s.flatMap(\.cnnLSTMErrors)), mean(s.flatMap(\.errorsWhereCNNLSTM)))
    }
    return text
  }
  for (recording, score) in zip(recordings, scores) { print(line(recording.name, [score])) }
  print(line("all windows", scores))
  let worst = scores.map(\.meanError).max() ?? .nan
  let ratio = mean(scores.flatMap(\.unreliableErrors)) / mean(scores.flatMap(\.reliableErrors))
  print(
    String(
      format: "mean of recordings %.2f, worst recording %.2f BPM; unreliable/reliable MAE %.1f×;"
        + " estimate: %.3f s CPU, %.2f M frames/s\n", mean(scores.map(\.meanError)), worst, ratio, cpu,
      Double(frames) / cpu / 1e6))
  return (recordings, scores, cpu, frames)
}

let sets = [
  try PPGSet(name: "ieee-spc2015", directory: options.data + "/ieee-spc2015", sampleRate: 125),
  try PPGSet(name: "bami-ppg", directory: options.data + "/bami-ppg", sampleRate: 50),
]
var everyRecording: [PPGRecording] = []
for set in sets {
  let result = try evaluate(set)
  everyRecording += result.recordings
  if set.name == "ieee-spc2015", let json = options.json {
    let seconds = Double(result.frames) / set.sampleRate
    let row: [String: Any] = [
      "stage": "ppg-hr", "tool": "vitals", "dataset": set.name,
      "work": "\(result.recordings.count) recordings, \(Int(seconds)) s", "seconds": result.cpu,
      "throughput": seconds / result.cpu, "throughput_unit": "s of signal/s",
      "accuracy": [
        "mae_bpm": mean(result.scores.flatMap(\.errors)),
        "worst_recording_mae_bpm": result.scores.map(\.meanError).max() ?? .nan,
      ],
    ]
    let data = try JSONSerialization.data(withJSONObject: [row], options: [.prettyPrinted, .sortedKeys])
    try data.write(to: URL(fileURLWithPath: json))
  }
}
if options.crossValidate {
  try crossValidate(
    everyRecording, base: options.configuration, chunk: options.chunk,
    useAccelerometer: options.useAccelerometer)
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

// Pulse-rate variability against ECG HRV over the same clean stretches.
print("\nPRV (PPG section of vitals analyze, clean stretches) against ECG HRV of the same stretches, ms")
print("record  clean s  PPG NN  ECG NN  SDNN PPG  SDNN ECG  RMSSD PPG  RMSSD ECG")
for record in ["v102s", "a103l"] {
  let analysis = try RecordingAnalyzer.analyze(path: options.data + "/wfdb-formats/" + record)
  guard let ppg = analysis.section(PPGSection.self), let ecg = analysis.section(ECGSection.self) else {
    continue
  }
  let heart = VariabilitySummary(
    beats: ecg.beats, sampleRate: analysis.sampleRate, gaps: ppg.uncleanStretches)
  let pulse = ppg.variability
  let clean = Double(ppg.cleanStretches.reduce(0) { $0 + $1.count }) / analysis.sampleRate
  print(
    String(
      format: "%-7@ %7.0f %7d %7d %9.1f %9.1f %10.1f %10.1f", record, clean, pulse.intervals.count,
      heart.intervals.count, pulse.time.sdnn, heart.time.sdnn, pulse.time.rmssd, heart.time.rmssd))
}
