import Foundation
import Vitals

/// The sample rate of ``shortWalkRecordings``, Hz.
let shortWalkRate = 100.0

/// Short walks simulated at every placement of the accelerometer simulator: walks of 8, 12, 20, 35 and 60
/// steps at 110 steps per minute, each after 20 s of standing still, joined into one 100 Hz recording per
/// placement (its three axes and the sample indices of its heel strikes). Simulated once, whatever
/// detector settings count them.
let shortWalkRecordings: [(placement: Placement, channels: [[Float]], strikes: [Int64])] =
  Placement.allCases.enumerated().map { p, placement in
    var channels: [[Float]] = [[], [], []]
    var strikes: [Int64] = []
    for (w, steps) in [8, 12, 20, 35, 60].enumerated() {
      let seed = UInt64(1000 + 10 * p + w)
      var still = AccelerometerSimulator(
        configuration: AccelerometerConfiguration(activity: .still, placement: placement), duration: 20,
        sampleRate: shortWalkRate, seed: seed)
      var walk = AccelerometerSimulator(
        configuration: AccelerometerConfiguration(activity: .walking, placement: placement),
        duration: Double(steps) * 60 / 110, sampleRate: shortWalkRate, seed: seed)
      for part in [still.generateAll(), walk.generateAll()] {
        let offset = Int64(channels[0].count)
        strikes += part.events.filter { $0.label == .step }.map { $0.sampleIndex + offset }
        for axis in 0..<3 { channels[axis] += part.channels[axis] }
      }
    }
    return (placement, channels, strikes)
  }

/// The ``shortWalkRecordings`` counted by the detector (`wrist` at the wrist, else `body`) fed in chunks of
/// `chunk` samples. Each placement's result pairs the detected steps with the simulated heel strikes
/// (count error, and F1 within ±0.5 s as SCORING.md defines it).
func simulatedShortWalks(
  body: StepDetector.Configuration, wrist: StepDetector.Configuration, chunk: Int
) throws -> [WalkResult] {
  try shortWalkRecordings.map { placement, channels, strikes in
    let detected = try detectedSteps(
      channels, configuration: placement == .wrist ? wrist : body, chunk: chunk)
    return WalkResult(
      group: "simulated short walks", placement: placement == .wrist ? .wrist : .body,
      name: placement.rawValue,
      truth: strikes.count, detected: detected.count,
      f1: stepTimingF1(reference: strikes, detected: detected, rate: shortWalkRate))
  }
}

/// The sample indices of the steps `StepDetector` (with `configuration`) finds in three axes at
/// ``shortWalkRate``, fed in chunks of `chunk` samples.
func detectedSteps(_ channels: [[Float]], configuration: StepDetector.Configuration, chunk: Int) throws
  -> [Int64]
{
  var detector = try StepDetector(sampleRate: shortWalkRate, configuration: configuration)
  var output = StepDetector.Output()
  var start = 0
  while start < channels[0].count {
    let end = min(start + chunk, channels[0].count)
    channels[0][start..<end].withUnsafeBufferPointer { x in
      channels[1][start..<end].withUnsafeBufferPointer { y in
        channels[2][start..<end].withUnsafeBufferPointer { z in
          detector.process(x: x, y: y, z: z, into: &output)
        }
      }
    }
    start = end
  }
  detector.finish(into: &output)
  return output.steps.map(\.sampleIndex)
}

/// The settings of ``turnWalkRecordings``: cadence (steps/min), steps in the turn, and the turn steps'
/// body acceleration as a fraction of the straight walk's.
let turnWalkSettings: [(cadence: Double, turnSteps: Int, amplitude: Double)] =
  [90.0, 105, 120].flatMap { cadence in
    [3, 5].flatMap { turn in [0.3, 0.6].map { (cadence, turn, $0) } }
  }

/// Walks there and back with a U-turn, as in a timed 10-m walk test (about 33 steps), simulated at every
/// placement for each of ``turnWalkSettings``: 20 s standing still, 14 steps at the cadence, the turn's
/// steps at three quarters of it with weaker impacts (``turnWalkSettings``' amplitude), 14 steps back,
/// 10 s still. The walker speeds up over the first step and slows down over the last (the body
/// acceleration grows from and falls to nothing over one step period), and into and out of the turn over
/// half a second. One recording per walk: its three axes at ``shortWalkRate`` and its heel strikes.
let turnWalkRecordings: [(placement: Placement, walks: [(channels: [[Float]], strikes: [Int64])])] =
  Placement.allCases.enumerated().map { p, placement in
    let walks = turnWalkSettings.enumerated().map { w, setting in
      let seed = UInt64(2000 + 100 * p + w)
      let step = 60 / setting.cadence
      let turnStart = 14 * step
      let turnEnd = turnStart + Double(setting.turnSteps) * step / 0.75
      let duration = turnEnd + 14 * step
      var configuration = AccelerometerConfiguration(
        activity: .walking, placement: placement,
        cadence: Profile([
          (0, setting.cadence), (turnStart - 0.25, setting.cadence),
          (turnStart + 0.25, 0.75 * setting.cadence),
          (turnEnd - 0.25, 0.75 * setting.cadence), (turnEnd + 0.25, setting.cadence),
        ]))
      configuration.stepAmplitude = Profile([
        (0, 0), (step, 1), (turnStart - 0.25, 1), (turnStart + 0.25, setting.amplitude),
        (turnEnd - 0.25, setting.amplitude), (turnEnd + 0.25, 1), (duration - step, 1), (duration, 0),
      ])
      var parts = [
        AccelerometerSimulator(
          configuration: AccelerometerConfiguration(activity: .still, placement: placement), duration: 20,
          sampleRate: shortWalkRate, seed: seed),
        AccelerometerSimulator(
          configuration: configuration, duration: duration, sampleRate: shortWalkRate, seed: seed),
        AccelerometerSimulator(
          configuration: AccelerometerConfiguration(activity: .still, placement: placement), duration: 10,
          sampleRate: shortWalkRate, seed: seed),
      ]
      var channels: [[Float]] = [[], [], []]
      var strikes: [Int64] = []
      for index in parts.indices {
        let part = parts[index].generateAll()
        let offset = Int64(channels[0].count)
        strikes += part.events.filter { $0.label == .step }.map { $0.sampleIndex + offset }
        for axis in 0..<3 { channels[axis] += part.channels[axis] }
      }
      return (channels, strikes)
    }
    return (placement, walks)
  }

/// The ``turnWalkRecordings`` counted by the detector (`wrist` at the wrist, else `body`) fed in chunks of
/// `chunk` samples: one result per walk, named by its placement and setting.
func simulatedTurnWalks(
  body: StepDetector.Configuration, wrist: StepDetector.Configuration, chunk: Int
) throws -> [WalkResult] {
  try turnWalkRecordings.flatMap { placement, walks in
    try zip(walks, turnWalkSettings).map { walk, setting in
      let detected = try detectedSteps(
        walk.channels, configuration: placement == .wrist ? wrist : body, chunk: chunk)
      return WalkResult(
        group: placement.rawValue, placement: placement == .wrist ? .wrist : .body,
        name: "\(Int(setting.cadence))/min, \(setting.turnSteps) turn steps at \(setting.amplitude)",
        truth: walk.strikes.count, detected: detected.count,
        f1: stepTimingF1(reference: walk.strikes, detected: detected, rate: shortWalkRate))
    }
  }
}

/// Prints the simulated U-turn walks per placement: walks, heel strikes, steps, mean |error|, the worst
/// walk's error and the mean F1; then the summary over all of them.
func printTurnWalks(_ results: [WalkResult]) {
  print(
    "\nsimulated walks with a U-turn (14 steps, 3 or 5 turn steps at 75 % of the cadence and 0.3 or 0.6 of"
      + " its acceleration, 14 back; 90, 105, 120 steps/min; 100 Hz); no setting chosen on them")
  print("placement     walks  strikes  steps  |error| %  worst %     F1")
  for placement in Placement.allCases {
    let walks = results.filter { $0.group == placement.rawValue }
    print(
      pad(placement.rawValue, 13)
        + String(
          format: " %5d %8d %6d %10.1f %8.1f %6.3f", walks.count, walks.reduce(0) { $0 + $1.truth },
          walks.reduce(0) { $0 + $1.detected }, meanAbsolute(walks.map(\.error)),
          walks.map { abs($0.error) }.max() ?? .nan, mean(walks.compactMap(\.f1))))
  }
  print(countSummary(results))
}

/// Prints each placement's simulated short walks: heel strikes, steps, count error and F1.
func printSimulatedWalks(_ results: [WalkResult]) {
  print("\nsimulated short walks (8, 12, 20, 35, 60 steps at 110 steps/min, each after 20 s still; 100 Hz)")
  print("placement     strikes  steps  error %     F1")
  for walk in results { print(pad(walk.name, 13) + " " + countColumns(walk)) }
  print(countSummary(results))
}
