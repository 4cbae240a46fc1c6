import ArgumentParser
import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

@Suite("vitals stats")
struct StatsTests {
  let export = TestData.fixture("health-export/export.xml").path

  func stats(_ arguments: [String]) throws -> String {
    try #require(try VitalsCommand.parseAsRoot(["stats"] + arguments) as? Stats).report()
  }

  @Test(
    "interval syntax",
    arguments: [
      ("day", IntervalLength.days(1)), ("2day", .days(2)), ("week", .weeks(1)), ("month", .months(1)),
      ("3month", .months(3)), ("hour", .seconds(3600)), ("1h", .seconds(3600)), ("24h", .seconds(86_400)),
      ("15min", .seconds(900)), ("30s", .seconds(30)), ("0.5s", .seconds(0.5)),
    ])
  func intervals(text: String, length: IntervalLength) {
    #expect(Stats.intervalLength(text) == length)
  }

  @Test(
    "usage errors exit 2",
    arguments: [
      ["stats", "e.xml"], ["stats", "--type", "stepCount"],
      ["stats", "e.xml", "--type", "HKCategoryTypeIdentifierSleepAnalysis"],
      ["stats", "e.xml", "--type", "heartRate", "--option", "cumulativeSum"],
      ["stats", "e.xml", "--type", "stepCount", "--option", "discreteAverage"],
      ["stats", "e.xml", "--type", "stepCount", "--interval", "fortnight"],
      ["stats", "e.xml", "--type", "stepCount", "--timezone", "Mars/Olympus"],
      ["stats", "e.xml", "--type", "stepCount", "--anchor", "soon"],
      ["stats", "e.xml", "--type", "stepCount", "--format", "xml"],
    ])
  func usageErrors(arguments: [String]) {
    #expect(runInProcess(arguments) == 2)
  }

  @Test("bad inputs exit 1")
  func badInputs() {
    #expect(runInProcess(["stats", "missing.xml", "--type", "stepCount"]) == 1)
    #expect(runInProcess(["stats", "notes.txt", "--type", "stepCount"]) == 1)
    #expect(runInProcess(["stats", export, "--type", "stepCount", "--unit", "km"]) == 1)
  }

  @Test("daily steps of the export: one row per local day, the 23-hour day included")
  func dailySteps() throws {
    let expected = try TestData.decodeFixture(ExpectedExportTotals.self, "health-export/expected.json")
    let csv = try stats([export, "--type", "stepCount", "--timezone", "America/New_York"])
    let lines = csv.split(separator: "\n")
    #expect(lines.first == "start,end,value,unit")
    #expect(lines.count == 4)
    #expect(lines[2].hasPrefix("2024-03-10T00:00:00-05:00,2024-03-11T00:00:00-04:00,"))
    let values = lines.dropFirst().map { Double($0.split(separator: ",")[2])! }
    // No priority given: sources by name, the Watch ("Anna's …") first.
    for (value, total) in zip(values, expected.stepsWatchFirst) { #expect(abs(value - total) < 1e-6) }
    let phoneFirst = try stats([
      export, "--type", "stepCount", "--timezone", "America/New_York", "--source-priority", "iPhone",
    ])
    let phoneValues = phoneFirst.split(separator: "\n").dropFirst().map {
      Double($0.split(separator: ",")[2])!
    }
    for (value, total) in zip(phoneValues, expected.stepsPhoneFirst) { #expect(abs(value - total) < 1e-6) }
  }

  @Test("per-source CSV and JSON")
  func perSource() throws {
    let csv = try stats([
      export, "--type", "stepCount", "--timezone", "America/New_York", "--per-source", "--source-priority",
      "iPhone",
    ])
    let lines = csv.split(separator: "\n")
    #expect(lines.first == "start,end,value,unit,source")
    #expect(
      lines.count == 7 && lines[1].hasSuffix(",iPhone") && lines[4].hasSuffix(",Anna's Apple\u{a0}Watch"))
    let json = try stats([
      export, "--type", "heartRate", "--interval", "all", "--format", "json", "--option", "discreteMin",
    ])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["option"] as? String == "discreteMin" && object["unit"] as? String == "count/min")
    let intervals = try #require(object["intervals"] as? [[String: Any]])
    #expect(intervals.count == 1 && intervals[0]["value"] as? Double == 52)
    let durations = try stats([export, "--type", "stepCount", "--interval", "all", "--option", "duration"])
    #expect(durations.split(separator: "\n")[1].hasSuffix(",s"))
  }

  @Test("discrete types stream: two passes over the inputs give the mean of every sample, per source")
  func discreteTypesStream() throws {
    let command = try #require(
      try VitalsCommand.parseAsRoot([
        "stats", export, "--type", "heartRate", "--interval", "all", "--per-source", "--format", "json",
      ]) as? Stats)
    var samples: [QuantitySample] = []
    let reader = try HealthExportReader(path: export)
    while let sample = try reader.next() {
      if case .quantity(let q) = sample, q.type == QuantityType(identifier: "heartRate") { samples.append(q) }
    }
    let sources = Set(samples.map(\.source))
    #expect(samples.count > 1 && !sources.isEmpty)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(command.report().utf8)) as? [String: Any])
    let interval = try #require((object["intervals"] as? [[String: Any]])?.first)
    let mean = samples.map(\.value).reduce(0, +) / Double(samples.count)
    #expect(interval["count"] as? Int == samples.count)
    #expect(abs(try #require(interval["value"] as? Double) - mean) < 1e-9 * mean)
    let bySource = try #require(object["sources"] as? [String: [[String: Any]]])
    #expect(Set(bySource.keys) == sources)
    #expect(bySource.values.compactMap { $0.first?["count"] as? Int }.reduce(0, +) == samples.count)
  }

  /// Writes an export of a few step records (some instantaneous: alone, at the end of a record, at the
  /// start of one) of `sources`, each source holding the same records, to a temporary file; returns
  /// its path.
  func stepExport(sources: [String]) throws -> String {
    let records = [
      ("2024-01-08 09:00:00", "2024-01-08 09:05:00", 400), ("2024-01-08 09:05:00", "2024-01-08 09:05:00", 7),
      ("2024-01-08 12:00:00", "2024-01-08 12:00:00", 3), ("2024-01-08 23:50:00", "2024-01-09 00:10:00", 120),
      ("2024-01-09 08:00:00", "2024-01-09 08:00:00", 9), ("2024-01-09 08:00:00", "2024-01-09 08:10:00", 600),
    ]
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
    for source in sources {
      for (start, end, value) in records {
        text += """
           <Record type="HKQuantityTypeIdentifierStepCount" sourceName="\(source)" unit="count" \
          startDate="\(start) +0000" endDate="\(end) +0000" value="\(value)"/>

          """
      }
    }
    text += "</HealthData>\n"
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("steps-\(UUID()).xml").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("step records copied under a second source count once, in either order of priority")
  func copiedSourceCountsOnce() throws {
    let single = try stepExport(sources: ["iPhone"])
    let copied = try stepExport(sources: ["iPhone", "Health Sync"])
    defer { for path in [single, copied] { try? FileManager.default.removeItem(atPath: path) } }
    let table = try stats([single, "--type", "stepCount", "--timezone", "UTC"])
    #expect(
      table == """
        start,end,value,unit
        2024-01-08T00:00:00Z,2024-01-09T00:00:00Z,470.0,count
        2024-01-09T00:00:00Z,2024-01-10T00:00:00Z,669.0,count

        """)
    for order in ["iPhone,Health Sync", "Health Sync, iPhone"] {
      #expect(
        try stats([copied, "--type", "stepCount", "--timezone", "UTC", "--source-priority", order]) == table)
    }
  }

  @Test("an unknown --type is a usage error listing the types of the inputs and those known")
  func unknownType() throws {
    #expect(runInProcess(["stats", export, "--type", "stepcount"]) == 2)
    let typo = try #require(throws: ValidationError.self) { try stats([export, "--type", "stepcount"]) }
    let lines: [String] = typo.message.split(separator: "\n").map(String.init)
    let known: String = QuantityType.knownTypes.map(\.rawValue).joined(separator: ", ")
    let identifiers: String = QuantityType.knownTypes.map(\.identifier).joined(separator: ", ")
    let expected: [String] = [
      "--type 'stepcount' is neither in the inputs nor a known quantity type; did you mean stepCount?",
      "types in the inputs: bloodPressureDiastolic, bloodPressureSystolic, heartRate, stepCount",
      "types known: \(known)",
      "or as HealthKit identifiers: \(identifiers)",
    ]
    #expect(lines == expected)
    #expect(
      lines[2].contains(" distanceWalkingRunning, ")
        && lines[3].contains(" HKQuantityTypeIdentifierStepCount,"))
    #expect(runInProcess(["stats", export, "--type", "HKQuantityTypeIdentifierFrobnication"]) == 2)
    let far = try #require(throws: ValidationError.self) {
      try stats([export, "--type", "HKQuantityTypeIdentifierFrobnication"])
    }
    #expect(
      far.message.hasPrefix("--type 'HKQuantityTypeIdentifierFrobnication' is neither in the inputs nor"))
    #expect(!far.message.contains("did you mean"))
  }

  @Test("a type not known but in the inputs is aggregated in the inputs' unit")
  func typeOfTheInputs() throws {
    let table = try stats([
      export, "--type", "HKQuantityTypeIdentifierBloodPressureSystolic", "--interval", "all",
    ])
    #expect(table.split(separator: "\n").last?.hasSuffix(",121.0,mmHg") == true)
  }

  @Test("a known type without samples: an empty table, exit 0 and a note naming the types found")
  func knownTypeWithoutSamples() throws {
    var notes: [String] = []
    let command = try #require(
      try VitalsCommand.parseAsRoot(["stats", export, "--type", "flightsClimbed"]) as? Stats)
    #expect(try command.report { notes.append($0) } == "start,end,value,unit\n")
    #expect(
      notes == [
        "no flightsClimbed samples in \(export); types in the inputs: bloodPressureDiastolic, "
          + "bloodPressureSystolic, heartRate, stepCount"
      ])
    #expect(runInProcess(["stats", export, "--type", "flightsClimbed", "--format", "json"]) == 0)
    let empty = try stepExport(sources: [])
    defer { try? FileManager.default.removeItem(atPath: empty) }
    notes = []
    _ = try #require(try VitalsCommand.parseAsRoot(["stats", empty, "--type", "stepCount"]) as? Stats).report
    {
      notes.append($0)
    }
    #expect(notes == ["no stepCount samples in \(empty); the inputs hold no quantity samples"])
  }

  @Test("samples files: empty intervals, units converted")
  func samplesFile() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("stats-\(UUID()).samples.jsonl")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(
      """
      {"type":"distanceWalkingRunning","start":"2024-01-01T10:00:00Z","end":"2024-01-01T10:30:00Z","value":1.5,"unit":"km","source":"Vitals"}
      {"type":"irregularHeartRhythmEvent","start":"2024-01-01T10:00:00Z","end":"2024-01-01T10:30:00Z","source":"Vitals"}
      {"type":"distanceWalkingRunning","start":"2024-01-01T12:45:00Z","end":"2024-01-01T13:15:00Z","value":600,"unit":"m","source":"Vitals"}

      """.utf8
    ).write(to: URL(fileURLWithPath: path))
    let csv = try stats([path, "--type", "distanceWalkingRunning", "--interval", "hour", "--timezone", "UTC"])
    #expect(
      csv == """
        start,end,value,unit
        2024-01-01T10:00:00Z,2024-01-01T11:00:00Z,1500.0,m
        2024-01-01T11:00:00Z,2024-01-01T12:00:00Z,,m
        2024-01-01T12:00:00Z,2024-01-01T13:00:00Z,300.0,m
        2024-01-01T13:00:00Z,2024-01-01T14:00:00Z,300.0,m

        """)
  }
}

/// The part of Fixtures/health-export/expected.json these tests use.
private struct ExpectedExportTotals: Decodable {
  var stepsWatchFirst: [Double]
  var stepsPhoneFirst: [Double]
}
