import ArgumentParser
import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

@Suite("vitals score")
struct ScoreTests {
  @Test("pairs from repeated options and positional arguments, in order")
  func pairs() throws {
    let score = try #require(
      try VitalsCommand.parseAsRoot([
        "score", "--reference", "a.atr", "--test", "a.qrs", "--reference", "b.atr", "--test", "b.qrs",
        "c.atr",
        "c.csv", "--window", "0.1", "--skip", "0", "--json",
      ]) as? Score)
    #expect(score.allPairs.map(\.reference) == ["a.atr", "b.atr", "c.atr"])
    #expect(score.allPairs.map(\.test) == ["a.qrs", "b.qrs", "c.csv"])
    #expect(score.window == 0.1 && score.skip == 0 && score.json)
  }

  @Test(
    "usage errors exit 2",
    arguments: [
      ["score"], ["score", "--reference", "a.atr"], ["score", "a.atr"],
      ["score", "a", "b", "--window", "-1"],
      ["score", "a", "b", "--rate", "0"],
    ])
  func usageErrors(arguments: [String]) {
    #expect(runInProcess(arguments) == 2)
  }

  @Test("beat files: annotation beats only, CSV sample column, rate from the header beside or --rate")
  func beatFiles() throws {
    let record = try GeneratedRecord(seconds: 5)
    defer { record.remove() }
    var annotations = record.peaks.map { WFDBAnnotation(sample: $0, code: 1) }
    annotations.insert(WFDBAnnotation(sample: 0, code: 28, aux: "(N"), at: 0)  // rhythm: not a beat
    annotations[3].code = 5  // V
    try Data(WFDBAnnotationFile.encode(annotations)).write(to: URL(fileURLWithPath: record.path + ".atr"))
    let atr = try BeatFile(beatsAt: record.path + ".atr", rate: nil)
    #expect(atr.samples == record.peaks && atr.sampleRate == GeneratedRecord.rate)
    #expect(atr.labels?[2] == "V" && atr.labels?[0] == "N")

    let csv = try record.write("ecg.csv", "time_s;sample\n0.5;180\n1.25;450\n")
    let fromCSV = try BeatFile(beatsAt: csv, rate: nil)  // rate from ecg.hea beside it
    #expect(fromCSV.samples == [180, 450] && fromCSV.sampleRate == GeneratedRecord.rate)

    let padded = try record.write("padded.csv", "x\t \"Sample\" \r\n1\t 20 \r\n\r\n2\t\"30\"\r\n\n")
    #expect(try BeatFile(beatsAt: padded, rate: 250).samples == [20, 30])
    let marked = try record.write("marked.csv", "\u{FEFF}sample\n7\n9\n")
    #expect(try BeatFile(beatsAt: marked, rate: 250).samples == [7, 9])
    let alone = try record.write("other.csv", "sample\n10\n20\n")
    #expect(throws: InputError.self) { try BeatFile(beatsAt: alone, rate: nil) }
    #expect(try BeatFile(beatsAt: alone, rate: 250).sampleRate == 250)
    let bad = try record.write("bad.csv", "sample\n10\nx\n")
    #expect(
      throws: InputError(
        path: bad, location: .field(line: 3, column: 1), "expected a whole sample index ≥ 0, found 'x'")
    ) {
      try BeatFile(beatsAt: bad, rate: 250)
    }
    let noColumn = try record.write("none.csv", "time\n1\n")
    #expect(throws: InputError.self) { try BeatFile(beatsAt: noColumn, rate: 250) }
  }

  @Test("a bad pair among good ones: exit 1, the good pairs still scored")
  func partialFailure() throws {
    let record = try GeneratedRecord(seconds: 30)
    defer { record.remove() }
    var shifted = record.peaks.map { $0 + 20 }  // 56 ms late: still within 150 ms
    shifted.removeLast()  // one missed beat
    shifted.append(shifted.last! + 100)  // one extra detection, 278 ms after the previous
    let test = try record.write(
      "ecg.csv", "sample\n" + shifted.map(String.init).joined(separator: "\n") + "\n")
    let arguments = [
      "score", record.path + ".atr", test, record.path + ".atr", record.directory + "/absent.qrs",
    ]
    let command = try #require(try VitalsCommand.parseAsRoot(arguments) as? Score)
    let (records, errors) = command.scoreAll()
    #expect(errors.count == 1 && errors.first?.path == record.directory + "/absent.qrs")
    let score = try #require(records.first).beats.wholeRecord
    #expect(
      score.truePositives == record.peaks.count - 1 && score.falseNegatives == 1 && score.falsePositives == 1)
    #expect(runInProcess(arguments + ["--json"]) == 1)
  }

  @Test(
    "classes: bxb's line, matrices and summary after the QRS table, and in --json, when both files carry them",
    .enabled(if: hasBinary, "needs the vitals binary"))
  func classes() throws {
    let record = try GeneratedRecord(seconds: 30)
    defer { record.remove() }
    // Reference: beat 5 is V (code 5), beat 9 A (code 8, class S), beat 14 V, the rest N.
    let codes = record.peaks.indices.map { [5: 5, 9: 8, 14: 5][$0] ?? 1 }
    let annotations = zip(record.peaks, codes).map { WFDBAnnotation(sample: $0, code: $1) }
    try Data(WFDBAnnotationFile.encode(annotations)).write(to: URL(fileURLWithPath: record.path + ".atr"))
    // Test (EC57 letters): beat 5 called N, beat 9 called V, beat 14 missed, an extra N 0.4 s after beat 20.
    var rows = record.peaks.indices.filter { $0 != 14 }.map { (record.peaks[$0], $0 == 9 ? "V" : "N") }
    rows.append((record.peaks[20] + 144, "N"))
    rows.sort { $0.0 < $1.0 }
    let test = try record.write(
      "test.csv", "sample,label\n" + rows.map { "\($0.0),\($0.1)" }.joined(separator: "\n"))
    let beats = record.peaks.count
    // Matrix: Nn = beats − 3, Vn = 1, Sv = 1, Vo = 1, On = 1. V: TP 0, FN Vn + Vo = 2, FP Sv = 1,
    // TN Nn + On = beats − 2, FPR 1/(beats − 1). S: TP 0, FN Sv = 1, FP 0 (+P undefined).
    let json = try run(["score", "--skip", "0", "--json", record.path + ".atr", test])
    #expect(json.status == 0, "\(json.err)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let classes = try #require(object["classes"] as? [String: Any])
    let first = try #require((classes["records"] as? [[String: Any]])?.first)
    let counts = try #require(first["counts"] as? [[Int]])
    #expect(counts[0][0] == beats - 3 && counts[2][0] == 1 && counts[1][2] == 1 && counts[2][5] == 1)
    #expect(counts[5][0] == 1 && counts.joined().reduce(0, +) == beats + 1)
    let v = try #require(first["v"] as? [String: Any])
    #expect(
      v["tp"] as? Int == 0 && v["fn"] as? Int == 2 && v["fp"] as? Int == 1 && v["tn"] as? Int == beats - 2)
    #expect(
      v["fpr"] as? Double == 1.0 / Double(beats - 1) && (first["s"] as? [String: Any])?["ppv"] is NSNull)
    #expect(
      (classes["average"] as? [String: Any])?["v_se"] as? Double == 0 && classes["skip_s"] as? Double == 0)
    let text = try run(["score", "--skip", "0", record.path + ".atr", test])
    let lines = text.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(lines.firstIndex(of: "Beat classes (bxb, ANSI/AAMI EC57), from 0 s"))
    #expect(lines[start + 1].hasPrefix("Record ") && lines[start + 2].hasPrefix("ecg "))
    #expect(lines.contains(" V |    1    0    0    0    1"))  // bxb -s: Vn, Vv, Vf, Vq, Vo
    #expect(lines.contains(" S |    0    0    1    0    0    0"))  // bxb -S: Sn, Ss, Sv, Sf, Sq, So
    #expect(lines.contains("           VEB sensitivity:   0.00% (0/2)"))
    #expect(lines.contains("          SVEB sensitivity:   0.00% (0/1)"))
    // No classes when the test file has none.
    let plain = try record.write(
      "plain.csv", "sample\n" + record.peaks.map(String.init).joined(separator: "\n"))
    let unlabelled = try run(["score", "--skip", "0", record.path + ".atr", plain])
    #expect(unlabelled.status == 0 && !unlabelled.out.contains("Beat classes"))
  }

  @Test("table and JSON: percentages, fractions, null when undefined, gross sums the counts")
  func formats() throws {
    let records = [
      RecordBeatScore(
        record: "100", wholeRecord: BeatScore(truePositives: 99, falseNegatives: 1, falsePositives: 0),
        afterLearningPeriod: BeatScore(), learningPeriod: 300),
      RecordBeatScore(
        record: "101", wholeRecord: BeatScore(truePositives: 1, falseNegatives: 0, falsePositives: 1),
        afterLearningPeriod: BeatScore(truePositives: 1), learningPeriod: 300),
    ]
    let output = BeatScoreTable(records: records, matchWindow: 0.15, learningPeriod: 300)
    let table = output.text().split(separator: "\n")
    #expect(table.count == 5 && table[0].contains("from 300 s"))
    #expect(table[2].hasPrefix("100") && table[2].contains("99.00") && table[2].contains("100.00"))
    #expect(
      table[4].hasPrefix("gross") && table[4].contains("    100     1     1") && table[4].contains("99.01"))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(output.json().utf8))
        as? [String: Any])
    let first = try #require((object["records"] as? [[String: Any]])?.first)
    let whole = try #require(first["whole"] as? [String: Any])
    #expect(whole["tp"] as? Int == 99 && whole["se"] as? Double == 0.99 && whole["ppv"] as? Double == 1)
    #expect((first["after_skip"] as? [String: Any])?["se"] is NSNull)
    #expect(((object["gross"] as? [String: Any])?["whole"] as? [String: Any])?["fp"] as? Int == 1)
  }

  @Test(
    "MIT-BIH 207: the reference's flutter episode is left out unless --include-flutter",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func flutter() throws {
    let record = TestData.sharedData("mitdb/207").path
    let reference = try BeatFile(beatsAt: record + ".atr", rate: nil)
    #expect(reference.flutter.episodes.count >= 1)
    // The reference scored against itself plus a beat every 0.25 s inside the flutter episodes.
    let extra = reference.flutter.episodes.flatMap { episode in
      stride(from: episode.lowerBound, through: min(episode.upperBound, episode.lowerBound + 36_000), by: 90)
    }
    let test = try GeneratedRecord(seconds: 1)
    defer { test.remove() }
    let csv = try test.write(
      "207.csv",
      "sample\n" + (reference.samples + extra).sorted().map(String.init).joined(separator: "\n") + "\n")
    let command = try #require(
      try VitalsCommand.parseAsRoot(["score", record + ".atr", csv, "--rate", "360"]) as? Score)
    let excluded = try #require(command.scoreAll().records.first).beats.wholeRecord
    #expect(excluded.falsePositives == 0 && excluded.falseNegatives == 0)
    let all = try #require(
      try VitalsCommand.parseAsRoot(["score", record + ".atr", csv, "--rate", "360", "--include-flutter"])
        as? Score)
    #expect(try #require(all.scoreAll().records.first).beats.wholeRecord.falsePositives > 0)
  }

  /// The first error of scoring `arguments` (`score …`), and the exit code of running them.
  private func scoringError(_ arguments: [String]) throws -> (error: InputError?, exitCode: Int32) {
    let command = try #require(try VitalsCommand.parseAsRoot(arguments) as? Score)
    return (command.scoreAll().errors.first, runInProcess(arguments))
  }

  @Test("a program binary or a truncated annotation file as reference: exit 1 naming the byte, not 0 beats")
  func brokenAnnotationFiles() throws {
    let record = try GeneratedRecord(seconds: 30)
    defer { record.remove() }
    let test = try record.write(
      "test.csv", "sample\n" + record.peaks.map(String.init).joined(separator: "\n"))
    let atr = try Data(contentsOf: URL(fileURLWithPath: record.path + ".atr"))
    // The generated record's annotation file cut short: the beats of its first half only.
    try atr.prefix(atr.count / 4 * 2).write(to: URL(fileURLWithPath: record.directory + "/cut.atr"))
    try FileManager.default.copyItem(atPath: "/bin/true", toPath: record.directory + "/true.atr")
    for name in ["cut.atr", "true.atr"] {
      let path = record.directory + "/" + name
      let (error, exitCode) = try scoringError(["score", path, test, "--rate", "360"])
      #expect(exitCode == 1 && error?.path == path)
      guard case .byteOffset = error?.location else {
        Issue.record("\(name): \(String(describing: error))")
        continue
      }
    }
  }

  @Test("unsorted or non-numeric CSV beats: exit 1 naming the line")
  func brokenCSV() throws {
    let record = try GeneratedRecord(seconds: 5)
    defer { record.remove() }
    for (text, line) in [("sample\n100\n460\n300\n", 4), ("sample\n100\nnan\n", 3)] {
      let test = try record.write("test.csv", text)
      let (error, exitCode) = try scoringError(["score", record.path + ".atr", test])
      #expect(
        exitCode == 1 && error?.location == .field(line: line, column: 1), "\(String(describing: error))")
    }
  }

  @Test("an EDF+ reference: its annotations at the EDF's rate; a contradicting --rate or a plain EDF exits 1")
  func edfReference() throws {
    let mixed = TestData.fixture("io/edf/mixed.edf").path
    let record = try GeneratedRecord(seconds: 1)
    defer { record.remove() }
    // mixed.edf: R at 0.7 s and 2.9 s (200 Hz) among Arousal and Spindle annotations.
    let test = try record.write("test.csv", "sample\n141\n580\n")
    let command = try #require(try VitalsCommand.parseAsRoot(["score", mixed, test]) as? Score)
    let (records, errors) = command.scoreAll()
    #expect(errors.isEmpty)
    let score = try #require(records.first).beats.wholeRecord
    #expect(score.truePositives == 2 && score.falseNegatives == 0 && score.falsePositives == 0)
    let (wrongRate, exitCode) = try scoringError(["score", mixed, test, "--rate", "1000"])
    #expect(exitCode == 1 && wrongRate?.path == mixed && wrongRate?.message.contains("200.0 Hz") == true)
    let plain = TestData.fixture("io/edf/plain.edf").path
    let (notPlus, plainExit) = try scoringError(["score", plain, test, "--rate", "50"])
    #expect(plainExit == 1 && notPlus?.location == .byteOffset(192))
  }

  @Test(
    "EDF+ r01 as reference scores r01.edf.qrs perfectly, without --rate; --rate 360 exits 1",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func sharedEDFReference() throws {
    let edf = TestData.sharedData("edf/r01.edf").path
    let qrs = TestData.sharedData("edf/r01.edf.qrs").path
    let command = try #require(try VitalsCommand.parseAsRoot(["score", edf, qrs]) as? Score)
    let (records, errors) = command.scoreAll()
    #expect(errors.isEmpty)
    let beats = try WFDBAnnotationFile.read(path: qrs).filter(\.isBeat).count
    let score = try #require(records.first).beats.wholeRecord
    #expect(
      beats > 600 && score.truePositives == beats && score.falseNegatives == 0 && score.falsePositives == 0)
    let (error, exitCode) = try scoringError(["score", edf, qrs, "--rate", "360"])
    #expect(exitCode == 1 && error?.path == edf)
  }
}
