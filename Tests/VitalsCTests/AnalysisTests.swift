import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsC
@testable import VitalsCLI

@Suite("C interface: whole recordings and statistics partials")
struct AnalysisTests {
  static let fixture = SignalTests.fixture
  static let start = ["--start", "2024-03-10T06:00:00Z"]

  /// `summary` without the fields that time the run.
  static func untimed(_ summary: String) throws -> NSDictionary {
    var object = try jsonObject(summary)
    object["processing_s"] = nil
    object["samples_per_s"] = nil
    return object as NSDictionary
  }

  /// Two samples files (heartRate and heartRateVariabilitySDNN per minute) of the fixture analyzed
  /// through the C interface as if recorded on two days, written to `directory`.
  static func samplesFiles(in directory: String) throws -> [String] {
    try ["2024-03-09T22:00:00Z", "2024-03-11T05:30:00Z"].enumerated().map { k, start in
      var summary: UnsafeMutablePointer<CChar>?
      var samples: UnsafeMutablePointer<CChar>?
      let outcome = withCStrings(["--start", start]) { words, count in
        call { vitals_analyze(fixture, words, count, &summary, &samples, $0) }
      }
      try #require(outcome.status == 0)
      vitals_free(summary)
      let path = directory + "/day\(k).samples.jsonl"
      try #require(take(samples)).write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
  }

  /// The partial of `inputs` for `options` through the C interface.
  static func partial(_ inputs: [String], _ options: [String]) throws -> [UInt8] {
    var bytes: UnsafeMutablePointer<UInt8>?
    var length: Int64 = -1
    let outcome = withCStrings(inputs) { files, fileCount in
      withCStrings(options) { words, wordCount in
        call { vitals_stats_partial(files, fileCount, words, wordCount, &bytes, &length, $0) }
      }
    }
    try #require(outcome.status == 0, "\(outcome.message ?? "")")
    return take(bytes, count: length)
  }

  /// Merges `partials` through the C interface.
  static func merge(_ partials: [[UInt8]]) -> (Outcome, [UInt8]) {
    let lengths = partials.map { Int64($0.count) }
    var bytes: UnsafeMutablePointer<UInt8>?
    var length: Int64 = 0
    let outcome = withArrays(partials) { starts in
      call { vitals_stats_merge(starts, lengths, Int32(partials.count), &bytes, &length, $0) }
    }
    return (outcome, take(bytes, count: length))
  }

  /// The table of `partial` in `format` through the C interface.
  static func table(_ partial: [UInt8], format: String) -> (Outcome, String?) {
    var text: UnsafeMutablePointer<CChar>?
    let outcome = call { vitals_stats_table(partial, Int64(partial.count), format, &text, $0) }
    return (outcome, take(text))
  }

  @Test("analyze gives vitals analyze's summary line and its samples file")
  func analyzeEqualsCommand() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let options = Self.start + ["--timezone", "Europe/Paris", "--height", "1.8"]
    var summary: UnsafeMutablePointer<CChar>?
    var samples: UnsafeMutablePointer<CChar>?
    let outcome = withCStrings(options) { words, count in
      call { vitals_analyze(Self.fixture, words, count, &summary, &samples, $0) }
    }
    #expect(outcome.status == 0)
    var command = try VitalsCommand.parseAsRoot(["analyze", Self.fixture, "--out", directory] + options)
    try command.run()
    let written = try String(contentsOfFile: directory + "/simulated-ecg.json", encoding: .utf8)
    #expect(try Self.untimed(try #require(take(summary))) == (try Self.untimed(written)))
    let samplesFile = try String(contentsOfFile: directory + "/simulated-ecg.samples.jsonl", encoding: .utf8)
    let text = try #require(take(samples))
    #expect(text == samplesFile)
    #expect(text.contains("\"heartRate\""))
  }

  @Test("analyze without a start time has no samples file")
  func analyzeWithoutStart() throws {
    var summary: UnsafeMutablePointer<CChar>?
    var samples: UnsafeMutablePointer<CChar>? = untouchedMarker
    #expect(call { vitals_analyze(Self.fixture, nil, 0, &summary, &samples, $0) }.status == 0)
    #expect(samples == nil)
    #expect(try jsonObject(take(summary))["ecg"] != nil)
  }

  @Test(
    "a partial is vitals stats --partial's bytes; the merge of two equals the partial of all inputs",
    arguments: [
      ["--type", "heartRate", "--interval", "hour", "--timezone", "America/New_York"],
      ["--type", "heartRate", "--interval", "15min", "--option", "discreteMax", "--timezone", "UTC"],
      [
        "--type", "heartRateVariabilitySDNN", "--interval", "day", "--per-source", "--timezone",
        "Europe/Paris",
      ],
    ])
  func partialsMerge(options: [String]) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let files = try Self.samplesFiles(in: directory)
    let all = try Self.partial(files, options)
    let written = directory + "/all.partial.json"
    var command = try VitalsCommand.parseAsRoot(["stats"] + files + options + ["--partial", written])
    try command.run()
    #expect(all == Array(try Data(contentsOf: URL(fileURLWithPath: written))))

    let parts = try files.map { try Self.partial([$0], options) }
    let (outcome, merged) = Self.merge(parts)
    #expect(outcome.status == 0)
    #expect(
      try JSONDecoder().decode(StatisticsPartial.self, from: Data(merged))
        == JSONDecoder().decode(StatisticsPartial.self, from: Data(all)))
    for format in ["csv", "json"] {
      let stats = try #require(
        try VitalsCommand.parseAsRoot(["stats"] + files + options + ["--format", format]) as? Stats)
      let (tableOutcome, text) = Self.table(merged, format: format)
      #expect(tableOutcome.status == 0)
      #expect(text == (try stats.report(note: { _ in })))
    }
  }

  @Test("a query parsed for one merge serves later ones, each with its own inputs")
  func mergedQueriesTakeEachMergesInputs() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let files = try Self.samplesFiles(in: directory)
    let bytes = try Self.partial(
      [files[0]], ["--type", "heartRate", "--interval", "hour", "--timezone", "UTC"])
    let partial = try StatisticsPartial(bytes: bytes, name: "partial")
    let first = try mergedQuery(of: partial, inputs: ["partials[0]"])
    let second = try mergedQuery(of: partial, inputs: ["partials[0]", "partials[1]"])
    #expect(first.0.inputs == ["partials[0]"] && second.0.inputs == ["partials[0]", "partials[1]"])
    #expect(second.0.interval == "hour" && second.0.type == "heartRate" && second.1 == first.1)
  }
}
