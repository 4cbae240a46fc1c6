import Foundation
import Testing
import VitalsCore
import VitalsTestSupport

@testable import VitalsIO

private struct CSVExpectation: Decodable {
  var names: [String]
  var rate: Double?
  var count: Int?
  var timing: String
  var time: String?
  var start_ns: Int64?
  var preamble: Int?
  var values: [[Double]]?
  var ramp_origin: Double?
  var ramp_slope: Double?
  var duration_s: Double?
}

private let expectations = try! TestData.decodeFixture([String: CSVExpectation].self, "io/csv/expected.json")

private func timingName(_ timing: CSVTiming) -> String {
  switch timing {
  case .fixedRate: "fixed"
  case .uniformTimestamps: "uniform"
  case .resampled: "resampled"
  }
}

@Suite("CSV reader")
struct CSVReaderTests {
  @Test(
    "layouts are recognised and values read",
    arguments: [
      "seconds.csv", "decimal-comma.csv", "tab-crlf.tsv", "datetimes.csv", "single.csv", "boot-ns.csv",
    ])
  func variants(name: String) throws {
    let expected = expectations[name]!
    let options = name == "single.csv" ? CSVOptions(sampleRate: 250) : CSVOptions()
    let reader = try CSVSignalReader(path: ioFixture("csv/" + name), options: options)
    #expect(reader.signals.map(\.name) == expected.names)
    #expect(reader.formatName == (name.hasSuffix(".tsv") ? "TSV" : "CSV"))
    #expect(timingName(reader.timing) == expected.timing)
    #expect(reader.timeColumnName == expected.time)
    if let rate = expected.rate { #expect(abs(reader.chunkSampleRate - rate) < 1e-6 * rate) }
    if let start = expected.start_ns.map(Timestamp.init(nanosecondsSinceEpoch:)) {
      // Numeric stamps before 2000 count time since an event (boot, the recording's start): no date.
      let isDate = expected.time != nil && start >= Timestamp(secondsSinceEpoch: 946_684_800)
      #expect(reader.startTime == (isDate ? start : nil))
    }
    if let preamble = expected.preamble { #expect(reader.preambleLineCount == preamble) }
    let result = try readAll(reader, maxSamples: 77)
    if let count = expected.count { #expect(result.channels[0].count == count) }
    if let values = expected.values {
      for c in values.indices {
        expectApproximatelyEqual(
          result.channels[c].map(Double.init), values[c], absoluteTolerance: 1e-6, relativeTolerance: 1e-6)
      }
    }
    if let origin = expected.ramp_origin, let slope = expected.ramp_slope, let duration = expected.duration_s
    {
      // A signal linear in time survives linear resampling exactly (to Float precision).
      let ramp = result.channels[0]
      let grid = (0..<ramp.count).map { origin + slope * Double($0) / reader.chunkSampleRate }
      expectApproximatelyEqual(ramp.map(Double.init), grid, absoluteTolerance: 1e-6, relativeTolerance: 1e-6)
      #expect(abs(Double(ramp.count - 1) / reader.chunkSampleRate - duration) < 1 / reader.chunkSampleRate)
    }
  }

  @Test("equally spaced decimal time stamps give the exact rate", arguments: [250.0, 360, 128, 1000])
  func exactRate(rate: Double) throws {
    // The form CSVSignalWriter writes: seconds with as many decimals as the nanoseconds need.
    let interval = Int64((1e9 / rate).rounded())
    let rows = (0..<2000).map { index -> String in
      let ns = Int64(index) * interval
      let text = "\(ns / 1_000_000_000).\(String(String(ns % 1_000_000_000 + 1_000_000_000).dropFirst()))"
      return "\(text),\(index % 7)"
    }
    let bytes = Array(("time_s,value\n" + rows.joined(separator: "\n") + "\n").utf8)
    let reader = try CSVSignalReader(contents: bytes, name: "exact.csv", options: CSVOptions())
    #expect(reader.chunkSampleRate == 1e9 / Double(interval))
    #expect(timingName(reader.timing) == "uniform")
  }

  @Test("chunks of any size give the whole file", arguments: ["seconds.csv", "boot-ns.csv", "datetimes.csv"])
  func chunkEqualsWhole(name: String) throws {
    let whole = try readAll(CSVSignalReader(path: ioFixture("csv/" + name)))
    let samples = try expectReaderChunkInvariant(
      count: whole.channels[0].count,
      chunkings: Chunking.standard + [3, 64, 8191, 8192, 100_000].map(Chunking.fixed)
    ) {
      try CSVSignalReader(path: ioFixture("csv/" + name))
    }
    #expect(
      samples.map(\.bits) == whole.channels[0].indices.map { k in whole.channels.map { $0[k].bitPattern } })
    #expect(samples.first?.time == whole.chunks.first?.startTime)
  }

  @Test("columns by name or index; options override detection")
  func selection() throws {
    let text = Array("# exported\n# device X\nt;a;b;c\n0;1,5;2;3\n1;2,5;3;4\n2;3,5;4;5\n".utf8)
    let reader = try CSVSignalReader(
      contents: text, options: CSVOptions(timeUnit: .seconds), channels: [.name("C"), .index(0)])
    #expect(reader.signals.map(\.name) == ["c", "a"])
    #expect(reader.chunkSampleRate == 1)
    let result = try readAll(reader)
    #expect(result.channels == [[3, 4, 5], [1.5, 2.5, 3.5]])
    let noHeader = try CSVSignalReader(
      contents: Array("5,6\n7,8\n".utf8), options: CSVOptions(hasHeader: false, sampleRate: 2))
    #expect(try readAll(noHeader).channels == [[5, 7], [6, 8]])
    let skipped = try CSVSignalReader(
      contents: Array("x,y\n1,2\n3,4\n".utf8), options: CSVOptions(skipLines: 1, sampleRate: 2))
    #expect(skipped.signals.map(\.name) == ["col0", "col1"])
    let forcedTime = try CSVSignalReader(
      contents: Array("a|b\n0|1\n500|2\n1000|3\n".utf8),
      options: CSVOptions(delimiter: UInt8(ascii: "|"), timeColumn: .name("a"), timeUnit: .milliseconds))
    #expect(forcedTime.chunkSampleRate == 2)
    #expect(try readAll(forcedTime).channels == [[1, 2, 3]])
  }

  @Test("time units from names and magnitudes; mixed fractional date-times")
  func timeUnits() throws {
    let us = try CSVSignalReader(
      contents: Array("stamp_us,v\n0,1\n4000,2\n8000,3\n".utf8), options: CSVOptions(timeColumn: .index(0)))
    #expect(abs(us.chunkSampleRate - 250) < 1e-9)
    let magnitude = try CSVSignalReader(contents: Array("timer,v\n0,1\n8.5,2\n17,3\n25.5,4\n".utf8))
    #expect(abs(magnitude.chunkSampleRate - 1000 / 8.5) < 1e-9)
    let zoned = try CSVSignalReader(
      contents: Array(
        "time,v\n2020-01-01T00:00:00+02:00,1\n2020-01-01T00:00:00.5+02:00,2\n2020-01-01T00:00:01+02:00,3\n"
          .utf8))
    #expect(zoned.startTime == Timestamp(nanosecondsSinceEpoch: 1_577_829_600_000_000_000))
    #expect(zoned.chunkSampleRate == 2)
  }

  @Test("bad files: errors name the file, line and column")
  func badFiles() throws {
    let places = try TestData.decodeFixture([String: [String: Int]].self, "io/csv/bad/expected.json")
    for (name, place) in places {
      let error = inputError {
        _ = try readAll(
          CSVSignalReader(path: ioFixture("csv/bad/" + name), options: CSVOptions(sampleRate: 10)))
      }
      #expect(error != nil, "\(name) must fail")
      #expect(error?.path.hasSuffix(name) == true)
      if let line = place["line"] {
        switch error?.location {
        case .field(let l, let column): #expect(l == line && column == place["column"] ?? column, "\(name)")
        case .line(let l): #expect(l == line, "\(name)")
        default: Issue.record("\(name): expected a line, got \(String(describing: error))")
        }
      }
    }
    #expect(
      inputError { _ = try CSVSignalReader(contents: Array("1\n2\n".utf8)) }?.message.contains("--rate")
        == true)
    #expect(
      inputError { _ = try CSVSignalReader(contents: Array("a,b\n1,2\n".utf8), channels: [.name("z")]) }
        != nil)
  }

  @Test("a line longer than the 1 MiB block grows the buffer")
  func longLine() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-long-line-\(UUID()).csv")
    defer { try? FileManager.default.removeItem(at: url) }
    let text =
      "a,b\n1" + String(repeating: " ", count: 1_500_000) + ",2\n3,4\n"
      + String(repeating: "5,6\n", count: 200_000)
    try Data(text.utf8).write(to: url)
    let result = try readAll(
      CSVSignalReader(path: url.path, options: CSVOptions(sampleRate: 1)), maxSamples: 4096)
    #expect(result.channels[0].prefix(3) == [1, 3, 5])
    #expect(result.channels[1].count == 200_002)
    #expect(result.channels[1].last == 6)
  }

  @Test("missing values read as NaN; special spellings accepted")
  func missingValues() throws {
    let reader = try CSVSignalReader(
      contents: Array("a,b\n1,\nNaN,2\n\"3.5\",inf\n".utf8), options: CSVOptions(sampleRate: 1))
    let result = try readAll(reader)
    #expect(result.channels[0][0] == 1 && result.channels[0][1].isNaN && result.channels[0][2] == 3.5)
    #expect(result.channels[1][0].isNaN && result.channels[1][1] == 2 && result.channels[1][2] == .infinity)
  }

  @Test("decimal scanner: fast path and fallback agree with the standard library")
  func decimalScanner() {
    var rng = SystemRandomNumberGenerator()
    var texts = [
      "0", "-0.0", "1e10", "1.5E-3", "123456789012345678901234", "0.000000000000000000000001", "3.4028235e38",
      "16777217", "0.1", "-2.5e-45", "9007199254740993", "1.00000005960464477539062500001",
    ]
    for _ in 0..<2000 {
      let v = Float(bitPattern: UInt32.random(in: 0..<0x7F80_0000, using: &rng))
      texts.append("\(v)")
      texts.append(String(Double.random(in: -1000...1000, using: &rng)))
    }
    for text in texts {
      let bytes = Array(text.utf8)
      let parsed = bytes.withUnsafeBufferPointer { b in
        DecimalNumber.scan(b.baseAddress!, count: b.count, separator: 0x2E)!.floatValue { text }
      }
      #expect(parsed == Float(text)!, "\(text)")
    }
    for bad in ["", "-", "1.2.3", "e5", "1e", "12a", "--1"] {
      let bytes = Array(bad.utf8) + [0]
      #expect(
        bytes.withUnsafeBufferPointer {
          DecimalNumber.scan($0.baseAddress!, count: bad.utf8.count, separator: 0x2E)
        } == nil, "\(bad)")
    }
  }

  @Test("reads ../shared/data CSV layouts", .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func sharedData() throws {
    let ieee = try CSVSignalReader(
      path: TestData.sharedData("ieee-spc2015/DATA_01_TYPE01.csv").path, options: CSVOptions(sampleRate: 125))
    #expect(ieee.signals.map(\.name) == ["ecg", "ppg1", "ppg2", "acc_x", "acc_y", "acc_z"])
    let first = try #require(try readAll(ieee).channels.first)
    #expect(first.prefix(2) == [-269.5, -267.5])
    let oxford = try CSVSignalReader(
      path: TestData.sharedData("oxford-steps/user1_armband_1506423438471.csv").path)
    #expect(oxford.timeColumnName == "col0")
    #expect(timingName(oxford.timing) == "resampled")
    #expect(abs(oxford.chunkSampleRate - 100) < 1)
    let data3 = try CSVSignalReader(path: TestData.sharedData("heartpy-ppg/data3.csv").path)
    #expect(data3.timeColumnName == "datetime")
    #expect(abs(data3.chunkSampleRate - 100) < 2)
    #expect(try readAll(data3).channels[0].count > 68_000)
  }
}

@Suite("CSV reader: errors name the cause and the place")
struct CSVReaderBadInputTests {
  @Test("a signed sample rate in the preamble is an error naming its line")
  func negativePreambleRate() throws {
    for (text, line) in [
      ("Acquisition frequency: -100 Hz\necg\n1\n2\n3\n", 1),
      ("\nAcquisition frequency: \u{2212}100 Hz\necg\n1\n2\n3\n", 2),
    ] {
      let error = inputError { _ = try CSVSignalReader(contents: Array(text.utf8), name: "negpre.csv") }
      #expect(error?.path == "negpre.csv")
      #expect(error?.location == .line(line), "\(text)")
      #expect(error?.message.contains("expected a sample rate like \"100 Hz\"") == true)
    }
    // A dash after a digit is a range, not a sign; a rate option overrides the preamble.
    let range = try CSVSignalReader(contents: Array("Filter: 0.5-40 Hz\necg\n1\n2\n".utf8))
    #expect(range.chunkSampleRate == 40)
    let overridden = try CSVSignalReader(
      contents: Array("Acquisition frequency: -100 Hz\necg\n1\n2\n".utf8),
      options: CSVOptions(sampleRate: 100))
    #expect(overridden.chunkSampleRate == 100)
  }

  @Test("lines ending in CR alone are named as the cause")
  func carriageReturnLines() {
    for text in ["time,ecg\r0,1\r0.004,2\r0.008,3\r", "1\r2\r3\r"] {
      let error = inputError {
        _ = try readAll(
          CSVSignalReader(contents: Array(text.utf8), name: "mac.csv", options: CSVOptions(sampleRate: 250)))
      }
      #expect(error?.path == "mac.csv")
      #expect(error?.location == .line(1))
      #expect(error?.message.contains("lines end in CR alone") == true, "\(String(describing: error))")
    }
  }

  @Test("control bytes of a cell are escaped in the message, by both kernels")
  func controlBytesEscaped() throws {
    let rows = (0..<3000).map { "\(Double($0) * 0.004),\($0)" }
    var lines = ["time_s,ecg"] + rows
    lines[1002] = "4.004,\u{1B}]0;pwned\u{07}\u{1B}[31mRED\u{0}\u{7F}\u{85}"
    let text = Array((lines.joined(separator: "\n") + "\n").utf8)
    let expected = "expected a number, found \"\\u{1B}]0;pwned\\u{7}\\u{1B}[31mRED\\u{0}\\u{7F}\\u{85}\""
    let named = inputError { _ = try readAll(CSVSignalReader(contents: text, name: "esc.csv")) }
    #expect(named?.location == .field(line: 1003, column: 2))
    #expect(named?.message == expected)
    #expect(named?.description == "esc.csv:1003: column 2: " + expected)
    for kernel in CSVRowParser.BlockKernel.available {
      let error = inputError { _ = try readAll(CSVSignalReader(contents: text, kernel: kernel)) }
      #expect(error?.location == .field(line: 1003, column: 2), "\(kernel)")
      #expect(error?.message == expected, "\(kernel)")
    }
    // The path is escaped where the error is shown; escaping is idempotent.
    let shown = InputError(path: "a\u{1B}b.csv", location: .line(2), "found \"\u{0}\"").description
    #expect(shown == "a\\u{1B}b.csv:2: found \"\\u{0}\"")
    #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    #expect(InputError.escapingControls(InputError.escapingControls("x\u{1B}")) == "x\\u{1B}")
  }
}
