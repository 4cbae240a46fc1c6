import Benchmark
import BenchmarkSupport
import Foundation
import Vitals

// The ECG pipeline of `vitals analyze` and `vitals stream` (QRS detector, heart rate every second,
// irregular-rhythm tracker; HRV at the end) on one million samples of a simulated 360 Hz ECG
// (ECGSimulator, seed 1, 70 bpm), fed in chunks as the batch reader does; and the live path of
// `vitals stream`: the same samples as CSV lines or Float32 frames, decoded, staged in the ring buffer
// and analysed. Every iteration handles one million samples (pipeline set up included); the rate metric
// counts samples per CPU second, and the allocations show what is allocated per run (per chunk and per
// beat, never per sample).
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .gated(
    rate: .samplesPerSecond, timeUnits: .milliseconds, maxDuration: .seconds(3), maxIterations: 100)

  let rate = 360.0
  var simulator = ECGSimulator(duration: 1_000_000 / rate, sampleRate: rate, seed: 1)
  let samples = simulator.generateAll().channels[0]
  let signals = [SignalDescription(name: "MLII", unit: "mV", sampleRate: rate, sampleCount: nil)]
  let csv = Array(samples.map { "\($0)\n" }.joined().utf8)
  let f32 = samples.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }

  // The count varies between processes by a few allocations as arrays grow by appending (see
  // `toleratingAllocationGrowth`): gated within 8 allocations, fewer than one per chunk.
  var batch = Benchmark.defaultConfiguration
  batch.toleratingAllocationGrowth(8)
  Benchmark(
    "ECG pipeline, 1 M samples at 360 Hz, 16 384-sample chunks, with the end-of-record HRV",
    configuration: batch
  ) {
    benchmark in
    let context = PipelineContext(
      path: "bench", signals: signals, sampleRate: rate, channels: [0], live: false)
    var events: [PipelineEvent] = []
    try benchmark.measureRate(.samplesPerSecond, work: samples.count) {
      var pipeline = try ECGPipeline(context: context)
      var start = 0
      while start < samples.count {
        let end = min(start + SignalChunk.defaultSampleCount, samples.count)
        let chunk = SignalChunk(
          channels: [Array(samples[start..<end])], sampleRate: rate, startTime: .epoch,
          firstSampleIndex: Int64(start))
        pipeline.process(chunk, events: &events)
        events.removeAll(keepingCapacity: true)
        start = end
      }
      blackHole(pipeline.finish(events: &events))
      events.removeAll(keepingCapacity: true)
    }
  }

  // The live path's count varies by an allocation or two between processes as arrays grow by appending
  // (see `toleratingAllocationGrowth`): gated within 8 allocations.
  var live = Benchmark.defaultConfiguration
  live.toleratingAllocationGrowth(8)
  for (name, format, bytes) in [("CSV lines", StreamSampleFormat.csv, csv), ("Float32 frames", .f32, f32)] {
    Benchmark("live stream, 1 M samples at 360 Hz as \(name), 64 KiB reads", configuration: live) {
      benchmark in
      var count = 0
      try bytes.withUnsafeBytes { raw in
        try benchmark.measureRate(.samplesPerSecond, work: samples.count) {
          var analysis = try LiveAnalysis(
            signal: .ecg, sampleRate: rate, format: format, channelCount: 1, channels: [0])
          var start = 0
          while start < raw.count {
            let end = min(start + 65_536, raw.count)
            try analysis.consume(UnsafeRawBufferPointer(rebasing: raw[start..<end])) { _ in count += 1 }
            start = end
          }
          blackHole(try analysis.finish { _ in count += 1 })
        }
      }
      blackHole(count)
    }
  }
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
