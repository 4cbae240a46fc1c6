import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

@Suite("vitals stats: counted sample kinds")
struct StatsCountsTests {
  func stats(_ arguments: [String], note: (String) -> Void = { _ in }) throws -> String {
    try #require(try VitalsCommand.parseAsRoot(["stats"] + arguments) as? Stats).report(note: note)
  }

  @Test(
    "options for quantity types are usage errors",
    arguments: [
      ["--option", "discreteAverage"], ["--unit", "count"], ["--per-source"],
      ["--source-priority", "Vitals"],
      ["--interval", "fortnight"],
    ])
  func usageErrors(options: [String]) {
    #expect(runInProcess(["stats", "a.samples.jsonl", "--type", "electrocardiogram"] + options) == 2)
  }

  @Test("heartbeat series per minute as JSON; an export holds none, and says so")
  func heartbeatSeriesJSON() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("hb\(UUID()).samples.jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let start = Timestamp(secondsSinceEpoch: 60)
    let series = HeartbeatSeriesSample(
      start: start, end: start.advanced(byNanoseconds: 60_000_000_000),
      beats: [0.5, 1.5, 4].map { Heartbeat(timeSinceSeriesStart: $0, precededByGap: $0 == 4) },
      source: "Vitals")
    let writer = try SamplesFileWriter(path: path)
    try writer.write(.heartbeatSeries(series))
    try writer.close()
    #expect(
      try stats([
        path, "--type", "heartbeatSeries", "--interval", "30s", "--timezone", "UTC", "--format", "json",
      ])
        == #"{"intervals":[{"beats":3,"count":1,"end":"1970-01-01T00:01:30Z","start":"1970-01-01T00:01:00Z"},{"beats":0,"count":0,"end":"1970-01-01T00:02:00Z","start":"1970-01-01T00:01:30Z"}],"type":"heartbeatSeries"}"#
        + "\n")
    var notes: [String] = []
    let export = TestData.fixture("health-export/export.xml").path
    let empty = try stats([export, "--type", "electrocardiogram"]) { notes.append($0) }
    #expect(empty.hasPrefix("start,end,count,notSet,sinusRhythm,") && empty.split(separator: "\n").count == 1)
    #expect(notes == ["no electrocardiogram samples in \(export)"])
  }
}
