import Benchmark
import BenchmarkSupport
import Foundation
import Vitals

// A 4-section SOS cascade (Butterworth band-pass 0.5–40 Hz, order 4, at 500 Hz) on Float samples: one
// channel on the one-lane path, 3 and 8 channels in SIMD lanes (interleaved and planar), and one channel
// as 8 segments in lanes, each with Double and with Float state. Every iteration filters one million
// channel-samples; the rate metric counts channel-samples per second.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .gated(rate: .samplesPerSecond, timeUnits: .microseconds)

  let design = try! SecondOrderSections.butterworth(
    order: 4, band: .bandpass(low: 0.5, high: 40), sampleRate: 500)
  let channelSamples = 1_000_000
  let input = Workload.signal(channelSamples)
  var output = input

  var scalar = SOSFilter(design)
  Benchmark("SOS 4 sections, 1 channel, one-lane path") { benchmark in
    input.withUnsafeBufferPointer { source in
      output.withUnsafeMutableBufferPointer { destination in
        benchmark.measureRate(.samplesPerSecond, work: channelSamples) {
          scalar.process(source, into: destination)
        }
      }
    }
    blackHole(output[0])
  }

  for precision in [SOSPrecision.double, .single] {
    for channels in [3, 8] {
      let frames = channelSamples / channels
      var lanes = MultichannelSOSFilter(design, channelCount: channels, precision: precision)
      Benchmark("SOS 4 sections, \(channels) channels in lanes, interleaved, \(precision)") { benchmark in
        input.withUnsafeBufferPointer { source in
          output.withUnsafeMutableBufferPointer { destination in
            benchmark.measureRate(.samplesPerSecond, work: frames * channels) {
              lanes.process(
                interleaved: UnsafeBufferPointer(rebasing: source[..<(frames * channels)]),
                into: UnsafeMutableBufferPointer(rebasing: destination[..<(frames * channels)]))
            }
          }
        }
        blackHole(output[0])
      }
    }

    var planar = MultichannelSOSFilter(design, channelCount: 8, precision: precision)
    Benchmark("SOS 4 sections, 8 channels in lanes, planar, \(precision)") { benchmark in
      let frames = channelSamples / 8
      input.withUnsafeBufferPointer { source in
        output.withUnsafeMutableBufferPointer { destination in
          benchmark.measureRate(.samplesPerSecond, work: 8 * frames) {
            planar.process(
              planar: (0..<8).map {
                UnsafeBufferPointer(rebasing: source[($0 * frames)..<($0 * frames + frames)])
              },
              into: (0..<8).map {
                UnsafeMutableBufferPointer(rebasing: destination[($0 * frames)..<($0 * frames + frames)])
              })
          }
        }
      }
      blackHole(output[0])
    }

    let segmented = SegmentedSOSFilter(design, precision: precision)
    Benchmark("SOS 4 sections, 1 channel as 8 segments in lanes, \(precision) (warm-up \(segmented.warmUp))")
    { benchmark in
      input.withUnsafeBufferPointer { source in
        output.withUnsafeMutableBufferPointer { destination in
          benchmark.measureRate(.samplesPerSecond, work: channelSamples) {
            segmented.process(source, into: destination)
          }
        }
      }
      blackHole(output[0])
    }
  }
}

enum Workload {
  /// A deterministic test signal at 500 Hz: a few tones on an offset, well away from denormals.
  static func signal(_ count: Int) -> [Float] {
    (0..<count).map { index in
      let t = Double(index) / 500
      return Float(
        1 + 0.8 * sin(2 * .pi * 1.2 * t) + 0.3 * sin(2 * .pi * 17 * t) + 0.1 * sin(2 * .pi * 60 * t))
    }
  }
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
