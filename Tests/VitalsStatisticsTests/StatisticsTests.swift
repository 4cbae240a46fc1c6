import Foundation
import Testing
import VitalsCore
import VitalsIO
import VitalsTestSupport

@testable import VitalsStatistics

/// Seconds since the epoch as a timestamp.
func at(_ seconds: Int64) -> Timestamp { Timestamp(nanosecondsSinceEpoch: seconds * 1_000_000_000) }

/// A sample over [start, end) seconds.
func sample(
  _ type: QuantityType, _ value: Double, _ start: Int64, _ end: Int64, source: String = "Watch",
  unit: HealthUnit? = nil
) -> QuantitySample {
  QuantitySample(
    type: type, value: value, unit: unit ?? type.canonicalUnit!, start: at(start), end: at(end),
    source: source)
}

let utc = TimeZoneRules.utc
let newYork = try! TimeZoneRules(named: "America/New_York")

/// `year-month-day hh:mm` local time in `zone`.
func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, in zone: TimeZoneRules)
  -> Timestamp
{
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: zone.identifier)!
  let date = calendar.date(
    from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
  return Timestamp(secondsSinceEpoch: date.timeIntervalSince1970)
}

@Suite struct SampleTypeTests {
  @Test func identifiersParse() {
    #expect(QuantityType(identifier: "HKQuantityTypeIdentifierHeartRate") == .heartRate)
    #expect(QuantityType(identifier: "HKQuantityTypeIdentifierStepCount") == .stepCount)
    #expect(QuantityType(identifier: "stepCount") == .stepCount)
    #expect(QuantityType(identifier: "HKCategoryTypeIdentifierSleepAnalysis") == nil)
    #expect(QuantityType(identifier: "") == nil)
    #expect(
      CategoryType(identifier: "HKCategoryTypeIdentifierIrregularHeartRhythmEvent")
        == .irregularHeartRhythmEvent)
    #expect(QuantityType.stepCount.aggregationStyle == .cumulative)
    #expect(QuantityType.heartRate.aggregationStyle == .discrete)
    #expect(QuantityType(rawValue: "vo2Max").aggregationStyle == .discrete)
    #expect(QuantityType(rawValue: "vo2Max").canonicalUnit == nil)
  }

  @Test func knownTypesReadBackFromTheirIdentifiers() {
    let known = QuantityType.knownTypes
    #expect(known.count == 18 && known.map(\.rawValue) == known.map(\.rawValue).sorted())
    for type in known {
      #expect(type.isKnown && type.canonicalUnit != nil && QuantityType(identifier: type.identifier) == type)
    }
    #expect(
      QuantityType.heartRateVariabilitySDNN.identifier == "HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
    #expect(CategoryType.sleepAnalysis.identifier == "HKCategoryTypeIdentifierSleepAnalysis")
    #expect(!QuantityType(rawValue: "vo2Max").isKnown && !QuantityType(rawValue: "stepcount").isKnown)
  }

  @Test(arguments: [
    ("km", "m", 1.5, 1500.0), ("count/min", "count/s", 120, 2), ("ms", "s", 250, 0.25),
    ("kcal", "kJ", 1, 4.184),
    ("mi", "km", 1, 1.609344), ("Cal", "kcal", 3, 3), ("min", "s", 2, 120), ("km/hr", "m/s", 4.5, 1.25),
    ("mi/hr", "km/hr", 1, 1.609344),
  ])
  func unitsConvert(from: String, to: String, value: Double, expected: Double) {
    let converted = HealthUnit(from).convert(value, to: HealthUnit(to))
    #expect(converted.map { abs($0 - expected) < 1e-12 * expected } == true)
  }

  @Test func incompatibleUnitsDoNotConvert() {
    #expect(HealthUnit.count.convert(1, to: .meters) == nil)
    #expect(HealthUnit("furlong").convert(1, to: .meters) == nil)
    #expect(HealthUnit("furlong").convert(2, to: HealthUnit("furlong")) == 2)
    #expect(sample(.stepCount, 1, 0, 1).converted(to: .kilometers) == nil)
  }
}

@Suite struct IntervalTests {
  @Test func fixedIntervalsAlignToTheAnchor() {
    let hours = IntervalCollection(
      length: .seconds(3600), anchor: at(1800), timeZone: utc, covering: at(100)..<at(7300))
    #expect(hours.start == at(-1800))
    #expect(hours.count == 3)
    #expect(hours.end == at(9000))
    #expect(hours.index(of: at(-1801).nanosecondsSinceEpoch) == nil)
    #expect(hours.index(of: at(1799).nanosecondsSinceEpoch) == 0)
    #expect(hours.index(of: at(1800).nanosecondsSinceEpoch) == 1)
    #expect(hours.index(of: at(9000).nanosecondsSinceEpoch) == nil)
  }

  @Test func calendarDaysLast23And25HoursAcrossDaylightSaving() {
    let anchor = local(2024, 1, 1, in: newYork)
    let spring = IntervalCollection(
      length: .days(1), anchor: anchor, timeZone: newYork,
      covering: local(2024, 3, 9, 12, in: newYork)..<local(2024, 3, 11, 1, in: newYork))
    #expect(spring.count == 3)
    #expect(spring.start == local(2024, 3, 9, in: newYork))
    #expect(spring.boundary(1).seconds(to: spring.boundary(2)) == 23 * 3600)
    let fall = IntervalCollection(
      length: .days(1), anchor: anchor, timeZone: newYork,
      covering: local(2024, 11, 3, 1, in: newYork)..<local(2024, 11, 3, 23, in: newYork))
    #expect(fall.count == 1)
    #expect(fall.boundary(0).seconds(to: fall.boundary(1)) == 25 * 3600)
    // The instant after the repeated 01:00–02:00 hour is still 3 November.
    let lateInDay = local(2024, 11, 3, 23, 59, in: newYork).nanosecondsSinceEpoch
    #expect(fall.index(of: lateInDay) == 0)
    #expect(fall.index(of: fall.boundary(1).nanosecondsSinceEpoch) == nil)
  }

  @Test func everyInstantFindsItsCalendarInterval() {
    let days = IntervalCollection(
      length: .days(1), anchor: local(2024, 1, 1, in: newYork), timeZone: newYork,
      covering: local(2024, 3, 1, in: newYork)..<local(2024, 12, 1, in: newYork))
    var rng = SplitMix64(state: 7)
    for _ in 0..<2000 {
      let t = Int64.random(
        in: days.start.nanosecondsSinceEpoch..<days.end.nanosecondsSinceEpoch, using: &rng)
      let k = days.index(of: t)!
      #expect(days.boundary(k).nanosecondsSinceEpoch <= t && t < days.boundary(k + 1).nanosecondsSinceEpoch)
    }
  }

  @Test func collectionsRoundTripThroughJSONWithoutTheirCellTables() throws {
    let days = IntervalCollection(
      length: .days(1), anchor: local(2024, 1, 1, in: newYork), timeZone: newYork,
      covering: local(2024, 3, 1, in: newYork)..<local(2024, 12, 1, in: newYork))
    let hours = IntervalCollection(
      length: .seconds(3600), anchor: at(0), timeZone: utc, covering: at(0)..<at(86_400))
    for collection in [days, hours] {
      let json = try JSONEncoder().encode(collection)
      #expect(try JSONDecoder().decode(IntervalCollection.self, from: json) == collection)
      #expect(!String(decoding: json, as: UTF8.self).contains("cell"))
    }
    var object = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(days)) as? [String: Any])
    object["count"] = 5
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(IntervalCollection.self, from: JSONSerialization.data(withJSONObject: object))
    }
  }

  @Test func weeksAndMonthsFollowTheAnchor() {
    let monday = local(2024, 1, 1, in: utc)
    let weeks = IntervalCollection(
      length: .weeks(1), anchor: monday, timeZone: utc,
      covering: local(2024, 3, 13, in: utc)..<local(2024, 3, 14, in: utc))
    #expect(weeks.start == local(2024, 3, 11, in: utc))
    #expect(weeks.end == local(2024, 3, 18, in: utc))
    let months = IntervalCollection(
      length: .months(1), anchor: local(2024, 1, 31, in: utc), timeZone: utc,
      covering: local(2024, 2, 1, in: utc)..<local(2024, 4, 1, in: utc))
    #expect(
      (0...months.count).map { months.boundary($0) } == [
        local(2024, 1, 31, in: utc), local(2024, 2, 29, in: utc), local(2024, 3, 31, in: utc),
        local(2024, 4, 30, in: utc),
      ])
  }
}

@Suite struct AggregationTests {
  let hours = IntervalCollection(
    length: .seconds(3600), anchor: at(0), timeZone: utc, covering: at(0)..<at(3 * 3600))

  @Test func discreteStatisticsByStart() throws {
    // The 80 bpm sample ends in hour 1 but counts in hour 0, where it starts.
    let samples = [
      sample(.heartRate, 60, 100, 160), sample(.heartRate, 80, 3000, 3700),
      sample(.heartRate, 70, 200, 3500), sample(.heartRate, 100, 3700, 3710),
      sample(.heartRate, .nan, 3800, 3801),
    ]
    let result = try StatisticsQuery(type: .heartRate, intervals: hours).run(samples).merged
    let first = result.statistics(0)
    #expect(first.sampleCount == 3)
    #expect(first.average == 70)
    #expect(first.minimum == 60)
    #expect(first.maximum == 80)
    #expect(first.mostRecent?.value == 80)
    #expect(first.duration == 4060)  // 60 + 700 + 3300 s
    #expect(first.sum == nil)
    let second = result.statistics(1)
    #expect(second.sampleCount == 1 && second.average == 100 && second.mostRecent?.end == at(3710))
    let empty = result.statistics(2)
    #expect(
      empty.sampleCount == 0 && empty.average == nil && empty.mostRecent == nil && empty.duration == nil)
  }

  @Test func mostRecentIsTheLatestEnd() throws {
    let samples = [
      sample(.heartRate, 90, 10, 500), sample(.heartRate, 50, 400, 450), sample(.heartRate, 40, 20, 500),
    ]
    let first = try StatisticsQuery(type: .heartRate, intervals: hours).run(samples).merged.statistics(0)
    // Equal ends: the later start wins.
    #expect(first.mostRecent?.value == 40)
  }

  @Test func partialsMoveOntoLongerRunsOfTheirIntervals() throws {
    let samples = [sample(.heartRate, 60, 3700, 3760), sample(.heartRate, 90, 7300, 7360)]
    let own = IntervalCollection(
      length: .seconds(3600), anchor: at(0), timeZone: utc, covering: at(3700)..<at(7360))
    let partial = try StatisticsQuery(type: .heartRate, intervals: own).run(samples).merged
    let moved = try #require(partial.rebased(onto: hours))
    #expect(moved == (try StatisticsQuery(type: .heartRate, intervals: hours).run(samples).merged))
    // Intervals at other boundaries, or too few, take no partial.
    let shifted = IntervalCollection(
      length: .seconds(3600), anchor: at(1800), timeZone: utc, covering: at(0)..<at(3 * 3600))
    #expect(partial.rebased(onto: shifted) == nil)
    let short = IntervalCollection(
      length: .seconds(3600), anchor: at(0), timeZone: utc, covering: at(0)..<at(60))
    #expect(partial.rebased(onto: short) == nil)
    // A single interval moves onto a single interval holding it.
    let single = try StatisticsQuery(
      type: .heartRate, intervals: IntervalCollection(single: at(3700)..<at(7360))
    )
    .run(samples).merged
    let wide = try #require(single.rebased(onto: IntervalCollection(single: at(0)..<at(9000))))
    #expect(wide.statistics(0).sampleCount == 2 && wide.statistics(0).maximum == 90)
    #expect(single.rebased(onto: IntervalCollection(single: at(4000)..<at(9000))) == nil)
  }

  @Test func cumulativeSamplesSplitInProportionToOverlap() throws {
    // 120 steps over 40 minutes, 20 of them in hour 0 and 20 in hour 1; 30 steps inside hour 2;
    // an instantaneous sample at the start of hour 1.
    let samples = [
      sample(.stepCount, 120, 3600 - 1200, 3600 + 1200), sample(.stepCount, 30, 7300, 7400),
      sample(.stepCount, 5, 3600, 3600),
    ]
    let result = try StatisticsQuery(type: .stepCount, intervals: hours).run(samples).merged
    #expect(result.allStatistics.map(\.sum) == [60, 65, 30])
    #expect(result.allStatistics.map(\.sampleCount) == [1, 2, 1])
    #expect(result.statistics(0).duration == 1200)
    #expect(result.statistics(0).average == nil)
    #expect(result.statistics(0).mostRecent?.value == 120)
  }

  @Test func partsOutsideTheCollectionAreDropped() throws {
    let samples = [sample(.stepCount, 100, -50, 50), sample(.stepCount, 10, 3 * 3600 - 10, 3 * 3600 + 10)]
    let result = try StatisticsQuery(type: .stepCount, intervals: hours).run(samples).merged
    #expect(result.allStatistics.map(\.sum) == [50, nil, 5])
  }

  @Test func dailyStepsAcrossTheSpringChange() throws {
    // One step sample of 100 per real hour from 8 to 11 March 2024 in New York: the 23-hour day of
    // 10 March holds 2300 steps, its neighbours 2400.
    let start = local(2024, 3, 9, in: newYork).nanosecondsSinceEpoch / 1_000_000_000
    let end = local(2024, 3, 12, in: newYork).nanosecondsSinceEpoch / 1_000_000_000
    let samples = stride(from: start, to: end, by: 3600).map { sample(.stepCount, 100, $0, $0 + 3600) }
    let days = IntervalCollection(
      length: .days(1), anchor: local(2024, 1, 1, in: newYork), timeZone: newYork,
      covering: at(start)..<at(end))
    let result = try StatisticsQuery(type: .stepCount, intervals: days).run(samples).merged
    #expect(result.allStatistics.map(\.sum) == [2400, 2300, 2400])
  }

  @Test func unitsAreConvertedOrRejected() throws {
    let samples = [
      sample(.distanceWalkingRunning, 1.5, 0, 60, unit: .kilometers),
      sample(.distanceWalkingRunning, 500, 60, 120),
    ]
    let result = try StatisticsQuery(type: .distanceWalkingRunning, intervals: hours).run(samples).merged
    #expect(result.statistics(0).sum == 2000)
    #expect(throws: StatisticsError.incompatibleUnit(.count, .meters)) {
      try StatisticsQuery(type: .distanceWalkingRunning, intervals: hours)
        .run([sample(.distanceWalkingRunning, 1, 0, 1, unit: .count)])
    }
  }

  @Test func optionsValidForStyles() {
    #expect(StatisticsOption.cumulativeSum.isValid(for: .cumulative))
    #expect(!StatisticsOption.cumulativeSum.isValid(for: .discrete))
    #expect(!StatisticsOption.discreteAverage.isValid(for: .cumulative))
    #expect(StatisticsOption.mostRecent.isValid(for: .cumulative))
    #expect(StatisticsOption.defaultOption(for: .discrete) == .discreteAverage)
  }
}

@Suite struct SourceMergingTests {
  let minute = IntervalCollection(
    length: .seconds(3600), anchor: at(0), timeZone: utc, covering: at(0)..<at(3600))
  // The Watch counts 100 steps over [0, 60) s, the iPhone 60 steps over [30, 90) s.
  let samples = [
    sample(.stepCount, 100, 0, 60, source: "Watch"), sample(.stepCount, 60, 30, 90, source: "iPhone"),
  ]

  @Test(arguments: [(["Watch", "iPhone"], 130.0), (["iPhone", "Watch"], 110.0), ([], 130.0)])
  func higherPriorityWinsWhereSourcesOverlap(order: [String], total: Double) throws {
    let query = StatisticsQuery(type: .stepCount, intervals: minute, sourcePriority: SourcePriority(order))
    let result = try query.run(samples, separateBySource: true)
    #expect(result.merged.statistics(0).sum == total)
    #expect(result.bySource["Watch"]?.statistics(0).sum == 100)
    #expect(result.bySource["iPhone"]?.statistics(0).sum == 60)
  }

  @Test func lowerPrioritySamplesKeepOnlyUncoveredParts() {
    let merged = SourcePriority(["Watch"]).merged([
      sample(.stepCount, 100, 10, 20, source: "Watch"), sample(.stepCount, 50, 40, 50, source: "Watch"),
      sample(.stepCount, 60, 0, 60, source: "iPhone"), sample(.stepCount, 7, 15, 15, source: "iPhone"),
      sample(.stepCount, 3, 55, 55, source: "iPhone"), sample(.stepCount, 1, 70, 80, source: "Phone"),
    ])
    let fragments = merged.filter { $0.source == "iPhone" }.map {
      [$0.start, $0.end].map { Double($0.nanosecondsSinceEpoch) / 1e9 } + [$0.value]
    }
    #expect(fragments == [[0, 10, 10], [20, 40, 20], [50, 60, 10], [55, 55, 3]])
    #expect(merged.filter { $0.source == "Phone" }.map(\.value) == [1])
  }

  /// `samples` as `[start s, end s, value]` of each, source by source.
  func spans(_ samples: [QuantitySample], of source: String) -> [[Double]] {
    samples.filter { $0.source == source }.map {
      [$0.start, $0.end].map { Double($0.nanosecondsSinceEpoch) / 1e9 } + [$0.value]
    }
  }

  @Test(arguments: [(["Watch", "iPhone"], 5.0), (["iPhone", "Watch"], 7.0), ([], 5.0)])
  func instantsOfTwoSourcesAtOneTimeCountOnce(order: [String], total: Double) throws {
    let samples = [
      sample(.stepCount, 5, 30, 30, source: "Watch"), sample(.stepCount, 7, 30, 30, source: "iPhone"),
    ]
    #expect(SourcePriority(order).merged(samples).map(\.value) == [total])
    let query = StatisticsQuery(type: .stepCount, intervals: minute, sourcePriority: SourcePriority(order))
    let result = try query.run(samples, separateBySource: true)
    #expect(result.merged.statistics(0).sum == total && result.merged.statistics(0).sampleCount == 1)
    #expect(
      result.bySource["Watch"]?.statistics(0).sum == 5 && result.bySource["iPhone"]?.statistics(0).sum == 7)
  }

  /// A higher-ranked span `[10, 60)` holds the instants from its start to just before its end; its end
  /// belongs to the moment after it, as in the statistics' intervals.
  @Test(arguments: [
    (at(10), false), (at(30), false), (at(60).advanced(byNanoseconds: -1), false), (at(60), true),
    (at(5), true),
  ])
  func instantsInsideAHigherRankedSpanDoNotCount(time: Timestamp, counts: Bool) {
    let instant = QuantitySample(
      type: .stepCount, value: 3, unit: .count, start: time, end: time, source: "iPhone")
    let merged = SourcePriority(["Watch"]).merged([sample(.stepCount, 100, 10, 60, source: "Watch"), instant])
    #expect(merged.filter { $0.source == "iPhone" } == (counts ? [instant] : []))
  }

  @Test func higherRankedInstantsTakeNothingFromLowerRankedSpans() {
    let samples = [
      sample(.stepCount, 5, 30, 30, source: "Watch"), sample(.stepCount, 4, 0, 0, source: "Watch"),
      sample(.stepCount, 60, 0, 60, source: "iPhone"),
    ]
    #expect(SourcePriority(["Watch"]).merged(samples) == [samples[1], samples[0], samples[2]])
  }

  @Test func instantsOfOneSourceAtOneTimeAllCount() {
    let merged = SourcePriority(["Watch"]).merged([
      sample(.stepCount, 5, 30, 30, source: "Watch"), sample(.stepCount, 2, 30, 30, source: "Watch"),
      sample(.stepCount, 7, 30, 30, source: "iPhone"),
    ])
    #expect(merged.map(\.value).sorted() == [2, 5])
  }

  /// Three sources: each instant is tested against the spans and instants of every source ranked
  /// above it, each span part against their spans only.
  @Test func threeSources() throws {
    let samples = [
      sample(.stepCount, 100, 0, 60, source: "Watch"), sample(.stepCount, 2, 70, 70, source: "Watch"),
      // Under the Watch's span; at the Watch's instant; free; a span whose [50, 60) the Watch covers.
      sample(.stepCount, 3, 30, 30, source: "iPhone"), sample(.stepCount, 4, 70, 70, source: "iPhone"),
      sample(.stepCount, 5, 80, 80, source: "iPhone"), sample(.stepCount, 40, 50, 90, source: "iPhone"),
      // At the iPhone's instant; under the iPhone's span (where the Watch's ended); free; a span whose
      // [80, 90) the iPhone covers.
      sample(.stepCount, 6, 80, 80, source: "Ring"), sample(.stepCount, 7, 85, 85, source: "Ring"),
      sample(.stepCount, 8, 60, 60, source: "Ring"), sample(.stepCount, 9, 95, 95, source: "Ring"),
      sample(.stepCount, 20, 80, 100, source: "Ring"),
    ]
    let merged = SourcePriority(["Watch", "iPhone", "Ring"]).merged(samples.shuffled())
    #expect(spans(merged, of: "Watch") == [[0, 60, 100], [70, 70, 2]])
    #expect(spans(merged, of: "iPhone") == [[60, 90, 30], [80, 80, 5]])
    #expect(spans(merged, of: "Ring") == [[90, 100, 10], [95, 95, 9]])
    let query = StatisticsQuery(
      type: .stepCount, intervals: minute, sourcePriority: SourcePriority(["Watch", "iPhone", "Ring"]))
    #expect(try query.run(samples).merged.statistics(0).sum == 156)
  }

  @Test func discreteTypesUseEverySource() throws {
    let samples = [
      sample(.heartRate, 60, 0, 60, source: "Watch"), sample(.heartRate, 80, 0, 60, source: "Strap"),
    ]
    let query = StatisticsQuery(
      type: .heartRate, intervals: minute, sourcePriority: SourcePriority(["Watch"]))
    #expect(try query.run(samples).merged.statistics(0).average == 70)
  }
}

extension IntervalStatistics {
  /// Whether `other` has the same interval, count, extremes, duration and most recent sample, and a sum
  /// and an average approximately equal (`tolerance` absolute and relative): the accumulator documents
  /// that sums taken in another order (blocks, merges) agree up to rounding.
  func agrees(with other: IntervalStatistics, tolerance: Double) -> Bool {
    func close(_ a: Double?, _ b: Double?) -> Bool {
      guard let a, let b else { return a == nil && b == nil }
      return a.isApproximatelyEqual(to: b, absoluteTolerance: tolerance, relativeTolerance: tolerance)
    }
    return start == other.start && end == other.end && sampleCount == other.sampleCount
      && minimum == other.minimum && maximum == other.maximum && mostRecent == other.mostRecent
      && duration == other.duration && close(sum, other.sum) && close(average, other.average)
  }
}

@Suite struct MergeTests {
  /// Random samples, some spanning hour boundaries, in random order.
  static func randomColumns(count: Int, seed: UInt64) -> (starts: [Int64], ends: [Int64], values: [Double]) {
    var rng = SplitMix64(state: seed)
    var starts: [Int64] = []
    var ends: [Int64] = []
    var values: [Double] = []
    for _ in 0..<count {
      let start = Int64.random(in: -3600_000_000_000..<30 * 3600_000_000_000, using: &rng)
      let length = rng.next() % 4 == 0 ? 0 : Int64.random(in: 1..<5400_000_000_000, using: &rng)
      starts.append(start)
      ends.append(start + length)
      values.append(Double(Int.random(in: 0..<200, using: &rng)) / 4)
    }
    return (starts, ends, values)
  }

  static func aggregate(
    _ columns: (starts: [Int64], ends: [Int64], values: [Double]), _ range: Range<Int>,
    into accumulator: inout IntervalAccumulator
  ) {
    columns.starts[range].withUnsafeBufferPointer { s in
      columns.ends[range].withUnsafeBufferPointer { e in
        columns.values[range].withUnsafeBufferPointer { v in accumulator.add(starts: s, ends: e, values: v) }
      }
    }
  }

  @Test(arguments: [AggregationStyle.discrete, .cumulative], [1, 2, 3])
  func mergingPartialsOfAnySplitEqualsAggregatingAll(style: AggregationStyle, seed: UInt64) throws {
    let intervals = IntervalCollection(
      length: .days(1), anchor: local(2024, 1, 1, in: newYork), timeZone: newYork,
      covering: at(0)..<at(24 * 3600))
    let hourly = IntervalCollection(
      length: .seconds(3600), anchor: at(0), timeZone: utc, covering: at(0)..<at(24 * 3600))
    let columns = Self.randomColumns(count: 3000, seed: seed)
    var rng = SplitMix64(state: seed &* 77)
    for collection in [intervals, hourly] {
      var whole = IntervalAccumulator(intervals: collection, style: style)
      Self.aggregate(columns, 0..<columns.starts.count, into: &whole)
      // Random cut points, partials merged in random order.
      var cuts = (0..<Int.random(in: 1..<20, using: &rng)).map { _ in
        Int.random(in: 0...columns.starts.count, using: &rng)
      }
      cuts = ([0, columns.starts.count] + cuts).sorted()
      var partials = zip(cuts, cuts.dropFirst()).map { low, high in
        var partial = IntervalAccumulator(intervals: collection, style: style)
        Self.aggregate(columns, low..<high, into: &partial)
        return partial
      }
      partials.shuffle(using: &rng)
      var merged = IntervalAccumulator(intervals: collection, style: style)
      for partial in partials { merged.merge(partial) }
      for k in 0..<collection.count {
        let a = whole.statistics(k)
        let b = merged.statistics(k)
        #expect(a.agrees(with: b, tolerance: 1e-9), "\(a) against \(b)")
      }
    }
  }

  @Test func partialsRoundTripThroughJSON() throws {
    let columns = Self.randomColumns(count: 200, seed: 9)
    let hourly = IntervalCollection(
      length: .seconds(3600), anchor: at(0), timeZone: utc, covering: at(0)..<at(24 * 3600))
    var partial = IntervalAccumulator(intervals: hourly, style: .cumulative)
    Self.aggregate(columns, 0..<200, into: &partial)
    let decoded = try JSONDecoder().decode(IntervalAccumulator.self, from: JSONEncoder().encode(partial))
    #expect(decoded == partial)
  }
}

@Suite struct SourceMergingPropertyTests {
  /// Random whole-second samples of three sources over two hours, some instantaneous, merged by
  /// priority, against a second-by-second count: each second goes to the highest-ranked source with a
  /// span covering it, whose spans there contribute value / duration each; an instant counts wholly
  /// unless a higher-ranked source has a span over it or an instant at the same second.
  @Test(arguments: [11, 12, 13] as [UInt64])
  func mergedTotalsEqualASecondBySecondCount(seed: UInt64) throws {
    var rng = SplitMix64(state: seed)
    let sources = ["Watch", "Phone", "Ring"]
    var samples: [QuantitySample] = []
    for _ in 0..<60 {
      let start = Int64.random(in: 0..<7000, using: &rng)
      let length = Int64.random(in: 1..<600, using: &rng)
      samples.append(
        sample(
          .stepCount, Double(Int.random(in: 1..<500, using: &rng)), start, min(start + length, 7200),
          source: sources.randomElement(using: &rng)!))
    }
    // Instants at random seconds and at the spans' ends, of which many meet spans and other instants.
    let times = samples.flatMap { [$0.start, $0.end] }.map { $0.nanosecondsSinceEpoch / 1_000_000_000 }
    for k in 0..<60 {
      let time = k % 2 == 0 ? times.randomElement(using: &rng)! : Int64.random(in: 0..<7200, using: &rng)
      samples.append(
        sample(
          .stepCount, Double(Int.random(in: 1..<20, using: &rng)), min(time, 7199), min(time, 7199),
          source: sources.randomElement(using: &rng)!))
    }
    let order = sources.shuffled(using: &rng)
    var expected = [0.0, 0.0]
    for instant in samples where instant.start == instant.end {
      let higher = order.prefix { $0 != instant.source }
      let covered = samples.contains {
        higher.contains($0.source)
          && ($0.start == instant.start || ($0.start < instant.start && instant.start < $0.end))
      }
      if !covered { expected[Int(instant.start.nanosecondsSinceEpoch / 3_600_000_000_000)] += instant.value }
    }
    for second in 0..<7200 {
      let covering = samples.filter { $0.start <= at(Int64(second)) && at(Int64(second)) < $0.end }
      guard let winner = order.first(where: { source in covering.contains { $0.source == source } }) else {
        continue
      }
      for s in covering where s.source == winner {
        expected[second / 3600] += s.value / s.start.seconds(to: s.end)
      }
    }
    let hours = IntervalCollection(
      length: .seconds(3600), anchor: at(0), timeZone: utc, covering: at(0)..<at(7200))
    let result = try StatisticsQuery(
      type: .stepCount, intervals: hours, sourcePriority: SourcePriority(order)
    )
    .run(samples).merged
    for k in 0..<2 {
      #expect(abs((result.statistics(k).sum ?? 0) - expected[k]) < 1e-6 * max(1, expected[k]))
    }
  }
}

@Suite struct BlockPathTests {
  /// `count` samples a second apart with up to 0.6 s of jitter, 0–2 s long (some instantaneous), in
  /// time order; then `disorder` of them swapped with random others, a NaN and an infinite value, and
  /// one sample far outside any collection (near `Int64.min`, which wrapping differences must not
  /// place inside an interval).
  static func columns(count: Int, disorder: Int, seed: UInt64) -> (
    starts: [Int64], ends: [Int64], values: [Double]
  ) {
    var rng = SplitMix64(state: seed)
    var starts: [Int64] = []
    var ends: [Int64] = []
    var values: [Double] = []
    for i in 0..<count {
      let start = Int64(i) * 1_000_000_000 + Int64.random(in: 0..<600_000_000, using: &rng)
      starts.append(start)
      ends.append(start + (i % 97 == 0 ? 0 : Int64.random(in: 1..<2_000_000_000, using: &rng)))
      values.append(Double(Int.random(in: 40..<200, using: &rng)) / 2)
    }
    for _ in 0..<disorder {
      let (a, b) = (Int.random(in: 0..<count, using: &rng), Int.random(in: 0..<count, using: &rng))
      starts.swapAt(a, b)
      ends.swapAt(a, b)
      values.swapAt(a, b)
    }
    values[count / 3] = .nan
    values[count / 2] = .infinity
    starts[2 * count / 3] = .min + 7
    ends[2 * count / 3] = .min + 8
    return (starts, ends, values)
  }

  /// `columns` aggregated through `add(starts:ends:values:)` and through the sample-by-sample path.
  static func bothPaths(
    _ columns: (starts: [Int64], ends: [Int64], values: [Double]), _ intervals: IntervalCollection,
    _ style: AggregationStyle, options: Set<StatisticsOption> = Set(StatisticsOption.allCases)
  ) -> (blocks: IntervalAccumulator, reference: IntervalAccumulator) {
    // (Keeping the most recent sample takes the sample-by-sample path throughout.)
    var blocks = IntervalAccumulator(intervals: intervals, style: style, options: options)
    var reference = blocks
    MergeTests.aggregate(columns, 0..<columns.starts.count, into: &blocks)
    columns.starts.withUnsafeBufferPointer { s in
      columns.ends.withUnsafeBufferPointer { e in
        columns.values.withUnsafeBufferPointer { v in
          reference.addEach(0..<s.count, s.baseAddress!, e.baseAddress!, v.baseAddress!, reference.work)
        }
      }
    }
    return (blocks, reference)
  }

  @Test(arguments: [AggregationStyle.discrete, .cumulative], [0, 5, 5000])
  func blocksEqualSampleBySample(style: AggregationStyle, disorder: Int) {
    let columns = Self.columns(count: 20_000, disorder: disorder, seed: UInt64(disorder) + 1)
    let collections = [
      IntervalCollection(length: .seconds(3600), anchor: at(0), timeZone: utc, covering: at(0)..<at(20_000)),
      IntervalCollection(length: .seconds(60), anchor: at(7), timeZone: utc, covering: at(100)..<at(15_000)),
      IntervalCollection(
        length: .days(1), anchor: local(2024, 1, 1, in: newYork), timeZone: newYork,
        covering: at(0)..<at(20_000)),
    ]
    for intervals in collections {
      let (blocks, reference) = Self.bothPaths(
        columns, intervals, style, options: Set(StatisticsOption.allCases).subtracting([.mostRecent]))
      var counted = 0
      for k in 0..<intervals.count {
        let a = blocks.statistics(k)
        let b = reference.statistics(k)
        counted += a.sampleCount
        #expect(a.agrees(with: b, tolerance: 1e-12), "\(a) against \(b)")
        #expect((a.duration != nil) == (a.sampleCount > 0))
      }
      #expect(counted > 0)
    }
  }

  /// Samples in chunks give the statistics of the whole (sums and averages to rounding, as documented).
  @Test(arguments: [AggregationStyle.discrete, .cumulative])
  func chunksEqualTheWhole(style: AggregationStyle) {
    let columns = Self.columns(count: 5000, disorder: 50, seed: 21)
    let hours = IntervalCollection(
      length: .seconds(600), anchor: at(0), timeZone: utc, covering: at(0)..<at(5000))
    let statistics = expectChunkInvariant(
      count: columns.starts.count, by: { $0.agrees(with: $1, tolerance: 1e-12) }
    ) {
      IntervalAccumulator(intervals: hours, style: style)
    } feed: { accumulator, range in
      MergeTests.aggregate(columns, range, into: &accumulator)
      return [IntervalStatistics]()
    } finish: { accumulator in
      (0..<hours.count).map { accumulator.statistics($0) }
    }
    #expect(statistics.count == 9 && statistics.reduce(0) { $0 + $1.sampleCount } > 4000)
  }

  @Test func onlyTheOptionsAskedForAreKept() throws {
    let columns = Self.columns(count: 5000, disorder: 0, seed: 4)
    let hours = IntervalCollection(
      length: .seconds(3600), anchor: at(0), timeZone: utc, covering: at(0)..<at(5000))
    let (mean, meanReference) = Self.bothPaths(columns, hours, .discrete, options: [.discreteAverage])
    let (all, _) = Self.bothPaths(columns, hours, .discrete)
    #expect(mean.options == [.discreteAverage])
    for k in 0..<hours.count {
      let (a, b, c) = (mean.statistics(k), all.statistics(k), meanReference.statistics(k))
      #expect(a.sampleCount == b.sampleCount && a.sampleCount == c.sampleCount && a.sampleCount > 0)
      #expect(a.average == b.average && a.average != nil)
      #expect(a.minimum == nil && a.maximum == nil && a.mostRecent == nil && a.duration == nil)
      #expect(b.minimum != nil && b.mostRecent != nil && b.duration != nil)
    }
    // Options that do not apply to the style are left out; the query passes its options on.
    let sums = IntervalAccumulator(
      intervals: hours, style: .cumulative, options: [.cumulativeSum, .discreteMax])
    #expect(sums.options == [.cumulativeSum])
    let query = StatisticsQuery(type: .stepCount, intervals: hours, options: [.duration])
    let result = try query.run([sample(.stepCount, 10, 0, 60)]).merged.statistics(0)
    #expect(result.duration == 60 && result.sum == nil && result.sampleCount == 1)
  }
}

@Suite struct StreamTests {
  @Test(arguments: [21, 22] as [UInt64])
  func streamingEqualsTheQueryOverSamplesInMemory(seed: UInt64) throws {
    var rng = SplitMix64(state: seed)
    let sources = ["Watch", "Strap", "Phone"]
    let samples = (0..<500).map { _ in
      let start = Int64.random(in: -600..<7200, using: &rng)
      return sample(
        .heartRate, Double(Int.random(in: 40..<180, using: &rng)), start,
        start + Int64.random(in: 0..<90, using: &rng), source: sources.randomElement(using: &rng)!)
    }
    let hours = IntervalCollection(
      length: .seconds(3600), anchor: at(0), timeZone: utc, covering: at(0)..<at(7200))
    let query = StatisticsQuery(type: .heartRate, intervals: hours)
    let expected = try query.run(samples, separateBySource: true)
    var stream = query.stream(separateBySource: true)
    for sample in samples.shuffled(using: &rng) { try stream.add(sample) }
    try stream.add(sample(.stepCount, 10, 0, 60))  // another type: ignored
    #expect(throws: StatisticsError.incompatibleUnit(.count, .countPerMinute)) {
      try stream.add(sample(.heartRate, 1, 0, 1, unit: .count))
    }
    #expect(Set(stream.result.bySource.keys) == Set(sources))
    for (a, b) in zip(
      [stream.result.merged] + sources.map { stream.result.bySource[$0]! },
      [expected.merged] + sources.map { expected.bySource[$0]! })
    {
      for k in 0..<hours.count {
        let (x, y) = (a.statistics(k), b.statistics(k))
        #expect(x.sampleCount == y.sampleCount && x.sampleCount > 0)
        #expect(x.minimum == y.minimum && x.maximum == y.maximum && x.mostRecent == y.mostRecent)
        #expect(x.duration == y.duration && abs(x.average! - y.average!) <= 1e-12 * y.average!)
      }
    }
  }
}

@Suite("Statistics partials read from bytes")
struct StatisticsPartialReadingTests {
  /// The message (and byte, when one is named) of the error reading `text` as a partial.
  static func failure(_ text: String) -> InputError? {
    do {
      _ = try StatisticsPartial(bytes: Array(text.utf8), name: "p.json")
      return nil
    } catch {
      return error
    }
  }

  @Test("a partial cut short, with data after it, or with a field missing or mistyped names the place")
  func corrupt() throws {
    let partial = StatisticsPartial(
      type: "stepCount", option: .cumulativeSum, unit: "count", interval: "day", anchor: nil, timeZone: "UTC",
      sourcePriority: [], perSource: false, span: nil, result: nil)
    let text = String(decoding: partial.encoded(), as: UTF8.self)
    #expect(try StatisticsPartial(bytes: Array(text.utf8), name: "p.json") == partial)
    let cut = Self.failure(String(text.prefix(40)))
    #expect(
      cut?.description
        == "p.json: byte 40: not a statistics partial (vitals-statistics-partial JSON): the file ends inside the"
        + " JSON value (cut short?)", "\(String(describing: cut))")
    let trailing = Self.failure(text + "}")
    #expect(trailing?.location == .byteOffset(Int64(text.utf8.count)))
    #expect(trailing?.message.hasSuffix("data after the end of the JSON value") == true)
    #expect(Self.failure(" ]")?.location == .byteOffset(1))
    #expect(Self.failure(" ]")?.message.hasSuffix("a closing bracket without an opening one") == true)
    let mismatched = Self.failure(#"{"a":[1,2}"#)
    #expect(mismatched?.location == .byteOffset(9))
    #expect(mismatched?.message.hasSuffix("a closing bracket of another kind than the open one") == true)
    let missing = Self.failure(text.replacingOccurrences(of: "\"type\":\"stepCount\",", with: ""))
    #expect(missing?.message.hasSuffix("field \"type\" is missing") == true, "\(String(describing: missing))")
    let mistyped = Self.failure(text.replacingOccurrences(of: "\"stepCount\"", with: "5"))
    #expect(mistyped?.message.hasSuffix("field \"type\": expected String") == true)
  }
}
