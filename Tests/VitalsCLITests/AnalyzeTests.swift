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
