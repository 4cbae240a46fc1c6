import EvalSupport
import Foundation
import Vitals

/// The detector settings the cross-validation chooses among: how many regular candidates start a bout,
/// the same-foot amplitude ratio they may differ by, and the median peak under which a run is weak (36
/// settings; the other options stay at the base configuration's values).
func detectorGrid(_ base: StepDetector.Configuration) -> [StepDetector.Configuration] {
  settingsGrid(
    base,
    [
      gridAxis(\.stepsToStartBout, [5, 6, 7]), gridAxis(\.amplitudeRatio, [1.6, 2.0, 3.0, 4.0]),
      gridAxis(\.weakStepAmplitude, [0.08, 0.12, 0.16]),
    ])
}

func describe(_ c: StepDetector.Configuration) -> String {
  "stepsToStartBout \(c.stepsToStartBout), amplitudeRatio \(c.amplitudeRatio),"
    + " weakStepAmplitude \(c.weakStepAmplitude)"
}

/// Leave one group of walks out, for each placement's detector apart (``StepDetector/Placement``): the
/// body's (the Oxford walks, the Clemson hip and ankle, and the simulated short walks at the simulator's
/// placements but the wrist; groups: the Oxford walks of one person, one Clemson trial, the simulated
/// short walks) and the wrist's (the Clemson wrist and the simulated short walks at the wrist; groups: one
/// trial, the simulated short walks). The simulated short walks (``simulatedShortWalks``) are the only
/// walks that start from standing still several times, so they weigh how soon a bout starts, which the
/// long recorded walks barely do. Each held-out group is counted
/// with the grid point whose mean absolute count error over the placement's walks of the other groups is
/// lowest, among those with at most 0.5 false steps per minute in every simulated non-walking activity at
/// that placement's simulated placements (not held out). Prints, per group, the cross-validated mean
/// absolute error beside the defaults' and the best all-data grid point's.
func crossValidate(
  body: StepDetector.Configuration, wrist: StepDetector.Configuration, defaults: [WalkResult]
) throws {
  for placement in StepDetector.Placement.allCases {
    let base = placement == .wrist ? wrist : body
    let grid = detectorGrid(base)
    var results: [[WalkResult]] = []
    var falseRates: [Double] = []
    for configuration in grid {
      let (b, w) = placement == .wrist ? (body, configuration) : (configuration, wrist)
      let walks =
        try countWalks(body: b, wrist: w) + simulatedShortWalks(body: b, wrist: w, chunk: options.chunk)
      results.append(walks.filter { $0.placement == placement })
      let rates = try falseStepRates(body: b, wrist: w)
      falseRates.append(
        zip(Placement.allCases, rates).filter { ($0.0 == .wrist) == (placement == .wrist) }
          .flatMap(\.1).max()!)
    }
    let admissible = grid.indices.filter { falseRates[$0] <= 0.5 }
    let own = defaults.filter { $0.placement == placement }
    guard !admissible.isEmpty, !own.isEmpty else {
      print(
        "\ncross-validation at the \(placement): no walks, or no setting with at most 0.5 false steps/min")
      continue
    }
    func objective(_ g: Int, leaving group: String?) -> Double {
      meanAbsolute(results[g].filter { $0.group != group }.map(\.error))
    }
    let groups = own.map(\.group).uniqued()
    var held: [WalkResult] = []
    var chosen: [Int: Int] = [:]
    for group in groups {
      let best = admissible.min { objective($0, leaving: group) < objective($1, leaving: group) }!
      chosen[best, default: 0] += 1
      held += results[best].filter { $0.group == group }
    }
    let bestAll = admissible.min { objective($0, leaving: nil) < objective($1, leaving: nil) }!
    print(
      "\nDetector at the \(placement): leave one group out over \(groups.count) groups (\(own.count) walks),"
        + " \(grid.count) settings, \(admissible.count) with at most 0.5 false steps/min")
    print("group                walks  defaults |error| %  CV |error| %  best-all |error| %  (worst walk)")
    func summary(_ walks: [WalkResult], _ group: String) -> String {
      let errors = walks.filter { $0.group == group }.map { abs($0.error) }
      return String(format: "%6.1f (%5.1f)", mean(errors), errors.max() ?? .nan)
    }
    for group in groups {
      print(
        pad(group, 20) + String(format: "%6d", own.filter { $0.group == group }.count) + "      "
          + summary(own, group) + "   " + summary(held, group) + "      "
          + summary(results[bestAll], group))
    }
    for (index, count) in chosen.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
      print("  chosen \(count)×: \(describe(grid[index]))")
    }
    print("  best all-data: \(describe(grid[bestAll])); defaults: \(describe(base))")
  }
}
