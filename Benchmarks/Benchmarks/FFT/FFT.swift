import Benchmark
import BenchmarkSupport
import Foundation
import Vitals

// Real FFTs through cached FFTW plans, and the spectra of heart-rate inputs (Welch, Lomb–Scargle).
// Times are per transform (or per estimate): each measured iteration runs `scalingFactor` of them; the
// rate metric counts input samples per second. Compare the 4096-point Float forward transform
// with `Benchmarks/fftw-c` (FFTW called from C on the same plan and flags).

/// A deterministic test signal: two tones and a ramp, in [-2, 2].
func testSignal(count: Int, rate: Double) -> [Double] {
  (0..<count).map { i in
    let t = Double(i) / rate
    return sin(2 * Double.pi * 1.3 * t) + 0.5 * sin(2 * Double.pi * 7.1 * t + 0.4) + Double(i % 97) / 97
  }
}

/// Registers the forward transform of `count` points through `cache`, on aligned buffers held
/// across iterations (the hot-path API: no allocation, no lock).
func forwardBenchmark<Scalar: FFTScalar>(_: Scalar.Type, count: Int, cache: FFTPlanCache, label: String) {
  let configuration = Benchmark.Configuration.gated(rate: .samplesPerSecond, scalingFactor: .kilo)
  Benchmark("RealFFT forward \(Scalar.self) \(count)\(label)", configuration: configuration) { benchmark in
    let fft = try RealFFT<Scalar>(count: count, cache: cache)
    // 64-byte aligned, like the fftwf_alloc buffers of the C reference (FFTW itself needs 16).
    let input = UnsafeMutableRawBufferPointer.allocate(
      byteCount: count * MemoryLayout<Scalar>.stride, alignment: 64
    ).bindMemory(to: Scalar.self)
    let output = UnsafeMutableRawBufferPointer.allocate(
      byteCount: fft.binCount * MemoryLayout<FFTComplex<Scalar>>.stride, alignment: 64
    ).bindMemory(to: FFTComplex<Scalar>.self)
    defer {
      input.deallocate()
      output.deallocate()
    }
    _ = input.initialize(from: testSignal(count: count, rate: 125).map { Scalar($0) })
    output.initialize(repeating: FFTComplex(real: 0, imaginary: 0))
    try benchmark.measureRate(.samplesPerSecond, work: count) {
      try fft.forward(UnsafeBufferPointer(input), into: output)
    }
    blackHole(output[1])
  }
}

/// Registers a Welch estimate of `samples` with a reused estimator.
func welchBenchmark<Scalar: FFTScalar>(
  _ name: String, samples: [Scalar], sampleRate: Double, options: WelchOptions
) {
  let configuration = Benchmark.Configuration.gated(rate: .samplesPerSecond, scalingFactor: .kilo)
  Benchmark(name, configuration: configuration) { benchmark in
    let estimator = try WelchEstimator(sampleRate: sampleRate, options: options)
    var power = [Double](repeating: 0, count: estimator.binCount)
    try samples.withUnsafeBufferPointer { input in
      try power.withUnsafeMutableBufferPointer { power in
        try benchmark.measureRate(.samplesPerSecond, work: input.count) {
          try estimator.estimate(input, into: power)
        }
      }
    }
    blackHole(power[1])
  }
}

/// Registers the exact and fast Lomb–Scargle periodograms of 5 minutes of RR intervals (375 beats)
/// over 0.0033–0.4 Hz in 0.001 Hz steps (397 frequencies), the HRV frequency-domain input.
func lombScargleBenchmarks() {
  let configuration = Benchmark.Configuration.gated(rate: .samplesPerSecond)
  var beat = 0.0
  var times: [Double] = []
  var intervals: [Double] = []
  for i in 0..<375 {
    let rr = 0.8 + 0.04 * sin(2 * Double.pi * 0.1 * beat) + 0.02 * sin(Double(i) * 2.3)
    beat += rr
    times.append(beat)
    intervals.append(rr * 1000)
  }
  let (first, step, count) = (2 * Double.pi * 0.0033, 2 * Double.pi * 0.001, 397)
  let omegas = (0..<count).map { first + step * Double($0) }
  Benchmark("Lomb-Scargle exact (375 beats, 397 frequencies)", configuration: configuration) { benchmark in
    try benchmark.measureRate(.samplesPerSecond, work: times.count) {
      blackHole(
        try LombScargle.periodogram(
          times: times, values: intervals, angularFrequencies: omegas, floatingMean: true))
    }
  }
  Benchmark("Lomb-Scargle fast (375 beats, 397 frequencies)", configuration: configuration) { benchmark in
    try benchmark.measureRate(.samplesPerSecond, work: times.count) {
      blackHole(
        try LombScargle.fastPeriodogram(
          times: times, values: intervals, firstAngularFrequency: first, angularFrequencyStep: step,
          count: count, floatingMean: true))
    }
  }
}

let benchmarks: @Sendable () -> Void = {
  let measured = FFTPlanCache(rigor: .measure)
  forwardBenchmark(Float.self, count: 4096, cache: .shared, label: " (estimate)")
  forwardBenchmark(Float.self, count: 4096, cache: measured, label: " (measure)")
  forwardBenchmark(Double.self, count: 4096, cache: .shared, label: " (estimate)")
  for count in [256, 1024, 16384, 65536] {
    forwardBenchmark(Float.self, count: count, cache: .shared, label: " (estimate)")
  }
  // 5 minutes of RR intervals resampled at 4 Hz (1200 samples), HRV-style: 256-point Hann segments.
  welchBenchmark(
    "Welch 5-min 4 Hz tachogram (1200 Double, nperseg 256)",
    samples: testSignal(count: 1200, rate: 4).map { 800 + 50 * $0 }, sampleRate: 4,
    options: WelchOptions(segmentLength: 256))
  // An 8-s PPG window at 125 Hz (1000 samples): 2-s segments zero-padded to 1024 points.
  welchBenchmark(
    "Welch 8-s 125 Hz window (1000 Float, nperseg 250, nfft 1024)",
    samples: testSignal(count: 1000, rate: 125).map { Float($0) }, sampleRate: 125,
    options: WelchOptions(segmentLength: 250, fftLength: 1024))
  lombScargleBenchmarks()
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
