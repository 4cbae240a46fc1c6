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
    var detector = try StepDetector(
      sampleRate: shortWalkRate, configuration: placement == .wrist ? wrist : body)
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
    let detected = output.steps.map(\.sampleIndex)
    return WalkResult(
      group: "simulated short walks", placement: placement == .wrist ? .wrist : .body,
      name: placement.rawValue,
      truth: strikes.count, detected: detected.count,
      f1: stepTimingF1(reference: strikes, detected: detected, rate: shortWalkRate))
  }
}

/// Prints each placement's simulated short walks: heel strikes, steps, count error and F1.
func printSimulatedWalks(_ results: [WalkResult]) {
  print("\nsimulated short walks (8, 12, 20, 35, 60 steps at 110 steps/min, each after 20 s still; 100 Hz)")
  print("placement     strikes  steps  error %     F1")
  for walk in results { print(pad(walk.name, 13) + " " + countColumns(walk)) }
  print(countSummary(results))
}
