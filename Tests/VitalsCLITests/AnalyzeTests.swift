import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

/// The summary without the timing fields, which differ between runs, as canonical JSON.
private func withoutTiming(_ file: String) throws -> String {
  var object = try #require(
    JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
  object["processing_s"] = nil
  object["samples_per_s"] = nil
  object["path"] = nil
  return String(
    decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
}

private func modified(_ path: String) throws -> Date {
  try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
}

@Suite("vitals analyze")
struct AnalyzeTests {
  @Test(
    "usage errors exit 2",
    arguments: [
      ["analyze"], ["analyze", "x", "--jobs", "0"], ["analyze", "x", "--force"],
      ["analyze", "x", "--accel", "a,b,c,d"],
    ])
  func usageErrors(arguments: [String]) {
    #expect(runInProcess(arguments) == 2)
  }

  @Test("a corrupt file in a folder: exit 1, the other recordings complete")
  func corruptFile() throws {
    let record = try GeneratedRecord(seconds: 30)
    defer { record.remove() }
    _ = try record.write("broken.edf", "0       " + String(repeating: "x", count: 300))
    let out = record.directory + "/out"
    #expect(runInProcess(["analyze", record.directory, "--out", out, "--jobs", "2"]) == 1)
    let summary = try String(contentsOfFile: out + "/ecg.json", encoding: .utf8)
    #expect(summary.contains("\"channel\":\"MLII\""))
    #expect(FileManager.default.fileExists(atPath: out + "/ecg.beats.csv"))
    #expect(!FileManager.default.fileExists(atPath: out + "/broken.json"))
  }

  @Test("kill and resume: finished recordings are skipped, a partial file is not taken as done")
  func resume() throws {
    let first = try GeneratedRecord(seconds: 30)
    let second = try GeneratedRecord(seconds: 30)
    defer {
      first.remove()
      second.remove()
    }
    let out = first.directory + "/out"
    let inputs = [first.path, second.path]
    let names = BatchOutputLayout.names(for: inputs).map { out + "/" + $0 }
    #expect(runInProcess(["analyze"] + inputs + ["--out", out]) == 0)
    let done = try modified(names[0] + ".json")
    // Killed while writing the second: only a partial temporary file of its summary is there.
    try FileManager.default.removeItem(atPath: names[1] + ".json")
    _ = try first.write(
      "out/." + (names[1] as NSString).lastPathComponent + ".json.4242.7.partial", "{\"path\":")
    #expect(runInProcess(["analyze"] + inputs + ["--out", out]) == 0)
    #expect(try modified(names[0] + ".json") == done)
    #expect(try withoutTiming(names[1] + ".json") == withoutTiming(names[0] + ".json"))
    #expect(runInProcess(["analyze"] + inputs + ["--out", out, "--force"]) == 0)
    #expect(try modified(names[0] + ".json") > done)
  }

  /// With the output directory inside an input directory, a second run finds its own event tables
  /// (`NAME.beats.csv`) there: they are results, not recordings, so it resumes (skips what is done) and
  /// --force redoes it, instead of refusing to overwrite them as inputs.
  @Test("an output directory among the inputs: the next run resumes")
  func outputInsideInputs() throws {
    let record = try GeneratedRecord(seconds: 30)
    defer { record.remove() }
    let out = record.directory + "/out"
    #expect(runInProcess(["analyze", record.directory, "--out", out]) == 0)
    #expect(FileManager.default.fileExists(atPath: out + "/ecg.beats.csv"))
    let done = try modified(out + "/ecg.json")
    #expect(runInProcess(["analyze", record.directory, "--out", out]) == 0)
    #expect(try modified(out + "/ecg.json") == done)
    #expect(runInProcess(["analyze", record.directory, "--out", out, "--force"]) == 0)
    #expect(runInProcess(["beats", record.directory, "--out-dir", out]) == 0)
    #expect(runInProcess(["beats", record.directory, "--out-dir", out]) == 0)
  }

  @Test("--jobs 2 writes what --jobs 1 writes")
  func jobsEquality() throws {
    let records = try [GeneratedRecord(seconds: 30), GeneratedRecord(seconds: 40, lead: "II")]
    defer { records.forEach { $0.remove() } }
    let inputs = records.map(\.path)
    let out = records[0].directory + "/out"
    for jobs in ["1", "2"] {
      #expect(runInProcess(["analyze"] + inputs + ["--out", out + jobs, "--jobs", jobs]) == 0)
    }
    for name in BatchOutputLayout.names(for: inputs) {
      let one = out + "1/" + name
      let two = out + "2/" + name
      #expect(try withoutTiming(one + ".json") == withoutTiming(two + ".json"))
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: one + ".beats.csv"))
          == Data(contentsOf: URL(fileURLWithPath: two + ".beats.csv")))
    }
  }
}

/// `channels` (named `names`, `rate` Hz, from the epoch) written as `name` (CSV, a `time_s` column first)
/// in a fresh temporary directory; returns the directory and the file's path.
func temporaryCSV(_ name: String, names: [String], channels: [[Float]], rate: Double) throws -> (
  directory: String, path: String
) {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-cli-\(UUID())").path
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let path = directory + "/" + name
  let writer = try CSVSignalWriter(path: path, signalNames: names)
  try writer.write(SignalChunk(channels: channels, sampleRate: rate, startTime: .epoch, firstSampleIndex: 0))
  try writer.close()
  return (directory, path)
}

/// The quantity samples of a samples file by type, its category types and its heartbeat series.
private func readSamples(_ path: String) throws -> (
  quantities: [String: [QuantitySample]], categories: [String], series: [HeartbeatSeriesSample]
) {
  let reader = try SamplesFileReader(path: path)
  var quantities: [String: [QuantitySample]] = [:]
  var categories: [String] = []
  var series: [HeartbeatSeriesSample] = []
  while let sample = try reader.next() {
    switch sample {
    case .quantity(let q): quantities[q.type.rawValue, default: []].append(q)
    case .category(let c): categories.append(c.type.rawValue)
    case .heartbeatSeries(let h): series.append(h)
    case .electrocardiogram: categories.append(ElectrocardiogramSample.typeName)
    }
  }
  return (quantities, categories, series)
}

@Suite("vitals analyze: derived samples")
struct DerivedSamplesTests {
  /// 22 minutes at 100 Hz of ECG and wrist acceleration: still, walking, a high, a low and a normal
  /// heart rate while still, atrial fibrillation, still again.
  static let recording = SimulatedActivityRecording(
    segments: [
      .init(duration: 360, heartRate: 58, activity: .still),
      .init(duration: 180, heartRate: 100, activity: .walking),
      .init(duration: 240, heartRate: 130, activity: .still),
      .init(duration: 240, heartRate: 36, activity: .still),
      .init(duration: 240, heartRate: 75, activity: .still, fibrillation: true),
      .init(duration: 60, heartRate: 70, activity: .still),
    ], rate: 100, startTime: .epoch)

  @Test("analyze --out → NAME.samples.jsonl with every derived metric → vitals stats per hour")
  func endToEnd() throws {
    let recording = Self.recording
    let (directory, csv) = try temporaryCSV(
      "day.csv", names: SimulatedActivityRecording.names, channels: recording.channels, rate: recording.rate)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let out = directory + "/out"
    // The file's time column counts from 0: the start is unknown until --start gives it.
    #expect(
      runInProcess([
        "analyze", csv, "--out", out, "--event-minutes", "3", "--jobs", "1", "--start",
        "1970-01-01T00:00:00Z", "--height", "1.75", "--placement", "wrist", "--walking-asymmetry",
      ]) == 0)

    let summary = try String(contentsOfFile: out + "/day.json", encoding: .utf8)
    #expect(summary.contains("\"not_analyzed\":[]") && summary.contains("\"steps\":{\"bouts\":[{"))
    let (quantities, categories, series) = try readSamples(out + "/day.samples.jsonl")
    // CSV without absolute times: the recording starts at the Unix epoch.
    let heartRate = try #require(quantities["heartRate"])
    #expect(heartRate.count >= 20 && heartRate[0].start == .epoch && heartRate[0].device == "day")
    #expect(heartRate.allSatisfy { $0.source == "Vitals" && $0.unit.symbol == "count/min" })
    #expect(abs(heartRate[2].value - 58) < 3 && abs(heartRate[14].value - 36) < 2)
    #expect((quantities["heartRateVariabilitySDNN"]?.count ?? 0) >= 15)
    let steps = try #require(quantities["stepCount"])
    // 3 minutes of walking at 110 steps/min from 00:06:00 (the last step may fall just after 00:09:00).
    #expect((3...4).contains(steps.count) && steps[0].start == Timestamp(secondsSinceEpoch: 360))
    #expect(abs(steps.reduce(0) { $0 + $1.value } - Double(recording.steps.count)) <= 3)
    // One walking bout at 110 steps/min and 1.75 m: its step length and speed by the walk ratio, and the
    // distance of its steps.
    let length = try #require(quantities["walkingStepLength"])
    let speed = try #require(quantities["walkingSpeed"])
    #expect(
      length.count == 1 && speed.count == 1 && length[0].unit.symbol == "m" && speed[0].unit.symbol == "m/s")
    #expect(abs(length[0].value - 0.415 / 112 * 1.75 * 110) < 0.02)
    #expect(abs(speed[0].value - length[0].value * 110 / 60) < 0.02)
    // The bout's walking asymmetry: a fraction under Apple Health's "%" unit; the simulated walk is even.
    let asymmetry = try #require(quantities["walkingAsymmetryPercentage"])
    #expect(asymmetry.count == 1 && asymmetry[0].unit.symbol == "%" && asymmetry[0].value < 0.1)
    #expect(asymmetry[0].start == length[0].start && asymmetry[0].end == length[0].end)
    let distance = try #require(quantities["distanceWalkingRunning"])
    let stepTotal = steps.reduce(0) { $0 + $1.value }
    #expect(abs(distance.reduce(0) { $0 + $1.value } - stepTotal * length[0].value) < 1e-6)
    let resting = try #require(quantities["restingHeartRate"]?.first)
    // The lowest 5 quiet minutes: the 4 minutes at 36 bpm and the next one.
    #expect(resting.value > 36 && resting.value < 50)
    let walking = try #require(quantities["walkingHeartRateAverage"]?.first)
    #expect(abs(walking.value - 100) < 5)
    #expect(categories.sorted() == ["highHeartRateEvent", "irregularHeartRhythmEvent", "lowHeartRateEvent"])

    func stats(_ arguments: [String]) throws -> String {
      try #require(try VitalsCommand.parseAsRoot(["stats"] + arguments) as? Stats).report()
    }
    let hourly = try stats([
      out + "/day.samples.jsonl", "--type", "heartRate", "--interval", "hour", "--timezone", "UTC",
    ])
    let rows = hourly.split(separator: "\n")
    #expect(rows.first == "start,end,value,unit" && rows.count == 2)
    #expect(rows.dropFirst().first?.hasPrefix("1970-01-01T00:00:00Z,1970-01-01T01:00:00Z,") == true)
    let daily = try stats([
      out + "/day.samples.jsonl", "--type", "stepCount", "--interval", "day", "--timezone", "UTC",
    ])
    #expect(daily.split(separator: "\n").count == 2)

    // One heartbeat series per HRV sample, over its minute; the third minute (58 bpm, clean) has no gap.
    #expect(
      series.map { $0.start..<$0.end } == quantities["heartRateVariabilitySDNN"]?.map { $0.start..<$0.end })
    let third = try #require(series.first { $0.start == Timestamp(secondsSinceEpoch: 120) })
    #expect(abs(third.beats.count - 58) <= 1 && !third.beats.contains { $0.precededByGap })
    let counted = try stats([
      out + "/day.samples.jsonl", "--type", "heartbeatSeries", "--interval", "all", "--timezone", "UTC",
    ])
    let span = [series[0].start, series[series.count - 1].end].map { $0.iso8601(in: .utc) }
    let beats = series.reduce(0) { $0 + $1.beats.count }
    #expect(counted == "start,end,count,beats\n\(span[0]),\(span[1]),\(series.count),\(beats)\n")
  }
}
