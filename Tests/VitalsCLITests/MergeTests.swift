import ArgumentParser
import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

@Suite("vitals stats --partial and vitals merge")
struct MergeTests {
  /// A folder with three samples files of one source each (`watch`, `phone`, `ring`), a sample a minute
  /// of stepCount (whole numbers, so that sums are exact) and heartRate, from 2024-03-09T22:00-05:00 on,
  /// across the daylight-saving change of New York: 200, 250 and 300 minutes starting 300 minutes apart,
  /// so that the files' sources never overlap (shards that split the recordings).
  static func shards() throws -> (directory: String, files: [String]) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-merge-\(UUID())")
      .path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var files: [String] = []
    for (k, source) in ["watch", "phone", "ring"].enumerated() {
      var lines = ""
      for minute in 0..<(200 + 50 * k) {
        let start = Timestamp(secondsSinceEpoch: 1_710_039_600 + Double(60 * (minute + 300 * k)))
        let end = start.advanced(byNanoseconds: 60_000_000_000)
        let times = "\"start\":\"\(start.iso8601(in: .utc))\",\"end\":\"\(end.iso8601(in: .utc))\""
        lines += "{\"type\":\"stepCount\",\(times),\"value\":\((minute * 37 + k) % 120),\"unit\":\"count\","
        lines += "\"source\":\"\(source)\"}\n"
        lines += "{\"type\":\"heartRate\",\(times),\"value\":\(60 + (minute * 13 + k) % 50),"
        lines += "\"unit\":\"count/min\",\"source\":\"\(source)\"}\n"
      }
      let path = directory + "/\(source).samples.jsonl"
      try lines.write(toFile: path, atomically: true, encoding: .utf8)
      files.append(path)
    }
    return (directory, files)
  }

  func stats(_ arguments: [String]) throws -> String {
    try #require(try VitalsCommand.parseAsRoot(["stats"] + arguments) as? Stats).report(note: { _ in })
  }

  func merge(_ arguments: [String]) throws -> String {
    try #require(try VitalsCommand.parseAsRoot(["merge"] + arguments) as? Merge).report(note: { _ in })
  }

  @Test("a partial given twice is refused: its samples would count twice")
  func partialGivenTwice() {
    #expect(throws: (any Error).self) {
      _ = try VitalsCommand.parseAsRoot(["merge", "p.json", "q.json", "p.json"])
    }
    #expect(throws: Never.self) { _ = try VitalsCommand.parseAsRoot(["merge", "p.json", "q.json"]) }
  }

  @Test(
    "each file's partial, merged, is the table of all the files",
    arguments: [
      ["--type", "stepCount", "--interval", "hour"],
      ["--type", "stepCount", "--interval", "day", "--per-source", "--format", "json"],
      ["--type", "stepCount", "--interval", "all", "--source-priority", "ring,watch"],
      ["--type", "heartRate", "--interval", "15min", "--option", "discreteMax"],
      ["--type", "heartRate", "--interval", "day", "--option", "mostRecent", "--format", "json"],
      ["--type", "heartRate", "--interval", "hour", "--per-source", "--anchor", "2024-03-10T00:30"],
    ])
  func mergedEqualsOneRun(options: [String]) throws {
    let (directory, files) = try Self.shards()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let query = options + ["--timezone", "America/New_York"]
    var partials: [String] = []
    for file in files {
      let partial = file + ".partial.json"
      #expect(runInProcess(["stats", file] + query + ["--partial", partial]) == 0)
      partials.append(partial)
    }
    let format = options.contains("json") ? ["--format", "json"] : []
    #expect(try merge(partials.reversed() + format) == (try stats(files + query)))
  }

  @Test("partials of other queries, files that are no partials and a partial over an input are refused")
  func refusals() throws {
    let (directory, files) = try Self.shards()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let day = directory + "/day.json"
    let hour = directory + "/hour.json"
    #expect(runInProcess(["stats", files[0], "--type", "stepCount", "--partial", day]) == 0)
    #expect(
      runInProcess(["stats", files[1], "--type", "stepCount", "--interval", "hour", "--partial", hour]) == 0)
    #expect(throws: InputError.self) { try merge([day, hour]) }
    #expect(runInProcess(["merge", day, hour]) == 1)
    #expect(runInProcess(["merge", day, files[0]]) == 1)
    #expect(runInProcess(["merge", day, directory + "/missing.json"]) == 1)
    #expect(runInProcess(["merge"]) == 2)
    #expect(runInProcess(["stats", files[0], "--type", "stepCount", "--partial", files[0]]) == 2)
    #expect(runInProcess(["stats", files[0], "--type", "heartbeatSeries", "--partial", day]) == 2)
    // The input is unchanged: still its 200 minutes of two samples.
    #expect(try String(contentsOfFile: files[0], encoding: .utf8).split(separator: "\n").count == 400)
  }
}
