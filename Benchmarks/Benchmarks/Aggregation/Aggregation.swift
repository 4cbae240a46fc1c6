import Benchmark
import BenchmarkSupport
import Foundation
import Vitals

// The statistics aggregator's hot path: 20 M samples (one a second with up to 0.5 s of jitter, 1 s
// long, so about one in 7200 spans an hour boundary; 231 days) given as columns in time order,
// aggregated into fixed hours and into calendar days in America/New_York (DST changes included), as a
// discrete type (mean, min, max, duration, most recent) and as a cumulative type (sum, duration, most
// recent; boundary-spanning samples shared by overlap), keeping every statistic (the default) or only
// the one the Health app shows (`options: [.discreteAverage]` or `[.cumulativeSum]`, as
// scripts/peers/compare_aggregation.py asks against pandas). The rate metric counts samples aggregated
// per CPU second.
// Then the mergeable state: the samples cut into 1,000 shards of consecutive samples, each aggregated
// alone (outside the timing), and the 1,000 partials merged into one; the rate metric counts partials
// merged per CPU second (its inverse times 1,000 is the merge time, to set against aggregating the
// 20 M samples in one pass).
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .gated(
    rate: .samplesPerSecond, timeUnits: .milliseconds, maxDuration: .seconds(4), maxIterations: 20)

  let count = 20_000_000
  let origin: Int64 = 1_704_067_200_000_000_000  // 2024-01-01T00:00:00Z
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  var starts = [Int64](repeating: 0, count: count)
  var ends = [Int64](repeating: 0, count: count)
  var values = [Double](repeating: 0, count: count)
  for i in 0..<count {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    starts[i] = origin + Int64(i) * 1_000_000_000 + Int64(state >> 35)  // + up to 0.54 s
    ends[i] = starts[i] + 1_000_000_000
    values[i] = 50 + Double(state >> 57)
  }
  let range = Timestamp(nanosecondsSinceEpoch: starts[0])..<Timestamp(nanosecondsSinceEpoch: ends[count - 1])
  let newYork = try! TimeZoneRules(named: "America/New_York")
  let hours = IntervalCollection(
    length: .seconds(3600), anchor: Timestamp(nanosecondsSinceEpoch: origin), timeZone: newYork,
    covering: range)
  let days = IntervalCollection(
    length: .days(1), anchor: Timestamp(nanosecondsSinceEpoch: origin + 5 * 3_600_000_000_000),
    timeZone: newYork,
    covering: range)

  func aggregate(
    _ intervals: IntervalCollection, _ style: AggregationStyle, _ rows: Range<Int>,
    options: Set<StatisticsOption> = Set(StatisticsOption.allCases)
  ) -> IntervalAccumulator {
    var accumulator = IntervalAccumulator(intervals: intervals, style: style, options: options)
    starts[rows].withUnsafeBufferPointer { s in
      ends[rows].withUnsafeBufferPointer { e in
        values[rows].withUnsafeBufferPointer { v in accumulator.add(starts: s, ends: e, values: v) }
      }
    }
    return accumulator
  }

  for (name, intervals) in [("hours", hours), ("calendar days", days)] {
    for style in [AggregationStyle.discrete, .cumulative] {
      Benchmark("aggregate 20 M samples into \(name), \(style.rawValue)") { benchmark in
        benchmark.measureRate(.samplesPerSecond, work: count) {
          blackHole(aggregate(intervals, style, 0..<count))
        }
      }
      let option = StatisticsOption.defaultOption(for: style)
      Benchmark("aggregate 20 M samples into \(name), \(style.rawValue), \(option.rawValue) only") {
        benchmark in
        benchmark.measureRate(.samplesPerSecond, work: count) {
          blackHole(aggregate(intervals, style, 0..<count, options: [option]))
        }
      }
    }
  }

  let shardCount = 1000
  let shardSize = count / shardCount
  let partials = (0..<shardCount).map {
    aggregate(hours, .discrete, ($0 * shardSize)..<(($0 + 1) * shardSize))
  }
  let partialsPerSecond = BenchmarkMetric.rate("partials/s")
  Benchmark(
    "merge 1000 shard partials of 20 M samples (hours, discrete)",
    configuration: .gated(
      rate: partialsPerSecond, timeUnits: .microseconds, maxDuration: .seconds(2), maxIterations: 1000)
  ) { benchmark in
    benchmark.measureRate(partialsPerSecond, work: partials.count) {
      var merged = IntervalAccumulator(intervals: hours, style: .discrete)
      for partial in partials { merged.merge(partial) }
      blackHole(merged)
    }
  }
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
