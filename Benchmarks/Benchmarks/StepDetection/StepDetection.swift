import Benchmark
import Foundation
import Vitals

// The step detector (magnitude, boxcar decimation, band-passes, peaks and rhythm) on 4 M three-axis samples
// (about 11 hours at 100 Hz) of a simulated wrist walk with pauses, whole and in
// SignalChunk.defaultSampleCount-sample chunks as a reader hands them. Every iteration detects 4 million
// three-axis samples; the custom metric is the rate in millions of three-axis samples per second of wall
// clock, single thread; allocations are counted by the malloc metrics.
let benchmarks: @Sendable () -> Void = {
  let samplesPerSecond = BenchmarkMetric.custom(
    "M three-axis samples/s", polarity: .prefersLarger, useScalingFactor: false)
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal, samplesPerSecond], timeUnits: .milliseconds,
    maxDuration: .seconds(3), maxIterations: 100)

  let rate = 100.0
  let axes = walkWithPauses(count: 4_000_000, sampleRate: rate)

  Benchmark("step detector, 4 M three-axis samples at 100 Hz, whole") { benchmark in
    let start = ContinuousClock.now
    var detector = try! StepDetector(sampleRate: rate)
    var output = StepDetector.Output()
    axes[0].withUnsafeBufferPointer { x in
      axes[1].withUnsafeBufferPointer { y in
        axes[2].withUnsafeBufferPointer { z in detector.process(x: x, y: y, z: z, into: &output) }
      }
    }
    detector.finish(into: &output)
    blackHole(output)
    report(benchmark, samplesPerSecond, count: axes[0].count, since: start)
  }

  Benchmark("step detector, 4 M three-axis samples at 100 Hz, reader-sized chunks") { benchmark in
    let start = ContinuousClock.now
    var detector = try! StepDetector(sampleRate: rate)
    var output = StepDetector.Output()
    let size = SignalChunk.defaultSampleCount
    axes[0].withUnsafeBufferPointer { x in
      axes[1].withUnsafeBufferPointer { y in
        axes[2].withUnsafeBufferPointer { z in
          var first = 0
          while first < x.count {
            let end = min(first + size, x.count)
            detector.process(
              x: UnsafeBufferPointer(rebasing: x[first..<end]),
              y: UnsafeBufferPointer(rebasing: y[first..<end]),
              z: UnsafeBufferPointer(rebasing: z[first..<end]), into: &output)
            first = end
          }
        }
      }
    }
    detector.finish(into: &output)
    blackHole(output)
    report(benchmark, samplesPerSecond, count: axes[0].count, since: start)
  }
}

/// Records `count` samples over the time since `start` as millions of samples per second.
func report(
  _ benchmark: Benchmark, _ metric: BenchmarkMetric, count: Int, since start: ContinuousClock.Instant
) {
  let nanoseconds = (ContinuousClock.now - start) / .nanoseconds(1)
  benchmark.measurement(metric, Int(Double(count) / nanoseconds * 1e3))
}

/// `count` samples of the simulator's wrist walk (110 steps/min), alternating 5 minutes of walking with
/// 1 minute standing still (the same seed throughout), in g.
func walkWithPauses(count: Int, sampleRate: Double) -> [[Float]] {
  var axes: [[Float]] = [[], [], []]
  var segment = 0
  while axes[0].count < count {
    let walking = segment % 2 == 0
    var simulator = AccelerometerSimulator(
      configuration: AccelerometerConfiguration(activity: walking ? .walking : .still),
      duration: walking ? 300 : 60, sampleRate: sampleRate, seed: 42)
    let recording = simulator.generateAll()
    for axis in 0..<3 { axes[axis] += recording.channels[axis] }
    segment += 1
  }
  return axes.map { Array($0.prefix(count)) }
}
