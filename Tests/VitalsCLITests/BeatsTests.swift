import ArgumentParser
import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

/// A synthetic one-lead ECG written as a WFDB record, with its true R peaks written as `NAME.atr`,
/// in a fresh temporary directory.
struct GeneratedRecord {
  static let rate = 360.0
  let directory: String
  /// `directory/ecg`, the record path.
  let path: String
  /// True R-peak samples.
  let peaks: [Int64]

  /// `seconds` of sinus rhythm (RR 0.8 s ± 60 ms at 0.25 Hz and ± 40 ms at 0.1 Hz): a 1.2 mV Gaussian R
  /// wave (σ = 12 ms) and a 0.3 mV T wave (σ = 40 ms) 250 ms later, on a 0.1 mV 0.3 Hz baseline wander.
  init(seconds: Double = 120, lead: String = "MLII") throws {
    directory =
      FileManager.default.temporaryDirectory.appendingPathComponent("vitals-cli-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    path = directory + "/ecg"
    var peaks: [Int64] = []
    var t = 0.5
    while t < seconds - 1 {
      peaks.append(Int64((t * Self.rate).rounded()))
      t += 0.8 + 0.06 * sin(2 * Double.pi * 0.25 * t) + 0.04 * sin(2 * Double.pi * 0.1 * t)
    }
    self.peaks = peaks
    let count = Int(seconds * Self.rate)
    var samples = (0..<count).map { Float(0.1 * sin(2 * Double.pi * 0.3 * Double($0) / Self.rate)) }
    for peak in peaks {
      for k in max(0, Int(peak) - 60)..<min(count, Int(peak) + 180) {
        let dt = Double(k - Int(peak)) / Self.rate
        samples[k] += Float(
          1.2 * exp(-dt * dt / (2 * 0.012 * 0.012)) + 0.3
            * exp(-(dt - 0.25) * (dt - 0.25) / (2 * 0.04 * 0.04)))
      }
    }
    let writer = try WFDBRecordWriter(
      path: path,
      signals: [SignalDescription(name: lead, unit: "mV", sampleRate: Self.rate, sampleCount: nil)],
      frameRate: Self.rate)
    try writer.append(
      SignalChunk(channels: [samples], sampleRate: Self.rate, startTime: .epoch, firstSampleIndex: 0))
    try writer.finish()
    let annotations = peaks.map { WFDBAnnotation(sample: $0, code: 1) }
    try Data(WFDBAnnotationFile.encode(annotations)).write(to: URL(fileURLWithPath: path + ".atr"))
  }

  /// Writes `text` to `directory/name` and returns its path.
  func write(_ name: String, _ text: String) throws -> String {
    let file = directory + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

/// Parses `arguments` as the `vitals` root does, validates and runs; returns the exit code the
/// contract gives (0 when `run()` returns).
func runInProcess(_ arguments: [String]) -> Int32 {
  do {
    var command = try VitalsCommand.parseAsRoot(arguments)
    try command.run()
    return 0
  } catch {
    return VitalsCommand.contractExitCode(for: error)
  }
}

@Suite("vitals beats")
struct BeatsTests {
  @Test(
    "usage errors exit 2: binary annotations to stdout, an unknown signal",
    arguments: [
      ["beats", "rec", "--format", "wfdb"], ["beats", "rec", "--signal", "eeg"], ["beats", "a", "b"],
      ["beats", "a", "-o", "a.csv", "--out-dir", "d"], ["beats", "-", "--out-dir", "d"],
    ])
  func usageErrors(arguments: [String]) {
    #expect(runInProcess(arguments) == 2)
  }

  @Test("the output format follows the extension unless given")
  func formatInference() throws {
    func format(_ arguments: [String]) throws -> Beats.Format {
      try #require(try VitalsCommand.parseAsRoot(["beats", "rec"] + arguments) as? Beats).resolvedFormat
    }
    #expect(try format([]) == .csv)
    #expect(try format(["-o", "b.csv"]) == .csv)
    #expect(try format(["-o", "b.json"]) == .json)
    #expect(try format(["-o", "100.qrs"]) == .wfdb)
    #expect(try format(["-o", "100.qrs", "--format", "csv"]) == .csv)
  }

  @Test("the default lead: MLII, then II, then the first ECG-like name, then the first signal")
  func defaultLead() throws {
    func lead(_ names: [String]) throws -> [Int] {
      try ChannelSelector.resolve([.rule(RecordingBeats.ecgLeadRule)], names: names, path: "f")
    }
    #expect(try lead(["V5", "MLII"]) == [1])
    #expect(try lead(["resp", "II", "V1"]) == [1])
    #expect(try lead(["pleth", "V1"]) == [1])
    #expect(try lead(["pleth", "ECG lead I"]) == [1])
    #expect(try lead(["a", "b"]) == [0])
    #expect(throws: InputError.self) { try lead([]) }
  }

  @Test("ECG beats of a generated WFDB record, written as CSV, JSON and WFDB annotations")
  func detectAndWrite() throws {
    let record = try GeneratedRecord()
    defer { record.remove() }
    let detection = try RecordingBeats(ecgPath: record.path, options: RecordingOptions())
    #expect(detection.lead == "MLII" && detection.sampleRate == GeneratedRecord.rate)
    // Every true beat found within 4 samples (11 ms), but the last one when it lies within the detector's
    // latency of the end; at most one false beat, at the start (the detector takes its first peak for a
    // beat, documented start-up behaviour).
    let matching = BeatMatching(reference: record.peaks, test: detection.beats, window: 4)
    #expect(matching.unmatchedReference.allSatisfy { $0 == record.peaks.count - 1 })
    #expect(
      matching.unmatchedTest.allSatisfy { detection.beats[$0] < 180 } && matching.unmatchedTest.count <= 1)

    let qrs = record.directory + "/ecg.qrs"
    #expect(runInProcess(["beats", record.path, "-o", qrs]) == 0)
    let written = try WFDBAnnotationFile.read(path: qrs)
    let classes = try #require(detection.classes)
    #expect(written.map(\.sample) == detection.beats && written.map(\.symbol) == classes.map(\.mitCode))
    #expect(classes.count { $0 == .normal } >= classes.count - 2)

    let jsonPath = record.directory + "/beats.json"
    #expect(runInProcess(["beats", record.path, "-o", jsonPath]) == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: jsonPath)))
        as? [String: Any])
    let beats = try #require(object["beats"] as? [[String: Any]])
    #expect(beats.count == detection.beats.count)
    #expect(beats.first?["sample"] as? Int == Int(detection.beats[0]))
    #expect(
      abs((beats.first?["time_s"] as? Double ?? 0) - Double(detection.beats[0]) / GeneratedRecord.rate)
        < 1e-12)

    let csvPath = record.directory + "/beats.csv"
    #expect(runInProcess(["beats", record.path, "-o", csvPath]) == 0)
    let lines = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\n")
    #expect(lines.first == "sample,time_s,label" && lines.count == detection.beats.count + 1)
    let file = try BeatFile(path: csvPath, rate: GeneratedRecord.rate)
    #expect(file.samples == detection.beats && file.classes == classes)
  }

  @Test(
    "without --channel the reader picks the lead as it opens, in a CSV file too; with it, the first given")
  func leadPickedByTheReader() throws {
    let record = try GeneratedRecord(seconds: 1)
    defer { record.remove() }
    var rows = "time_s,resp,II\n"
    for k in 0..<1000 { rows += "\(Double(k) / 250),0,\(sin(Double(k) / 10))\n" }
    let csv = try record.write("two.csv", rows)
    let picked = try RecordingBeats(ecgPath: csv, options: RecordingOptions())
    #expect(picked.lead == "II" && picked.sampleRate == 250 && picked.sampleCount == 1000)
    let given = try RecordingBeats(
      ecgPath: csv, options: RecordingOptions(channels: [.name("resp"), .name("II")]))
    #expect(given.lead == "resp" && given.beats.isEmpty)
  }

  @Test("an unreadable input exits 1 and names the file")
  func badInput() throws {
    let record = try GeneratedRecord(seconds: 5)
    defer { record.remove() }
    let missing = record.directory + "/absent"
    #expect(runInProcess(["beats", missing]) == 1)
    #expect(throws: InputError.self) { try RecordingBeats(ecgPath: missing, options: RecordingOptions()) }
  }

  @Test(
    "several recordings in one process: one file each in --out-dir; a bad one exits 1, the others written")
  func batch() throws {
    let record = try GeneratedRecord(seconds: 20)
    defer { record.remove() }
    let bad = try record.write("bad.csv", "a,b\n1,x\n")
    let out = record.directory + "/out"
    #expect(runInProcess(["beats", bad, record.path, "--out-dir", out]) == 1)
    let expected = try RecordingBeats(ecgPath: record.path, options: RecordingOptions()).beats
    #expect(try BeatFile(path: out + "/ecg.beats.csv", rate: GeneratedRecord.rate).samples == expected)
    #expect(!FileManager.default.fileExists(atPath: out + "/bad.beats.csv"))

    #expect(runInProcess(["beats", record.directory + "/*.hea", "--out-dir", out, "--format", "wfdb"]) == 0)
    #expect(try WFDBAnnotationFile.read(path: out + "/ecg.qrs").map(\.sample) == expected)
    let beats = try #require(try VitalsCommand.parseAsRoot(["beats", "x", "--out-dir", out]) as? Beats)
    #expect(beats.outputPath(BatchOutputLayout(directory: out), name: "x") == out + "/x.beats.csv")
  }

  @Test(
    "MIT-BIH record 101: detected beats score above 99.5 % against the reference",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func mitdb() throws {
    let path = TestData.sharedData("mitdb/101").path
    let detection = try RecordingBeats(ecgPath: path, options: RecordingOptions())
    let reference = try BeatFile(path: path + ".atr", rate: nil)
    let score = BeatComparison.score(
      reference: reference.samples, test: detection.beats, sampleRate: detection.sampleRate)
    #expect(score.sensitivity > 0.995 && score.positivePredictivity > 0.995)
  }
}
