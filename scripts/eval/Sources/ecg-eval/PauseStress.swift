// The QRS detector in sinus pauses: every 60 s of each non-paced MIT-BIH record a pause of 2 to 6 s is
// made by lengthening the diastole of a normal beat followed by a normal beat. The stretch from 450 ms
// after its R peak (past the T wave) to 250 ms before the next (before the P wave) is played forward
// and backward (so the signal stays continuous) until the pause is about as long as wanted; the
// record's own noise and baseline fill it, and no P wave, as in sinus arrest. Scored: detections inside
// the pauses (false beats; none is right) and the beats that end a pause that are missed.
import Foundation
import Vitals

enum PauseStress {
  /// Pause lengths added, seconds, used in turn.
  static let pauseLengths: [Double] = [2, 3, 4, 5, 6]

  /// `samples` with the pauses added after `reference` beats whose MIT code is in `normal`, the moved
  /// reference beats, and the inserted stretches with the index of the beat that ends each.
  static func withPauses(
    _ samples: [Float], reference: [Int64], codes: [String], sampleRate: Double
  ) -> (samples: [Float], reference: [Int64], pauses: [(range: Range<Int64>, endingBeat: Int)]) {
    let start = Int64(0.45 * sampleRate)
    let end = Int64(0.25 * sampleRate)
    var output: [Float] = []
    output.reserveCapacity(samples.count + Int(Double(samples.count) / 10))
    var moved = reference
    var pauses: [(range: Range<Int64>, endingBeat: Int)] = []
    var copied = 0
    var nextTime = 60 * sampleRate
    for k in 0..<reference.count - 1 where Double(reference[k]) >= nextTime {
      let low = Int(reference[k] + start)
      let high = Int(reference[k + 1] - end)
      guard codes[k] == "N" && codes[k + 1] == "N" && high - low >= Int(0.1 * sampleRate) else { continue }
      let stretch = Array(samples[low..<high]) + samples[low..<high].reversed()
      let length = pauseLengths[pauses.count % pauseLengths.count] * sampleRate
      let cycles = max(1, Int((length / Double(stretch.count)).rounded()))
      output += samples[copied..<low]
      let insertStart = Int64(output.count)
      for _ in 0..<cycles { output += stretch }
      let inserted = Int64(output.count) - insertStart
      for j in (k + 1)..<moved.count { moved[j] += inserted }
      pauses.append((insertStart..<insertStart + inserted, k + 1))
      copied = low
      nextTime = Double(reference[k]) + 60 * sampleRate
    }
    output += samples[copied...]
    return (output, moved, pauses)
  }

  /// The non-paced records of `records` (MIT-BIH, lead MLII) with pauses, for ``CrossValidation``, scored
  /// over the whole changed record (named as the source record, so that both are left out together).
  static func records(mitdb: String, records: [String]) throws -> [CrossValidation.Record] {
    try records.filter { !["102", "104", "107", "217"].contains($0) }.map { name in
      let (stressed, rate) = try stressedRecord(mitdb: mitdb, name: name)
      return CrossValidation.Record(database: "MIT-BIH+pauses", name: name) { configuration in
        let beats = try QRSDetector.detect(stressed.samples, sampleRate: rate, configuration: configuration)
        return BeatComparison.score(reference: stressed.reference, test: beats, sampleRate: rate)
      }
    }
  }

  /// The record `name` of `mitdb` (lead MLII) with pauses added (see
  /// ``withPauses(_:reference:codes:sampleRate:)``) and its rate.
  static func stressedRecord(mitdb: String, name: String) throws -> (
    (samples: [Float], reference: [Int64], pauses: [(range: Range<Int64>, endingBeat: Int)]), Double
  ) {
    let reader = try WFDBRecordReader(path: mitdb + "/" + name)
    let chunk = try reader.readAll()!
    let lead = try ChannelSelector.resolve(
      [.rule(RecordingBeats.ecgLeadRule)], names: reader.signals.map(\.name), path: mitdb + "/" + name)[0]
    let annotations = try WFDBAnnotationFile.read(path: mitdb + "/" + name + ".atr").filter(\.isBeat)
    let stressed = withPauses(
      chunk.channels[lead], reference: annotations.map(\.sample), codes: annotations.map(\.symbol),
      sampleRate: chunk.sampleRate)
    return (stressed, chunk.sampleRate)
  }
  /// Prints, over the non-paced records of `records` (MIT-BIH, lead MLII), the pauses added, the false
  /// beats inside them, the missed beats that end them, and the gross score of the changed records.
  static func report(
    mitdb: String, records: [String], configuration: QRSDetector.Configuration, name: String
  ) throws {
    var pauseCount = 0
    var falseInPauses = 0
    var missedAfter = 0
    var gross = BeatScore()
    var worst: [String] = []
    for record in records where !["102", "104", "107", "217"].contains(record) {
      let (stressed, rate) = try stressedRecord(mitdb: mitdb, name: record)
      let beats = try QRSDetector.detect(stressed.samples, sampleRate: rate, configuration: configuration)
      let window = BeatComparison.windowSamples(BeatComparison.standardMatchWindow, sampleRate: rate)
      let matching = BeatMatching(reference: stressed.reference, test: beats, window: window)
      let matchedReference = Set(matching.pairs.map(\.reference))
      var recordFalse = 0
      for pause in stressed.pauses {
        recordFalse += beats.count { pause.range.contains($0) }
        missedAfter += matchedReference.contains(pause.endingBeat) ? 0 : 1
      }
      pauseCount += stressed.pauses.count
      falseInPauses += recordFalse
      if recordFalse > 0 { worst.append("\(record) \(recordFalse)") }
      gross.add(
        BeatScore(
          truePositives: matching.pairs.count, falseNegatives: matching.unmatchedReference.count,
          falsePositives: matching.unmatchedTest.count))
    }
    print(
      "\n\(name): sinus pauses of 2-6 s added every 60 s to the non-paced MIT-BIH records: "
        + "\(pauseCount) pauses, "
        + "\(falseInPauses) false beats inside them (records: \(worst.joined(separator: ", "))), "
        + "\(missedAfter) missed beats ending them")
    print(line("pauses", gross) + "   | gross over the changed records")
  }
}
