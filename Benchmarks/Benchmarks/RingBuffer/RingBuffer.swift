import Benchmark
import BenchmarkSupport
import Vitals

// Ring buffer and moving-window throughput. Every benchmark handles `samplesPerRun` samples per channel
// per iteration; the rate metric counts the samples of every channel (frames × channels for the ring
// buffer) per second.

let samplesPerRun = 1_000_000
let chunkSize = 250

/// A fixed test signal: a tone plus a deterministic saw-tooth "noise".
let signal: [Float] = (0..<samplesPerRun).map { i in
  Float(i % 360) / 360 + Float(i % 97) * 0.001
}

/// Three channels of `chunkSize` frames, interleaved.
let interleavedChunk: [Float] = (0..<(3 * chunkSize)).map { Float($0) * 0.01 }

let benchmarks: @Sendable () -> Void = {
  let configuration = Benchmark.Configuration.gated(
    rate: .samplesPerSecond, maxDuration: .seconds(3), maxIterations: 100)

  Benchmark(
    "Ring buffer, push interleaved + read + drop, 3 channels, chunks of 250", configuration: configuration
  ) {
    benchmark in
    var buffer = SampleRingBuffer(channelCount: 3, minimumCapacity: 4096, sampleRate: 360, startTime: .epoch)
    var scratch = [Float](repeating: 0, count: chunkSize)
    var checksum: Float = 0
    interleavedChunk.withUnsafeBufferPointer { frames in
      scratch.withUnsafeMutableBufferPointer { scratch in
        benchmark.measureRate(.samplesPerSecond, work: 3 * samplesPerRun) {
          for _ in 0..<(samplesPerRun / chunkSize) {
            buffer.appendOverwritingOldest(interleaved: frames)
            for channel in 0..<3 {
              buffer.copySamples(ofChannel: channel, from: buffer.count - chunkSize, into: scratch)
              checksum += scratch[chunkSize - 1]
            }
            if buffer.count > 2048 { buffer.removeFirst(chunkSize) }
          }
        }
      }
    }
    blackHole(checksum)
  }

  Benchmark(
    "Ring buffer, push SignalChunk + segments, 3 channels, chunks of 250", configuration: configuration
  ) {
    benchmark in
    var buffer = SampleRingBuffer(channelCount: 3, minimumCapacity: 4096, sampleRate: 360, startTime: .epoch)
    let channel = Array(signal[0..<chunkSize])
    var chunk = SignalChunk(
      channels: [channel, channel, channel], sampleRate: 360, startTime: .epoch, firstSampleIndex: 0)
    var checksum: Float = 0
    benchmark.measureRate(.samplesPerSecond, work: 3 * samplesPerRun) {
      for _ in 0..<(samplesPerRun / chunkSize) {
        chunk.firstSampleIndex = buffer.endSampleIndex
        buffer.appendOverwritingOldest(chunk)
        for c in 0..<3 {
          checksum += buffer.withSegments(ofChannel: c) { first, second in
            (first.last ?? 0) + (second.last ?? 0)
          }
        }
      }
    }
    blackHole(checksum)
  }

  for length in [25, 250] {
    Benchmark("Moving average, window \(length)", configuration: configuration) { benchmark in
      var average = MovingAverage(length: length)
      var output = [Float](repeating: 0, count: samplesPerRun)
      signal.withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { output in
          benchmark.measureRate(.samplesPerSecond, work: samplesPerRun) {
            average.process(input, into: output)
          }
        }
      }
      blackHole(output[samplesPerRun - 1])
    }

    Benchmark("Moving maximum, window \(length)", configuration: configuration) { benchmark in
      var maximum = MovingMaximum(length: length)
      var output = [Float](repeating: 0, count: samplesPerRun)
      signal.withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { output in
          benchmark.measureRate(.samplesPerSecond, work: samplesPerRun) {
            maximum.process(input, into: output)
          }
        }
      }
      blackHole(output[samplesPerRun - 1])
    }
  }
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
