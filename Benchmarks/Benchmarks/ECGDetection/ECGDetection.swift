import Benchmark
import BenchmarkSupport
import Foundation
import Vitals

// The QRS detector alone (band-pass, derivative, integration, peak classification) on one million
// samples of a synthetic 360 Hz ECG (Gaussian P-QRS-T waves, 75 bpm, light noise), whole and in
// 4096-sample chunks; the rate metric counts samples per second. With ../shared/data present, also
// decode (alone, then with detection) of MIT-BIH record 101 held in memory (650 000 two-signal frames
// of format 212, lead MLII detected), one record per iteration: the rate counts samples of both signals
// for the decode alone, of the detected lead for decode + detect.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .gated(
    rate: .samplesPerSecond, timeUnits: .milliseconds, maxDuration: .seconds(3), maxIterations: 200)

  let rate = 360.0
  let samples = syntheticECG(count: 1_000_000, sampleRate: rate)

  Benchmark("QRS detector, 1 M samples at 360 Hz, whole") { benchmark in
    var detector = try QRSDetector(sampleRate: rate)
    benchmark.measureRate(.samplesPerSecond, work: samples.count) { blackHole(detector.process(samples)) }
  }

  Benchmark("QRS detector, 1 M samples at 360 Hz, 4096-sample chunks") { benchmark in
    var beats: [Int64] = []
    try samples.withUnsafeBufferPointer { buffer in
      try benchmark.measureRate(.samplesPerSecond, work: buffer.count) {
        var detector = try QRSDetector(sampleRate: rate)
        beats.removeAll(keepingCapacity: true)
        var start = 0
        while start < buffer.count {
          let end = min(start + 4096, buffer.count)
          detector.process(UnsafeBufferPointer(rebasing: buffer[start..<end]), appendingTo: &beats)
          start = end
        }
      }
    }
    blackHole(beats)
  }

  let record = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/mitdb/101")
  if let headerBytes = try? Data(contentsOf: record.appendingPathExtension("hea")),
    let signalBytes = try? Data(contentsOf: record.appendingPathExtension("dat")),
    let header = try? WFDBHeader.parse([UInt8](headerBytes), path: record.path)
  {
    let files = [header.signals[0].fileName: [UInt8](signalBytes)]
    let frames = Int(header.frameCount ?? 650_000)
    Benchmark("decode 212 alone, MIT-BIH 101 (650 000 frames) in memory") { benchmark in
      try benchmark.measureRate(.samplesPerSecond, work: frames * header.signals.count) {
        let reader = try WFDBRecordReader(header: header, files: files)
        while let chunk = try reader.nextChunk(maxSamples: SignalChunk.defaultSampleCount) {
          blackHole(chunk)
        }
      }
    }
    // End to end, streamed as a pipeline reads a record (chunks of SignalChunk.defaultSampleCount
    // frames): decode format 212 (both signals), filter and detect lead MLII.
    Benchmark("decode 212 + detect, MIT-BIH 101 (650 000 frames) in memory") { benchmark in
      try benchmark.measureRate(.samplesPerSecond, work: frames) {
        let reader = try WFDBRecordReader(header: header, files: files)
        let lead = reader.signals.firstIndex { $0.name == "MLII" } ?? 0
        var detector = try QRSDetector(sampleRate: reader.chunkSampleRate)
        var beats: [Int64] = []
        while let chunk = try reader.nextChunk(maxSamples: SignalChunk.defaultSampleCount) {
          chunk.channels[lead].withUnsafeBufferPointer { detector.process($0, appendingTo: &beats) }
        }
        blackHole(beats)
      }
    }
  }
}

/// 75 bpm of Gaussian P, Q, R, S and T waves (mV) with ±5 % RR jitter and ±0.02 mV noise (LCG, fixed seed).
func syntheticECG(count: Int, sampleRate: Double) -> [Float] {
  let waves: [(Float, Double, Double)] = [
    (0.15, -0.20, 0.025), (-0.10, -0.025, 0.008), (1.0, 0, 0.010), (-0.25, 0.025, 0.008), (0.30, 0.30, 0.05),
  ]
  let seconds = Double(count) / sampleRate
  var output = [Float](repeating: 0, count: count)
  var state: UInt64 = 0x1234_5678
  func uniform() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) * 0x1p-53
  }
  var time = 0.5
  while time < seconds - 0.5 {
    for (amplitude, centre, width) in waves {
      let first = max(0, Int((time + centre - 4 * width) * sampleRate))
      let last = min(count - 1, Int((time + centre + 4 * width) * sampleRate))
      for i in first...last {
        let offset = Double(i) / sampleRate - time - centre
        output[i] += amplitude * Float(exp(-offset * offset / (2 * width * width)))
      }
    }
    time += 0.8 * (0.95 + 0.1 * uniform())
  }
  for i in 0..<count { output[i] += Float(0.04 * (uniform() - 0.5)) }
  return output
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
