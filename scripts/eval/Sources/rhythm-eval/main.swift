// Scores AtrialFibrillationDetector per 30-s segment (docs SCORING.md: reference AF when `(AFIB` covers
// more than half of a segment; atrial flutter is not AF) on the MIT-BIH records and the CPSC 2021 records
// of the shared data folder, on reference and on detected beats, with and without EC57 beat classes (the
// reference annotations' classes as an oracle; on detected beats, the class of the matched reference
// beat) and with and without the ECG lead (the P-wave check). Parameters are chosen by leave-one-record-out
// cross-validation over both databases together from a small grid (grid(_:)), maximizing the mean over the two
// databases of (Se + Sp) / 2 on the training records; the CV figure (each record scored with the
// parameters chosen without it) is printed beside the all-data one and that of the default parameters.
//
// Usage: rhythm-eval [--data DIR] [--records 201,data_8_2] [--errors]
//   --errors  list, per configuration, the records with a wrong segment under CV
import EvalSupport
import Foundation
import Vitals

var data = sharedDataDirectory
var only: Set<String>?
var listErrors = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--data": data = arguments.next() ?? data
  case "--records": only = Set((arguments.next() ?? "").split(separator: ",").map(String.init))
  case "--errors": listErrors = true
  default: fatalError("unknown option \(argument)")
  }
}

let records = try ["mitdb", "cpsc2021"].flatMap { database in
  let folder = data + "/" + database
  return try AFRecord.names(in: folder).filter { only?.contains($0) ?? true }.map {
    try AFRecord(path: folder + "/" + $0, database: database)
  }
}
let databases = ["mitdb", "cpsc2021"].filter { database in records.contains { $0.database == database } }

/// What the detector is given.
struct Configuration {
  var name: String
  var detectedBeats: Bool
  var classes: Bool
  var ecg: Bool
  /// With detected beats: their classes from `BeatClassifier` instead of the matched reference classes.
  var classifier = false
}
let configurations = [
  Configuration(name: "reference beats + classes, RR+ECG", detectedBeats: false, classes: true, ecg: true),
  Configuration(name: "reference beats, no classes, RR+ECG", detectedBeats: false, classes: false, ecg: true),
  Configuration(
    name: "detected beats + matched classes, RR+ECG", detectedBeats: true, classes: true, ecg: true),
  Configuration(name: "detected beats, no classes, RR+ECG", detectedBeats: true, classes: false, ecg: true),
  Configuration(
    name: "detected beats + classifier's classes, RR+ECG", detectedBeats: true, classes: true, ecg: true,
    classifier: true),
  Configuration(name: "reference beats + classes, RR", detectedBeats: false, classes: true, ecg: false),
  Configuration(name: "detected beats + matched classes, RR", detectedBeats: true, classes: true, ecg: false),
  Configuration(name: "detected beats, no classes, RR", detectedBeats: true, classes: false, ecg: false),
  Configuration(
    name: "detected beats + classifier's classes, RR (the pipeline)", detectedBeats: true, classes: true,
    ecg: false, classifier: true),
]

/// The grid searched: the defaults first (ties keep the earlier setting), then the COSEn threshold, with
/// the ECG the atrial-consistency limit, and with classes whether Q beats (paced or unclassifiable) are
/// left out with the ectopic ones.
func grid(_ c: Configuration) -> [AtrialFibrillationDetector.Parameters] {
  var settings = [AtrialFibrillationDetector.Parameters()]
  for threshold in [-1.4, -1.2] {
    for organized in c.ecg ? [0.5, 0.6, 0.7] : [0.6] {
      for excludesQ in c.classes ? [false, true] : [false] {
        var p = AtrialFibrillationDetector.Parameters()
        p.threshold = threshold
        p.organizedAtrialConsistency = organized
        if excludesQ { p.excludedClasses.insert(.unclassifiable) }
        if p != settings[0] { settings.append(p) }
      }
    }
  }
  return settings
}

func segments(_ record: AFRecord, _ c: Configuration, _ p: AtrialFibrillationDetector.Parameters) -> [Bool] {
  let beats = c.detectedBeats ? record.detectedBeats : record.referenceBeats
  let detectedClasses = c.classifier ? record.classifiedClasses : record.transferredClasses
  let classes = c.classes ? (c.detectedBeats ? detectedClasses : record.referenceClasses) : nil
  return AtrialFibrillationDetector(parameters: p).analyze(
    beats: beats, sampleRate: record.sampleRate, beatClasses: classes, signal: c.ecg ? record.signal : nil
  ).segments(sampleCount: Int64(record.signal.count))
}

typealias Score = RhythmSegments.Score
func pooled(_ scores: some Sequence<Score>) -> Score {
  scores.reduce(into: Score(reference: [], detected: [])) { $0.add($1) }
}
func balanced(_ s: Score) -> Double {
  let se = s.truePositives + s.falseNegatives > 0 ? s.sensitivity : 1
  let sp = s.trueNegatives + s.falsePositives > 0 ? s.specificity : 1
  return (se + sp) / 2
}
/// Training objective over the records `indices`: mean over databases of the pooled (Se + Sp) / 2.
func objective(_ scores: [[Score]], setting: Int, records indices: [Int]) -> Double {
  let values = databases.compactMap { database -> Double? in
    let members = indices.filter { records[$0].database == database }
    return members.isEmpty ? nil : balanced(pooled(members.map { scores[$0][setting] }))
  }
  return values.reduce(0, +) / Double(max(values.count, 1))
}
/// The first setting with the highest objective on the records `indices`.
func best(_ scores: [[Score]], settings: Int, records indices: [Int]) -> Int {
  var top = 0
  var topValue = -Double.infinity
  for setting in 0..<settings {
    let value = objective(scores, setting: setting, records: indices)
    if value > topValue { (top, topValue) = (setting, value) }
  }
  return top
}
func cells(_ s: Score) -> String {
  String(
    format: "%4d %3d %3d %5d %6.1f %6.1f", s.truePositives, s.falseNegatives, s.falsePositives,
    s.trueNegatives,
    100 * s.sensitivity, 100 * s.specificity)
}
func describe(_ p: AtrialFibrillationDetector.Parameters, _ c: Configuration) -> String {
  "threshold \(p.threshold)" + (c.ecg ? ", atrial consistency \(p.organizedAtrialConsistency)" : "")
    + (c.classes ? ", excluded " + p.excludedClasses.sorted().map(\.letter).joined() : "")
}

print("AF per 30-s segment, \(records.count) records; columns TP FN FP TN Se% Sp%")
for configuration in configurations {
  fflush(nil)
  let settings = grid(configuration)
  var decisions: [[[Bool]]] = []
  let scores = records.map { record in
    let perSetting = settings.map { segments(record, configuration, $0) }
    decisions.append(perSetting)
    return perSetting.map { Score(reference: record.afSegments, detected: $0) }
  }
  let all = Array(records.indices)
  let chosen = best(scores, settings: settings.count, records: all)
  let heldOut = all.map { r in best(scores, settings: settings.count, records: all.filter { $0 != r }) }
  print("\n\(configuration.name); all-data choice: \(describe(settings[chosen], configuration))")
  print("database   default parameters          | all-data choice             | cross-validated")
  for database in databases {
    let members = all.filter { records[$0].database == database }
    print(
      database.padding(toLength: 10, withPad: " ", startingAt: 0)
        + " \(cells(pooled(members.map { scores[$0][0] })))"
        + " | \(cells(pooled(members.map { scores[$0][chosen] })))"
        + " | \(cells(pooled(members.map { scores[$0][heldOut[$0]] })))")
  }
  let distinct = Set(heldOut).sorted().map { describe(settings[$0], configuration) }
  print("settings chosen across the CV folds: " + distinct.joined(separator: "; "))
  var falseAF: [String: (called: Int, segments: Int)] = [:]
  for r in all {
    for (segment, isAF) in records[r].afSegments.enumerated() where !isAF {
      let rhythm = records[r].segmentRhythms[segment]
      falseAF[rhythm, default: (0, 0)].segments += 1
      falseAF[rhythm, default: (0, 0)].called += decisions[r][heldOut[r]][segment] ? 1 : 0
    }
  }
  print(
    "non-AF segments called AF under CV, by reference rhythm: "
      + falseAF.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.called)/\($0.value.segments)" }
      .joined(separator: ", "))
  if listErrors {
    for r in all where scores[r][heldOut[r]].falseNegatives + scores[r][heldOut[r]].falsePositives > 0 {
      print(
        "  \(records[r].name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(cells(scores[r][heldOut[r]]))"
      )
    }
  }
}
