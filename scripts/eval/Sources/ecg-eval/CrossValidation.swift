// Leave-one-record-out cross-validation of the QRS detector's settings over every shared ECG database
// with beat references: the MIT-BIH non-paced records (ventricular flutter and fibrillation left out as
// EC57 does), LUDB lead ii and CPSC 2019. For each record, the setting is chosen among `candidates` by the
// sum over databases of the error rate (FN + FP over reference beats) on every other record, and that
// record is scored with it; the held-out scores are summed per database.
import Foundation
import Vitals

enum CrossValidation {
  /// A record of one database and the detector run on it with a configuration.
  struct Record {
    var database: String
    var name: String
    var score: (QRSDetector.Configuration) throws -> BeatScore
  }

  /// The MIT-BIH non-paced records of `records`, scored with ventricular flutter and fibrillation left out.
  static func mitdb(_ folder: String, records: [String]) throws -> [Record] {
    try records.filter { !["102", "104", "107", "217"].contains($0) }.map { name in
      let reader = try WFDBRecordReader(path: folder + "/" + name)
      let chunk = try reader.readAll()!
      let lead = try ChannelSelector.resolve(
        [.rule(RecordingBeats.ecgLeadRule)], names: reader.signals.map(\.name), path: folder + "/" + name)[0]
      let annotations = try WFDBAnnotationFile.read(path: folder + "/" + name + ".atr")
      let reference = annotations.filter(\.isBeat).map(\.sample)
      var episodes: [ClosedRange<Int64>] = []
      var onset: Int64?
      for annotation in annotations {
        if annotation.symbol == "[" { onset = annotation.sample }
        if annotation.symbol == "]", let start = onset {
          episodes.append(start...annotation.sample)
          onset = nil
        }
      }
      if let start = onset { episodes.append(start...Int64(chunk.channels[lead].count)) }
      let samples = chunk.channels[lead]
      return Record(database: "MIT-BIH", name: name) { configuration in
        let beats = try QRSDetector.detect(
          samples, sampleRate: chunk.sampleRate, configuration: configuration)
        return scoreOutside(episodes, reference: reference, test: beats, sampleRate: chunk.sampleRate)
      }
    }
  }

  /// The settings compared: `base` with each alternative of the options this project chose on data.
  static func candidates(_ base: QRSDetector.Configuration) -> [(
    name: String, configuration: QRSDetector.Configuration
  )] {
    [0, 0.25, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9].map { floor in
      var configuration = base
      configuration.amplitudeDropFloor = floor
      return (String(format: "floor %.2f", floor), configuration)
    }
  }

  /// Prints, per database, the all-data score of each candidate setting and the leave-one-record-out
  /// score. The MIT-BIH records with added sinus pauses (``PauseStress``) are a database of their own,
  /// left out with their source record.
  static func report(data: String, records: [String], base: QRSDetector.Configuration) throws {
    let candidates = candidates(base)
    for candidate in candidates {
      try PauseStress.report(
        mitdb: data + "/mitdb", records: records, configuration: candidate.configuration,
        name: candidate.name)
    }
    var all = try mitdb(data + "/mitdb", records: records)
    all += try PauseStress.records(mitdb: data + "/mitdb", records: records)
    for (database, short) in [
      ("LUDB ii", try ShortRecords.ludb(data: data)), ("CPSC2019", try ShortRecords.cpsc2019(data: data)),
    ] {
      all += short.map { record in
        Record(database: database, name: database + " " + record.name) { configuration in
          record.score(
            try QRSDetector.detect(
              record.samples, sampleRate: record.sampleRate, configuration: configuration))
        }
      }
    }
    // scores[c][r]: candidate c on record r.
    let scores = try candidates.map { candidate in try all.map { try $0.score(candidate.configuration) } }
    let databases = Array(Set(all.map(\.database))).sorted()
    func errorRate(_ candidate: Int, leaving left: String) -> Double {
      databases.reduce(0) { sum, database in
        let kept = all.indices.filter { all[$0].database == database && all[$0].name != left }
        let gross = BeatScore.gross(kept.map { scores[candidate][$0] })
        let beats = gross.truePositives + gross.falseNegatives
        return sum + Double(gross.falseNegatives + gross.falsePositives) / Double(max(beats, 1))
      }
    }
    var heldOut: [String: BeatScore] = [:]
    var choices: [String: Int] = [:]
    for r in all.indices {
      let name = all[r].name
      let chosen = candidates.indices.min { errorRate($0, leaving: name) < errorRate($1, leaving: name) }!
      heldOut[all[r].database, default: BeatScore()].add(scores[chosen][r])
      choices[candidates[chosen].name, default: 0] += 1
    }
    print("\nLeave-one-record-out cross-validation over \(all.count) records (\(candidates.count) settings)")
    for database in databases {
      for c in candidates.indices {
        let kept = all.indices.filter { all[$0].database == database }
        print(
          line(
            String(database.prefix(8)) + " " + candidates[c].name, BeatScore.gross(kept.map { scores[c][$0] })
          ))
      }
      print(
        line(String(database.prefix(8)) + " CV", heldOut[database]!)
          + "   | held-out records, setting chosen on the rest")
    }
    print(
      "settings chosen (records): "
        + choices.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
  }
}
