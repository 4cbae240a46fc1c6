import Foundation
import Testing
import VitalsCore
import VitalsIO
import VitalsTestSupport

@testable import VitalsStatistics

@Suite("Statistics of sample files")
struct QuantitySampleFilesTests {
  let export = TestData.fixture("health-export/export.xml").path

  /// The samples of `type` in the export, read directly.
  func samples(_ type: QuantityType) throws -> [QuantitySample] {
    try readAll(HealthExportReader(path: export)).compactMap {
      if case .quantity(let q) = $0, q.type == type { q } else { nil }
    }
  }

  @Test("one pass finds the span, the unit and the types; discrete and cumulative statistics match a query")
  func statisticsMatchAQuery() throws {
    for name in ["heartRate", "stepCount"] {
      let type = try #require(QuantityType(identifier: name))
      let all = try samples(type)
      let files = try QuantitySampleFiles(inputs: [export], type: type, unit: nil)
      let span = try #require(files.span)
      // The span holds every sample: past the latest start as well as up to the latest end.
      let high = all.map { max($0.end, $0.start.advanced(byNanoseconds: 1)) }.max()
      #expect(span.lowerBound == all.map(\.start).min() && span.upperBound == high)
      #expect(files.unit == all[0].unit && files.typesFound.contains(type) && files.typesFound.count > 1)
      let intervals = IntervalCollection(
        length: .days(1), anchor: IntervalCollection.defaultAnchor(in: .utc), timeZone: .utc, covering: span)
      let option = StatisticsOption.defaultOption(for: type.aggregationStyle)
      let expected = try StatisticsQuery(
        type: type, unit: all[0].unit, intervals: intervals, sourcePriority: SourcePriority(),
        options: [option]
      ).run(all, separateBySource: true)
      let result = try files.statistics(
        intervals: intervals, option: option, sourcePriority: SourcePriority(), separateBySource: true)
      #expect(result == expected)
    }
  }

  @Test("the span holds an instantaneous sample at the latest end, and every sample of positive duration")
  func spanHoldsInstants() {
    let t = Timestamp(nanosecondsSinceEpoch: 1_710_079_200_000_000_000)
    var span = SampleSpan()
    #expect(span.range == nil)
    span.include(start: t, end: t)
    #expect(span.range == t..<t.advanced(byNanoseconds: 1))
    span.include(start: t.advanced(byNanoseconds: -600_000_000_000), end: t)
    #expect(span.range == t.advanced(byNanoseconds: -600_000_000_000)..<t.advanced(byNanoseconds: 1))
    span.include(start: t, end: t.advanced(byNanoseconds: 60_000_000_000))
    #expect(span.range?.upperBound == t.advanced(byNanoseconds: 60_000_000_000))
    span.include(
      start: t.advanced(byNanoseconds: 60_000_000_000), end: t.advanced(byNanoseconds: 60_000_000_000))
    #expect(span.range?.upperBound == t.advanced(byNanoseconds: 60_000_000_001))
    // Every sample lies in the single interval over the span: a statistics query over it counts them all.
    let intervals = IntervalCollection(single: span.range!)
    #expect(intervals.index(of: t.advanced(byNanoseconds: 60_000_000_000).nanosecondsSinceEpoch) == 0)
  }

  @Test("no sample of the type: no span; an input of another kind is an error naming it")
  func absentAndRefused() throws {
    let files = try QuantitySampleFiles(
      inputs: [export], type: QuantityType(rawValue: "noSuchType"), unit: nil)
    #expect(files.span == nil && files.unit == nil && !files.typesFound.isEmpty)
    let error = #expect(throws: InputError.self) {
      try QuantitySampleFiles(inputs: ["data.csv"], type: QuantityType(rawValue: "stepCount"), unit: nil)
    }
    #expect(error?.path == "data.csv")
  }

  @Test("anchors: local dates and times in the zone, or with an offset")
  func anchors() throws {
    let zone = try TimeZoneRules(named: "America/New_York")
    #expect(IntervalCollection.anchor("2024-03-10", in: zone)?.iso8601 == "2024-03-10T05:00:00Z")
    #expect(IntervalCollection.anchor("2024-03-10T06:00", in: zone)?.iso8601 == "2024-03-10T10:00:00Z")
    #expect(
      IntervalCollection.anchor("2024-03-10T06:00:00+01:00", in: zone)?.iso8601 == "2024-03-10T05:00:00Z")
    #expect(IntervalCollection.anchor("10 March", in: zone) == nil)
    // At the clock changes, as Foundation's Calendar reads local times: the skipped 02:30 with the
    // offset before the change (EST), the repeated 01:30 as its first occurrence (EDT).
    #expect(IntervalCollection.anchor("2024-03-10T02:30", in: zone)?.iso8601 == "2024-03-10T07:30:00Z")
    #expect(IntervalCollection.anchor("2024-11-03T01:30", in: zone)?.iso8601 == "2024-11-03T05:30:00Z")
    #expect(IntervalCollection.defaultAnchor(in: zone).iso8601 == "2000-01-03T05:00:00Z")
  }

  @Test(
    "the nearest known name: case ignored, at most a third of the letters off",
    arguments: [
      ("stepcount", "stepCount"), ("STEPCOUNT", "stepCount"), ("stepCont", "stepCount"),
      ("heartrte", "heartRate"), ("restingHeartRates", "restingHeartRate"), ("steps", nil),
      ("frobnication", nil),
    ] as [(String, String?)])
  func nearestName(name: String, nearest: String?) {
    #expect(QuantityType.nearestName(to: name, among: QuantityType.knownTypes.map(\.rawValue)) == nearest)
  }

  @Test(
    "edit distances", arguments: [("", "", 0), ("", "abc", 3), ("kitten", "sitting", 3), ("abc", "abc", 0)])
  func editDistance(a: String, b: String, distance: Int) {
    #expect(QuantityType.editDistance(Array(a), Array(b)) == distance)
    #expect(QuantityType.editDistance(Array(b), Array(a)) == distance)
  }
}
