// Runs the QRS detector over the MIT-BIH records and the noise-stress excerpts in the shared data
// folder and prints bxb-style scores (ANSI/AAMI EC57) with the project's beat comparison, beat classes and
// N→N HRV (BeatClasses.swift), and the atrial-fibrillation detector's per-30-s-segment scores
// against the (AFIB rhythm annotations (from RR intervals alone and with the lead's atrial activity,
// on reference and on detected beats), with the false AF segments broken down by the reference rhythm
// they fall in (atrial flutter, sinus, paced, ...).
//
// Usage: ecg-eval [--data DIR] [--chunk N] [--records 100,101]
//   --data     the shared data folder (default: ../shared/data beside the repository, or
//              $VITALS_SHARED_DATA)
//   --chunk    feed the detector in chunks of N samples (default: the whole record at once)
//   --records  only these MIT-BIH records
//   --set NAME=VALUE  a detector option (passbandLow, passbandHigh, integrationWindow,
//              refractoryPeriod, tWaveWindow, tWaveSlopeRatio, thresholdPosition,
//              searchBackThresholdRatio, searchBackInterval, maximumLatency, amplitudeDropPause,
//              interloperPrematurity, interloperHeightRatio, interloperRegularity,
//              stepSlopeSymmetry, highBandLow (0: no high band), highBandHigh);
//              repeatable
//   --rate R   resample every record from 360 Hz to R Hz (zero-phase polyphase, SciPy resample_poly)
//              and move the reference beats alike, to test the detector at other rates
//   --misses   also list each record's missed reference beats (time and code) and false detections
//   --classes-only  only the beat-class and N→N HRV sections (BeatClasses.swift)
//   --cost-only     only the cost of classification and quality against detection (BeatClasses.swift)
import EvalSupport
import Foundation
import Vitals

struct Options {
  var data: String
  var chunk: Int?
  var records: Set<String>?
  var listMisses = false
  var classesOnly = false
  var costOnly = false
  var rate: Int?
  var configuration = QRSDetector.Configuration()

  init(arguments: [String]) {
    data = sharedDataDirectory
    var iterator = arguments.dropFirst().makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--misses": listMisses = true
      case "--classes-only": classesOnly = true
      case "--cost-only": costOnly = true
      default: break
      }
      if ["--misses", "--classes-only", "--cost-only"].contains(argument) { continue }
      guard let value = iterator.next() else { fatalError("\(argument) needs a value") }
      switch argument {
      case "--data": data = value
      case "--chunk": chunk = Int(value)
      case "--rate": rate = Int(value)
      case "--records": records = Set(value.split(separator: ",").map(String.init))
      case "--set": set(value)
      default: fatalError("unknown option \(argument)")
      }
    }
  }
}

extension Options {
  mutating func set(_ assignment: String) {
    let parts = assignment.split(separator: "=")
    guard parts.count == 2, let value = Double(parts[1]) else { fatalError("--set needs NAME=NUMBER") }
    switch parts[0] {
    case "passbandLow": configuration.passband = value...configuration.passband.upperBound
    case "passbandHigh": configuration.passband = configuration.passband.lowerBound...value
    case "integrationWindow": configuration.integrationWindow = value
    case "refractoryPeriod": configuration.refractoryPeriod = value
    case "tWaveWindow": configuration.tWaveWindow = value
    case "tWaveSlopeRatio": configuration.tWaveSlopeRatio = value
    case "thresholdPosition": configuration.thresholdPosition = value
    case "searchBackThresholdRatio": configuration.searchBackThresholdRatio = value
    case "searchBackInterval": configuration.searchBackInterval = value
    case "maximumLatency": configuration.maximumLatency = value
    case "amplitudeDropPause": configuration.amplitudeDropPause = value
    case "interloperPrematurity": configuration.interloperPrematurity = value
    case "interloperHeightRatio": configuration.interloperHeightRatio = value
    case "interloperRegularity": configuration.interloperRegularity = value
    case "stepSlopeSymmetry": configuration.stepSlopeSymmetry = value
    case "highBandLow":
      configuration.highBand = value == 0 ? nil : value...(configuration.highBand?.upperBound ?? 45)
    case "highBandHigh": configuration.highBand = (configuration.highBand?.lowerBound ?? 20)...value
    default: fatalError("unknown detector option \(parts[0])")
    }
  }
}

let options = Options(arguments: CommandLine.arguments)
let pacedRecords: Set<String> = ["102", "104", "107", "217"]

/// The signal at the evaluation rate, the reference beats moved to it, and the rate.
func atEvaluationRate(_ samples: [Float], _ reference: [Int64], sampleRate: Double) -> (
  [Float], [Int64], Double
) {
  guard let rate = options.rate, Double(rate) != sampleRate else { return (samples, reference, sampleRate) }
  let original = Int(sampleRate)
  let resampled = PolyphaseResampler.resample(samples, up: rate, down: original)
  let moved = reference.map { Int64((Double($0) * Double(rate) / sampleRate).rounded()) }
  return (resampled, moved, Double(rate))
}

func detect(_ samples: [Float], sampleRate: Double) throws -> [Int64] {
  try QRSDetector.detect(
    samples, sampleRate: sampleRate, configuration: options.configuration, chunkSize: options.chunk)
}

/// The score with the beats inside `episodes` (record samples) left out, as EC57 leaves out ventricular
/// flutter and fibrillation: the whole record is matched first (so a detection just outside an episode
/// still pairs with a reference beat just inside it), then a pair counts as a true positive when its
/// reference beat lies outside every episode (a pair whose reference lies inside is ignored, whichever side
/// the detection falls), an unmatched reference or detection counts only when it lies outside.
func scoreOutside(
  _ episodes: [ClosedRange<Int64>], reference: [Int64], test: [Int64], sampleRate: Double
) -> BeatScore {
  let outside = { (sample: Int64) in !episodes.contains { $0.contains(sample) } }
  let matching = BeatMatching(
    reference: reference, test: test,
    window: BeatComparison.windowSamples(BeatComparison.standardMatchWindow, sampleRate: sampleRate))
  return BeatScore(
    truePositives: matching.pairs.count { outside(reference[$0.reference]) },
    falseNegatives: matching.unmatchedReference.count { outside(reference[$0]) },
    falsePositives: matching.unmatchedTest.count { outside(test[$0]) })
}

func line(_ name: String, _ s: BeatScore) -> String {
  String(
    format: "%-8@ %7d %5d %5d %8.3f %8.3f %8.3f", name, s.truePositives, s.falseNegatives, s.falsePositives,
    100 * s.sensitivity, 100 * s.positivePredictivity, 100 * s.f1)
}

let header = String(format: "%-8@ %7@ %5@ %5@ %8@ %8@ %8@", "record", "TP", "FN", "FP", "Se%", "+P%", "F1%")
let mitdb = options.data + "/mitdb"
let recordList = try String(contentsOfFile: mitdb + "/RECORDS", encoding: .utf8)
  .split(whereSeparator: \.isNewline).map(String.init)
  .filter { options.records?.contains($0) ?? true }
var scores: [RecordBeatScore] = []
var flutterExcluded: [RecordBeatScore] = []
/// Detection minus reference, seconds, of every matched pair (placement consistency).
var offsets: [Double] = []
/// Per-30-s-segment AF scores (reference rhythm `(AFIB`), from reference and from detected beats, by
/// RR intervals alone ("RR") and with the lead's atrial activity ("RR+ECG").
typealias AFRow = (record: String, reference: RhythmSegments.Score, detected: RhythmSegments.Score)
var afScores: [String: [AFRow]] = [:]
let afMethods = ["RR", "RR+ECG"]
/// Non-AF segments of one reference rhythm: how many there are and how many the AF detector calls AF,
/// on reference and on detected beats.
struct FalseAFCount {
  var segments = 0
  var onReference = 0
  var onDetected = 0

  mutating func add(onReference reference: Bool, onDetected detected: Bool) {
    segments += 1
    onReference += reference ? 1 : 0
    onDetected += detected ? 1 : 0
  }
}
/// Per method, per reference rhythm (the rhythm covering more than half of the segment, else "mixed").
var falseAF: [String: [String: FalseAFCount]] = [:]
var detectSeconds = 0.0
var startErrors = StartOfRecordErrors()
var detectSamples = 0
if options.costOnly {
  printClassificationCost(try loadClassRecords(recordList))
  exit(0)
}
if options.classesOnly {
  try evaluateBeatClasses(recordList)
  exit(0)
}
print(
  "MIT-BIH, lead MLII (V5 in 102 and 104), 150 ms window"
    + (options.rate.map { ", resampled to \($0) Hz" } ?? ""))
print(header + "   | from 5 min: Se%    +P%")
for record in recordList {
  let reader = try WFDBRecordReader(path: mitdb + "/" + record)
  guard let chunk = try reader.readAll() else { continue }
  let lead = try ChannelSelector.resolve(
    [.rule(RecordingBeats.ecgLeadRule)], names: reader.signals.map(\.name), path: mitdb + "/" + record)[0]
  let allAnnotations = try WFDBAnnotationFile.read(path: mitdb + "/" + record + ".atr")
  let annotations = allAnnotations.filter(\.isBeat)
  let (signal, reference, rate) = atEvaluationRate(
    chunk.channels[lead], annotations.map(\.sample), sampleRate: chunk.sampleRate)
  let scale = rate / chunk.sampleRate
  // Ventricular flutter/fibrillation episodes, '[' to ']': EC57 leaves them out of QRS statistics.
  var flutter: [ClosedRange<Int64>] = []
  var onset: Int64?
  for annotation in allAnnotations {
    let sample = Int64((Double(annotation.sample) * scale).rounded())
    if annotation.symbol == "[" { onset = sample }
    if annotation.symbol == "]", let start = onset {
      flutter.append(start...sample)
      onset = nil
    }
  }
  // An episode still open at the end of the record lasts to the end.
  if let start = onset { flutter.append(start...Int64(signal.count)) }
  let clock = ContinuousClock.now
  let beats = try detect(signal, sampleRate: rate)
  let elapsed = ContinuousClock.now - clock
  detectSeconds += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  detectSamples += signal.count
  let score = BeatComparison.scoreRecord(record, reference: reference, test: beats, sampleRate: rate)
  scores.append(score)
  try startErrors.add(record: record, signal: signal, reference: reference, beats: beats, rate: rate) {
    try detect($0, sampleRate: rate)
  }
  let pairs = BeatMatching(
    reference: reference, test: beats,
    window: BeatComparison.windowSamples(BeatComparison.standardMatchWindow, sampleRate: rate)
  ).pairs
  offsets += pairs.map { Double(beats[$0.test] - reference[$0.reference]) / rate }
  let rhythmChanges = allAnnotations.filter { $0.symbol == "+" && !$0.aux.isEmpty }.map {
    (
      sample: Int64((Double($0.sample) * scale).rounded()),
      rhythm: $0.aux.trimmingCharacters(in: .controlCharacters)
    )
  }
  let sampleCount = Int64(signal.count)
  let afReference = RhythmSegments.majority(
    of: RhythmSegments.reference(rhythmChanges: rhythmChanges, sampleCount: sampleCount),
    sampleCount: sampleCount, sampleRate: rate)
  let afDetector = AtrialFibrillationDetector()
  // The reference rhythm covering more than half of each segment ("mixed" where none does).
  let segmentRhythms = Set(rhythmChanges.map(\.rhythm)).sorted().reduce(
    into: [String](repeating: "mixed", count: afReference.count)
  ) { rhythms, label in
    let covered = RhythmSegments.majority(
      of: RhythmSegments.reference(rhythmChanges: rhythmChanges, sampleCount: sampleCount, label: label),
      sampleCount: sampleCount, sampleRate: rate)
    for (segment, isCovered) in covered.enumerated() where isCovered { rhythms[segment] = label }
  }
  for method in afMethods {
    let lead = method == "RR" ? nil : signal
    let onReference = afDetector.analyze(beats: reference, sampleRate: rate, signal: lead).segments(
      sampleCount: sampleCount)
    let onDetected = afDetector.analyze(beats: beats, sampleRate: rate, signal: lead).segments(
      sampleCount: sampleCount)
    afScores[method, default: []].append(
      (
        record, RhythmSegments.Score(reference: afReference, detected: onReference),
        RhythmSegments.Score(reference: afReference, detected: onDetected)
      ))
    for segment in afReference.indices where !afReference[segment] {
      falseAF[method, default: [:]][segmentRhythms[segment], default: FalseAFCount()].add(
        onReference: onReference[segment], onDetected: onDetected[segment])
    }
  }
  flutterExcluded.append(
    RecordBeatScore(
      record: record,
      wholeRecord: scoreOutside(flutter, reference: reference, test: beats, sampleRate: rate),
      afterLearningPeriod: scoreOutside(
        flutter + [0...Int64(BeatComparison.standardLearningPeriod * rate) - 1], reference: reference,
        test: beats, sampleRate: rate),
      learningPeriod: BeatComparison.standardLearningPeriod))
  if options.listMisses {
    let window = BeatComparison.windowSamples(BeatComparison.standardMatchWindow, sampleRate: rate)
    let matching = BeatMatching(reference: reference, test: beats, window: window)
    let seconds = { (sample: Int64) in String(format: "%.2f", Double(sample) / rate) }
    print(
      "  missed: "
        + matching.unmatchedReference.map { "\(seconds(reference[$0]))\(annotations[$0].symbol)" }.joined(
          separator: " "))
    print("  false: " + matching.unmatchedTest.map { seconds(beats[$0]) }.joined(separator: " "))
  }
  print(
    line(record, score.wholeRecord)
      + String(
        format: "   | %8.3f %8.3f", 100 * score.afterLearningPeriod.sensitivity,
        100 * score.afterLearningPeriod.positivePredictivity))
}
for (name, paced) in [("gross", false), ("paced", true)] {
  let group = scores.filter { pacedRecords.contains($0.record) == paced }
  guard !group.isEmpty else { continue }
  let whole = BeatScore.gross(group.map(\.wholeRecord))
  let after = BeatScore.gross(group.map(\.afterLearningPeriod))
  print(
    line(name, whole)
      + String(format: "   | %8.3f %8.3f", 100 * after.sensitivity, 100 * after.positivePredictivity)
      + "  (\(group.count) records)")
}
let nonPacedExcluded = flutterExcluded.filter { !pacedRecords.contains($0.record) }
let excluded = BeatScore.gross(nonPacedExcluded.map(\.wholeRecord))
let excludedAfter = BeatScore.gross(nonPacedExcluded.map(\.afterLearningPeriod))
print(
  line("gross-VF", excluded)
    + String(
      format: "   | %8.3f %8.3f", 100 * excludedAfter.sensitivity, 100 * excludedAfter.positivePredictivity)
    + "  (non-paced, ventricular flutter/fibrillation episodes '[' to ']' left out as in EC57)")
if let flutterRecord = flutterExcluded.first(where: { $0.record == "207" }) {
  print(line("207-VF", flutterRecord.wholeRecord) + "   | record 207 alone, episodes left out")
}
let sortedOffsets = offsets.sorted()
let meanOffset = offsets.reduce(0, +) / Double(max(offsets.count, 1))
let spread =
  (offsets.reduce(0) { $0 + ($1 - meanOffset) * ($1 - meanOffset) } / Double(max(offsets.count, 1)))
  .squareRoot()
if !sortedOffsets.isEmpty {
  print(
    String(
      format: "R-peak placement, detection − reference over %d matched beats: mean %.1f ms, SD %.1f ms, "
        + "median %.1f ms, 5-95%% %.1f to %.1f ms", offsets.count, 1000 * meanOffset, 1000 * spread,
      1000 * sortedOffsets[sortedOffsets.count / 2], 1000 * sortedOffsets[sortedOffsets.count / 20],
      1000 * sortedOffsets[sortedOffsets.count * 19 / 20]))
}
startErrors.report()
func afLine(_ name: String, _ rows: [AFRow]) -> String {
  var onReference = RhythmSegments.Score(reference: [], detected: [])
  var onDetected = onReference
  for row in rows {
    onReference.add(row.reference)
    onDetected.add(row.detected)
  }
  func cells(_ s: RhythmSegments.Score) -> String {
    String(
      format: "%4d %3d %3d %4d %7.1f %7.1f", s.truePositives, s.falseNegatives, s.falsePositives,
      s.trueNegatives, 100 * s.sensitivity, 100 * s.specificity)
  }
  return name.padding(toLength: 20, withPad: " ", startingAt: 0) + " " + cells(onReference) + "  | "
    + cells(onDetected)
}
for method in afMethods {
  guard let rows = afScores[method] else { continue }
  let withAF = rows.filter { $0.reference.truePositives + $0.reference.falseNegatives > 0 }.map(\.record)
  let nonPacedWithAF = withAF.filter { !pacedRecords.contains($0) }
  print(
    "\nAF per 30-s segment by \(method), reference rhythm (AFIB; detector on reference | on detected beats")
  print("group                  TP  FN  FP   TN     Se%     Sp%  |   TP  FN  FP   TN     Se%     Sp%")
  for row in rows
  where row.reference.falsePositives + row.detected.falsePositives > 0 || withAF.contains(row.record) {
    print(afLine(row.record, [row]))
  }
  print(afLine(nonPacedWithAF.joined(separator: "+"), rows.filter { nonPacedWithAF.contains($0.record) }))
  print(afLine("all (\(rows.count) records)", rows))
  print(
    "non-AF segments called AF, by reference rhythm (on reference | on detected beats / segments): "
      + (falseAF[method] ?? [:]).sorted { $0.key < $1.key }.map {
        "\($0.key) \($0.value.onReference) | \($0.value.onDetected) / \($0.value.segments)"
      }.joined(separator: ", "))
}
print(
  String(
    format: "detector alone: %.1f M samples/s over %d samples", Double(detectSamples) / detectSeconds / 1e6,
    detectSamples))

print("\nnstdb 118 excerpts, 150 ms window")
print(header)
let nstdb = options.data + "/nstdb-118"
for snr in ["24", "12", "06", "00"] {
  let path = nstdb + "/118e\(snr)"
  guard let text = try? String(contentsOfFile: path + ".csv", encoding: .utf8) else { continue }
  let (samples, reference, rate) = atEvaluationRate(
    text.split(whereSeparator: \.isNewline).compactMap { Float($0) },
    try String(contentsOfFile: path + "_ann.csv", encoding: .utf8)
      .split(whereSeparator: \.isNewline).compactMap { Int64($0) }, sampleRate: 360)
  let beats = try detect(samples, sampleRate: rate)
  if options.listMisses {
    let window = BeatComparison.windowSamples(BeatComparison.standardMatchWindow, sampleRate: rate)
    let matching = BeatMatching(reference: reference, test: beats, window: window)
    let seconds = { (sample: Int64) in String(format: "%.2f", Double(sample) / rate) }
    print("  missed: " + matching.unmatchedReference.map { seconds(reference[$0]) }.joined(separator: " "))
    print("  false: " + matching.unmatchedTest.map { seconds(beats[$0]) }.joined(separator: " "))
  }
  print(line("\(snr) dB", BeatComparison.score(reference: reference, test: beats, sampleRate: rate)))
}
try evaluateBeatClasses(recordList)
try ShortRecords.report(data: options.data, configuration: options.configuration, chunk: options.chunk)
try CrossValidation.report(data: options.data, records: recordList, base: options.configuration)
