import Foundation
import Testing
import VitalsCore
import VitalsTestSupport

@testable import VitalsIO

private struct EDFExpectation: Decodable {
  struct Annotation: Decodable {
    var onset: Double
    var duration: Double?
    var text: String
  }
  struct Gap: Decodable {
    var record: Int
    var start: Double
    var duration: Double
  }
  var format: String
  var start_ns: Int64
  var labels: [String]
  var units: [String]
  var rates: [Double]
  var count: Int
  var values: [[Double]]
  var annotations: [Annotation]
  var gaps: [Gap]
  var record_onsets: [Double]?
}

private let expectations = try! TestData.decodeFixture([String: EDFExpectation].self, "io/edf/expected.json")

@Suite("EDF reader")
struct EDFReaderTests {
  @Test("synthetic files read as written", arguments: ["plain", "mixed", "discontinuous"])
  func syntheticFiles(name: String) throws {
    let expected = expectations[name]!
    let reader = try EDFReader(path: ioFixture("edf/\(name).edf"))
    #expect(reader.formatName == expected.format)
    #expect(reader.availableSignals.map(\.name) == expected.labels)
    #expect(reader.availableSignals.map(\.unit) == expected.units)
    #expect(reader.availableSignals.map(\.sampleRate) == expected.rates)
    #expect(reader.startTime == Timestamp(nanosecondsSinceEpoch: expected.start_ns))
    let sameRate = expected.rates.indices.filter { expected.rates[$0] == expected.rates[0] }
    #expect(reader.signals.map(\.name) == sameRate.map { expected.labels[$0] })
    let result = try readAll(reader)
    for (c, i) in sameRate.enumerated() {
      // EDF+D gaps read as missing samples, a sample period each.
      let missing = expected.gaps.reduce(0) { $0 + Int(($1.duration * expected.rates[i]).rounded()) }
      #expect(result.channels[c].count == expected.values[i].count + missing)
      #expect(reader.signals[c].sampleCount == Int64(result.channels[c].count))
      #expect(result.channels[c].filter(\.isNaN).count == missing)
      expectApproximatelyEqual(
        result.channels[c].filter { !$0.isNaN }.map(Double.init), expected.values[i], absoluteTolerance: 1e-5,
        relativeTolerance: 1e-5)
    }
    let index = try reader.readAnnotations()
    #expect(index.annotations.map(\.text) == expected.annotations.map(\.text))
    #expect(
      zip(index.annotations, expected.annotations).allSatisfy {
        abs($0.onset - $1.onset) < 1e-9 && $0.duration == $1.duration
      })
    #expect(index.gaps.map(\.record) == expected.gaps.map(\.record))
    #expect(
      zip(index.gaps, expected.gaps).allSatisfy {
        abs($0.start - $1.start) < 1e-9 && abs($0.duration - $1.duration) < 1e-9
      })
    if let onsets = expected.record_onsets { #expect(index.recordOnsets == onsets) }
  }

  @Test("chunks of any size give the whole record", arguments: ["plain", "mixed", "discontinuous"])
  func chunkEqualsWhole(name: String) throws {
    let whole = try readAll(EDFReader(path: ioFixture("edf/\(name).edf")))
    let samples = try expectReaderChunkInvariant(
      count: whole.channels[0].count,
      chunkings: Chunking.standard + [7, 50, 99, 100, 101, 4096].map(Chunking.fixed)
    ) {
      try EDFReader(path: ioFixture("edf/\(name).edf"))
    }
    #expect(samples.map(\.index) == Array(0..<Int64(whole.channels[0].count)))
    #expect(
      samples.map(\.bits) == whole.channels[0].indices.map { k in whole.channels.map { $0[k].bitPattern } })
  }

  /// The fixture's four 1-s records at 20 Hz start at 0, 1, 5 and 6 s: the 3-s gap reads as 60 missing
  /// samples, the records after it on the grid of the first, and each chunk starts at its first sample's
  /// time, in chunks of any size.
  @Test("EDF+D gaps are missing samples on the grid of the first record")
  func discontinuousGaps() throws {
    let expected = expectations["discontinuous"]!
    let start = Timestamp(nanosecondsSinceEpoch: expected.start_ns)
    for maxSamples in [1000, 30, 7] {
      let result = try readAll(EDFReader(path: ioFixture("edf/discontinuous.edf")), maxSamples: maxSamples)
      let samples = result.channels[0]
      #expect(samples.count == 140)
      #expect(samples[..<40].allSatisfy(\.isFinite) && samples[100...].allSatisfy(\.isFinite))
      #expect(samples[40..<100].allSatisfy { $0.isNaN })
      for chunk in result.chunks {
        #expect(chunk.startTime == start.advanced(byNanoseconds: chunk.firstSampleIndex * 50_000_000))
      }
    }
  }

  @Test("mixed rates: a selection picks one rate group")
  func rateGroups() throws {
    let expected = expectations["mixed"]!
    let pleth = try EDFReader(path: ioFixture("edf/mixed.edf"), channels: [.name("Pleth")])
    #expect(pleth.chunkSampleRate == 100)
    let result = try readAll(pleth, maxSamples: 33)
    expectApproximatelyEqual(
      result.channels[0].map(Double.init), expected.values[2], absoluteTolerance: 1e-5,
      relativeTolerance: 1e-5)
    let byIndex = try EDFReader(path: ioFixture("edf/mixed.edf"), channels: [.index(1), .index(0)])
    #expect(byIndex.signals.map(\.name) == ["Fp2", "Fp1"])
    let error = inputError {
      _ = try EDFReader(path: ioFixture("edf/mixed.edf"), channels: [.index(0), .index(2)])
    }
    #expect(error?.message.contains("share one sample rate") == true)
    #expect(
      inputError { _ = try EDFReader(path: ioFixture("edf/mixed.edf"), channels: [.name("Cz")]) } != nil)
  }

  @Test("bad files throw InputError naming the place")
  func badFiles() throws {
    let good = try ioFixtureBytes("edf/plain.edf")
    // Truncated data: the header declares 4 records.
    let truncated = inputError { _ = try EDFReader(contents: Array(good.dropLast(10)), name: "t.edf") }
    #expect(truncated?.message.contains("truncated data") == true)
    #expect(truncated?.path == "t.edf")
    // Truncated header.
    #expect(
      inputError { _ = try EDFReader(contents: Array(good.prefix(300)), name: "h.edf") }?.message.contains(
        "truncated header") == true)
    // Empty.
    #expect(inputError { _ = try EDFReader(contents: [], name: "e.edf") }?.message == "empty file")
    // Header size that does not match the signal count.
    var badSize = good
    badSize.replaceSubrange(184..<192, with: Array("1024    ".utf8))
    #expect(inputError { _ = try EDFReader(contents: badSize, name: "s.edf") }?.location == .byteOffset(184))
    // Unparsable number of records.
    var badCount = good
    badCount.replaceSubrange(236..<244, with: Array("four    ".utf8))
    #expect(inputError { _ = try EDFReader(contents: badCount, name: "c.edf") }?.location == .byteOffset(236))
    // A broken TAL.
    var badTAL = try ioFixtureBytes("edf/mixed.edf")
    let headerBytes = 256 * 5
    let talOffset = headerBytes + 2 * (100 + 100 + 50)
    badTAL[talOffset] = UInt8(ascii: "x")
    #expect(
      inputError { _ = try EDFReader(contents: badTAL, name: "a.edf") }?.location
        == .byteOffset(Int64(talOffset)))
  }

  @Test(
    "header quirks: right-aligned numbers, trailing-space labels, two-digit years, Startdate with century")
  func headerQuirks() throws {
    let plain = try EDFReader(path: ioFixture("edf/plain.edf"))
    #expect(plain.header.signals[0].label == "ECG I")
    #expect(plain.header.signals[0].transducer == "AgAgCl")
    let d = try EDFReader(path: ioFixture("edf/discontinuous.edf"))
    // 02.03.99 alone would be 1999; the recording field's Startdate says 2099.
    #expect(d.header.startTime.nanosecondsSinceEpoch / 1_000_000_000 > 4_000_000_000)
  }

  @Test("16-bit decode kernel applies scale and offset")
  func decodeKernel() {
    let raw: [UInt8] = [0x00, 0x80, 0xFF, 0x7F, 0x00, 0x00, 0xFF, 0xFF]
    var out = [Float](repeating: 0, count: 4)
    raw.withUnsafeBytes { r in
      out.withUnsafeMutableBufferPointer { EDFSampleDecoder.decode(r, scale: 0.5, offset: 1, into: $0) }
    }
    #expect(out == [-16383, 16384.5, 1, 0.5])
  }
}

private struct SharedDigest: Decodable {
  struct Signal: Decodable {
    var label: String
    var unit: String
    var rate: Double
    var count: Int
    var sum: Double
    var sum_squares: Double
    var picks: [Int]
    var pick_values: [Double]
  }
  var start: String
  var signals: [Signal]
  var annotation_onsets_ms: [Int]
  var qrs_samples: [Int]
}

@Suite("EDF reader on ../shared/data/edf")
struct EDFSharedDataTests {
  @Test(
    "reads as pyedflib does, and the QRS annotations match the .edf.qrs files",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"), arguments: ["r01.edf", "r04.edf"])
  func sharedRecord(name: String) throws {
    let digest = try TestData.decodeFixture([String: SharedDigest].self, "io/edf/shared-digests.json")[name]!
    let reader = try EDFReader(path: TestData.sharedData("edf/\(name)").path)
    #expect(reader.signals.map(\.name) == digest.signals.map(\.label))
    #expect(reader.signals.map(\.unit) == digest.signals.map(\.unit))
    #expect(reader.signals.map(\.sampleRate) == digest.signals.map(\.rate))
    #expect(reader.startTime == Timestamp(nanosecondsSinceEpoch: 1_293_840_000_000_000_000))  // 2011-01-01
    let result = try readAll(reader, maxSamples: 12_345)
    for (c, s) in digest.signals.enumerated() {
      let x = result.channels[c]
      #expect(x.count == s.count)
      expectApproximatelyEqual(
        s.picks.map { x[$0] }.map(Double.init), s.pick_values, absoluteTolerance: 1e-6,
        relativeTolerance: 1e-6)
      let sum = x.reduce(0.0) { $0 + Double($1) }
      let squares = x.reduce(0.0) { $0 + Double($1) * Double($1) }
      #expect(abs(sum - s.sum) <= 1e-6 * max(1, abs(s.sum)) + 1e-3 * Double(s.count) * 1e-3)
      #expect(abs(squares - s.sum_squares) <= 1e-6 * s.sum_squares)
    }
    let annotations = try reader.readAnnotations().annotations
    // pyedflib's onsets, to the millisecond.
    #expect(annotations.map { Int(($0.onset * 1000).rounded()) } == digest.annotation_onsets_ms)
    // The .edf.qrs files were made by edf2mit, which truncates onset × fs in floating point
    // (32.175 × 1000 = 32174.99… → 32174): the same conversion gives the same sample positions.
    #expect(annotations.map { Int($0.onset * reader.chunkSampleRate) } == digest.qrs_samples)
  }
}

@Suite("EDF reader: inputs found by fuzzing")
struct EDFFuzzRegressionTests {
  /// EDFFuzz: a start year far outside `Timestamp`'s range overflowed the day arithmetic.
  @Test("out-of-range start years throw; an implausible Startdate falls back to the header date")
  func startYears() throws {
    var bytes = try ioFixtureBytes("edf/plain.edf")
    bytes.replaceSubrange(168..<176, with: Array("1.1.9999".utf8))
    #expect(inputError { _ = try EDFReader(contents: bytes) }?.location == .byteOffset(168))
    var startdate = try ioFixtureBytes("edf/plain.edf")
    let recording = Array("Startdate 01-JAN-9999999999999 X X X".utf8)
    startdate.replaceSubrange(88..<88 + recording.count, with: recording)
    let reader = try EDFReader(contents: startdate)
    // 2011-01-01 10:20:30
    #expect(reader.startTime == Timestamp(nanosecondsSinceEpoch: 1_293_877_230_000_000_000))
  }
}
