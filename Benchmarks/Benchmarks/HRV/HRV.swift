import Benchmark
import BenchmarkSupport
import Foundation
import Vitals

// Heart-rate variability of a 30-minute recording: 2 400 beats at 360 Hz (75 bpm, an LF wave at
// 0.1 Hz, respiratory sinus arrhythmia at 0.25 Hz, noise, and one premature beat in 200 so that the
// artefact detection has work), the NN series built from it, and each domain alone. The rate metric
// counts NN intervals (or beats, for the series building) per second.

/// Beat positions (samples at `sampleRate`) of `count` beats; deterministic.
func syntheticBeats(count: Int, sampleRate: Double) -> [Int64] {
  var state: UInt64 = 0x9E37_79B9_7F4A_7C15
  var time = 0.5
  return (0..<count).map { index in
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let noise = Double(state >> 11) * 0x1p-53 - 0.5
    var rr =
      0.8 + 0.03 * sin(2 * Double.pi * 0.1 * time) + 0.02 * sin(2 * Double.pi * 0.25 * time) + 0.02 * noise
    if index % 200 == 199 { rr *= 0.7 }
    time += rr
    return Int64((time * sampleRate).rounded())
  }
}

let benchmarks: @Sendable () -> Void = {
  let sampleRate = 360.0
  let beats = syntheticBeats(count: 2400, sampleRate: sampleRate)
  let artefacts = RRArtifacts.detect(beats: beats, sampleRate: sampleRate, gaps: [])
  let series = NNSeries(beats: beats, sampleRate: sampleRate, excludingBeats: artefacts.allBeats, gaps: [])
  let beatsPerSecond = BenchmarkMetric.rate("beats/s")
  let intervalsPerSecond = BenchmarkMetric.rate("NN intervals/s")
  Benchmark.defaultConfiguration = .gated(rate: intervalsPerSecond, timeUnits: .microseconds)

  Benchmark(
    "NN series (artefact detection + NN intervals), 30 min (2 400 beats)",
    configuration: .gated(rate: beatsPerSecond)
  ) { benchmark in
    benchmark.measureRate(beatsPerSecond, work: beats.count) {
      let artefacts = RRArtifacts.detect(beats: beats, sampleRate: sampleRate, gaps: [])
      blackHole(NNSeries(beats: beats, sampleRate: sampleRate, excludingBeats: artefacts.allBeats, gaps: []))
    }
  }

  Benchmark("HRV time domain, 30 min") { benchmark in
    benchmark.measureRate(intervalsPerSecond, work: series.count) { blackHole(HRVTimeDomain(series)) }
  }

  for method in HRVFrequencyOptions.Method.allCases {
    var options = HRVFrequencyOptions()
    options.method = method
    Benchmark("HRV frequency domain (\(method.rawValue)), 30 min") { benchmark in
      benchmark.measureRate(intervalsPerSecond, work: series.count) {
        blackHole(HRVFrequencyDomain(series, options: options))
      }
    }
  }

  Benchmark("HRV nonlinear (Poincaré, ApEn, SampEn, DFA), 30 min") { benchmark in
    benchmark.measureRate(intervalsPerSecond, work: series.count) { blackHole(HRVNonlinear(series)) }
  }

  Benchmark("HRVAnalysis (artefacts, NN, all three domains), 30 min") { benchmark in
    benchmark.measureRate(intervalsPerSecond, work: series.count) {
      blackHole(HRVAnalysis(beats: beats, sampleRate: sampleRate))
    }
  }
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
