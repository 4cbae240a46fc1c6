import Benchmark
import Foundation

// What every suite shares: the rate metrics (per CPU second), the gated metric set with its allocation
// threshold, and one timing helper that turns an iteration's work into a rate.

extension BenchmarkMetric {
  /// Samples handled per CPU second (all channels counted), one value per measured
  /// iteration. Larger is better; not scaled by the benchmark's scaling factor.
  public static let samplesPerSecond = rate("samples/s")

  /// Input bytes handled per CPU second, one value per measured iteration.
  public static let bytesPerSecond = rate("bytes/s")

  /// A rate of `unit` (e.g. `"NN intervals/s"`) per CPU second: larger is better, recorded
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
  /// zero (unless the workload grows arrays by appending: ``toleratingAllocationGrowth(_:)``), and any
  /// change in either direction asks for the thresholds to be reviewed. Metrics that
  /// sample from a thread of their own (`peakMemoryResident`, `threads`) stay out: that thread's
  /// allocations land in the count at random. Wall clock and the rates are reported, never gated (the
  /// machine is shared). Instruction counts need hardware performance counters (`perf_event_open`),
  /// which the development VM does not expose.
  ///
  /// With the environment variable `VITALS_BENCHMARK_GATE` set (as `scripts/bench/thresholds.sh`
  /// sets it), every benchmark runs at most ``gateIterations`` iterations: enough for a deterministic
  /// count, and the whole gate stays within minutes.
  public static func gated(
    rate: BenchmarkMetric, timeUnits: BenchmarkTimeUnits = .automatic,
    scalingFactor: BenchmarkScalingFactor = .one, maxDuration: Duration = .seconds(2),
    maxIterations: Int = 1000
  ) -> Self {
    let gate = ProcessInfo.processInfo.environment["VITALS_BENCHMARK_GATE"] != nil
    return .init(
      metrics: [.wallClock, rate, .mallocCountTotal], timeUnits: timeUnits,
      scalingFactor: scalingFactor, maxDuration: maxDuration,
      maxIterations: gate ? min(maxIterations, gateIterations) : maxIterations,
      thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])])
  }

  /// Iterations per benchmark under `VITALS_BENCHMARK_GATE`.
  public static let gateIterations = 3

  /// Gates the allocation count within `allocations` either side of its threshold, for a workload that
  /// grows arrays by appending.
  ///
  /// Such a count is not exact across processes. Swift takes an array's capacity from
  /// `malloc_usable_size`, and glibc hands back a chunk up to a few elements larger than asked when the
  /// free chunk it reuses is too small to split, so an array grown by appending reallocates once more or
  /// once less depending on the heap's layout, which follows the environment, the hash seed and the
  /// other threads of the process. Reserving 128 `Double`s over freed 130-element arrays gives a
  /// capacity of 131; the ECG pipeline benchmark counted 903 and 904 allocations in the iterations of
  /// one process, and 901 on another machine.
  public mutating func toleratingAllocationGrowth(_ allocations: Int) {
    thresholds = [.mallocCountTotal: .init(absolute: [.p90: allocations])]
  }
}

extension Benchmark {
  /// Measures `body` run once per scaled iteration and records `work × scaledIterations / seconds` in
  /// `metric` (one value per benchmark iteration); only the loop is measured (wall clock, allocations).
  ///
  /// The seconds are the CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`), not wall clock:
  /// on a shared machine the rate then reads the same whatever else runs (every stage measured is
  /// single-threaded; reading a file counts its system time).
  ///
  /// - Parameters:
  ///   - metric: the rate metric, one of the configuration's metrics.
  ///   - work: units of `metric` (samples, bytes, …) one call of `body` handles.
  @inlinable
  public func measureRate<E: Error>(_ metric: BenchmarkMetric, work: Int, _ body: () throws(E) -> Void)
    throws(E)
  {
    let iterations = scaledIterations.count
    startMeasurement()
    let start = threadCPUSeconds()
    for _ in 0..<iterations { try body() }
    let seconds = threadCPUSeconds() - start
    stopMeasurement()
    measurement(metric, Int((Double(work * iterations) / max(seconds, 1e-9)).rounded()))
  }
}

/// CPU time the calling thread has used, in seconds.
@inlinable
public func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}
