// Beat classes (EC57 N S V F Q) on the shared MIT-BIH records: bxb statistics of BeatClassifier's labels
// on detected beats (and, apart, on the reference beats' positions), per record and gross, from 5 min
// (bxb's default) with VF episodes left out; the same with the classifier's thresholds chosen by
// leave-one-record-out cross-validation over a small grid; and HRV from detected N→N against reference
// N→N intervals.
import EvalSupport
import Foundation
import Vitals

/// One record as the class evaluation uses it: every lead, the reference beats and classes, the detected
/// beats.
struct ClassRecord {
  var name: String
  var leads: [[Float]]
  /// Index in `leads` of the lead the beats were detected in.
  var lead: Int
  var sampleRate: Double
  var reference: [Int64]
  var referenceClasses: [BeatClass?]
  var referenceSymbols: [String]
  var flutter: FlutterEpisodes
  var detected: [Int64]

  func score(_ labels: [BeatClass], onReference: Bool = false) -> BeatClassMatrix {
    BeatClassComparison.score(
      reference: reference, referenceClasses: referenceClasses, test: onReference ? reference : detected,
      testClasses: labels, sampleRate: sampleRate, excluding: flutter)
  }

  func classify(_ configuration: BeatClassifier.Configuration, onReference: Bool = false) -> [BeatClass] {
    BeatClassifier.classify(
      onReference ? reference : detected, leads: leads, sampleRate: sampleRate, configuration: configuration)
  }
}

func loadClassRecords(_ names: [String]) throws -> [ClassRecord] {
  try names.filter { !pacedRecords.contains($0) }.map { name in
    let path = mitdb + "/" + name
    let reader = try WFDBRecordReader(path: path)
    let chunk = try reader.readAll()!
    let lead = try ChannelSelector.resolve(
      [.rule(RecordingBeats.ecgLeadRule)], names: reader.signals.map(\.name), path: path)[0]
    let annotations = try WFDBAnnotationFile.read(path: path + ".atr")
    let beats = annotations.filter(\.isBeat)
    return ClassRecord(
      name: name, leads: chunk.channels, lead: lead, sampleRate: chunk.sampleRate,
      reference: beats.map(\.sample),
      referenceClasses: beats.map { BeatClass(mitCode: $0.symbol) }, referenceSymbols: beats.map(\.symbol),
      flutter: FlutterEpisodes(samples: annotations.map(\.sample), symbols: annotations.map(\.symbol)),
      detected: try detect(chunk.channels[lead], sampleRate: chunk.sampleRate))
  }
}

func classLine(_ name: String, _ m: BeatClassMatrix) -> String {
  let v = m.ventricular
  let s = m.supraventricular
  func percent(_ x: Double) -> String { x.isNaN ? "     -" : String(format: "%6.1f", 100 * x) }
  return String(
    format: "%-10@ %6d %6d %@ %@ %@ %6d %6d %@ %@", name, m.sum([.ventricular], BeatClass.allCases),
    v.truePositives,
    percent(v.sensitivity), percent(v.positivePredictivity), percent(m.ventricularFalsePositiveRate),
    m.sum([.supraventricular], BeatClass.allCases), s.truePositives, percent(s.sensitivity),
    percent(s.positivePredictivity))
}

/// The classifier's thresholds the cross-validation chooses among.
func classifierGrid() -> [BeatClassifier.Configuration] {
  var grid: [BeatClassifier.Configuration] = []
  for normal in [0.8, 0.85, 0.9] {
    for widening in [0.02, 0.03, 0.04] {
      for premature in [0.8, 0.85, 0.9] {
        for irregularity in [0.06, 0.08, 0.1] {
          var c = BeatClassifier.Configuration()
          c.normalMorphology = normal
          c.widening = widening
          c.supraventricularPrematurity = premature
          c.irregularity = irregularity
          grid.append(c)
        }
      }
    }
  }
  return grid
}

/// The objective the cross-validation maximizes: the mean of the gross V and S F1.
func classObjective(_ m: BeatClassMatrix) -> Double {
  let f1 = [m.ventricular.f1, m.supraventricular.f1].map { $0.isNaN ? 0 : $0 }
  return (f1[0] + f1[1]) / 2
}

func evaluateBeatClasses(_ names: [String]) throws {
  let records = try loadClassRecords(names)
  let header = String(
    format: "%-10@ %6@ %6@ %6@ %6@ %6@ %6@ %6@ %6@ %6@", "record", "V", "Vv", "Se%", "+P%", "FPR%", "S", "Ss",
    "Se%", "+P%")
  print("\nBeat classes (EC57), non-paced MIT-BIH records, from 5 min, VF episodes left out (bxb)")
  print("defaults, on detected beats | on the reference beats' positions")
  print(header)
  var detectedMatrices: [BeatClassMatrix] = []
  var referenceMatrices: [BeatClassMatrix] = []
  let defaults = BeatClassifier.Configuration()
  var labels: [[BeatClass]] = []
  for record in records { labels.append(record.classify(defaults)) }
  for (record, recordLabels) in zip(records, labels) {
    let onDetected = record.score(recordLabels)
    let onReference = record.score(record.classify(defaults, onReference: true), onReference: true)
    detectedMatrices.append(onDetected)
    referenceMatrices.append(onReference)
    print(classLine(record.name, onDetected) + "  | " + classLine("", onReference).dropFirst(11))
  }
  print(
    classLine("gross", .gross(detectedMatrices)) + "  | "
      + classLine("", .gross(referenceMatrices)).dropFirst(11))
  printClassificationCost(records)
  crossValidateClasses(records)
  evaluateNormalHRV(records, labels: labels)
}

/// The cost of classification (every lead) and of the signal-quality index (the lead) against detection
/// (the lead), measured in the same run over the same records as `vitals analyze` runs them: the record is
/// fed in chunks of 4096 samples, each stage's calls timed apart (CPU time); each stage's least time of
/// three runs per record counts (the machine is shared).
func printClassificationCost(_ records: [ClassRecord]) {
  var times = SIMD3<Double>()
  for record in records {
    var least = SIMD3<Double>(repeating: .infinity)
    for _ in 0..<3 { least = pointwiseMin(least, streamingTimes(record)) }
    times += least
  }
  let samples = Double(records.reduce(0) { $0 + $1.leads[0].count })
  let rates = samples / times / 1e6
  print(
    String(
      format: "same run, streamed in 4096-sample chunks, M record samples/s (CPU time, best of 3): detection"
        + " %.1f, classification (%d leads) %.1f, quality %.1f; classification + quality = %.0f %% of"
        + " detection time", rates[0], records.first?.leads.count ?? 0, rates[1], rates[2],
      100 * (times[1] + times[2]) / times[0]))
}

/// CPU seconds of detection, classification and quality over `record`, fed chunk by chunk.
func streamingTimes(_ record: ClassRecord) -> SIMD3<Double> {
  let rate = record.sampleRate
  var detector = try! QRSDetector(sampleRate: rate)
  var classifier = BeatClassifier(
    sampleRate: rate, leadCount: record.leads.count, latency: detector.latencySamples)
  var quality = try! ECGSignalQuality(sampleRate: rate)
  var beats: [Int64] = []
  var labels: [BeatClass] = []
  var windows: [ECGSignalQuality.Window] = []
  var times = SIMD3<Double>()
  func timed(_ stage: Int, _ work: () -> Void) {
    let start = threadCPUSeconds()
    work()
    times[stage] += threadCPUSeconds() - start
  }
  for start in stride(from: 0, to: record.leads[0].count, by: 4096) {
    let range = start..<min(start + 4096, record.leads[0].count)
    let chunks = record.leads.map { Array($0[range]) }
    let known = beats.count
    timed(0) { chunks[record.lead].withUnsafeBufferPointer { detector.process($0, appendingTo: &beats) } }
    timed(1) {
      for beat in beats[known...] { classifier.add(beat: beat) }
      classifier.process(chunks, appendingTo: &labels)
    }
    timed(2) { quality.process(chunks[record.lead], appendingTo: &windows) }
  }
  let known = beats.count
  timed(0) { detector.finish(appendingTo: &beats) }
  timed(1) {
    for beat in beats[known...] { classifier.add(beat: beat) }
    classifier.finish(appendingTo: &labels)
  }
  timed(2) { quality.finish(appendingTo: &windows) }
  precondition(labels.count == beats.count, "every beat labelled")
  return times
}

/// Leave one record out: for each record, the grid point with the best objective on the others labels it.
func crossValidateClasses(_ records: [ClassRecord]) {
  let grid = classifierGrid()
  let matrices = grid.map { configuration in records.map { $0.score($0.classify(configuration)) } }
  var held: [BeatClassMatrix] = []
  var chosen: [Int: Int] = [:]
  for (index, _) in records.enumerated() {
    let best = grid.indices.max { lhs, rhs in
      classObjective(.gross(matrices[lhs].enumerated().filter { $0.offset != index }.map(\.element)))
        < classObjective(.gross(matrices[rhs].enumerated().filter { $0.offset != index }.map(\.element)))
    }!
    chosen[best, default: 0] += 1
    held.append(matrices[best][index])
  }
  let allData = grid.indices.max {
    classObjective(.gross(matrices[$0])) < classObjective(.gross(matrices[$1]))
  }!
  print(
    "\nleave-one-record-out over \(grid.count) settings (normalMorphology, widening, supraventricularPrematurity,"
  )
  print("irregularity), objective mean of V and S F1; detected beats, from 5 min")
  print(classLine("CV gross", .gross(held)))
  print(classLine("best all", .gross(matrices[allData])))
  // Most chosen first; ties in grid order, not the dictionary's (which follows the process's hash seed).
  for (index, count) in chosen.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
    let c = grid[index]
    print(
      "  chosen \(count)×: \(c.normalMorphology), \(c.widening), \(c.supraventricularPrematurity), \(c.irregularity)"
    )
  }
  let d = BeatClassifier.Configuration()
  print(
    "  defaults: \(d.normalMorphology), \(d.widening), \(d.supraventricularPrematurity), \(d.irregularity)")
}

/// SDNN and RMSSD from detected N→N intervals (the classifier's labels) against the reference N→N intervals
/// (annotation labels), with the same artifact rule on both (Lipponen & Tarvainen, as SCORING.md asks:
/// the same ectopic-beat handling on both sides), records with at least 90 % normal beats.
func evaluateNormalHRV(_ records: [ClassRecord], labels: [[BeatClass]]) {
  print(
    "\nHRV from detected N→N (classifier labels) vs reference N→N (annotations), Lipponen-Tarvainen on both,")
  print("non-paced records with >= 90 % N beats")
  print("record   SDNN ms (det/ref)   dSDNN%   RMSSD ms (det/ref)   dRMSSD%")
  for (record, recordLabels) in zip(records, labels) {
    let normal = record.referenceSymbols.count { $0 == "N" }
    guard Double(normal) >= 0.9 * Double(record.reference.count) else { continue }
    let detected = VariabilitySummary(
      beats: record.detected, sampleRate: record.sampleRate, classes: recordLabels)
    let artifacts = RRArtifacts.detect(beats: record.reference, sampleRate: record.sampleRate).allBeats
    let reference = HRVTimeDomain(
      NNSeries(
        beats: record.reference, labels: record.referenceSymbols, sampleRate: record.sampleRate,
        excludingBeats: artifacts))
    let d = detected.time
    print(
      String(
        format: "%-6@ %8.2f %8.2f %8.2f   %8.2f %8.2f %8.2f", record.name, d.sdnn, reference.sdnn,
        100 * (d.sdnn / reference.sdnn - 1), d.rmssd, reference.rmssd, 100 * (d.rmssd / reference.rmssd - 1)))
  }
}
