import Benchmark
import BenchmarkSupport
import Foundation
import Vitals

// The PPG and accelerometer pipelines of `vitals analyze` and `vitals stream`, each on one million
// frames fed in 16 384-frame chunks as the batch reader does: a simulated wrist PPG at 125 Hz with its
// three accelerometer axes (PPGSimulator, walking, seed 1: pulses, 8-s heart-rate windows every 2 s with
// the motion spectrum subtracted, pulse-rate variability at the end), and three axes of walking at 50 Hz
// (AccelerometerSimulator, seed 1: steps, bouts, 10-s motion levels).
// The rate metric counts frames (one sample of every channel the pipeline reads) per CPU second;
// allocations are per run (per chunk, per pulse or step, never per sample).
let benchmarks: @Sendable () -> Void = {
  let framesPerSecond = BenchmarkMetric.rate("frames/s")
  // Both counts vary by a few allocations between processes as arrays grow by appending (see
  // `toleratingAllocationGrowth`; the PPG pipeline's follows the hash seed, which orders the allocations
  // and so the heap's layout): gated within 4.
  Benchmark.defaultConfiguration = .gated(
    rate: framesPerSecond, timeUnits: .milliseconds, maxDuration: .seconds(3))
  Benchmark.defaultConfiguration.toleratingAllocationGrowth(4)

  let frames = 1_000_000
  var ppgSimulator = PPGSimulator(
    configuration: PPGConfiguration(
      rhythm: RhythmConfiguration(heartRate: 75), motion: AccelerometerConfiguration(activity: .walking)),
    duration: Double(frames) / 125, sampleRate: 125, seed: 1)
  let ppg = ppgSimulator.generateAll()
  let walkingConfiguration = AccelerometerConfiguration(activity: .walking)
  var accelerometerSimulator = AccelerometerSimulator(
    configuration: walkingConfiguration, duration: Double(frames) / 50, sampleRate: 50, seed: 1)
  let walking = accelerometerSimulator.generateAll()

  /// Feeds `channels` to `pipeline` in default-sized chunks and ends the record.
  func run(_ pipeline: inout some RecordingPipeline, _ channels: [[Float]], rate: Double) {
    var events: [PipelineEvent] = []
    var start = 0
    let count = channels[0].count
    while start < count {
      let end = min(start + SignalChunk.defaultSampleCount, count)
      let chunk = SignalChunk(
        channels: channels.map { Array($0[start..<end]) }, sampleRate: rate, startTime: .epoch,
        firstSampleIndex: Int64(start))
      pipeline.process(chunk, events: &events)
      events.removeAll(keepingCapacity: true)
      start = end
    }
    blackHole(pipeline.finish(events: &events))
  }

  func context(_ recording: SimulatedRecording, channels: [Int], accelerometer: [Int]) -> PipelineContext {
    let signals = zip(recording.channelNames, recording.units).map {
      SignalDescription(name: $0, unit: $1, sampleRate: recording.sampleRate, sampleCount: nil)
    }
    return PipelineContext(
      path: "bench", signals: signals, sampleRate: recording.sampleRate, channels: channels,
      accelerometer: accelerometer, live: false)
  }

  Benchmark("PPG pipeline, 1 M frames at 125 Hz (PPG + 3 accelerometer axes), PRV") { benchmark in
    benchmark.measureRate(framesPerSecond, work: frames) {
      var pipeline = try! PPGPipeline(context: context(ppg, channels: [0], accelerometer: [1, 2, 3]))
      run(&pipeline, ppg.channels, rate: 125)
    }
  }

  Benchmark("Accelerometer pipeline, 1 M frames of 3 axes at 50 Hz (walking)") { benchmark in
    benchmark.measureRate(framesPerSecond, work: frames) {
      var pipeline = try! AccelerometerPipeline(
        context: context(walking, channels: [0, 1, 2], accelerometer: []))
      run(&pipeline, walking.channels, rate: 50)
    }
  }
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
