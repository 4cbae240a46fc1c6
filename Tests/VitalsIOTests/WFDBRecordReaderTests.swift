import Foundation
import Testing
import VitalsCore
import VitalsTestSupport

@testable import VitalsIO

/// Compares a record read by ``WFDBRecordReader`` with wfdb-python's digest of it.
private func expectMatches(path: String, digest: WFDBRecordDigest) throws {
  let header = try WFDBHeader.parse(try Data(contentsOf: URL(fileURLWithPath: path + ".hea")), path: path)
  #expect(header.frameRate == digest.header.fs)
  #expect(header.frameCount == digest.header.sig_len)
  #expect(header.comments.map { $0.trimmingCharacters(in: .whitespaces) } == digest.header.comments)
  #expect(header.signals.count == digest.header.signals.count)
  for (ours, theirs) in zip(header.signals, digest.header.signals) {
    #expect(ours.fileName == theirs.file_name)
    #expect(ours.format.rawValue == theirs.fmt)
    #expect(ours.samplesPerFrame == theirs.samps_per_frame)
    #expect(ours.skew == theirs.skew)
    #expect(ours.byteOffset == theirs.byte_offset)
    #expect(ours.gain == theirs.adc_gain)
    #expect(ours.baseline == theirs.baseline)
    #expect(ours.units == theirs.units)
    #expect(ours.adcResolution == theirs.adc_res)
    #expect(ours.adcZero == theirs.adc_zero)
    #expect(ours.initialValue == theirs.init_value)
    #expect(ours.checksum == theirs.checksum)
    #expect(ours.blockSize == theirs.block_size)
    if let name = theirs.sig_name { #expect(ours.description == name) }
  }
  guard let record = digest.record else {
    #expect(throws: InputError.self, "wfdb-python cannot read it either: \(digest.unreadable ?? "")") {
      _ = try WFDBRecordReader(path: path)
    }
    return
  }
  // Digital samples at full rate, in chunks of an odd size (loops over raw buffers: this runs
  // over all of MIT-BIH in debug builds).
  let digitalReader = try WFDBRecordReader(path: path)
  #expect(digitalReader.frameCount == record.frames)
  var digital = [[Int32]](repeating: [], count: header.signals.count)
  while let chunk = try digitalReader.nextDigitalChunk(maxFrames: 100_003) {
    for (signal, samples) in chunk.enumerated() { digital[signal] += samples }
  }
  for (samples, reference) in zip(digital, record.signals) {
    var sum: Int64 = 0
    var weighted: UInt64 = 0
    samples.withUnsafeBufferPointer { samples in
      for index in samples.indices {
        sum &+= Int64(samples[index])
        weighted &+= UInt64(index + 1) &* UInt64(bitPattern: Int64(samples[index]))
      }
    }
    #expect(samples.count == reference.length)
    #expect(sum == reference.sum)
    #expect(weighted == reference.weighted_sum)
    #expect(samples.prefix(8).map(Int64.init) == reference.first)
    // SHA-256 in a debug build is slow: checked on records up to 100 000 samples per signal.
    if samples.count <= 100_000 { #expect(SHA256.hex(int32LittleEndian: samples) == reference.sha256) }
  }
  // Physical values at the frame rate, streamed in chunks of an odd size.
  let reader = try WFDBRecordReader(path: path)
  var physical = [[Float]](repeating: [], count: header.signals.count)
  while let chunk = try reader.nextChunk(maxSamples: 100_003) {
    for (signal, samples) in chunk.channels.enumerated() { physical[signal] += samples }
  }
  for (samples, reference) in zip(physical, record.signals) {
    #expect(Int64(samples.count) == record.frames)
    for (index, value) in zip(reference.physical_indices, reference.physical_values) {
      if let value {
        #expect(abs(Double(samples[index]) - value) <= 2e-6 * max(1, abs(value)), "sample \(index)")
      } else {
        #expect(samples[index].isNaN, "sample \(index)")
      }
    }
    var nanCount = 0
    var sum = 0.0
    var scale = 0.0
    samples.withUnsafeBufferPointer { samples in
      for value in samples {
        if value.isNaN {
          nanCount += 1
        } else {
          sum += Double(value)
          scale += Double(abs(value))
        }
      }
    }
    #expect(nanCount == reference.physical_nan_count)
    #expect(abs(sum - reference.physical_sum) <= 1e-6 * max(1, scale))
  }
}

@Suite("WFDB record reader")
struct WFDBRecordReaderTests {
  static let fixtureRecords = WFDBDigests.fixtures.keys.sorted()

  @Test("fixture records read as wfdb.rdrecord reads them", arguments: fixtureRecords)
  func fixture(name: String) throws {
    try expectMatches(
      path: TestData.fixture("wfdb/records/\(name)").path, digest: WFDBDigests.fixtures[name]!)
  }

  @Test(
    "shared records read as wfdb.rdrecord reads them",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"), arguments: WFDBDigests.shared.keys.sorted())
  func shared(name: String) throws {
    try expectMatches(path: TestData.sharedData(name).path, digest: WFDBDigests.shared[name]!)
  }

  @Test("every fixture format is covered")
  func formatsCovered() throws {
    let formats = Set(WFDBDigests.fixtures.values.flatMap { $0.header.signals.map(\.fmt) })
    #expect(formats.isSuperset(of: WFDBStorageFormat.allCases.map(\.rawValue)))
  }

  @Test("chunk size does not change the samples", arguments: ["fmt212", "fmt8", "fmt310", "layout", "mixed"])
  func chunkInvariance(name: String) throws {
    let path = TestData.fixture("wfdb/records/\(name)").path
    let whole = try #require(try WFDBRecordReader(path: path).readAll())
    let samples = try expectReaderChunkInvariant(
      count: whole.channels[0].count, chunkings: Chunking.standard + [2, 7, 64].map(Chunking.fixed)
    ) {
      try WFDBRecordReader(path: path)
    }
    #expect(samples.map(\.index) == Array(0..<Int64(whole.channels[0].count)))
    #expect(
      samples.map(\.bits) == whole.channels[0].indices.map { k in whole.channels.map { $0[k].bitPattern } })
    // Each chunk starts at the header's time advanced by its first sample.
    for size in [1, 2, 7, 37, 64] {
      let reader = try WFDBRecordReader(path: path)
      while let chunk = try reader.nextChunk(maxSamples: size) {
        #expect(
          chunk.startTime
            == reader.header.startTime.advanced(
              bySamples: chunk.firstSampleIndex, rate: reader.chunkSampleRate))
      }
    }
  }

  @Test(
    "chunks the caller keeps stay as read: the reader writes over only the arrays of released chunks",
    arguments: ["fmt212", "mixed", "multi"])
  func keptChunks(name: String) throws {
    let path = TestData.fixture("wfdb/records/\(name)").path
    // The samples copied out of each chunk (a multi-segment record's chunks end at segment boundaries).
    let whole = try WFDBRecordReader(path: path)
    var samples = [[UInt32]](repeating: [], count: whole.signals.count)
    while let chunk = try whole.nextChunk(maxSamples: 1 << 20) {
      for (signal, values) in chunk.channels.enumerated() { samples[signal] += values.map(\.bitPattern) }
    }
    let reader = try WFDBRecordReader(path: path)
    var kept: [SignalChunk] = []
    while let chunk = try reader.nextChunk(maxSamples: 5) { kept.append(chunk) }
    for signal in samples.indices {
      #expect(kept.flatMap { $0.channels[signal] }.map(\.bitPattern) == samples[signal])
    }
  }

  @Test(
    "selected signals equal the same signals of a full read, in the selectors' order",
    arguments: ["fmt212", "fmt8", "layout", "mixed", "multi"])
  func selection(name: String) throws {
    let path = TestData.fixture("wfdb/records/\(name)").path
    let full = try WFDBRecordReader(path: path)
    var whole = [[Float]](repeating: [], count: full.signals.count)  // chunks end at segment boundaries
    while let chunk = try full.nextChunk(maxSamples: 1 << 20) {
      for (signal, samples) in chunk.channels.enumerated() { whole[signal] += samples }
    }
    let last = full.signals.count - 1
    for selection in [[last], [last, 0], [0, 0], Array(full.signals.indices)] {
      let reader = try WFDBRecordReader(path: path, selecting: selection.map { .index($0) })
      #expect(reader.signalIndices == selection)
      #expect(reader.signals.map(\.name) == selection.map { full.signals[$0].name })
      var channels = [[Float]](repeating: [], count: selection.count)
      while let chunk = try reader.nextChunk(maxSamples: 7) {
        for (output, samples) in chunk.channels.enumerated() { channels[output] += samples }
      }
      for (output, signal) in selection.enumerated() {
        #expect(channels[output].map(\.bitPattern) == whole[signal].map(\.bitPattern), "\(selection)")
      }
    }
    let named = try WFDBRecordReader(path: path, selecting: [.name(full.signals[last].name)])
    #expect(named.signalIndices == [last])
    #expect(throws: InputError.self) { try WFDBRecordReader(path: path, selecting: [.index(last + 1)]) }
  }

  @Test("selected signals: digital samples and checksums of those signals alone")
  func selectionDigital() throws {
    let path = TestData.fixture("wfdb/records/fmt212").path
    let all = try #require(try WFDBRecordReader(path: path).nextDigitalChunk(maxFrames: 1 << 20))
    let reader = try WFDBRecordReader(path: path, selecting: [.index(1)])
    #expect(try reader.nextDigitalChunk(maxFrames: 1 << 20) == [all[1]])
    #expect(try reader.mismatchedChecksums() == [])
    // A wrong checksum on signal 1 is reported by its header index, and only when signal 1 is read.
    var header = reader.header
    header.signals[1].checksum = (header.signals[1].checksum ?? 0) + 1
    let files = ["fmt212.dat": try [UInt8](Data(contentsOf: TestData.fixture("wfdb/records/fmt212.dat")))]
    for (selection, expected) in [([0], [Int]()), ([1], [1]), ([1, 0], [1])] {
      let altered = try WFDBRecordReader(
        header: header, files: files, selecting: selection.map { .index($0) })
      #expect(try altered.mismatchedChecksums() == expected)
    }
  }

  @Test("layout: samples per frame averaged, skew, byte offset, invalid marker, start time")
  func layout() throws {
    let reader = try WFDBRecordReader(path: TestData.fixture("wfdb/records/layout.hea").path)
    #expect(reader.formatName == "WFDB 16")
    #expect(reader.signals.map(\.name) == ["sig zero", "record layout, signal 1"])
    #expect(reader.signals.map(\.unit) == ["uV", "mV"])
    // 2021-03-02 10:20:30.5 UTC.
    #expect(reader.startTime == Timestamp(secondsSinceEpoch: 1_614_680_430.5))
    let chunk = try #require(try reader.readAll())
    // Signal 0: frames hold (10 t, 10 t + 5), baseline 3, gain 400: truncated mean (10 t + 2 − 3) / 400.
    #expect(chunk.channels[0][4] == (42 - 3) * Float(1.0 / 400))
    // Signal 1 is skewed by 3 frames: frame t holds stored frame t + 3; gain 0 → 200, baseline = adczero 5.
    #expect(chunk.channels[1][0] == Float(1000 - 3 * 7 - 5) / 200)
    #expect(chunk.channels[1][4].isNaN)  // stored frame 7 is −32768
    #expect(chunk.channels[1][37...].allSatisfy { $0.isNaN })  // beyond the end after the skew
    #expect(!chunk.channels[1][36].isNaN)
  }

  @Test("checksums verify, and a wrong one is reported")
  func checksums() throws {
    let reader = try WFDBRecordReader(path: TestData.fixture("wfdb/records/fmt212").path)
    #expect(try reader.mismatchedChecksums() == [])
    var header = reader.header
    header.signals[1].checksum = (header.signals[1].checksum ?? 0) + 1
    let bytes = try [UInt8](Data(contentsOf: TestData.fixture("wfdb/records/fmt212.dat")))
    let altered = try WFDBRecordReader(header: header, files: ["fmt212.dat": bytes])
    #expect(try altered.mismatchedChecksums() == [1])
  }

  @Test(
    "a whole read throws at the end when a signal's samples do not sum to its checksum, naming the header line",
    arguments: ["fmt212", "fmt16", "fmt8", "fmt310", "mixed"])
  func checksumReadsThrow(name: String) throws {
    let path = TestData.fixture("wfdb/records/\(name).hea").path
    let header = try WFDBHeader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path)
    var files: [String: [UInt8]] = [:]
    for signal in header.signals {
      files[signal.fileName] = try [UInt8](
        Data(contentsOf: TestData.fixture("wfdb/records/" + signal.fileName)))
    }
    // As stated, every chunking and both paths read to the end.
    _ = try readAll(try WFDBRecordReader(header: header, files: files, path: path), maxSamples: 7)
    let digital = try WFDBRecordReader(header: header, files: files, path: path)
    while try digital.nextDigitalChunk(maxFrames: 100) != nil {}
    var altered = header
    altered.signals[1].checksum = (header.signals[1].checksum ?? 0) + 1
    let expected =
      "\(path):3: checksum mismatch in signal 1 (\(header.signals[1].description)): the header states "
    for size in [7, 1 << 20] {
      let error = try #require(throws: InputError.self) {
        _ = try readAll(try WFDBRecordReader(header: altered, files: files, path: path), maxSamples: size)
      }
      #expect(error.description.hasPrefix(expected), "\(error)")
    }
    let error = try #require(throws: InputError.self) {
      let reader = try WFDBRecordReader(header: altered, files: files, path: path)
      while try reader.nextDigitalChunk(maxFrames: 100) != nil {}
    }
    #expect(error.description.hasPrefix(expected), "\(error)")
    // Signal 1 alone is checked only when it is read.
    _ = try readAll(try WFDBRecordReader(header: altered, files: files, path: path, selecting: [.index(0)]))
    // A stated 0 is not computed; a length short of the file's end (an excerpt) keeps the file's sums.
    altered.signals[1].checksum = 0
    _ = try readAll(try WFDBRecordReader(header: altered, files: files, path: path))
    altered.signals[1].checksum = (header.signals[1].checksum ?? 0) + 1
    altered.frameCount = (altered.frameCount ?? 0) - 2
    _ = try readAll(try WFDBRecordReader(header: altered, files: files, path: path))
  }

  @Test(
    "shared checksums hold, a skewed signal's too; a changed one throws naming the header, line and signal",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func sharedChecksums() throws {
    // A skewed signal's checksum is of its samples as stored (03700181's RESP is skewed by 4 frames).
    let skewed = try WFDBRecordReader(path: TestData.sharedData("wfdb-formats/03700181").path)
    #expect(try skewed.mismatchedChecksums() == [])
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "wfdb-checksums-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let mitdb = TestData.sharedData("mitdb")
    try FileManager.default.createSymbolicLink(
      at: directory.appendingPathComponent("101.dat"),
      withDestinationURL: mitdb.appendingPathComponent("101.dat"))
    let text = try String(contentsOf: mitdb.appendingPathComponent("101.hea"), encoding: .utf8)
    #expect(text.contains(" 29832 "))  // MLII's checksum
    try Data(
      text.replacingOccurrences(of: "101 ", with: "ck ").replacingOccurrences(of: " 29832 ", with: " 12345 ")
        .utf8
    )
    .write(to: directory.appendingPathComponent("ck.hea"))
    let ck = directory.appendingPathComponent("ck").path
    let error = try #require(throws: InputError.self) {
      _ = try RecordingOpener.summarize(path: ck, scanning: true)
    }
    #expect(error.path == ck + ".hea" && error.location == .line(2), "\(error)")
    #expect(
      error.message.hasPrefix("checksum mismatch in signal 0 (MLII): the header states 12345, "), "\(error)")
    // Every other shared record is read to its end, so checked, by `shared(name:)` and, for CinC 2017
    // (whose headers state 0), by WFDBHeaderTests' `cinc2017()`.
  }

  @Test("MIT-BIH fast path equals the general decoder")
  func fastPath() throws {
    // 2 signals of format 212 take the direct path; the same bytes read as one signal at two
    // samples per frame go through the digital buffer.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let bytes = (0..<3 * 1001).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    let pair = try WFDBHeader.parse(
      Array("r 2 360 1001\nr.dat 212 200(1024) 11 1024 0 0 0 a\nr.dat 212 7.5(-3) 11 0 0 0 0 b\n".utf8),
      path: "r")
    let fast = try #require(try WFDBRecordReader(header: pair, files: ["r.dat": bytes]).readAll())
    let digital = try #require(
      try WFDBRecordReader(header: pair, files: ["r.dat": bytes]).nextDigitalChunk(maxFrames: 2000))
    for (signal, spec) in pair.signals.enumerated() {
      let expected = digital[signal].map { $0 == -2048 ? Float.nan : Float(spec.physical($0)) }
      for (ours, reference) in zip(fast.channels[signal], expected) {
        #expect(ours.isNaN ? reference.isNaN : abs(ours - reference) <= 1e-6 * max(1, abs(reference)))
      }
    }
  }

  static let broken:
    [(name: String, header: String, data: [UInt8], location: InputError.Location, message: String)] = [
      (
        "truncated data", "r 1 100 10\nr.dat 16 200 16 0 0 0 0 x\n", [UInt8](repeating: 0, count: 19),
        .byteOffset(19), "truncated"
      ),
      ("empty data", "r 1 100 10\nr.dat 16 200 16 0 0 0 0 x\n", [], .byteOffset(0), "empty signal file"),
      (
        "offset past the end", "r 1 100 2\nr.dat 16+8 200\n", [0, 0, 0, 0], .byteOffset(4), "needing 12 bytes"
      ),
      // No length in the header: a file that ends inside a frame was read without its partial frame.
      (
        "format 212 pair, no length, partial frame", "r 2 360\nr.dat 212\nr.dat 212\n",
        [UInt8](repeating: 0, count: 17), .byteOffset(15), "the file ends inside frame 5"
      ),
      (
        "format 16, no length, odd byte count", "r 1 360\nr.dat 16\n", [UInt8](repeating: 0, count: 11),
        .byteOffset(10), "the file ends inside frame 5"
      ),
      (
        "format 212, one signal, no length, a stray byte", "r 1 360\nr.dat 212\n",
        [UInt8](repeating: 0, count: 7), .byteOffset(6), "the file ends inside frame 4"
      ),
      (
        "format 16, no length, offset, partial frame of 3 signals",
        "r 3 360\nr.dat 16+4\nr.dat 16+4\nr.dat 16+4\n",
        [UInt8](repeating: 0, count: 4 + 12 + 4), .byteOffset(16), "the file ends inside frame 2"
      ),
    ]

  @Test("data problems throw InputError naming the place", arguments: broken)
  func dataErrors(
    _ example: (name: String, header: String, data: [UInt8], location: InputError.Location, message: String)
  ) throws {
    let header = try WFDBHeader.parse(Array(example.header.utf8), path: "r.hea")
    let error = try #require(throws: InputError.self, "\(example.name)") {
      _ = try WFDBRecordReader(header: header, files: ["r.dat": example.data])
    }
    #expect(error.path == "r.dat")
    #expect(error.location == example.location)
    #expect(error.message.contains(example.message), "\(error)")
  }

  @Test(
    "lengths no file can hold are refused before any arithmetic overflows",
    arguments: [
      "r 1 360 9223372036854775807\nr.dat 16\n", "r 1 1 100000000000\nr.dat 16\n",
    ])
  func implausibleLength(header text: String) throws {
    let header = try WFDBHeader.parse(Array(text.utf8), path: "r.hea")
    let error = try #require(throws: InputError.self) {
      _ = try WFDBRecordReader(header: header, files: ["r.dat": []])
    }
    #expect(error.message.contains("more than a record can hold"), "\(error)")
  }

  @Test("a length from the file's size: whole frames, and a last packing group's padding, are read")
  func lengthFromFileSize() throws {
    // 5 samples of one 212 signal take 8 bytes (2 whole groups and a group of 2 bytes); 9 bytes are
    // 3 whole groups (6 samples, the last one padding).
    for (bytes, frames) in [(8, 5), (9, 6)] {
      let header = try WFDBHeader.parse(Array("r 1 360\nr.dat 212\n".utf8), path: "r.hea")
      let reader = try WFDBRecordReader(header: header, files: ["r.dat": [UInt8](repeating: 0, count: bytes)])
      #expect(reader.frameCount == Int64(frames))
    }
  }

  @Test(
    "a record without signals is refused naming its record line (it yielded empty chunks, and convert trapped)"
  )
  func noSignals() throws {
    let header = try WFDBHeader.parse(Array("# no signals\nr 0 2 57639653\n".utf8), path: "r.hea")
    let error = try #require(throws: InputError.self) {
      _ = try WFDBRecordReader(header: header, files: [:], path: "r.hea")
    }
    #expect(error.path == "r.hea" && error.location == .line(2), "\(error)")
    #expect(error.message == "the record declares no signals")
    let directory = try temporaryRecords(["nsig0.hea": "nsig0 0 360 3600\n"])
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("nsig0").path
    let opened = try #require(throws: InputError.self) { _ = try RecordingOpener.open(path: path) }
    #expect(opened.description == path + ".hea:1: the record declares no signals")
  }

  /// A fresh directory holding the fixture segments `seg1` (II, V; 10 frames) and `seg2` (V; 5 frames)
  /// and the files `texts` (name → content).
  private func temporaryRecords(_ texts: [String: String]) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "wfdb-records-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for file in ["seg1.hea", "seg1.dat", "seg2.hea", "seg2.dat"] {
      try FileManager.default.copyItem(
        at: TestData.fixture("wfdb/records/\(file)"), to: directory.appendingPathComponent(file))
    }
    for (name, text) in texts { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
    return directory
  }

  /// The error reading the record at `directory/name` to its end throws.
  private func readError(_ directory: URL, _ name: String) throws -> InputError {
    try #require(throws: InputError.self) {
      let reader = try WFDBRecordReader(path: directory.appendingPathComponent(name).path)
      while try reader.nextChunk(maxSamples: 64) != nil {}
    }
  }

  @Test("a multi-segment record whose segment is the master or has no signals throws naming the line")
  func segmentWithoutSignals() throws {
    let directory = try temporaryRecords([
      // The first segment (the layout of a fixed layout) is the master itself: no signal lines (trapped).
      "mself.hea": "mself/2 2 100 15\nmself 10\nseg2 5\n",
      // A variable layout whose layout segment declares no signals.
      "mnone.hea": "mnone/2 2 100 10\nnone 0\nseg1 10\n", "none.hea": "# layout\nnone 0 100 0\n",
      // A master that declares no signals.
      "mzero.hea": "mzero/1 0 100 10\nseg1 10\n",
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    let own = try readError(directory, "mself")
    #expect(own.path.hasSuffix("/mself.hea") && own.location == .line(2), "\(own)")
    #expect(own.message.contains("segment 'mself' is a multi-segment record"), "\(own)")
    let none = try readError(directory, "mnone")
    #expect(none.path.hasSuffix("/none.hea") && none.location == .line(2), "\(none)")
    #expect(none.message == "the record declares no signals")
    let zero = try readError(directory, "mzero")
    #expect(zero.path.hasSuffix("/mzero.hea") && zero.location == .line(1), "\(zero)")
    #expect(zero.message == "the record declares no signals")
  }

  @Test("a fixed-layout segment whose signals differ from the first segment's throws naming its line")
  func fixedLayoutSignalsDiffer() throws {
    let directory = try temporaryRecords([
      // seg2 holds 1 signal (V) where seg1 holds II and V: V's data was read as II.
      "count.hea": "count/2 2 100 15\nseg1 10\nseg2 5\n",
      // The same signals in another order.
      "order.hea": "order/2 2 100 20\nseg1 10\nswap 10\n",
      "swap.hea": "swap 2 100 10\nseg1.dat 16 100/mV 16 0 0 0 0 V\nseg1.dat 16 200/mV 16 0 0 0 0 II\n",
      // Signals without descriptions match any name; named ones must match.
      "plain.hea": "plain/2 2 100 20\nseg1 10\nunnamed 10\n",
      "unnamed.hea": "unnamed 2 100 10\nseg1.dat 16 200/mV\nseg1.dat 16 100/mV\n",
    ])
    defer { try? FileManager.default.removeItem(at: directory) }
    let count = try readError(directory, "count")
    #expect(count.path.hasSuffix("/seg2.hea") && count.location == .line(1), "\(count)")
    #expect(count.message.contains("declares 1 signals, the first segment 'seg1' 2"), "\(count)")
    let order = try readError(directory, "order")
    #expect(order.path.hasSuffix("/swap.hea") && order.location == .line(2), "\(order)")
    #expect(order.message.contains("signal 0 is 'V' where the first segment 'seg1' has 'II'"), "\(order)")
    let plain = try readAll(try WFDBRecordReader(path: directory.appendingPathComponent("plain").path))
    #expect(plain.channels.map(\.count) == [20, 20])
  }

  private struct MultiSegmentDigest: Decodable {
    var sig_name: [String]
    var units: [String]
    var values: [[Double?]]
  }

  @Test("multi-segment records read as wfdb.rdrecord joins them", arguments: ["multi", "fixed"])
  func multiSegment(name: String) throws {
    let digests = try TestData.decodeFixture(
      [String: MultiSegmentDigest].self, "wfdb/digests-multisegment.json")
    let digest = try #require(digests[name])
    let path = TestData.fixture("wfdb/records/\(name)").path
    let reader = try WFDBRecordReader(path: path)
    #expect(reader.formatName == "WFDB multi-segment")
    #expect(reader.signals.map(\.name) == digest.sig_name)
    #expect(reader.signals.map(\.unit) == digest.units)
    #expect(reader.frameCount == Int64(digest.values[0].count))
    if name == "multi" {
      var sizes: [Int] = []
      while let chunk = try reader.nextChunk(maxSamples: 1000) { sizes.append(chunk.sampleCount) }
      #expect(sizes == [10, 5, 5])  // chunks end at segments
    }
    let samples = try expectReaderChunkInvariant(
      count: digest.values[0].count, chunkings: Chunking.standard + [.fixed(3), .fixed(1000)]
    ) {
      try WFDBRecordReader(path: path)
    }
    #expect(samples.map(\.index) == Array(0..<Int64(digest.values[0].count)))
    for (signal, theirs) in digest.values.enumerated() {
      for (sample, reference) in zip(samples, theirs) {
        let value = Double(Float(bitPattern: sample.bits[signal]))
        if let reference {
          #expect(value.isApproximatelyEqual(to: reference, absoluteTolerance: 1e-6, relativeTolerance: 1e-6))
        } else {
          #expect(value.isNaN)
        }
      }
    }
  }

  @Test("a segment shorter than the master header says throws InputError naming it")
  func shortSegment() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wfdb-segments-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for file in ["seg1.hea", "seg1.dat"] {
      try FileManager.default.copyItem(
        at: TestData.fixture("wfdb/records/\(file)"), to: directory.appendingPathComponent(file))
    }
    try Data("m/1 2 100 50\nseg1 50\n".utf8).write(to: directory.appendingPathComponent("m.hea"))
    let reader = try WFDBRecordReader(path: directory.appendingPathComponent("m").path)
    let error = try #require(throws: InputError.self) { while try reader.nextChunk(maxSamples: 64) != nil {} }
    #expect(error.path.hasSuffix("seg1.hea"))
    #expect(error.message.contains("holds 10 frames, the master header lists 50"), "\(error)")
  }

  @Test("a multi-segment header cannot be read from memory")
  func multiSegmentInMemory() throws {
    let header = try WFDBHeader.parse(Array("m/1 1 100 5\nseg 5\n".utf8), path: "m.hea")
    let error = try #require(throws: InputError.self) { _ = try WFDBRecordReader(header: header, files: [:]) }
    #expect(error.message.contains("open it by path"))
  }

  @Test("missing files throw InputError")
  func missingFiles() throws {
    let error = try #require(throws: InputError.self) { _ = try WFDBRecordReader(path: "/nonexistent/100") }
    #expect(error.path == "/nonexistent/100.hea")
  }
}
