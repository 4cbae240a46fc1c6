// The QRS detector on short recordings, scored as ../docs/SCORING.md says: LUDB lead ii (10 s, 500 Hz,
// ±150 ms, every beat counts, detections inside the annotated span: first annotated QRS − 160 ms to the
// last + 160 ms) and CPSC 2019 (10 s, 500 Hz, ±75 ms, the first and last 0.5 s left out, the challenge's
// rule), at the recordings' rate and resampled to 125, 250 and 1000 Hz (zero-phase polyphase, SciPy
// resample_poly), with the reference beats moved alike.
import Foundation
import Vitals

/// One short recording: its name, one lead's samples, the reference beats and which beats are scored.
struct ShortRecord {
  var name: String
  var samples: [Float]
  /// Every lead of the recording, the scored one first (only `samples` for a one-lead recording).
  var leads: [[Float]]
  var reference: [Int64]
  var sampleRate: Double
  /// Match window, seconds.
  var window: Double
  /// Scored sample ranges at `sampleRate`: reference beats and detections outside are left out.
  var referenceSpan: ClosedRange<Int64>
  var detectionSpan: ClosedRange<Int64>

  /// The record resampled to `rate` Hz, the reference beats and spans moved alike.
  func resampled(to rate: Double) -> ShortRecord {
    guard rate != sampleRate else { return self }
    var copy = self
    let scale = rate / sampleRate
    let move = { (sample: Int64) in Int64((Double(sample) * scale).rounded()) }
    copy.leads = leads.map { PolyphaseResampler.resample($0, up: Int(rate), down: Int(sampleRate)) }
    copy.samples = copy.leads[0]
    copy.reference = reference.map(move)
    copy.referenceSpan = move(referenceSpan.lowerBound)...move(referenceSpan.upperBound)
    copy.detectionSpan = move(detectionSpan.lowerBound)...move(detectionSpan.upperBound)
    copy.sampleRate = rate
    return copy
  }

  /// The score of `beats`: the whole record matched first, then a pair counts when its reference beat
  /// is scored, an unmatched reference beat or detection when it lies in its span.
  func score(_ beats: [Int64]) -> BeatScore {
    let matching = BeatMatching(
      reference: reference, test: beats,
      window: BeatComparison.windowSamples(window, sampleRate: sampleRate))
    return BeatScore(
      truePositives: matching.pairs.count { referenceSpan.contains(reference[$0.reference]) },
      falseNegatives: matching.unmatchedReference.count { referenceSpan.contains(reference[$0]) },
      falsePositives: matching.unmatchedTest.count { detectionSpan.contains(beats[$0]) })
  }
}

enum ShortRecords {
  /// LUDB lead ii: every annotated QRS peak (`N` between `(` and `)`) is a reference beat.
  static func ludb(data: String) throws -> [ShortRecord] {
    let folder = data + "/ludb"
    guard let list = try? String(contentsOfFile: folder + "/RECORDS", encoding: .utf8) else { return [] }
    return try list.split(whereSeparator: \.isNewline).map(String.init).compactMap { name in
      let reader = try WFDBRecordReader(path: folder + "/" + name)
      guard let chunk = try reader.readAll(),
        let lead = reader.signals.firstIndex(where: { $0.name == "ii" })
      else { return nil }
      let reference = try WFDBAnnotationFile.read(path: folder + "/" + name + ".ii")
        .filter { $0.symbol == "N" }.map(\.sample)
      guard let first = reference.first, let last = reference.last else { return nil }
      let margin = Int64((0.160 * chunk.sampleRate).rounded())
      let others = chunk.channels.indices.filter { $0 != lead }.map { chunk.channels[$0] }
      return ShortRecord(
        name: name, samples: chunk.channels[lead], leads: [chunk.channels[lead]] + others,
        reference: reference, sampleRate: chunk.sampleRate,
        window: BeatComparison.standardMatchWindow,
        referenceSpan: 0...Int64(chunk.channels[lead].count),
        detectionSpan: (first - margin)...(last + margin))
    }
  }

  /// CPSC 2019: `data_N.csv` (one column, mV, 500 Hz) and `data_N_ann.csv` (R-peak indices).
  static func cpsc2019(data: String) throws -> [ShortRecord] {
    let folder = data + "/cpsc2019"
    guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
    let rate = 500.0
    return try files.filter { $0.hasSuffix("_ann.csv") }.sorted().map { file in
      let name = String(file.dropLast("_ann.csv".count))
      func column(_ path: String) throws -> [Substring] {
        try String(contentsOfFile: folder + "/" + path, encoding: .utf8)
          .split(whereSeparator: \.isNewline).dropFirst().map { $0 }
      }
      let samples = try column(name + ".csv").compactMap { Float($0) }
      let reference = try column(file).compactMap { Int64($0) }
      let edge = Int64(0.5 * rate)
      let window = 0.075
      let end = Int64(samples.count)
      let slack = Int64(window * rate)
      return ShortRecord(
        name: name, samples: samples, leads: [samples], reference: reference, sampleRate: rate,
        window: window,
        referenceSpan: edge...(end - edge), detectionSpan: (edge + slack)...(end - edge - slack))
    }
  }

  /// Per-record scores of `detector` over `records`.
  static func scores(_ records: [ShortRecord], _ detector: (ShortRecord) throws -> [Int64]) rethrows
    -> [BeatScore]
  {
    try records.map { $0.score(try detector($0)) }
  }

  /// The rates of the sweep, Hz.
  static let sweepRates: [Double] = [125, 250, 500, 1000]

  /// Prints gross scores per database and rate, and the records with errors at the recordings' rate.
  static func report(data: String, configuration: QRSDetector.Configuration, chunk: Int?) throws {
    let databases = [("LUDB ii", try ludb(data: data)), ("CPSC2019", try cpsc2019(data: data))]
    let detect = { (record: ShortRecord) in
      try QRSDetector.detect(
        record.samples, sampleRate: record.sampleRate, configuration: configuration, chunkSize: chunk)
    }
    print("\nShort records: LUDB lead ii (±150 ms, annotated span), CPSC 2019 (±75 ms, 0.5 s edges out)")
    print(
      String(format: "%-16@ %7@ %5@ %5@ %8@ %8@ %8@", "set @ rate", "TP", "FN", "FP", "Se%", "+P%", "F1%"))
    let vote = { (record: ShortRecord) in
      var multiLead = MultiLeadQRSDetector.Configuration()
      multiLead.lead = configuration
      return try MultiLeadQRSDetector.detect(
        record.leads, sampleRate: record.sampleRate, configuration: multiLead, chunkSize: chunk)
    }
    for (name, records) in databases where !records.isEmpty {
      for rate in sweepRates {
        let resampled = records.map { $0.resampled(to: rate) }
        let perRecord = try scores(resampled, detect)
        print(line(String(format: "%@ %4.0f", name, rate), BeatScore.gross(perRecord)))
        if rate == records[0].sampleRate { try printErrors(records, detect) }
        if records[0].leads.count > 1 {
          print(
            line(String(format: "%@ %4.0f vote", name, rate), BeatScore.gross(try scores(resampled, vote))))
        }
      }
    }
  }

  /// Prints, per record with errors, the times (s) of its missed reference beats and false detections.
  static func printErrors(_ records: [ShortRecord], _ detector: (ShortRecord) throws -> [Int64]) rethrows {
    var errors: [String] = []
    for record in records {
      let beats = try detector(record)
      let matching = BeatMatching(
        reference: record.reference, test: beats,
        window: BeatComparison.windowSamples(record.window, sampleRate: record.sampleRate))
      let seconds = { (sample: Int64) in String(format: "%.2f", Double(sample) / record.sampleRate) }
      let missed = matching.unmatchedReference.map { record.reference[$0] }
        .filter { record.referenceSpan.contains($0) }
      let false_ = matching.unmatchedTest.map { beats[$0] }.filter { record.detectionSpan.contains($0) }
      guard !missed.isEmpty || !false_.isEmpty else { continue }
      errors.append(
        "\(record.name) missed " + missed.map(seconds).joined(separator: " ") + " false "
          + false_.map(seconds).joined(separator: " "))
    }
    print("  errors: " + errors.joined(separator: "; "))
  }
}
