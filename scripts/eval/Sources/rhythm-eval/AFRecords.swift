import Foundation
import Vitals

/// One annotated record for the AF evaluation: the ECG lead, its reference beats with their EC57
/// classes, the detector's beats, and the reference AF decision of every 30-s segment.
struct AFRecord {
  var name: String
  var database: String
  var signal: [Float]
  var sampleRate: Double
  var referenceBeats: [Int64]
  /// EC57 class of each reference beat (`?`, a beat of unknown type, counts as unclassifiable).
  var referenceClasses: [BeatClass]
  var detectedBeats: [Int64]
  /// Per detected beat, the class of the reference beat it matches (±150 ms); `.normal` when it matches
  /// none, as a beat whose class is unknown is judged.
  var transferredClasses: [BeatClass]
  /// Per detected beat, its class from `BeatClassifier` on every ECG lead of the record.
  var classifiedClasses: [BeatClass]
  /// Reference AF per 30-s segment: `(AFIB` covers more than half of it (atrial flutter is not AF).
  var afSegments: [Bool]
  /// The reference rhythm covering more than half of each segment (`mixed` where none does).
  var segmentRhythms: [String]

  /// Reads `path` (WFDB, `.atr` beside it) and detects its beats in the lead of ``RecordingBeats``.
  init(path: String, database: String) throws {
    let reader = try WFDBRecordReader(path: path)
    guard let chunk = try reader.readAll() else { throw CocoaError(.fileReadCorruptFile) }
    let lead = try ChannelSelector.resolve(
      [.rule(RecordingBeats.ecgLeadRule)], names: reader.signals.map(\.name), path: path)[0]
    name = (path as NSString).lastPathComponent
    self.database = database
    signal = chunk.channels[lead]
    sampleRate = chunk.sampleRate
    let annotations = try WFDBAnnotationFile.read(path: path + ".atr")
    let beats = annotations.filter(\.isBeat)
    referenceBeats = beats.map(\.sample)
    referenceClasses = beats.map { BeatClass(mitCode: $0.symbol) ?? .unclassifiable }
    detectedBeats = try QRSDetector.detect(signal, sampleRate: sampleRate)
    var transferred = [BeatClass](repeating: .normal, count: detectedBeats.count)
    let window = BeatComparison.windowSamples(BeatComparison.standardMatchWindow, sampleRate: sampleRate)
    for pair in BeatMatching(reference: referenceBeats, test: detectedBeats, window: window).pairs {
      transferred[pair.test] = referenceClasses[pair.reference]
    }
    transferredClasses = transferred
    let names = reader.signals.map(\.name)
    classifiedClasses = BeatClassifier.classify(
      detectedBeats, leads: ChannelRoles.ecgLeads(named: names, lead: lead).map { chunk.channels[$0] },
      sampleRate: sampleRate)
    let changes = annotations.filter { $0.symbol == "+" && !$0.aux.isEmpty }.map {
      (sample: $0.sample, rhythm: $0.aux.trimmingCharacters(in: .controlCharacters.union(.whitespaces)))
    }
    let count = Int64(signal.count)
    let rate = sampleRate
    func covered(_ label: String) -> [Bool] {
      RhythmSegments.majority(
        of: RhythmSegments.reference(rhythmChanges: changes, sampleCount: count, label: label),
        sampleCount: count, sampleRate: rate)
    }
    afSegments = covered("(AFIB")
    segmentRhythms = Set(changes.map(\.rhythm)).sorted().reduce(
      into: [String](repeating: "mixed", count: afSegments.count)
    ) { rhythms, label in
      for (segment, isCovered) in covered(label).enumerated() where isCovered { rhythms[segment] = label }
    }
  }

  /// The record names listed in `folder`/RECORDS, else the `.hea` files' names, sorted.
  static func names(in folder: String) throws -> [String] {
    if let list = try? String(contentsOfFile: folder + "/RECORDS", encoding: .utf8) {
      return list.split(whereSeparator: \.isNewline).map(String.init)
    }
    return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".hea") }
      .map { String($0.dropLast(4)) }.sorted()
  }
}
