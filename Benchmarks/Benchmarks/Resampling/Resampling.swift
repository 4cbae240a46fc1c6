import Benchmark
import BenchmarkSupport
import Vitals

// FIR filtering, decimation and polyphase resampling throughput. Every benchmark consumes
// `samplesPerRun` input samples per iteration, in chunks of `chunkSize`; the rate metric counts input
// samples per second.

let samplesPerRun = 1_000_000
let chunkSize = 1000

let signal: [Float] = (0..<samplesPerRun).map { i in
  Float(i % 360) / 360 + Float(i % 97) * 0.001
}

/// Feeds `signal` in chunks to `body(input, output)`, which returns the outputs written.
@inline(__always)
func stream(_ body: (UnsafeBufferPointer<Float>, UnsafeMutableBufferPointer<Float>) -> Int) -> Float {
  var output = [Float](repeating: 0, count: 4 * chunkSize)
  var checksum: Float = 0
  signal.withUnsafeBufferPointer { input in
    output.withUnsafeMutableBufferPointer { output in
      for start in stride(from: 0, to: samplesPerRun, by: chunkSize) {
        let written = body(UnsafeBufferPointer(rebasing: input[start..<start + chunkSize]), output)
        if written > 0 { checksum += output[written - 1] }
      }
    }
  }
  return checksum
}

let benchmarks: @Sendable () -> Void = {
  let configuration = Benchmark.Configuration.gated(
    rate: .samplesPerSecond, maxDuration: .seconds(3), maxIterations: 100)

  for taps in [31, 101] {
    Benchmark("FIR \(taps) taps, 1 channel", configuration: configuration) { benchmark in
      var filter = FIRFilter(
        coefficients: FIRDesign.firwin(tapCount: taps, cutoff: [40], pass: .lowpass, sampleRate: 360))
      benchmark.measureRate(.samplesPerSecond, work: samplesPerRun) {
        blackHole(
          stream { input, output in
            filter.process(input, into: UnsafeMutableBufferPointer(rebasing: output[0..<input.count]))
            return input.count
          })
      }
    }
  }

  Benchmark("Decimate by 4 (81-tap Hamming FIR)", configuration: configuration) { benchmark in
    var decimator = Decimator(factor: 4)
    benchmark.measureRate(.samplesPerSecond, work: samplesPerRun) {
      blackHole(stream { decimator.process($0, into: $1) })
    }
  }

  for (from, to) in [(360, 250), (125, 100), (250, 360)] {
    Benchmark("Polyphase resample \(from) → \(to) Hz", configuration: configuration) { benchmark in
      var resampler = PolyphaseResampler(up: to, down: from)
      benchmark.measureRate(.samplesPerSecond, work: samplesPerRun) {
        blackHole(stream { resampler.process($0, into: $1) })
      }
    }
  }
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
