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
  /// The marked steps' sample indices, increasing, and whether each is a left step.
  var steps: [Int64]
  var stepIsLeft: [Bool]

  init(directory: String, trial: String) throws {
    name = trial
    path = directory + "/P001_" + trial + ".txt"
    let marks = try String(contentsOfFile: directory + "/P001_" + trial + "_steps.txt", encoding: .utf8)
    let marked = marks.split(whereSeparator: \.isNewline).compactMap { line -> (Int64, Bool)? in
      let fields = line.split(separator: " ")
      let side = fields.count == 2 ? fields[1].trimmingCharacters(in: .whitespaces) : ""
      guard ["left", "right"].contains(side), let index = Int64(fields[0]) else { return nil }
      return (index, side == "left")
    }.sorted { $0.0 < $1.0 }
    steps = marked.map(\.0)
    stepIsLeft = marked.map(\.1)
  }

  /// The trial counted at each placement (its three axes fed in chunks of `chunk`; `wrist` at the wrist,
  /// `body` at the hip and ankle), with the step-timing F1 (each detection paired with at most one marked
  /// step within ``matchWindow``).
  func count(body: StepDetector.Configuration, wrist: StepDetector.Configuration, chunk: Int) throws
    -> [WalkResult]
  {
    try Self.placements.indices.map { placement in
      var reader = try RecordingOpener.open(
        path: path,
        options: RecordingOptions(
          csv: CSVOptions(delimiter: 0x20, hasHeader: false, sampleRate: Self.sampleRate)))
      let atWrist = Self.placements[placement] == "wrist"
      var detector = try StepDetector(sampleRate: Self.sampleRate, configuration: atWrist ? wrist : body)
      var output = StepDetector.Output()
      let axes = (3 * placement, 3 * placement + 1, 3 * placement + 2)
      while let next = try reader.nextChunk(maxSamples: chunk) {
        detector.process(next, axes: axes, into: &output)
      }
      detector.finish(into: &output)
      let detected = output.steps.map(\.sampleIndex)
      return WalkResult(
        group: "clemson " + name, placement: atWrist ? .wrist : .body,
        name: name + " " + Self.placements[placement],
        truth: steps.count, detected: detected.count,
        f1: stepTimingF1(reference: steps, detected: detected, rate: Self.sampleRate))
    }
  }
}

/// The three Clemson trials in `directory`, or none (printed) when the folder is absent.
func loadClemsonTrials(directory: String) throws -> [ClemsonTrial] {
  guard FileManager.default.fileExists(atPath: directory + "/P001_Regular.txt") else {
    print("no clemson-steps trials in \(directory): Clemson skipped")
    return []
  }
  return try ["Regular", "SemiRegular", "Irregular"].map { try ClemsonTrial(directory: directory, trial: $0) }
}

/// Prints, per Clemson trial and placement, the marked and detected counts, the count error and the
/// step-timing F1, and per trial the mean absolute count error and the mean F1 over the placements.
func printClemson(_ results: [WalkResult]) {
  guard !results.isEmpty else { return }
  print("\nClemson P001 (15 Hz), marked steps against detected, F1 within ±\(ClemsonTrial.matchWindow) s")
  print("trial         placement marked  steps  error %     F1")
  var summaries: [String] = []
  for group in results.map(\.group).uniqued() {
    let members = results.filter { $0.group == group }
    for walk in members {
      let parts = walk.name.split(separator: " ")
      print(pad(String(parts[0]), 14) + pad(String(parts[1]), 10) + countColumns(walk))
    }
    summaries.append(String(group.dropFirst("clemson ".count)) + ": " + countSummary(members))
  }
  for summary in summaries { print(summary) }
}

extension Array where Element: Hashable {
  /// The elements in order, each once.
  func uniqued() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}
