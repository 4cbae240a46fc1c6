import Foundation
import Testing
import VitalsCore
import VitalsIO

@testable import VitalsStatistics

@Suite struct SamplesFileTests {
  let samples: [HealthSample] = [
    .quantity(
      QuantitySample(
        type: .heartRate, value: 72.5, unit: .countPerMinute, start: local(2024, 3, 10, 8, 15, in: newYork),
        end: local(2024, 3, 10, 8, 16, in: newYork).advanced(byNanoseconds: 250_000_000), source: "Vitals",
        device: "Polar \"H10\"", metadata: ["lead": "I", "method": "ecg"])),
    .quantity(
      QuantitySample(
        type: .stepCount, value: .nan, unit: .count, start: local(2024, 3, 11, 12, in: newYork),
        end: local(2024, 3, 11, 12, 1, in: newYork), source: "Vitals")),
    .category(
      CategorySample(
        type: .irregularHeartRhythmEvent, start: local(2024, 3, 9, 23, in: newYork),
        end: local(2024, 3, 10, 0, 30, in: newYork), source: "Vitals")),
    .category(
      CategorySample(
        type: .sleepAnalysis, value: "asleepCore", start: at(0), end: at(60), source: "Watch",
        device: "Watch6,2")),
  ]

  @Test func linesAreJSONWithOffsets() {
    #expect(
      SamplesFile.line(samples[0], timeZone: newYork)
        == #"{"type":"heartRate","start":"2024-03-10T08:15:00-04:00","end":"2024-03-10T08:16:00.25-04:00","value":72.5,"unit":"count/min","source":"Vitals","device":"Polar \"H10\"","metadata":{"lead":"I","method":"ecg"}}"#
    )
    #expect(
      SamplesFile.line(samples[2], timeZone: newYork)
        == #"{"type":"irregularHeartRhythmEvent","start":"2024-03-09T23:00:00-05:00","end":"2024-03-10T00:30:00-05:00","source":"Vitals"}"#
    )
    #expect(SamplesFile.line(samples[1], timeZone: utc).contains(#""value":null"#))
    #expect(jsonString("Watch 6,2 · µ") == #""Watch 6,2 · µ""#)
    #expect(jsonString("a\u{1}b\\c\td") == #""a\u0001b\\c\td""#)
    #expect(at(0).iso8601(in: try! TimeZoneRules(named: "Asia/Kolkata")) == "1970-01-01T05:30:00+05:30")
  }

  /// Instants before the epoch take the offset of the second holding them (rounded down, not toward 0):
  /// New York left daylight time at 1969-10-26T06:00:00Z (−5 767 200 s), so half a second earlier is
  /// still 01:59:59.5 EDT (Python's `datetime.fromtimestamp(-5767200.5, ZoneInfo("America/New_York"))`).
  @Test func instantsBeforeTheEpochFloorToTheirSecond() {
    #expect(Timestamp(nanosecondsSinceEpoch: -500_000_000).iso8601(in: utc) == "1969-12-31T23:59:59.5Z")
    let change: Int64 = -5_767_200 * 1_000_000_000
    #expect(
      Timestamp(nanosecondsSinceEpoch: change - 500_000_000).iso8601(in: newYork)
        == "1969-10-26T01:59:59.5-04:00")
    #expect(Timestamp(nanosecondsSinceEpoch: change).iso8601(in: newYork) == "1969-10-26T01:00:00-05:00")
  }

  @Test func writtenSamplesReadBack() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "round-trip\(UUID()).samples.jsonl"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let writer = try SamplesFileWriter(path: path, timeZone: newYork)
    for sample in samples { try writer.write(sample) }
    try writer.close()
    let reader = try SamplesFileReader(path: path)
    var read: [HealthSample] = []
    while let sample = try reader.next() { read.append(sample) }
    #expect(read.count == samples.count)
    #expect(read[0] == samples[0] && read[2] == samples[2] && read[3] == samples[3])
    guard case .quantity(let q) = read[1] else {
      Issue.record("expected a quantity")
      return
    }
    #expect(q.value.isNaN && q.start == local(2024, 3, 11, 12, in: newYork))
  }

  @Test(arguments: [
    (
      #"{"type":"heartRate","start":"yesterday","end":"2024-01-01T00:00:00Z","value":1,"unit":"count/min"}"#,
      "ISO 8601 start"
    ),
    (
      #"{"type":"heartRate","start":"2023-02-29T00:00:00Z","end":"2023-03-01T00:00:00Z","value":1,"unit":"count/min"}"#,
      "the start time '2023-02-29T00:00:00Z' is not a possible date and time: day 29 is not in February 2023"
    ),
    (#"{"type":"heartRate","start":"2024-01-01T00:00:00Z","end":"2024-01-01T00:00:00Z","value":1}"#, "unit"),
    (#"{"type":"heartRate","start":"2024-01-01T00:00:01Z","end":"2024-01-01T00:00:00Z"}"#, "not before"),
    (#"{"start":"2024-01-01T00:00:00Z"}"#, "JSON object"),
    ("not json", "JSON object"),
  ])
  func badLinesNameTheLine(line: String, message: String) {
    let text = SamplesFile.line(samples[0], timeZone: utc) + "\n\n" + line + "\n"
    let reader = SamplesFileReader(bytes: Array(text.utf8), name: "a.samples.jsonl")
    do {
      while try reader.next() != nil {}
      Issue.record("expected an error")
    } catch {
      #expect(error.location == .line(3) && error.message.contains(message), "\(error)")
    }
  }
}
