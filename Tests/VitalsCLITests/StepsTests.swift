import ArgumentParser
import Foundation
import Testing
import Vitals

@testable import VitalsCLI

@Suite("vitals steps")
struct StepsTests {
  /// A fresh temporary directory.
  static func directory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "vitals-steps-\(UUID().uuidString)"
    )
    .path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// A phone log as the Oxford step dataset writes it: no header, nanosecond time stamps since boot with
  /// jitter, acceleration in m/s² and three cumulative counter columns (zeros here), from a simulated
  /// `placement` walk of 60 s; returns the path and the true step count.
  static func phoneLog(in directory: String, placement: Placement) throws -> (path: String, steps: Int) {
    var configuration = AccelerometerConfiguration(
      activity: .walking, placement: placement, unit: .metersPerSecondSquared)
    configuration.timingJitter = 0.002
    var simulator = AccelerometerSimulator(
      configuration: configuration, duration: 60, sampleRate: 100, seed: 11,
      startTime: Timestamp(nanosecondsSinceEpoch: 1_012_461_540_465))
    let recording = simulator.generateAll()
    var text = ""
    for i in recording.channels[0].indices {
      let time = recording.sampleTimes![i].nanosecondsSinceEpoch
      let c = recording.channels
      text += "\(time),\(c[0][i]),\(c[1][i]),\(c[2][i]),0,0,0\n"
    }
    let path = directory + "/walk.csv"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return (path, recording.events.count)
  }

  struct Summary: Decodable {
    struct Bout: Decodable {
      var start_s: Double
      var end_s: Double
      var steps: Int
    }
    var steps: Int
    var walking_s: Double
    var cadence_spm: Double
    var bouts: [Bout]
  }

  @Test(
    "a headerless nanosecond phone log: the JSON summary and the step events (a watch: --placement wrist)",
    arguments: [Placement.hand, .bag, .wrist])
  func phoneLogSummaryAndEvents(placement: Placement) throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let log = try Self.phoneLog(in: directory, placement: placement)
    let json = directory + "/steps.json"
    let events = directory + "/steps.csv"
    var command = try VitalsCommand.parseAsRoot(
      ["steps", log.path, "-o", json, "--events", events]
        + (placement == .wrist ? ["--placement", "wrist"] : []))
    try command.run()
    let summary = try JSONDecoder().decode(Summary.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
    #expect(abs(summary.steps - log.steps) <= max(2, log.steps * 3 / 100), "\(summary.steps) of \(log.steps)")
    #expect(summary.bouts.count == 1)
    #expect(summary.bouts.map(\.steps).reduce(0, +) == summary.steps)
    #expect(abs(summary.cadence_spm - 110) < 5)
    let bout = try #require(summary.bouts.first)
    #expect(abs(summary.walking_s - (bout.end_s - bout.start_s)) < 1e-6)
    #expect(bout.start_s >= 0 && bout.start_s < 2 && bout.end_s > 58 && bout.end_s <= 60)
    let rows = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
    #expect(rows.first == "sample,time_s")
    #expect(rows.count == summary.steps + 1)
    let times = rows.dropFirst().map { Double($0.split(separator: ",")[1])! }
    #expect(times.first.map { abs($0 - bout.start_s) < 1e-6 } == true)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
  }

  @Test(
    "usage errors exit 2",
    arguments: [
      ["--channel", "0,1"], ["--events", "-"], ["--unit", "furlongs"], ["--placement", "ankle"],
    ])
  func usageErrors(arguments: [String]) {
    #expect(runInProcess(["steps", "walk.csv"] + arguments) == 2)
  }

  @Test("too few signals is an input error (exit 1)")
  func tooFewSignals() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/one.csv"
    try "x\n0.1\n0.2\n0.3\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(runInProcess(["steps", path, "--rate", "50", "-o", directory + "/out.json"]) == 1)
  }
}
