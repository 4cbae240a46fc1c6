import Benchmark
import BenchmarkSupport
import Vitals

/// A generated two-signal format-212 record (the MIT-BIH layout) held in memory: `frames` frames
/// of pseudo-random bytes (`3 × frames` bytes of `.dat`).
private func generated212(frames: Int) throws -> (WFDBHeader, [String: [UInt8]]) {
  var state: UInt64 = 0x2545_F491_4F6C_DD1D
  let bytes = (0..<3 * frames).map { _ in
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return UInt8(truncatingIfNeeded: state >> 56)
  }
  let text = "gen 2 360 \(frames)\ngen.dat 212 200 11 1024 0 0 0 MLII\ngen.dat 212 200 11 1024 0 0 0 V5\n"
  return (try WFDBHeader.parse(Array(text.utf8), path: "gen.hea"), ["gen.dat": bytes])
}

/// A generated annotation file: beats every 250–400 samples, a rhythm change with AUX text every
/// 500 beats, a SKIP every 1000.
private func generatedAnnotations(count: Int) -> [UInt8] {
  var sample: Int64 = 0
  let annotations = (0..<count).map { index in
    sample += 250 + Int64(index * 37 % 150) + (index % 1000 == 999 ? 5000 : 0)
    return index % 500 == 0
      ? WFDBAnnotation(sample: sample, code: 28, aux: index % 1000 == 0 ? "(AFIB" : "(N")
      : WFDBAnnotation(sample: sample, code: index % 7 == 0 ? 5 : 1)
  }
  return WFDBAnnotationFile.encode(annotations)
}

let benchmarks: @Sendable () -> Void = {
  // One iteration decodes 1 MB of .dat (333 334 frames, 3 bytes each) to Float in chunks of 65 536
  // frames; the rate metric counts bytes of format-212 data per second.
  let frames = 1_000_002 / 3
  Benchmark(
    "WFDB 212 decode to Float (1 MB of .dat)", configuration: .gated(rate: .bytesPerSecond)
  ) { benchmark in
    let (header, files) = try generated212(frames: frames)
    try benchmark.measureRate(.bytesPerSecond, work: 3 * frames) {
      let reader = try WFDBRecordReader(header: header, files: files)
      while let chunk = try reader.nextChunk(maxSamples: 65_536) { blackHole(chunk) }
    }
  }

  // The rate metric counts annotations per second.
  let annotationsPerSecond = BenchmarkMetric.rate("annotations/s")
  Benchmark(
    "WFDB annotation parse (100 000 annotations)", configuration: .gated(rate: annotationsPerSecond)
  ) { benchmark in
    let bytes = generatedAnnotations(count: 100_000)
    try benchmark.measureRate(annotationsPerSecond, work: 100_000) {
      blackHole(try WFDBAnnotationFile.parse(bytes, path: "gen.atr"))
    }
  }
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
