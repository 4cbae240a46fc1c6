import Benchmark
import BenchmarkSupport
import Foundation
import Vitals

// The PPG heart-rate estimator (band-pass, spectra of 2 PPG channels and 3 accelerometer axes, spectral
// subtraction, Viterbi tracking) on 10 simulated minutes of running with the device on the wrist (125 Hz,
// motion artefacts three times the pulse, heart rate 100 → 160 BPM): 75 000 frames of 5 channels per
// iteration in reader-sized chunks, 296 windows; the rate metric counts frames (one sample of every
// channel) per CPU second. The pulse detector on one channel is measured alike, in samples per CPU
// second. Estimator and detector are set up inside every iteration.
let benchmarks: @Sendable () -> Void = {
  let framesPerSecond = BenchmarkMetric.rate("frames/s")
  let rate = 125.0
  var configuration = PPGConfiguration(
    rhythm: RhythmConfiguration(), channelCount: 2,
    motion: AccelerometerConfiguration(activity: .running, placement: .wrist, cadence: 165))
  configuration.rhythm.heartRate = Profile([(0, 100), (600, 160)])
  configuration.motionArtifactGain = 3
  var simulator = PPGSimulator(configuration: configuration, duration: 600, sampleRate: rate, seed: 5)
  let recording = simulator.generateAll()
  let frames = recording.channels[0].count
  let ppg = Array(recording.channels[0..<2])
  let axes = Array(recording.channels[2..<5])

  Benchmark(
    "PPG heart rate, 10 min running at 125 Hz, 2 PPG + 3 axes, 16384-frame chunks",
    configuration: .gated(
      rate: framesPerSecond, timeUnits: .milliseconds, maxDuration: .seconds(3), maxIterations: 100)
  ) { benchmark in
    try benchmark.measureRate(framesPerSecond, work: frames) {
      var estimator = try PPGHeartRateEstimator(
        sampleRate: rate, ppgChannelCount: 2, accelerationAxisCount: 3)
      var windows: [HeartRateWindow] = []
      var first = 0
      while first < frames {
        let end = min(frames, first + SignalChunk.defaultSampleCount)
        windows += estimator.process(
          ppg: ppg.map { Array($0[first..<end]) }, acceleration: axes.map { Array($0[first..<end]) })
        first = end
      }
      blackHole(windows)
    }
  }

  Benchmark(
    "PPG pulse detector, 10 min at 125 Hz, one channel, whole",
    configuration: .gated(
      rate: .samplesPerSecond, timeUnits: .milliseconds, maxDuration: .seconds(3), maxIterations: 100)
  ) { benchmark in
    try benchmark.measureRate(.samplesPerSecond, work: frames) {
      var detector = try PPGPulseDetector(sampleRate: rate)
      blackHole(detector.process(ppg[0]))
    }
  }
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
