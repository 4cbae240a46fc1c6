import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

/// Writes an Apple Health export of `records` (type identifier suffix, unit, start, end, value; times
/// in UTC) to a new temporary file; returns its path.
private func healthExport(
  _ records: [(type: String, unit: String, start: String, end: String, value: String)]
)
  throws -> String
{
  var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
  for r in records {
    text += " <Record type=\"HKQuantityTypeIdentifier\(r.type)\" sourceName=\"P\" unit=\"\(r.unit)\" "
    text += "startDate=\"\(r.start) +0000\" endDate=\"\(r.end) +0000\" value=\"\(r.value)\"/>\n"
  }
  text += "</HealthData>\n"
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("stats-all-\(UUID()).xml").path
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  return path
}

@Suite("vitals stats --interval all: one interval holding every sample")
struct StatsAllIntervalTests {
  func stats(_ arguments: [String]) throws -> String {
    try #require(try VitalsCommand.parseAsRoot(["stats"] + arguments) as? Stats).report(note: { _ in })
  }

  func merge(_ arguments: [String]) throws -> String {
    try #require(try VitalsCommand.parseAsRoot(["merge"] + arguments) as? Merge).report(note: { _ in })
  }

  /// The value and count of the one interval of `--interval all --format json`, and its end.
  func all(_ path: String, type: String) throws -> (value: Double, count: Int, end: String) {
    let json = try stats([path, "--type", type, "--interval", "all", "--timezone", "UTC", "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let intervals = try #require(object["intervals"] as? [[String: Any]])
    try #require(intervals.count == 1)
    return (
      try #require(intervals[0]["value"] as? Double), try #require(intervals[0]["count"] as? Int),
      try #require(intervals[0]["end"] as? String)
    )
  }

  @Test("a last sample that is instantaneous counts, as it does in its day")
  func instantaneousLastSample() throws {
    let steps = try healthExport([
      ("StepCount", "count", "2024-03-10 14:00:00", "2024-03-10 14:10:00", "100"),
      ("StepCount", "count", "2024-03-10 14:20:00", "2024-03-10 14:20:00", "7"),
    ])
    let mass = try healthExport([
      ("BodyMass", "lb", "2024-03-10 14:00:00", "2024-03-10 14:00:00", "150"),
      ("BodyMass", "kg", "2024-03-10 15:00:00", "2024-03-10 15:00:00", "70"),
    ])
    let oxygen = try healthExport([
      ("OxygenSaturation", "%", "2024-03-10 14:00:00", "2024-03-10 14:00:00", "0.97"),
      ("OxygenSaturation", "%", "2024-03-10 14:01:00", "2024-03-10 14:01:00", "0.95"),
    ])
    defer { for path in [steps, mass, oxygen] { try? FileManager.default.removeItem(atPath: path) } }
    let total = try all(steps, type: "stepCount")
    #expect(total.value == 107 && total.count == 2)
    // The interval ends 1 ns after the instant of the last sample: intervals hold their start only.
    #expect(total.end == "2024-03-10T14:20:00.000000001Z")
    let day = try stats([steps, "--type", "stepCount", "--interval", "day", "--timezone", "UTC"])
    #expect(day.hasSuffix(",107.0,count\n"))
    let weight = try all(mass, type: "bodyMass")
    #expect(weight.count == 2 && weight.value.isApproximatelyEqual(to: (150 * 0.45359237 + 70) / 2))
    let saturation = try all(oxygen, type: "oxygenSaturation")
    #expect(saturation.count == 2 && saturation.value.isApproximatelyEqual(to: 0.96))
  }

  @Test("a sample of positive duration ends the interval at its end, and an earlier instant changes nothing")
  func endOfLastSample() throws {
    let steps = try healthExport([
      ("StepCount", "count", "2024-03-10 14:00:00", "2024-03-10 14:00:00", "5"),
      ("StepCount", "count", "2024-03-10 14:00:00", "2024-03-10 14:10:00", "100"),
    ])
    defer { try? FileManager.default.removeItem(atPath: steps) }
    let total = try all(steps, type: "stepCount")
    #expect(total.value == 105 && total.count == 2 && total.end == "2024-03-10T14:10:00Z")
  }

  @Test("an instantaneous last sample at midnight opens the next day's interval")
  func instantAtMidnight() throws {
    let steps = try healthExport([
      ("StepCount", "count", "2024-03-10 23:00:00", "2024-03-10 23:30:00", "40"),
      ("StepCount", "count", "2024-03-11 00:00:00", "2024-03-11 00:00:00", "3"),
    ])
    defer { try? FileManager.default.removeItem(atPath: steps) }
    #expect(
      try stats([steps, "--type", "stepCount", "--timezone", "UTC"]) == """
        start,end,value,unit
        2024-03-10T00:00:00Z,2024-03-11T00:00:00Z,40.0,count
        2024-03-11T00:00:00Z,2024-03-12T00:00:00Z,3.0,count

        """)
  }

  @Test(
    "partials of shards with instantaneous last samples merge into the table of all of them",
    arguments: [
      ["--type", "stepCount"], ["--type", "heartRate"], ["--type", "heartRate", "--option", "mostRecent"],
    ])
  func partialsMerge(query: [String]) throws {
    let first = try healthExport([
      ("StepCount", "count", "2024-03-10 14:00:00", "2024-03-10 14:10:00", "100"),
      ("StepCount", "count", "2024-03-10 14:20:00", "2024-03-10 14:20:00", "7"),
      ("HeartRate", "count/min", "2024-03-10 14:20:00", "2024-03-10 14:20:00", "70"),
    ])
    let second = try healthExport([
      ("StepCount", "count", "2024-03-10 13:00:00", "2024-03-10 13:00:00", "2"),
      ("StepCount", "count", "2024-03-10 15:00:00", "2024-03-10 15:00:00", "9"),
      ("HeartRate", "count/min", "2024-03-10 13:00:00", "2024-03-10 13:00:00", "60"),
      ("HeartRate", "count/min", "2024-03-10 15:00:00", "2024-03-10 15:00:00", "80"),
    ])
    defer { for path in [first, second] { try? FileManager.default.removeItem(atPath: path) } }
    let words = query + ["--interval", "all", "--timezone", "UTC"]
    var partials: [String] = []
    for file in [first, second] {
      #expect(runInProcess(["stats", file] + words + ["--partial", file + ".json"]) == 0)
      partials.append(file + ".json")
    }
    defer { for path in partials { try? FileManager.default.removeItem(atPath: path) } }
    let whole = try stats([first, second] + words)
    #expect(try merge(partials) == whole && (try merge(partials.reversed())) == whole)
    let expected =
      query[1] == "stepCount" ? ",118.0,count" : query.count > 2 ? ",80.0,count/min" : ",70.0,count/min"
    #expect(whole.hasSuffix("2024-03-10T15:00:00.000000001Z\(expected)\n"), "\(whole)")
  }

  @Test("an anchor on an impossible date is a usage error")
  func impossibleAnchor() {
    #expect(runInProcess(["stats", "e.xml", "--type", "stepCount", "--anchor", "2024-02-30"]) == 2)
    #expect(runInProcess(["stats", "e.xml", "--type", "stepCount", "--anchor", "2024-03-10T24:30"]) == 2)
  }
}
