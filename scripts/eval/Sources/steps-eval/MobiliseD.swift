import Foundation
import Vitals

/// One lab trial of the Mobilise-D example data, as `scripts/eval/mobilise_d_steps.py` writes it (see there
/// for the source, the participants and the tests): `NAME.csv` (the lower-back axes in g at 100 Hz) and
/// `NAME_steps.txt` (the INDIP reference's initial contacts: a sample index per line, `nan` for a contact
/// without a time). No detector setting is chosen on these trials.
struct MobiliseDTrial {
  static let sampleRate = 100.0
  /// What each test of the example data is, as printed.
  static let testDescriptions = [
    "Test5": "straight walk of about 5 m", "Test11": "simulated daily life, with turns",
  ]

  var name: String
  var path: String
  /// The timed reference contacts (sample indices, increasing) and how many more have no time.
  var steps: [Int64]
  var untimedSteps: Int
  /// The reference's walking bouts (`NAME_bouts.csv`).
  var bouts: [ReferenceBout]
  /// The test, the middle part of the name (`HA-001_Test5_Trial1`).
  var test: String { name.split(separator: "_").dropFirst().first.map(String.init) ?? name }

  /// Reads the trial `name` in `directory`; throws, naming the file and line, for a line of its reference
  /// file that is neither a sample index nor `nan`, or a line of its bouts that is not six numbers.
  init(directory: String, name: String) throws {
    self.name = name
    path = directory + "/" + name + ".csv"
    let referencePath = directory + "/" + name + "_steps.txt"
    let lines = try String(contentsOfFile: referencePath, encoding: .utf8).split(whereSeparator: \.isNewline)
    var steps: [Int64] = []
    var untimed = 0
    for (number, line) in lines.enumerated() {
      if let index = Int64(line) {
        steps.append(index)
      } else if line == "nan" {
        untimed += 1
      } else {
        throw InputError(path: referencePath, location: .line(number + 1), "not a sample index or nan")
      }
    }
    self.steps = steps.sorted()
    untimedSteps = untimed
    let boutsPath = directory + "/" + name + "_bouts.csv"
    bouts = try String(contentsOfFile: boutsPath, encoding: .utf8).split(whereSeparator: \.isNewline)
      .enumerated().dropFirst().map { number, line in
        let values = line.split(separator: ",").compactMap { Double($0) }
        guard values.count == 6 else {
          throw InputError(path: boutsPath, location: .line(number + 1), "not six numbers")
        }
        return ReferenceBout(
          start: values[0], cadence: values[2], strideLength: values[3], speed: values[4], height: values[5])
      }
  }

  /// The trial counted with `configuration`, fed in chunks of `chunk`: the F1 over the timed contacts, and
  /// as details the untimed contacts and the detections more than ``ClemsonTrial/matchWindow`` before the
  /// first timed contact and after the last.
  func count(configuration: StepDetector.Configuration, chunk: Int) throws -> WalkResult {
    var reader = try RecordingOpener.open(
      path: path, options: RecordingOptions(csv: CSVOptions(sampleRate: Self.sampleRate)))
    let output = try countSteps(reader: &reader, configuration: configuration, chunk: chunk)
    let detected = output.steps.map(\.sampleIndex)
    let window = Int64(ClemsonTrial.matchWindow * Self.sampleRate)
    let early = steps.first.map { first in detected.filter { $0 < first - window }.count } ?? 0
    let late = steps.last.map { last in detected.filter { $0 > last + window }.count } ?? 0
    return WalkResult(
      group: test, name: name, truth: steps.count + untimedSteps, detected: detected.count,
      details: String(format: " %7d %7d %7d", untimedSteps, early, late),
      f1: stepTimingF1(reference: steps, detected: detected, rate: Self.sampleRate))
  }
}

/// One walking bout as the INDIP measured it: its start (s), cadence (steps/min), mean stride length (m) and
/// walking speed (m/s), and the walker's height (m).
struct ReferenceBout {
  var start: Double
  var cadence: Double
  var strideLength: Double
  var speed: Double
  var height: Double
}

/// Prints, for each reference bout, the step length and walking speed of ``StepLengthModel`` (from the
/// walker's height and the reference cadence) against the reference's (half its stride length, its
/// speed), then the mean signed and absolute errors per test: the model's error alone, without the
/// detector's cadence error.
func printStepLengthModel(_ trials: [MobiliseDTrial]) {
  print(
    "\nStepLengthModel against the INDIP's bouts, at the INDIP's cadence and the walker's height (step"
      + " length: half the mean stride length)")
  print("trial                start s cadence  step m   model  error %  speed m/s   model  error %")
  var errors: [String: [(step: Double, speed: Double)]] = [:]
  for trial in trials {
    for bout in trial.bouts {
      let step = bout.strideLength / 2
      let model = StepLengthModel.stepLength(height: bout.height, cadence: bout.cadence)
      let speed = model * bout.cadence / 60
      let error = (step: 100 * (model / step - 1), speed: 100 * (speed / bout.speed - 1))
      errors[trial.test, default: []].append(error)
      print(
        pad(trial.name, 20)
          + String(
            format: " %7.1f %7.1f %7.3f %7.3f %+8.1f %10.3f %7.3f %+8.1f", bout.start, bout.cadence, step,
            model, error.step, bout.speed, speed, error.speed))
    }
  }
  for test in errors.keys.sorted(by: inTestOrder) {
    let values = errors[test]!
    print(
      String(
        format: "%@, %d bouts: step length %+.1f %% (mean |error| %.1f %%), speed %+.1f %% (%.1f %%)", test,
        values.count, mean(values.map(\.step)), meanAbsolute(values.map(\.step)), mean(values.map(\.speed)),
        meanAbsolute(values.map(\.speed))))
  }
}

/// Whether test `a` comes before test `b` by number (`Test5` before `Test11`).
func inTestOrder(_ a: String, _ b: String) -> Bool { (a.count, a) < (b.count, b) }

/// The trials in `directory` and the lines of `skipped.txt` (a trial's name and why it has no reference);
/// nil, having said so, when the folder holds no trial.
func loadMobiliseDTrials(directory: String) throws -> (trials: [MobiliseDTrial], skipped: [String])? {
  let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
  let names = files.filter { $0.hasSuffix("_steps.txt") }.map { String($0.dropLast("_steps.txt".count)) }
  guard !names.isEmpty else {
    print("no Mobilise-D trials in \(directory) (make eval-steps-mobilise-d writes them): skipped")
    return nil
  }
  let skipped = (try? String(contentsOfFile: directory + "/skipped.txt", encoding: .utf8))?
    .split(whereSeparator: \.isNewline).map(String.init)
  return (try names.sorted().map { try MobiliseDTrial(directory: directory, name: $0) }, skipped ?? [])
}

/// Prints each trial's reference contacts (and how many have no time), detected steps, count error,
/// step-timing F1 and detections outside the reference contacts' span, then each test's summary.
func printMobiliseD(_ results: [WalkResult], skipped: [String]) {
  print(
    "Mobilise-D example lab data, lower back (100 Hz), against the INDIP initial contacts (untimed ones"
      + " count, F1 over the timed, within ±\(ClemsonTrial.matchWindow) s);"
      + " only stepsToResumeWeakBout was set with them in view;"
      + " early/late: detections over \(ClemsonTrial.matchWindow) s before the first timed contact or after"
      + " the last")
  print("trial               contacts  steps  error %     F1 untimed   early    late")
  for walk in results { print(pad(walk.name, 20) + " " + countColumns(walk) + walk.details) }
  for line in skipped {
    let parts = line.split(separator: " ", maxSplits: 1)
    print(pad(String(parts[0]), 20) + "  left out: " + (parts.count > 1 ? String(parts[1]) : ""))
  }
  for test in MobiliseDTrial.testDescriptions.keys.sorted(by: inTestOrder) {
    let walks = results.filter { $0.group == test }
    guard !walks.isEmpty else { continue }
    print(
      "\(test) (\(MobiliseDTrial.testDescriptions[test]!)), \(walks.count) trials: " + countSummary(walks))
  }
  print("all \(results.count) trials: " + countSummary(results))
}
