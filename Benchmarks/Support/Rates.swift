import Benchmark
import Foundation

// What every suite shares: the rate metrics, the gated metric set with its allocation threshold, and
// one timing helper that turns an iteration's work into a rate.

extension BenchmarkMetric {
  /// Samples handled per second of wall clock (all channels counted), one value per measured
  /// iteration. Larger is better; not scaled by the benchmark's scaling factor.
  public static let samplesPerSecond = rate("samples/s")

  /// Input bytes handled per second of wall clock, one value per measured iteration.
  public static let bytesPerSecond = rate("bytes/s")

  /// A rate of `unit` (e.g. `"NN intervals/s"`) per second of wall clock: larger is better, recorded
  /// as is (never divided by the scaling factor).
  public static func rate(_ unit: String) -> BenchmarkMetric {
    .custom(unit, polarity: .prefersLarger, useScalingFactor: false)
  }
}

extension Benchmark.Configuration {
  /// The house configuration: wall clock, `rate` and the total malloc count per iteration.
  ///
  /// Allocations are the gated metric (`make bench-check` compares their p90 with
  /// `Benchmarks/Thresholds/<Swift version>/`): deterministic for a fixed workload, so the tolerance is
  /// zero, and any change in either direction asks for the thresholds to be reviewed. Wall clock and
  /// the rates are reported, never gated (the machine is shared). Instruction counts need hardware
  /// performance counters (`perf_event_open`), which the development VM does not expose.
  public static func gated(
    rate: BenchmarkMetric, extraMetrics: [BenchmarkMetric] = [], timeUnits: BenchmarkTimeUnits = .automatic,
    scalingFactor: BenchmarkScalingFactor = .one, maxDuration: Duration = .seconds(2),
    maxIterations: Int = 1000
  ) -> Self {
    .init(
      metrics: [.wallClock, rate, .mallocCountTotal] + extraMetrics, timeUnits: timeUnits,
      scalingFactor: scalingFactor, maxDuration: maxDuration, maxIterations: maxIterations,
      thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])])
  }
}

extension Benchmark {
  /// Measures `body` run once per scaled iteration and records `work × scaledIterations / seconds` in
  /// `metric` (one value per benchmark iteration); only the loop is timed and counted for allocations.
  ///
  /// - Parameters:
  ///   - metric: the rate metric, one of the configuration's metrics.
  ///   - work: units of `metric` (samples, bytes, …) one call of `body` handles.
  @inlinable
  public func measureRate<E: Error>(_ metric: BenchmarkMetric, work: Int, _ body: () throws(E) -> Void)
    throws(E)
  {
    let iterations = scaledIterations.count
    let clock = ContinuousClock()
    startMeasurement()
    let start = clock.now
    for _ in 0..<iterations { try body() }
    let elapsed = clock.now - start
    stopMeasurement()
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    measurement(metric, Int((Double(work * iterations) / seconds).rounded()))
  }
}
