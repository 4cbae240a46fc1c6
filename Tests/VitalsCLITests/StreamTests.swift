import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

/// Runs `vitals stream ARGUMENTS` in process on the contents of `input`; returns the output lines.
private func stream(_ arguments: [String], input: Data) throws -> [String] {
  let file = FileManager.default.temporaryDirectory.appendingPathComponent(
    "vitals-stream-\(UUID().uuidString)")
  try input.write(to: file)
  defer { try? FileManager.default.removeItem(at: file) }
  let command = try #require(try VitalsCommand.parseAsRoot(["stream"] + arguments) as? StreamCommand)
  let descriptor = open(file.path, O_RDONLY)
  defer { close(descriptor) }
  var lines: [String] = []
  try command.stream(from: descriptor) { lines.append($0) }
  return lines
}

/// The `sample` of every beat line.
private func beats(_ lines: [String]) throws -> [Int64] {
  try lines.compactMap { line in
    let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    return object["type"] as? String == "beat" ? (object["sample"] as? NSNumber)?.int64Value : nil
  }
}

/// Runs `vitals analyze CSV --out DIR/out` and returns the `sample` column of its event table `table`.
private func analysedEvents(_ csv: String, table: String) throws -> [Int64] {
  #expect(runInProcess(["analyze", csv, "--out", (csv as NSString).deletingLastPathComponent + "/out"]) == 0)
  return try String(contentsOfFile: table, encoding: .utf8)
    .split(separator: "\n").dropFirst().map { Int64($0.split(separator: ",")[0])! }
}

@Suite("vitals stream")
struct StreamTests {
  @Test(
    "usage errors exit 2",
    arguments: [
      ["stream"], ["stream", "--rate", "0"], ["stream", "--rate", "250", "--lead", "1"],
      ["stream", "--rate", "20", "--signal", "ppg"], ["stream", "--rate", "250", "--format", "wav"],
      ["stream", "--rate", "50", "--signal", "accelerometer", "--channels", "2"],
      ["stream", "--rate", "50", "--signal", "accelerometer", "--channels", "3", "--axes", "0,1,1"],
      ["stream", "--rate", "10", "--signal", "accelerometer", "--channels", "3"],
      ["stream", "--rate", "100", "--signal", "ecg", "--signal", "ppg"],
      ["stream", "--rate", "100", "--signal", "ecg", "--signal", "ecg"],
    ])
  func usageErrors(arguments: [String]) {
    #expect(runInProcess(arguments) == 2)
  }

  @Test("the beats streamed as CSV and as f32 equal those `vitals analyze` finds in the same samples")
  func equalsAnalyze() throws {
    let record = try GeneratedRecord(seconds: 60)
    defer { record.remove() }
    let csv = record.directory + "/ecg.csv"
    #expect(runInProcess(["convert", record.path, "-o", csv]) == 0)
    let out = record.directory + "/out"
    #expect(runInProcess(["analyze", csv, "--out", out]) == 0)
    let analysed = try String(contentsOfFile: out + "/ecg.beats.csv", encoding: .utf8)
      .split(separator: "\n").dropFirst().map { Int64($0.split(separator: ",")[0])! }
    #expect(analysed.count > 60)

    // The same file on standard input: two columns (time_s, MLII), the ECG in the second.
    let text = try Data(contentsOf: URL(fileURLWithPath: csv))
    let fromCSV = try stream(["--rate", "360", "--channels", "2", "--lead", "1"], input: text)
    #expect(try beats(fromCSV) == analysed)
    #expect(
      fromCSV.last?.hasPrefix("{\"ecg\":{") == true
        && fromCSV.last?.hasSuffix("\"type\":\"summary\"}") == true)
    #expect(fromCSV.contains { $0.contains("\"type\":\"heart_rate\"") })

    // Raw Float32 frames of the samples the reader yields.
    var reader = try RecordingOpener.open(path: record.path)
    var samples: [Float] = []
    while let chunk = try reader.nextChunk(maxSamples: 4096) { samples += chunk.channels[0] }
    let f32 = samples.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
    #expect(try beats(stream(["--rate", "360", "--format", "f32"], input: Data(f32))) == analysed)
  }

  @Test(
    "ECG and accelerometer in the same frames: the steps `vitals analyze` finds, bouts, motion, a summary")
  func accelerometer() throws {
    let recording = SimulatedActivityRecording(
      segments: [
        .init(duration: 20, heartRate: 60, activity: .still),
        .init(duration: 60, heartRate: 90, activity: .walking),
      ],
      rate: 100, startTime: .epoch)
    let (directory, csv) = try temporaryCSV(
      "walk.csv", names: SimulatedActivityRecording.names, channels: recording.channels, rate: recording.rate)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let analysed = try analysedEvents(csv, table: directory + "/out/walk.steps.csv")
    #expect(analysed.count > 90)

    // time_s, ecg, acc_x, acc_y, acc_z: the ECG in channel 1, the axes after it.
    let lines = try stream(
      ["--rate", "100", "--channels", "5", "--lead", "1", "--signal", "ecg", "--signal", "accelerometer"],
      input: try Data(contentsOf: URL(fileURLWithPath: csv)))
    let objects = try lines.map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    func of(_ type: String) -> [[String: Any]] { objects.filter { $0["type"] as? String == type } }
    #expect(of("step").compactMap { ($0["sample"] as? NSNumber)?.int64Value } == analysed)
    #expect(of("walking_bout").count == 1 && of("beat").count > 70)
    #expect(of("motion").count == 8 && of("motion").allSatisfy { $0["signal"] as? String == "accelerometer" })
    let summary = try #require(of("summary").first)
    #expect((summary["steps"] as? [String: Any])?["steps"] as? Int == analysed.count)
    #expect(summary["ecg"] != nil && lines.last == lines.last { $0.contains("\"summary\"") })
  }

  @Test("PPG with its accelerometer: the pulses `vitals analyze` finds, heart-rate windows with quality")
  func ppg() throws {
    var simulator = PPGSimulator(
      configuration: PPGConfiguration(
        rhythm: RhythmConfiguration(heartRate: 66), motion: AccelerometerConfiguration(activity: .walking)),
      duration: 60, sampleRate: 50, seed: 3)
    let recording = simulator.generateAll()
    let (directory, csv) = try temporaryCSV(
      "wrist.csv", names: recording.channelNames, channels: recording.channels, rate: 50)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let analysed = try analysedEvents(csv, table: directory + "/out/wrist.pulses.csv")
    #expect(analysed.count > 60)

    // time_s, ppg, acc_x, acc_y, acc_z.
    let lines = try stream(
      ["--rate", "50", "--channels", "5", "--lead", "1", "--signal", "ppg", "--signal", "accelerometer"],
      input: try Data(contentsOf: URL(fileURLWithPath: csv)))
    #expect(try beats(lines) == analysed)
    let readings = try lines.map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }.filter { $0["type"] as? String == "heart_rate" }
    #expect(
      readings.count > 20 && readings.allSatisfy { $0["signal"] as? String == "ppg" && $0["quality"] != nil })
    #expect(lines.last?.hasPrefix("{\"ppg\":{") == true && lines.last?.contains("\"steps\":{") == true)
  }

  @Test("a bad line ends the stream with an error naming the line")
  func badInput() throws {
    #expect(throws: InputError(path: "-", location: .line(3), "expected 1 numbers, found 2")) {
      _ = try stream(["--rate", "250"], input: Data("ecg\n0.5\n1,2\n".utf8))
    }
  }
}
