import Foundation
import Vitals

let challengeClasses = ["N", "A", "O", "~"]

/// Prints the confusion matrix (rows reference, columns predicted), F1 per class and the mean F1 over N, A, O
/// (the challenge's measure: F1 = 2·TP / (reference + predicted)).
func printConfusion(title: String, reference: [String], predicted: [String]) {
  print(title)
  print(
    "reference \\ predicted "
      + challengeClasses.map { $0.padding(toLength: 5, withPad: " ", startingAt: 0) }
      .joined())
  var f1: [String: Double] = [:]
  for r in challengeClasses {
    let row = challengeClasses.map { p in zip(reference, predicted).filter { $0 == (r, p) }.count }
    print("  \(r)                   " + row.map { String(format: "%-5d", $0) }.joined())
    let truePositives = zip(reference, predicted).filter { $0 == (r, r) }.count
    let total = reference.filter { $0 == r }.count + predicted.filter { $0 == r }.count
    f1[r] = total > 0 ? 2 * Double(truePositives) / Double(total) : .nan
  }
  print(challengeClasses.map { String(format: "F1 %@ %.3f", $0, f1[$0]!) }.joined(separator: "  "))
  print(String(format: "mean F1 over N, A, O: %.3f", (f1["N"]! + f1["A"]! + f1["O"]!) / 3))
}

/// Prints, per source of pieces, the share of pieces given each classification.
func printPieces(_ recordings: [Recording], _ reports: [ElectrocardiogramReport]) {
  print("\n30-s pieces: share classified as (sinus, AF, low rate, high rate, poor reading, other)")
  let sources = Set(recordings.map(\.source)).subtracting(["cinc2017"]).sorted()
  let classes: [ElectrocardiogramClassification] = [
    .sinusRhythm, .atrialFibrillation, .inconclusiveLowHeartRate, .inconclusiveHighHeartRate,
    .inconclusivePoorReading, .inconclusiveOther,
  ]
  for source in sources {
    let members = recordings.indices.filter { recordings[$0].source == source }
    let shares = classes.map { c in
      100 * Double(members.filter { reports[$0].classification == c }.count) / Double(members.count)
    }
    print(
      source.padding(toLength: 20, withPad: " ", startingAt: 0) + String(format: "%5d pieces ", members.count)
        + shares.map { String(format: "%6.1f%%", $0) }.joined())
  }
  let sinusAF = recordings.indices.filter {
    recordings[$0].source == "mitdb-sinus" && reports[$0].classification == .atrialFibrillation
  }
  print(
    "sinus MIT-BIH pieces called AF: "
      + (sinusAF.isEmpty
        ? "none"
        : sinusAF.map { recordings[$0].name }
          .joined(separator: ", ")))
}

/// Writes one CSV row per recording: source, name, label, classification, beat count, then every feature
/// (empty when not measured).
func writeFeatures(_ recordings: [Recording], _ reports: [ElectrocardiogramReport], to path: String) throws {
  let names = reports.first?.features.map(\.name) ?? []
  var lines = [(["source", "name", "label", "classification", "beatCount"] + names).joined(separator: ",")]
  for (recording, report) in zip(recordings, reports) {
    let values = report.features.map { $0.value.map { String($0) } ?? "" }
    lines.append(
      ([
        recording.source, recording.name, recording.label, report.classification.rawValue,
        "\(report.beatCount)",
      ]
        + values)
        .joined(separator: ","))
  }
  try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
}
