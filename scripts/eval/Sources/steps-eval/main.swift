// Counts the steps of the oxford-steps walks in the shared data folder and compares each total with the
// hand-counted truth and with the dataset's two counters; counts the Clemson trials' steps at the wrist,
// hip and ankle against the marked steps, with the step-timing F1 (Clemson.swift); then counts false
// steps in simulated non-walking activity (still, typing, vehicle, gestures, shaking) at every placement.
//
// Usage: steps-eval [--data DIR] [--chunk N] [--minutes M] [--rate HZ] [--set NAME=VALUE]…
//   --data     the shared data folder (default: ../shared/data beside the repository, or
//              $VITALS_SHARED_DATA)
//   --chunk    feed the detector in chunks of N samples (default: the reader's chunks)
//   --minutes  minutes of each simulated activity and placement (default 10)
//   --rate     the grid rate the walks' irregular time stamps are resampled to (default: measured)
//   --set NAME=VALUE  a detector option (passbandLow, passbandHigh, threshold, refractoryPeriod,
//              stepsToStartBout, stepsToResumeBout, resumeWindow, maximumStepInterval, strideRatioLow,
//              strideRatioHigh, continuationRatio, amplitudeRatio, maximumVibrationRatio); repeatable
import EvalSupport
import Foundation
import Vitals

struct Options {
  var data = sharedDataDirectory
  var chunk = SignalChunk.defaultSampleCount
  var minutes = 10.0
  var rate: Double?
  var configuration = StepDetector.Configuration()

  /// Options from `--name value` pairs.
  init(arguments: [String]) {
    let words = Array(arguments.dropFirst())
    guard words.count % 2 == 0 else { fatalError("every option takes a value: \(words)") }
    for i in stride(from: 0, to: words.count, by: 2) {
      let (name, value) = (words[i], words[i + 1])
      switch name {
      case "--data": data = value
      case "--chunk": chunk = Int(value) ?? chunk
      case "--minutes": minutes = Double(value) ?? minutes
      case "--rate": rate = Double(value)
      case "--set": set(value)
      default: fatalError("unknown option \(name)")
      }
    }
  }

  mutating func set(_ assignment: String) {
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
    case "resumeWindow": c.resumeWindow = value
    case "maximumStepInterval": c.maximumStepInterval = value
    case "strideRatioLow": c.strideRatio = value...c.strideRatio.upperBound
    case "strideRatioHigh": c.strideRatio = c.strideRatio.lowerBound...value
    case "continuationRatio": c.continuationRatio = value
    case "amplitudeRatio": c.amplitudeRatio = value
    case "maximumVibrationRatio": c.maximumVibrationRatio = value
    default: fatalError("unknown detector option \(parts[0])")
    }
    configuration = c
  }
}

/// Steps and bouts of one reader's first three channels, fed in chunks of `chunk` samples.
func countSteps(
  reader: inout some SignalReader & ~Copyable, options: Options
) throws -> StepDetector.Output {
  var detector = try StepDetector(
    sampleRate: reader.chunkSampleRate, startTime: reader.startTime ?? .epoch,
    configuration: options.configuration)
  var output = StepDetector.Output()
  while let chunk = try reader.nextChunk(maxSamples: options.chunk) {
    detector.process(chunk, into: &output)
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

let options = Options(arguments: CommandLine.arguments)
let folder = URL(fileURLWithPath: options.data).appendingPathComponent("oxford-steps")
let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
  .filter { $0.hasSuffix(".csv") }.sorted()
if files.isEmpty { print("no oxford-steps walks in \(folder.path): walks skipped") }

func percent(_ count: Int, _ truth: Int) -> Double { 100 * Double(count - truth) / Double(truth) }
func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%+.\(digits)f", value) }

if !files.isEmpty {
  print("walk                 truth  steps  error %  cadence  bouts   algo  error %    hw  error %")
  var errors: [Double] = []
  var algoErrors: [Double] = []
  var hardwareErrors: [Double] = []
  var samples = 0
  var seconds = 0.0
  for file in files {
    let path = folder.appendingPathComponent(file).path
    var csv = CSVOptions(hasHeader: false, timeColumn: ChannelSelector("0"), timeUnit: .nanoseconds)
    csv.sampleRate = options.rate
    var reader = try RecordingOpener.open(path: path, options: RecordingOptions(csv: csv))
    let start = Date()
    let output = try countSteps(reader: &reader, options: options)
    seconds += Date().timeIntervalSince(start)
    samples += output.steps.isEmpty ? 0 : Int(reader.signals[0].sampleCount ?? 0)
    let counts = try finalCounts(path: path)
    let error = percent(output.steps.count, counts.truth)
    errors.append(error)
    algoErrors.append(percent(counts.algo, counts.truth))
    var line =
      pad(String(file.split(separator: "_").prefix(2).joined(separator: "_")), 20)
      + String(format: "%6d %6d ", counts.truth, output.steps.count) + pad(format(error), 8)
      + String(format: " %7.1f %6d %6d ", output.bouts.overallCadence, output.bouts.count, counts.algo)
      + pad(format(percent(counts.algo, counts.truth)), 8)
    if counts.hardware > 0 {
      hardwareErrors.append(percent(counts.hardware, counts.truth))
      line += String(format: " %5d ", counts.hardware) + format(percent(counts.hardware, counts.truth))
    } else {
      line += "     -        -"
    }
    print(line)
  }
  func mape(_ values: [Double]) -> Double { values.map(abs).reduce(0, +) / Double(values.count) }
  print(
    String(
      format:
        "MAPE %.2f %% (worst %.1f %%); steps_algo %.2f %% (worst %.1f %%); steps_hw %.2f %% over %d walks",
      mape(errors), errors.map(abs).max()!, mape(algoErrors), algoErrors.map(abs).max()!,
      mape(hardwareErrors), hardwareErrors.count))
}

try evaluateClemson(
  directory: URL(fileURLWithPath: options.data).appendingPathComponent("clemson-steps").path,
  configuration: options.configuration, chunk: options.chunk)

// False steps in simulated non-walking activity.
let activities: [Activity] = [.still, .typing, .vehicle, .gestures, .shaking]
print("\nfalse steps per minute, \(options.minutes) min of each activity at 100 Hz")
print(pad("placement", 13) + activities.map { pad($0.rawValue, 9) }.joined())
var worst = 0.0
for (p, placement) in Placement.allCases.enumerated() {
  var line = pad(placement.rawValue, 13)
  for (a, activity) in activities.enumerated() {
    var simulator = AccelerometerSimulator(
      configuration: AccelerometerConfiguration(activity: activity, placement: placement),
      duration: options.minutes * 60, sampleRate: 100, seed: UInt64(100 * p + a + 1))
    var detector = try StepDetector(sampleRate: 100, configuration: options.configuration)
    var output = StepDetector.Output()
    while let chunk = simulator.next(maxSamples: options.chunk) {
      detector.process(chunk.signal, into: &output)
    }
    detector.finish(into: &output)
    let rate = Double(output.steps.count) / options.minutes
    worst = max(worst, rate)
    line += pad(String(format: "%.2f", rate), 9)
  }
  print(line)
}
print(String(format: "worst %.2f false steps/min", worst))
