import Foundation
import Vitals

/// One trial of the Clemson pedometer set (Mattfeld et al. 2017) in the shared data folder: the
/// recording `P001_<trial>.txt` (space separated, no header, 15 Hz: wrist, hip and ankle x y z, g) and its
/// marked steps `P001_<trial>_steps.txt` (a line index and `left` or `right` per step; `leftshift` and
/// `rightshift` mark weight shifts, which are no steps).
struct ClemsonTrial {
  static let sampleRate = 15.0
  static let placements = ["wrist", "hip", "ankle"]
  /// Largest distance between a detected and a marked step that still pairs them, seconds (SCORING.md:
  /// ±0.5 s of the step's line; each step and each detection pairs at most once), taken down to whole
  /// samples (7 at 15 Hz).
  static let matchWindow = 0.5

  var name: String
  var path: String
  /// The marked steps' sample indices, increasing.
  var steps: [Int64]

  init(directory: String, trial: String) throws {
    name = trial
    path = directory + "/P001_" + trial + ".txt"
    let marks = try String(contentsOfFile: directory + "/P001_" + trial + "_steps.txt", encoding: .utf8)
    steps = marks.split(whereSeparator: \.isNewline).compactMap { line -> Int64? in
      let fields = line.split(separator: " ")
      guard fields.count == 2, ["left", "right"].contains(fields[1].trimmingCharacters(in: .whitespaces))
      else { return nil }
      return Int64(fields[0])
    }.sorted()
  }

  /// The detected steps' sample indices at each placement (its three axes fed in chunks of `chunk`).
  func detect(configuration: StepDetector.Configuration, chunk: Int) throws -> [[Int64]] {
    var result: [[Int64]] = []
    for placement in Self.placements.indices {
      var reader = try RecordingOpener.open(
        path: path,
        options: RecordingOptions(
          csv: CSVOptions(delimiter: 0x20, hasHeader: false, sampleRate: Self.sampleRate)))
      var detector = try StepDetector(sampleRate: Self.sampleRate, configuration: configuration)
      var output = StepDetector.Output()
      let axes = (3 * placement, 3 * placement + 1, 3 * placement + 2)
      while let next = try reader.nextChunk(maxSamples: chunk) {
        detector.process(next, axes: axes, into: &output)
      }
      detector.finish(into: &output)
      result.append(output.steps.map(\.sampleIndex))
    }
    return result
  }
}

/// Prints, per Clemson trial and placement, the marked and detected counts, the count error and the
/// step-timing F1 (each detection paired with at most one marked step within ``ClemsonTrial/matchWindow``),
/// and per trial the mean absolute count error and the mean F1 over the placements.
func evaluateClemson(directory: String, configuration: StepDetector.Configuration, chunk: Int) throws {
  let trials = ["Regular", "SemiRegular", "Irregular"]
  guard FileManager.default.fileExists(atPath: directory + "/P001_Regular.txt") else {
    print("\nno clemson-steps trials in \(directory): Clemson skipped")
    return
  }
  print("\nClemson P001 (15 Hz), marked steps against detected, F1 within ±\(ClemsonTrial.matchWindow) s")
  print("trial         placement marked  steps  error %     F1")
  var summaries: [String] = []
  for name in trials {
    var errors: [Double] = []
    var scores: [Double] = []
    let trial = try ClemsonTrial(directory: directory, trial: name)
    let window = Int64((ClemsonTrial.matchWindow * ClemsonTrial.sampleRate).rounded(.down))
    for (placement, detected) in zip(
      ClemsonTrial.placements, try trial.detect(configuration: configuration, chunk: chunk))
    {
      let matching = BeatMatching(reference: trial.steps, test: detected, window: window)
      let pairs = Double(matching.pairs.count)
      let f1 = detected.isEmpty ? 0 : 2 * pairs / Double(trial.steps.count + detected.count)
      let error = 100 * Double(detected.count - trial.steps.count) / Double(trial.steps.count)
      errors.append(abs(error))
      scores.append(f1)
      print(
        pad(name, 14) + pad(placement, 10)
          + String(format: "%6d %6d %+8.1f %6.3f", trial.steps.count, detected.count, error, f1))
    }
    summaries.append(
      String(
        format: "%@: mean |error| %.1f %%, mean F1 %.3f", name, errors.reduce(0, +) / Double(errors.count),
        scores.reduce(0, +) / Double(scores.count)))
  }
  for summary in summaries { print(summary) }
}
