// Counts the steps of the oxford-steps walks in the shared data folder and compares each total with the
// hand-counted truth and with the dataset's two counters; counts the Clemson trials' steps at the wrist,
// hip and ankle against the marked steps, with the step-timing F1 (Clemson.swift); counts simulated short
// walks, and walks there and back with a U-turn, at every placement against their heel strikes
// (SimulatedWalks.swift); then counts false steps in
// simulated non-walking activity (still, typing, vehicle, gestures, shaking) at every placement.
// With --cv, also chooses the start of a bout (stepsToStartBout, amplitudeRatio, weakStepAmplitude) by
// leaving one group of walks out (CrossValidation.swift). With --mobilise-d, counts only the Mobilise-D lab
// trials from outside the shared data (MobiliseD.swift).
//
// Usage: steps-eval [--data DIR] [--chunk N] [--minutes M] [--rate HZ] [--cv] [--mobilise-d DIR]
//                   [--set NAME=VALUE]…
//   --data     the shared data folder (default: ../shared/data beside the repository, or
//              $VITALS_SHARED_DATA)
//   --chunk    feed the detector in chunks of N samples (default: the reader's chunks)
//   --minutes  minutes of each simulated activity and placement (default 60; all of them are held in
//              memory, about 3 MB a minute)
//   --rate     the grid rate the walks' irregular time stamps are resampled to (default: measured)
//   --cv       also the leave-one-group-out cross-validation
//   --mobilise-d  only the Mobilise-D trials that scripts/eval/mobilise_d_steps.py wrote to DIR
//   --set NAME=VALUE  a detector option at every placement but the wrist (passbandLow, passbandHigh, threshold, refractoryPeriod,
//              stepsToStartBout, stepsToResumeBout, stepsToResumeWeakBout, resumeWindow, maximumStepInterval, strideRatioLow,
//              strideRatioHigh, continuationRatio, amplitudeRatio, ringingDecay, weakStepAmplitude,
//              stepsToStartWeakBout, maximumVibrationRatio); repeatable
//   --set-wrist NAME=VALUE  the same, for the wrist (the Clemson wrist and the simulated wrist)
//   --set-feet NAME=VALUE  a foot tracker option (alternationWeight, asymmetryTolerance, minimumAlternation)
import EvalSupport
import Foundation
import Vitals

struct Options {
  var data = sharedDataDirectory
  var chunk = SignalChunk.defaultSampleCount
  var minutes = 60.0
  var rate: Double?
  /// The detector at every placement but the wrist, and at the wrist.
  var configuration = StepDetector.Configuration()
  var wrist = StepDetector.Configuration(placement: .wrist)
  var crossValidate = false
  /// The folder of the Mobilise-D trials, when only they are counted.
  var mobiliseD: String?
  /// The foot tracker.
  var feet = StepFootTracker.Configuration()

  /// Options from `--name value` pairs and the `--cv` flag.
  init(arguments: [String]) {
    var words = Array(arguments.dropFirst())[...]
    while let name = words.popFirst() {
      if name == "--cv" {
        crossValidate = true
        continue
      }
      guard let value = words.popFirst() else { fatalError("\(name) takes a value") }
      switch name {
      case "--data": data = value
      case "--chunk": chunk = Int(value) ?? chunk
      case "--minutes": minutes = Double(value) ?? minutes
      case "--rate": rate = Double(value)
      case "--mobilise-d": mobiliseD = value
      case "--set": Self.set(value, in: &configuration)
      case "--set-wrist": Self.set(value, in: &wrist)
      case "--set-feet": Self.set(value, in: &feet)
      default: fatalError("unknown option \(name)")
      }
    }
  }

  static func set(_ assignment: String, in configuration: inout StepFootTracker.Configuration) {
    let parts = assignment.split(separator: "=")
    guard parts.count == 2, let value = Double(parts[1]) else { fatalError("--set-feet needs NAME=NUMBER") }
    switch parts[0] {
    case "alternationWeight": configuration.alternationWeight = value
    case "asymmetryTolerance": configuration.asymmetryTolerance = value
    case "minimumAlternation": configuration.minimumAlternation = value
    default: fatalError("unknown foot tracker option \(parts[0])")
    }
  }

  static func set(_ assignment: String, in configuration: inout StepDetector.Configuration) {
    let parts = assignment.split(separator: "=")
    guard parts.count == 2, let value = Double(parts[1]) else { fatalError("--set needs NAME=NUMBER") }
    var c = configuration
    switch parts[0] {
    case "passbandLow": c.passband = value...c.passband.upperBound
    case "passbandHigh": c.passband = c.passband.lowerBound...value
    case "threshold": c.threshold = value
    case "refractoryPeriod": c.refractoryPeriod = value
    case "stepsToStartBout": c.stepsToStartBout = Int(value)
    case "stepsToResumeBout": c.stepsToResumeBout = Int(value)
    case "stepsToResumeWeakBout": c.stepsToResumeWeakBout = Int(value)
    case "resumeWindow": c.resumeWindow = value
    case "maximumStepInterval": c.maximumStepInterval = value
    case "strideRatioLow": c.strideRatio = value...c.strideRatio.upperBound
    case "strideRatioHigh": c.strideRatio = c.strideRatio.lowerBound...value
    case "continuationRatio": c.continuationRatio = value
    case "amplitudeRatio": c.amplitudeRatio = value
    case "ringingDecay": c.ringingDecay = value
    case "weakStepAmplitude": c.weakStepAmplitude = value
    case "stepsToStartWeakBout": c.stepsToStartWeakBout = Int(value)
    case "maximumVibrationRatio": c.maximumVibrationRatio = value
    default: fatalError("unknown detector option \(parts[0])")
    }
    configuration = c
  }
}

/// Steps and bouts of one reader's first three channels, fed in chunks of `chunk` samples.
func countSteps(
  reader: inout some SignalReader & ~Copyable, configuration: StepDetector.Configuration, chunk: Int
) throws -> StepDetector.Output {
  var detector = try StepDetector(
    sampleRate: reader.chunkSampleRate, startTime: reader.startTime ?? .epoch, configuration: configuration)
  var output = StepDetector.Output()
  while let next = try reader.nextChunk(maxSamples: chunk) {
    detector.process(next, into: &output)
  }
  detector.finish(into: &output)
  return output
}

/// The last line's cumulative counts: (steps_algo, steps_truth, steps_hw).
func finalCounts(path: String) throws -> (algo: Int, truth: Int, hardware: Int) {
  let text = try String(contentsOfFile: path, encoding: .utf8)
  guard let line = text.split(whereSeparator: \.isNewline).last else { fatalError("\(path) is empty") }
  let fields = line.split(separator: ",").map { Int(Double($0) ?? .nan) }
  precondition(fields.count == 7, "\(path): expected 7 columns")
  return (fields[4], fields[5], fields[6])
}

/// A counted walk: its group (the unit the cross-validation leaves out), name, true and detected steps,
/// and what is printed beside them.
struct WalkResult {
  var group: String
  /// The detector's placement (``StepDetector/Placement``): wrist for the Clemson wrist, else body.
  var placement = StepDetector.Placement.body
  var name: String
  var truth: Int
  var detected: Int
  /// Oxford: cadence, bouts and the two counters' totals, as printed.
  var details = ""
  /// Where step times are known (Clemson, simulated and Mobilise-D walks): the step-timing F1.
  var f1: Double?
  var error: Double { percent(detected, truth) }
}

/// One Oxford walk (a phone log with its cumulative counts).
struct OxfordWalk {
  var name: String
  var path: String
  var counts: (algo: Int, truth: Int, hardware: Int)

  func count(configuration: StepDetector.Configuration, options: Options) throws -> WalkResult {
    var csv = CSVOptions(hasHeader: false, timeColumn: ChannelSelector("0"), timeUnit: .nanoseconds)
    csv.sampleRate = options.rate
    var reader = try RecordingOpener.open(path: path, options: RecordingOptions(csv: csv))
    let output = try countSteps(reader: &reader, configuration: configuration, chunk: options.chunk)
    var details =
      String(format: " %7.1f %6d %6d ", output.bouts.overallCadence, output.bouts.count, counts.algo)
      + pad(format(percent(counts.algo, counts.truth)), 8)
    if counts.hardware > 0 {
      details += String(format: " %5d ", counts.hardware) + format(percent(counts.hardware, counts.truth))
    } else {
      details += "     -        -"
    }
    return WalkResult(
      group: "oxford " + (name.split(separator: "_").first.map(String.init) ?? name), name: name,
      truth: counts.truth, detected: output.steps.count, details: details)
  }
}

extension OxfordWalk {
  /// The walk's step asymmetry (the Oxford walks mark no feet).
  func feet(
    configuration: StepDetector.Configuration, tracker: StepFootTracker.Configuration, options: Options
  )
    throws -> FootScore
  {
    var csv = CSVOptions(hasHeader: false, timeColumn: ChannelSelector("0"), timeUnit: .nanoseconds)
    csv.sampleRate = options.rate
    var reader = try RecordingOpener.open(path: path, options: RecordingOptions(csv: csv))
    var chunks: [SignalChunk] = []
    while let next = try reader.nextChunk(maxSamples: options.chunk) { chunks.append(next) }
    let output = try trackFeet(
      chunks: chunks, axes: (0, 1, 2), rate: reader.chunkSampleRate, detector: configuration, tracker: tracker
    )
    return FootScore(
      name: name, output: output, reference: [], isLeft: nil, rate: reader.chunkSampleRate,
      tolerance: tracker.asymmetryTolerance)
  }
}

/// The step-timing F1 of `detected` against `reference` (sample indices at `rate` Hz; SCORING.md: each
/// detection paired with at most one reference step within ±0.5 s, taken down to whole samples); 0 without
/// detections.
func stepTimingF1(reference: [Int64], detected: [Int64], rate: Double) -> Double {
  guard !detected.isEmpty else { return 0 }
  let window = Int64((ClemsonTrial.matchWindow * rate).rounded(.down))
  let pairs = BeatMatching(reference: reference, test: detected, window: window).pairs.count
  return 2 * Double(pairs) / Double(reference.count + detected.count)
}

/// A walk's true and detected steps, signed count error (%) and step-timing F1, as the tables print them.
func countColumns(_ walk: WalkResult) -> String {
  String(format: "%6d %6d %+8.1f %6.3f", walk.truth, walk.detected, walk.error, walk.f1 ?? .nan)
}

/// The mean absolute count error of `walks`, the worst walk's and their mean step-timing F1.
func countSummary(_ walks: [WalkResult]) -> String {
  String(
    format: "mean |error| %.1f %% (worst %.1f %%), mean F1 %.3f", meanAbsolute(walks.map(\.error)),
    walks.map { abs($0.error) }.max() ?? .nan, mean(walks.compactMap(\.f1)))
}

func percent(_ count: Int, _ truth: Int) -> Double { 100 * Double(count - truth) / Double(truth) }
func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%+.\(digits)f", value) }
func mean(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }
func meanAbsolute(_ values: [Double]) -> Double { mean(values.map(abs)) }

let options = Options(arguments: CommandLine.arguments)
if let directory = options.mobiliseD {
  if let (trials, skipped) = try loadMobiliseDTrials(directory: directory) {
    printMobiliseD(
      try trials.map { try $0.count(configuration: options.configuration, chunk: options.chunk) },
      skipped: skipped)
    printStepLengthModel(trials)
  }
  exit(0)
}
let folder = URL(fileURLWithPath: options.data).appendingPathComponent("oxford-steps")
let oxfordWalks = try ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
  .filter { $0.hasSuffix(".csv") }.sorted()
  .map { file in
    let path = folder.appendingPathComponent(file).path
    return OxfordWalk(
      name: file.split(separator: "_").prefix(2).joined(separator: "_"), path: path,
      counts: try finalCounts(path: path))
  }
let clemsonTrials = try loadClemsonTrials(
  directory: URL(fileURLWithPath: options.data).appendingPathComponent("clemson-steps").path)

/// Every shared walk counted with `body` (`wrist` at the Clemson wrist): the Oxford walks, then the Clemson
/// trials.
func countWalks(body: StepDetector.Configuration, wrist: StepDetector.Configuration) throws -> [WalkResult] {
  try oxfordWalks.map { try $0.count(configuration: body, options: options) }
    + clemsonTrials.flatMap { try $0.count(body: body, wrist: wrist, chunk: options.chunk) }
}

/// The simulated non-walking activities, `options.minutes` of each at every placement at 100 Hz, as chunks
/// (rows: placements; columns: activities): simulated once, counted with every setting.
let activities: [Activity] = [.still, .typing, .vehicle, .gestures, .shaking]
let activityRecordings: [[[SignalChunk]]] = Placement.allCases.enumerated().map { p, placement in
  activities.enumerated().map { a, activity in
    var simulator = AccelerometerSimulator(
      configuration: AccelerometerConfiguration(activity: activity, placement: placement),
      duration: options.minutes * 60, sampleRate: 100, seed: UInt64(100 * p + a + 1))
    var chunks: [SignalChunk] = []
    while let chunk = simulator.next(maxSamples: options.chunk) { chunks.append(chunk.signal) }
    return chunks
  }
}

/// False steps per minute in each simulated non-walking activity (rows: placements; columns: activities),
/// with `body`, or `wrist` at the wrist.
func falseStepRates(body: StepDetector.Configuration, wrist: StepDetector.Configuration) throws -> [[Double]]
{
  try zip(Placement.allCases, activityRecordings).map { placement, recordings in
    try recordings.map { chunks in
      var detector = try StepDetector(sampleRate: 100, configuration: placement == .wrist ? wrist : body)
      var output = StepDetector.Output()
      for chunk in chunks { detector.process(chunk, into: &output) }
      detector.finish(into: &output)
      return Double(output.steps.count) / options.minutes
    }
  }
}

let walks = try countWalks(body: options.configuration, wrist: options.wrist)
let oxford = walks.filter { $0.group.hasPrefix("oxford") }
if oxford.isEmpty {
  print("no oxford-steps walks in \(folder.path): walks skipped")
} else {
  print("walk                 truth  steps  error %  cadence  bouts   algo  error %    hw  error %")
  for walk in oxford {
    print(
      pad(walk.name, 20) + String(format: "%6d %6d ", walk.truth, walk.detected) + pad(format(walk.error), 8)
        + walk.details)
  }
  let algo = oxfordWalks.map { percent($0.counts.algo, $0.counts.truth) }
  let hardware = oxfordWalks.filter { $0.counts.hardware > 0 }.map {
    percent($0.counts.hardware, $0.counts.truth)
  }
  print(
    String(
      format:
        "MAPE %.2f %% (worst %.1f %%); steps_algo %.2f %% (worst %.1f %%); steps_hw %.2f %% over %d walks",
      meanAbsolute(oxford.map(\.error)), oxford.map { abs($0.error) }.max()!, meanAbsolute(algo),
      algo.map(abs).max()!, meanAbsolute(hardware), hardware.count))
}
printClemson(walks.filter { $0.group.hasPrefix("clemson") })
let simulatedWalks = try simulatedShortWalks(
  body: options.configuration, wrist: options.wrist, chunk: options.chunk)
printSimulatedWalks(simulatedWalks)
printTurnWalks(
  try simulatedTurnWalks(body: options.configuration, wrist: options.wrist, chunk: options.chunk))

let tracker = options.feet
printFeet(
  clemson: try clemsonTrials.flatMap {
    try $0.feet(body: options.configuration, wrist: options.wrist, tracker: tracker)
  },
  simulated: try [0, 0.1, 0.2].map {
    (
      $0,
      try simulatedFeet(asymmetry: $0, body: options.configuration, wrist: options.wrist, tracker: tracker)
    )
  },
  oxford: try oxfordWalks.map {
    try $0.feet(configuration: options.configuration, tracker: tracker, options: options)
  })

print("\nfalse steps per minute, \(options.minutes) min of each activity at 100 Hz")
print(pad("placement", 13) + activities.map { pad($0.rawValue, 9) }.joined())
let rates = try falseStepRates(body: options.configuration, wrist: options.wrist)
for (placement, row) in zip(Placement.allCases, rates) {
  print(pad(placement.rawValue, 13) + row.map { pad(String(format: "%.2f", $0), 9) }.joined())
}
print(String(format: "worst %.2f false steps/min", rates.joined().max()!))

if options.crossValidate {
  try crossValidate(body: options.configuration, wrist: options.wrist, defaults: walks + simulatedWalks)
  try crossValidateFeet(body: options.configuration, wrist: options.wrist, base: options.feet)
}
