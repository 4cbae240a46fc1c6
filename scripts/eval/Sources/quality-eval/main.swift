// Validates ECGSignalQuality (pSQI) on the MIT-BIH records of the shared data folder, clean and with the
// noise-stress test's baseline wander (`bw`) and muscle artefact (`ma`) added at 12, 6, 0 and −6 dB SNR
// as WFDB `nst` adds them (NoiseStress.swift): it prints the share of each record marked unusable and the
// QRS detector's F1 (±150 ms) inside and outside the marked stretches. The power-ratio limit is chosen by
// leave-one-record-out cross-validation: per held-out record, the limit from a grid that maximizes, over
// the other records' 10-s windows (clean and noisy), the mean of the share of failed windows marked and
// the share of good windows left (a window has failed when its detection F1 is below 0.9); the CV line
// scores each record with the limit chosen without it, beside the all-data and the default limit.
//
// Usage: quality-eval [--data DIR] [--records 100,101]
import EvalSupport
import Foundation
import Vitals

var data = sharedDataDirectory
var only: Set<String>?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--data": data = arguments.next() ?? data
  case "--records": only = Set((arguments.next() ?? "").split(separator: ",").map(String.init))
  default: fatalError("unknown option \(argument)")
  }
}

let paced: Set<String> = ["102", "104", "107", "217"]
let mitdb = data + "/mitdb"
let names = try String(contentsOfFile: mitdb + "/RECORDS", encoding: .utf8)
  .split(whereSeparator: \.isNewline).map(String.init)
  .filter { !paced.contains($0) && (only?.contains($0) ?? true) }
let noises = try ["bw", "ma"].map { name in
  let reader = try WFDBRecordReader(path: data + "/nstdb-noise/" + name)
  return (name, try reader.readAll()!.channels[0])
}
let snrs: [Double] = [12, 6, 0, -6]

/// One test condition of one record: its 10-s windows, with the detection F1 in each.
struct Trial {
  var record: String
  var condition: String
  var windows: [ECGSignalQuality.Window]
  /// Reference beats, detections and matched pairs per window (same order as `windows`).
  var counts: [(reference: Int, detected: Int, matched: Int)]
}

/// Per window: reference beats, detections, and matched pairs whose reference beat lies in it.
func windowCounts(
  _ windows: [ECGSignalQuality.Window], reference: [Int64], detected: [Int64], sampleRate: Double
) -> [(reference: Int, detected: Int, matched: Int)] {
  let length = windows.first.map { $0.samples.count } ?? 1
  var counts = [(reference: Int, detected: Int, matched: Int)](repeating: (0, 0, 0), count: windows.count)
  func slot(_ sample: Int64) -> Int? {
    let index = Int(sample) / length
    return index < windows.count ? index : nil
  }
  for beat in reference { if let w = slot(beat) { counts[w].reference += 1 } }
  for beat in detected { if let w = slot(beat) { counts[w].detected += 1 } }
  let window = BeatComparison.windowSamples(BeatComparison.standardMatchWindow, sampleRate: sampleRate)
  for pair in BeatMatching(reference: reference, test: detected, window: window).pairs {
    if let w = slot(reference[pair.reference]) { counts[w].matched += 1 }
  }
  return counts
}

var trials: [Trial] = []
for name in names {
  let reader = try WFDBRecordReader(path: mitdb + "/" + name)
  let chunk = try reader.readAll()!
  let lead = try ChannelSelector.resolve(
    [.rule(RecordingBeats.ecgLeadRule)], names: reader.signals.map(\.name), path: mitdb + "/" + name)[0]
  let reference = try WFDBAnnotationFile.read(path: mitdb + "/" + name + ".atr").filter(\.isBeat).map(
    \.sample)
  let clean = chunk.channels[lead]
  var conditions = [("clean", clean)]
  for (noiseName, noise) in noises {
    for snr in snrs {
      let noisy = NoiseStress.added(
        noise, to: clean, beats: reference, sampleRate: chunk.sampleRate, snr: snr)
      conditions.append(("\(noiseName) \(Int(snr)) dB", noisy))
    }
  }
  for (condition, signal) in conditions {
    let windows = try ECGSignalQuality.windows(signal, sampleRate: chunk.sampleRate)
    let detected = try QRSDetector.detect(signal, sampleRate: chunk.sampleRate)
    trials.append(
      Trial(
        record: name, condition: condition, windows: windows,
        counts: windowCounts(windows, reference: reference, detected: detected, sampleRate: chunk.sampleRate))
    )
  }
}

func f1(_ c: (reference: Int, detected: Int, matched: Int)) -> Double {
  c.reference + c.detected == 0 ? 1 : 2 * Double(c.matched) / Double(c.reference + c.detected)
}
let failedF1 = 0.9
/// Mean of the share of failed windows below `limit` and the share of good windows at or above it.
func objective(_ limit: Double, _ selected: [Trial]) -> Double {
  var (failed, failedMarked, good, goodKept) = (0, 0, 0, 0)
  for trial in selected {
    for (window, count) in zip(trial.windows, trial.counts) {
      let marked = !(window.powerRatio >= limit)
      if f1(count) < failedF1 {
        failed += 1
        failedMarked += marked ? 1 : 0
      } else {
        good += 1
        goodKept += marked ? 0 : 1
      }
    }
  }
  return (Double(failedMarked) / Double(max(failed, 1)) + Double(goodKept) / Double(max(good, 1))) / 2
}
let limits = stride(from: 0.2, through: 0.8, by: 0.025).map { $0 }
func bestLimit(_ selected: [Trial]) -> Double {
  limits.max { objective($0, selected) < objective($1, selected) }!
}
let allDataLimit = bestLimit(trials)
var heldOutLimit: [String: Double] = [:]
for name in names { heldOutLimit[name] = bestLimit(trials.filter { $0.record != name }) }

/// Share of windows marked, and detection F1 inside and outside the marked windows, with `limit`.
func summary(_ selected: [Trial], limit: (String) -> Double) -> String {
  var inside = (reference: 0, detected: 0, matched: 0)
  var outside = inside
  var (marked, total) = (0, 0)
  for trial in selected {
    for (window, c) in zip(trial.windows, trial.counts) {
      total += 1
      if !(window.powerRatio >= limit(trial.record)) {
        marked += 1
        inside = (inside.reference + c.reference, inside.detected + c.detected, inside.matched + c.matched)
      } else {
        outside = (
          outside.reference + c.reference, outside.detected + c.detected, outside.matched + c.matched
        )
      }
    }
  }
  return String(
    format: "%6.1f %7.1f %7.1f", 100 * Double(marked) / Double(max(total, 1)), 100 * f1(inside),
    100 * f1(outside))
}

print("ECGSignalQuality (pSQI, 10-s windows) on \(names.count) non-paced MIT-BIH records, MLII")
print(
  "power-ratio limit: default \(ECGSignalQuality.Parameters().minimumPowerRatio), all-data choice \(allDataLimit), CV choices \(Set(heldOutLimit.values).sorted())"
)
print(
  "condition      | default: marked% F1in% F1out% | all-data: marked% F1in% F1out% | CV: marked% F1in% F1out%"
)
let conditions = ["clean"] + noises.flatMap { noise in snrs.map { "\(noise.0) \(Int($0)) dB" } }
for condition in conditions {
  let selected = trials.filter { $0.condition == condition }
  print(
    condition.padding(toLength: 14, withPad: " ", startingAt: 0) + " | "
      + summary(selected) { _ in ECGSignalQuality.Parameters().minimumPowerRatio } + "        | "
      + summary(selected) { _ in allDataLimit } + "         | " + summary(selected) { heldOutLimit[$0]! })
}
print("\nclean records, share marked with the default limit (records with any):")
for trial in trials where trial.condition == "clean" {
  let marked = trial.windows.count { !$0.isUsable }
  if marked > 0 { print("  \(trial.record): \(marked) of \(trial.windows.count) windows") }
}
