import Benchmark
import BenchmarkSupport
import Vitals

/// Deterministic pseudo-random generator for the generated inputs.
private struct LCG {
  var state: UInt64 = 0x2545_F491_4F6C_DD1D
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state >> 11
  }
}

/// A numeric CSV of about `bytes` bytes shaped like a wearable export (header
/// `ecg,ppg1,ppg2,acc_x,acc_y,acc_z`, values like `-269.5,-23,4,-0.0702,0.3432,0.9594`).
func generatedCSV(bytes: Int) -> [UInt8] {
  var rng = LCG()
  var text = Array("ecg,ppg1,ppg2,acc_x,acc_y,acc_z\n".utf8)
  text.reserveCapacity(bytes + 64)
  func decimal(_ value: Int, decimals: Int) -> String {
    var digits = String(value.magnitude)
    if decimals > 0 {
      if digits.count <= decimals {
        digits = String(repeating: "0", count: decimals - digits.count + 1) + digits
      }
      digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
    }
    return (value < 0 ? "-" : "") + digits
  }
  while text.count < bytes {
    let r = rng.next()
    let row = [
      decimal(Int(r % 6000) - 3000, decimals: 1), decimal(Int(r >> 13 % 400) - 200, decimals: 0),
      decimal(Int(r >> 21 % 1000) - 500, decimals: 1), decimal(Int(r >> 7 % 20000) - 10000, decimals: 4),
      decimal(Int(r >> 17 % 20000) - 10000, decimals: 4), decimal(Int(r >> 27 % 20000) - 10000, decimals: 4),
    ].joined(separator: ",")
    text += Array(row.utf8)
    text.append(0x0A)
  }
  return text
}

/// An EDF file of `records` one-second records of 3 signals at 500 Hz (16-bit samples), in memory.
func generatedEDF(records: Int) -> [UInt8] {
  func field(_ text: String, _ width: Int) -> [UInt8] {
    Array(text.utf8) + [UInt8](repeating: 0x20, count: width - text.utf8.count)
  }
  var header = field("0", 8) + field("X X X X", 80) + field("Startdate X X X X", 80) + field("01.01.20", 8)
  header +=
    field("00.00.00", 8) + field("1024", 8) + field("", 44) + field(String(records), 8) + field("1", 8)
  header += field("3", 4)
  for (width, values) in [
    (16, ["ECG", "PPG", "ACC"]), (80, ["", "", ""]), (8, ["uV", "au", "mg"]),
    (8, ["-3276.8", "-1", "-8000"]),
    (8, ["3276.7", "1", "8000"]), (8, ["-32768", "-32768", "-32768"]), (8, ["32767", "32767", "32767"]),
    (80, ["", "", ""]), (8, ["500", "500", "500"]), (32, ["", "", ""]),
  ] {
    for value in values { header += field(value, width) }
  }
  var rng = LCG()
  var data = [UInt8](repeating: 0, count: records * 3 * 500 * 2)
  for i in data.indices { data[i] = UInt8(truncatingIfNeeded: rng.next()) }
  return header + data
}

let benchmarks: @Sendable () -> Void = {
  // One iteration parses 16 MB of numeric CSV (6 columns, no time column) in chunks of 65 536 rows;
  // the rate metric counts bytes of CSV per second. Its count varies by one allocation between runs
  // (1 491 or 1 492) as arrays grow by appending (see `toleratingAllocationGrowth`): gated within 4.
  var csvParse = Benchmark.Configuration.gated(rate: .bytesPerSecond)
  csvParse.toleratingAllocationGrowth(4)
  Benchmark("CSV numeric parse (16 MB)", configuration: csvParse) { benchmark in
    let csv = generatedCSV(bytes: 16_000_000)
    try benchmark.measureRate(.bytesPerSecond, work: csv.count) {
      let reader = try CSVSignalReader(contents: csv, options: CSVOptions(sampleRate: 125))
      while let chunk = try reader.nextChunk(maxSamples: 65_536) { blackHole(chunk) }
    }
  }

  // One iteration reads a 64 MB EDF file (21 333 one-second records of 3 signals at 500 Hz) from
  // memory through the reader, in chunks of 65 536 samples; the rate counts bytes of samples per second.
  Benchmark(
    "EDF 16-bit decode via EDFReader (64 MB of samples)", configuration: .gated(rate: .bytesPerSecond)
  ) { benchmark in
    let records = 64_000_000 / 3000
    let edf = generatedEDF(records: records)
    try benchmark.measureRate(.bytesPerSecond, work: records * 3000) {
      var reader = try EDFReader(contents: edf)
      while let chunk = try reader.nextChunk(maxSamples: 65_536) { blackHole(chunk) }
    }
  }

  // The decode kernel alone: 64 MB of 16-bit samples to Float per iteration.
  Benchmark(
    "EDF 16-bit decode kernel (64 MB)", configuration: .gated(rate: .bytesPerSecond)
  ) { benchmark in
    var rng = LCG()
    let raw = (0..<64_000_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    var output = [Float](repeating: 0, count: raw.count / 2)
    raw.withUnsafeBytes { source in
      output.withUnsafeMutableBufferPointer { output in
        benchmark.measureRate(.bytesPerSecond, work: source.count) {
          EDFSampleDecoder.decode(source, scale: 0.1, offset: 0.5, into: output)
        }
      }
    }
    blackHole(output)
  }
}

/// The suite's entry point: runs the benchmarks above under BenchmarkTool.
@main enum Suite: BenchmarkRunnerHooks { static func registerBenchmarks() { benchmarks() } }
