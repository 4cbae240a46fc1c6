import Foundation
import Vitals

/// The detector settings the cross-validation chooses among: how many regular candidates start a bout,
/// the same-foot amplitude ratio they may differ by, and the median peak under which a run is weak (27
/// settings; the other options stay at the base configuration's values).
func detectorGrid(_ base: StepDetector.Configuration) -> [StepDetector.Configuration] {
  var grid: [StepDetector.Configuration] = []
  for start in [5, 6, 7] {
    for ratio in [2.0, 3.0, 4.0] {
      for weak in [0.08, 0.12, 0.16] {
        var c = base
        c.stepsToStartBout = start
        c.amplitudeRatio = ratio
        c.weakStepAmplitude = weak
        grid.append(c)
      }
    }
  }
  return grid
}

func describe(_ c: StepDetector.Configuration) -> String {
  "stepsToStartBout \(c.stepsToStartBout), amplitudeRatio \(c.amplitudeRatio),"
    + " weakStepAmplitude \(c.weakStepAmplitude)"
}

/// Leave one group of walks out (the Oxford walks of one person; one Clemson trial at its three
/// placements): each held-out group is counted with the grid point whose mean absolute count error over
/// the other groups' walks is lowest among those with at most 0.5 false steps per minute in every simulated
/// non-walking activity and placement (the simulated activities are not held out). Prints, per group, the
/// cross-validated mean absolute error beside the defaults' and the best all-data grid point's.
func crossValidate(base: StepDetector.Configuration, defaults: [WalkResult]) throws {
  let grid = detectorGrid(base)
  var results: [[WalkResult]] = []
  var falseRates: [Double] = []
  for configuration in grid {
    results.append(try countWalks(configuration))
    falseRates.append(try falseStepRates(configuration).joined().max()!)
  }
  let admissible = grid.indices.filter { falseRates[$0] <= 0.5 }
  guard !admissible.isEmpty else {
    print("\ncross-validation: no setting keeps false steps at or under 0.5 per minute")
    return
  }
  func objective(_ g: Int, leaving group: String?) -> Double {
    meanAbsolute(results[g].filter { $0.group != group }.map(\.error))
  }
  let groups = defaults.map(\.group).uniqued()
  var held: [WalkResult] = []
  var chosen: [Int: Int] = [:]
  for group in groups {
    let best = admissible.min { objective($0, leaving: group) < objective($1, leaving: group) }!
    chosen[best, default: 0] += 1
    held += results[best].filter { $0.group == group }
  }
  let bestAll = admissible.min { objective($0, leaving: nil) < objective($1, leaving: nil) }!
  print(
    "\nLeave one group out over \(groups.count) groups (\(defaults.count) walks), \(grid.count) settings,"
      + " \(admissible.count) with at most 0.5 false steps/min")
  print("group                walks  defaults |error| %  CV |error| %  best-all |error| %  (worst walk)")
  func summary(_ walks: [WalkResult], _ group: String) -> String {
    let errors = walks.filter { $0.group == group }.map { abs($0.error) }
    return String(format: "%6.1f (%5.1f)", mean(errors), errors.max() ?? .nan)
  }
  for group in groups {
    print(
      pad(group, 20) + String(format: "%6d", defaults.filter { $0.group == group }.count) + "      "
        + summary(defaults, group) + "   " + summary(held, group) + "      "
        + summary(results[bestAll], group))
  }
  for (index, count) in chosen.sorted(by: { $0.value > $1.value }) {
    print("  chosen \(count)×: \(describe(grid[index]))")
  }
  print("  best all-data: \(describe(grid[bestAll])); defaults: \(describe(base))")
}
