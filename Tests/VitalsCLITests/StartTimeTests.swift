import Foundation
import Testing
import VitalsSimulation

@testable import VitalsCLI

/// `seconds` of simulated ECG at 250 Hz.
private func simulatedECG(seconds: Double) -> [Float] {
  var simulator = ECGSimulator(configuration: ECGConfiguration(), duration: seconds, sampleRate: 250, seed: 3)
  return simulator.generateAll().channels[0]
}

/// A 60-s ECG written as a CSV whose time column counts seconds from 0: a file that states no start
/// time. Returns the directory and the file's path.
private func undatedECG() throws -> (directory: String, path: String) {
  try temporaryCSV("undated.csv", names: ["ECG"], channels: [simulatedECG(seconds: 60)], rate: 250)
}

@Suite("honest unknowns: no start time, nothing to analyze")
struct StartTimeTests {
  @Test("info --json: start_time null and a note on standard error", .enabled(if: hasBinary))
  func infoNull() throws {
    let (directory, path) = try undatedECG()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try run(["info", path, "--json"])
    #expect(result.status == 0)
    #expect(result.out.contains("\"start_time\":null"))
    #expect(result.err.contains("states no start time"))
    let given = try run(["info", path, "--json", "--start", "2024-03-10T06:00:00+01:00"])
    #expect(given.out.contains("\"start_time\":\"2024-03-10T05:00:00Z\""))
    #expect(given.err.isEmpty)
  }

  @Test(
    "analyze --out: no derived samples without a start, with a note; --start supplies it",
    .enabled(if: hasBinary))
  func analyzeWithoutStart() throws {
    let (directory, path) = try undatedECG()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try run(["analyze", path, "--out", directory + "/out", "--jobs", "1"])
    #expect(result.status == 0)
    #expect(result.err.contains("no HealthKit samples are derived"))
    let summary = try String(contentsOfFile: directory + "/out/undated.json", encoding: .utf8)
    #expect(summary.contains("\"start_time\":null"))
    #expect(!FileManager.default.fileExists(atPath: directory + "/out/undated.samples.jsonl"))

    let dated = try run([
      "analyze", path, "--out", directory + "/dated", "--jobs", "1", "--start", "2024-03-10T06:00:00Z",
    ])
    #expect(dated.status == 0)
    let samples = try String(contentsOfFile: directory + "/dated/undated.samples.jsonl", encoding: .utf8)
    #expect(samples.contains("\"start\":\"2024-03-10T06:0"))
    #expect(!samples.contains("1970-01-01"))
  }

  @Test("analyze of a recording no pipeline recognises: exit 1 with the reason", .enabled(if: hasBinary))
  func nothingToAnalyze() throws {
    let (directory, path) = try temporaryCSV(
      "unnamed.csv", names: ["col0"], channels: [simulatedECG(seconds: 20)], rate: 250)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let result = try run(["analyze", path])
    #expect(result.status == 1)
    #expect(result.out.isEmpty)
    #expect(result.err.contains(path) && result.err.contains("nothing to analyze"))
    #expect(result.err.contains("--ecg"))
    // Naming the role analyses it.
    #expect(try run(["analyze", path, "--ecg", "col0"]).status == 0)
  }

  @Test("--start must be a date and time")
  func badStart() {
    #expect(runInProcess(["info", "x.csv", "--start", "yesterday"]) == 2)
  }
}

@Suite("vitals hrv: too few beats")
struct TooFewBeatsTests {
  @Test("a recording with too few beats for HRV exits 1 with the reason")
  func tooFewBeats() throws {
    let (directory, path) = try temporaryCSV("tiny.csv", names: ["ECG"], channels: [[1, 2, 3]], rate: 250)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(runInProcess(["hrv", path]) == 1)
    let hrv = try #require(try HRV.parseAsRoot([path]) as? HRV)
    let failure = try #require(hrv.reports().first)
    guard case .failure(let error) = failure else {
      Issue.record("expected a failure, got \(failure)")
      return
    }
    #expect(error.message.contains("nothing to analyze: 0 beats give 0 NN intervals"))
  }
}
