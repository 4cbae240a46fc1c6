import EvalSupport
import Foundation
import Vitals

/// The estimator settings the cross-validation chooses among: the evidence left on strong motion lines,
/// the rate floor during locomotion, the tracker's transition penalty and its largest change between
/// windows (81 settings; the motion subtraction's weight stays at the default, which an earlier grid
/// chose in every fold).
func estimatorGrid(_ base: PPGHeartRateEstimator.Configuration) -> [PPGHeartRateEstimator.Configuration] {
  settingsGrid(
    base,
    [
      gridAxis(\.motionLineEvidence, [1.0, 2.0, 4.0]), gridAxis(\.locomotionRateFloor, [60.0, 70.0, 80.0]),
      gridAxis(\.transitionPenalty, [0.08, 0.16, 0.32]), gridAxis(\.maximumChange, [2.5, 5.0, 7.5]),
    ])
}

func describe(_ c: PPGHeartRateEstimator.Configuration) -> String {
  "motionLineEvidence \(c.motionLineEvidence), locomotionRateFloor \(c.locomotionRateFloor),"
    + " transitionPenalty \(c.transitionPenalty), maximumChange \(c.maximumChange)"
}

/// Leave one recording out over every recording of every set: each held-out recording is estimated with
/// the grid point whose mean per-recording MAE over all the other recordings (of both sets) is lowest.
/// Prints, per set, the cross-validated MAE beside the defaults' and the best single grid point's
/// (all-data: chosen on every recording, its own included).
func crossValidate(
  _ recordings: [PPGRecording], base: PPGHeartRateEstimator.Configuration, chunk: Int, useAccelerometer: Bool
) throws {
  let grid = estimatorGrid(base)
  var scores: [[RecordingScore]] = []
  for configuration in grid {
    scores.append(
      try recordings.map { recording in
        RecordingScore(
          try estimate(
            recording, configuration: configuration, chunk: chunk, useAccelerometer: useAccelerometer
          )
          .windows, against: recording)
      })
  }
  func objective(_ g: Int, leaving held: Int?) -> Double {
    mean(scores[g].indices.filter { $0 != held }.map { scores[g][$0].meanError })
  }
  var held: [RecordingScore] = []
  var chosen: [Int: Int] = [:]
  for index in recordings.indices {
    let best = grid.indices.min { objective($0, leaving: index) < objective($1, leaving: index) }!
    chosen[best, default: 0] += 1
    held.append(scores[best][index])
  }
  let bestAll = grid.indices.min { objective($0, leaving: nil) < objective($1, leaving: nil) }!
  let defaults = try recordings.map { recording in
    RecordingScore(
      try estimate(recording, configuration: base, chunk: chunk, useAccelerometer: useAccelerometer).windows,
      against: recording)
  }
  print(
    "\nLeave one recording out over \(recordings.count) recordings of every set, \(grid.count) settings"
      + " (objective: mean per-recording MAE of the others)")
  print(
    "set              recordings  defaults MAE  CV MAE  best-all MAE   (MAE over all windows; worst recording)"
  )
  for set in Array(Set(recordings.map(\.set))).sorted() {
    let members = recordings.indices.filter { recordings[$0].set == set }
    func summary(_ s: [RecordingScore]) -> String {
      let windows = members.flatMap { s[$0].errors }
      return String(format: "%5.2f (%5.2f)", mean(windows), members.map { s[$0].meanError }.max() ?? .nan)
    }
    print(
      String(
        format: "%@ %10d  %@  %@  %@", set.padding(toLength: 16, withPad: " ", startingAt: 0), members.count,
        summary(defaults), summary(held),
        summary(scores[bestAll])))
  }
  for (index, count) in chosen.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
    print("  chosen \(count)×: \(describe(grid[index]))")
  }
  print("  best all-data: \(describe(grid[bestAll])); defaults: \(describe(base))")
}
