import Foundation
import Vitals

/// One lab trial of the Mobilise-D example data, as `scripts/eval/mobilised_steps.py` writes it (see there
/// for the source, the participants and the tests): `NAME.csv` (the lower-back axes in g at 100 Hz) and
/// `NAME_steps.txt` (the INDIP reference's initial contacts of every walking bout, a sample index per
/// line, `nan` for a contact without a time). No detector setting is chosen on these trials.
struct MobilisedTrial {
  static let sampleRate = 100.0
  /// The two tests of the example data, as printed.
  static let tests = ["Test5": "straight walk of about 5 m", "Test11": "simulated daily life, with turns"]

  var name: String
  var path: String
  /// The timed reference contacts (sample indices, increasing) and how many more have no time.
  var steps: [Int64]
  var untimedSteps: Int
  /// The test, the middle part of the name (`HA-001_Test5_Trial1`).
  var test: String { name.split(separator: "_").dropFirst().first.map(String.init) ?? name }

  init(directory: String, name: String) throws {
    self.name = name
    path = directory + "/" + name + ".csv"
    let lines = try String(contentsOfFile: directory + "/" + name + "_steps.txt", encoding: .utf8)
      .split(whereSeparator: \.isNewline)
    steps = lines.compactMap { Int64($0) }.sorted()
    untimedSteps = lines.count - steps.count
  }

  /// The trial counted with `configuration`, fed in chunks of `chunk`, with the step-timing F1 over the
  /// timed contacts.
  func count(configuration: StepDetector.Configuration, chunk: Int) throws -> WalkResult {
    var reader = try RecordingOpener.open(
      path: path, options: RecordingOptions(csv: CSVOptions(sampleRate: Self.sampleRate)))
    let output = try countSteps(reader: &reader, configuration: configuration, chunk: chunk)
    let detected = output.steps.map(\.sampleIndex)
    return WalkResult(
      group: "mobilise-d " + test, name: name, truth: steps.count + untimedSteps, detected: detected.count,
      f1: stepTimingF1(reference: steps, detected: detected, rate: Self.sampleRate))
  }
}

/// The trials in `directory` (nil, printed, when it holds none) and the names of those left out for
/// want of a reference (`skipped.txt`).
func loadMobilisedTrials(directory: String) throws -> (trials: [MobilisedTrial], skipped: [String])? {
  let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
  let names = files.filter { $0.hasSuffix("_steps.txt") }.map { String($0.dropLast("_steps.txt".count)) }
  guard !names.isEmpty else {
    print("\nno Mobilise-D trials in \(directory) (make eval-steps-mobilised writes them): skipped")
    return nil
  }
  let skipped = (try? String(contentsOfFile: directory + "/skipped.txt", encoding: .utf8))?
    .split(whereSeparator: \.isNewline).map(String.init)
  return (try names.sorted().map { try MobilisedTrial(directory: directory, name: $0) }, skipped ?? [])
}

/// Prints each trial's reference and detected counts, count error and step-timing F1, then the mean
/// absolute count error per test and over every trial.
func printMobilised(_ results: [WalkResult], skipped: [String]) {
  print(
    "\nMobilise-D example lab data, lower back (100 Hz), against the INDIP initial contacts, F1 within ±"
      + "\(ClemsonTrial.matchWindow) s; no setting chosen on them")
  print("trial                 truth  steps  error %     F1")
  for walk in results {
    print(
      pad(walk.name, 20) + String(format: "%6d %6d ", walk.truth, walk.detected) + pad(format(walk.error), 8)
        + String(format: "%6.1f", 100 * (walk.f1 ?? .nan)))
  }
  for name in skipped { print(pad(name, 20) + "     -      -  (INDIP found no walking bout: left out)") }
  let tests = Dictionary(grouping: results) { $0.group }
  for group in tests.keys.sorted() {
    let walks = tests[group]!
    let test = String(group.dropFirst("mobilise-d ".count))
    print(
      String(
        format: "%@ (%@): %d trials, mean |error| %.1f %% (worst %.1f %%), mean F1 %.1f %%", test,
        MobilisedTrial.tests[test] ?? test, walks.count, meanAbsolute(walks.map(\.error)),
        walks.map { abs($0.error) }.max()!, 100 * mean(walks.compactMap(\.f1))))
  }
  print(
    String(
      format: "all %d trials: mean |error| %.1f %%, %d steps against %d", results.count,
      meanAbsolute(results.map(\.error)), results.map(\.detected).reduce(0, +),
      results.map(\.truth).reduce(0, +)))
}
