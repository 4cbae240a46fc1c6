import Benchmark
import BenchmarkSupport
import Foundation
import Vitals

// The step detector (magnitude, boxcar decimation, band-passes, peaks and rhythm) on 4 M three-axis samples
// (about 11 hours at 100 Hz) of a simulated wrist walk with pauses, whole and in
// SignalChunk.defaultSampleCount-sample chunks as a reader hands them. Every iteration detects 4 million
// three-axis samples (detector set up included); the rate metric counts three-axis samples (one of each
// axis) per CPU second.
let benchmarks: @Sendable () -> Void = {
  let threeAxisSamples = BenchmarkMetric.rate("three-axis samples/s")
  Benchmark.defaultConfiguration = .gated(
    rate: threeAxisSamples, timeUnits: .milliseconds, maxDuration: .seconds(3), maxIterations: 100)

  let rate = 100.0
  let axes = walkWithPauses(count: 4_000_000, sampleRate: rate)

  /// Detects the steps of `axes` handed to the detector `size` samples at a time.
  func measureDetection(_ benchmark: Benchmark, size: Int) throws {
    var output = StepDetector.Output()
    try axes[0].withUnsafeBufferPointer { x in
      try axes[1].withUnsafeBufferPointer { y in
        try axes[2].withUnsafeBufferPointer { z in
          try benchmark.measureRate(threeAxisSamples, work: x.count) {
            var detector = try StepDetector(sampleRate: rate)
            output = StepDetector.Output()
            var first = 0
            while first < x.count {
              let end = min(first + size, x.count)
              detector.process(
                x: UnsafeBufferPointer(rebasing: x[first..<end]),
                y: UnsafeBufferPointer(rebasing: y[first..<end]),
                z: UnsafeBufferPointer(rebasing: z[first..<end]), into: &output)
              first = end
            }
            detector.finish(into: &output)
          }
        }
      }
    }
    blackHole(output)
  }

  Benchmark("step detector, 4 M three-axis samples at 100 Hz, whole") { benchmark in
    try measureDetection(benchmark, size: axes[0].count)
  }
  Benchmark("step detector, 4 M three-axis samples at 100 Hz, reader-sized chunks") { benchmark in
    try measureDetection(benchmark, size: SignalChunk.defaultSampleCount)
  }
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

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
