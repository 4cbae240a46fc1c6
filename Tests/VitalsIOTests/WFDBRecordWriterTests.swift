import Foundation
import Testing
import VitalsCore
import VitalsIO

@Suite("WFDB format-16 writer")
struct WFDBRecordWriterTests {
  @Test("a written record reads back, in chunks, with its time, names, units and checksums")
  func roundTrip() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wfdb-writer-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let signals = [
      SignalDescription(name: "ECG lead II", unit: "mV", sampleRate: 250, sampleCount: nil),
      SignalDescription(name: "PLETH", unit: "NU", sampleRate: 250, sampleCount: nil),
    ]
    let start = Timestamp(nanosecondsSinceEpoch: 1_700_000_000_125_000_000)
    let writer = try WFDBRecordWriter(
      path: directory.appendingPathComponent("out.hea").path, signals: signals, frameRate: 250,
      startTime: start)
    let ecg: [Float] = (0..<600).map { Float(sin(Double($0) / 20)) * 1.5 }
    var pleth: [Float] = (0..<600).map { Float($0 % 50) - 20.25 }
    pleth[17] = .nan
    for offset in stride(from: 0, to: 600, by: 256) {
      let end = min(offset + 256, 600)
      try writer.append(
        SignalChunk(
          channels: [Array(ecg[offset..<end]), Array(pleth[offset..<end])], sampleRate: 250,
          startTime: start, firstSampleIndex: Int64(offset)))
    }
    try writer.finish()

    let reader = try WFDBRecordReader(path: directory.appendingPathComponent("out").path)
    #expect(reader.formatName == "WFDB 16")
    #expect(reader.signals.map(\.name) == ["ECG lead II", "PLETH"])
    #expect(reader.signals.map(\.unit) == ["mV", "NU"])
    #expect(reader.startTime == start)
    #expect(reader.frameCount == 600)
    let chunk = try #require(try reader.readAll())
    for (ours, theirs) in zip(chunk.channels[0], ecg) { #expect(abs(ours - theirs) <= 0.0005) }
    for (index, (ours, theirs)) in zip(chunk.channels[1], pleth).enumerated() {
      #expect(index == 17 ? ours.isNaN : abs(ours - theirs) <= 0.005)
    }
    #expect(try reader.mismatchedChecksums() == [])
  }

  @Test("a value the format cannot hold is an error naming the signal and sample, and nothing is written")
  func unrepresentable() throws {
    let directory = try makeTemporaryDirectory("wfdb-range")
    defer { try? FileManager.default.removeItem(at: directory) }
    let writer = try WFDBRecordWriter(
      path: directory.appendingPathComponent("out.hea").path,
      signals: [
        SignalDescription(name: "ECG", unit: "mV", sampleRate: 100, sampleCount: nil),
        SignalDescription(name: "RESP", unit: "NU", sampleRate: 100, sampleCount: nil),
      ],
      frameRate: 100, gains: [1000, 1000])
    try writer.append(
      SignalChunk(channels: [[0, 1], [0, 32.767]], sampleRate: 100, startTime: .epoch, firstSampleIndex: 0))
    do {
      try writer.append(
        SignalChunk(
          channels: [[0, 1], [.nan, 32.768]], sampleRate: 100, startTime: .epoch, firstSampleIndex: 2))
      Issue.record("32.768 at gain 1000 exceeds format 16")
    } catch {
      #expect(error.message.contains("signal 1 (RESP), sample 3"))
      #expect(error.path.hasSuffix("out.dat"))
    }
    #expect(throws: OutputError.self) {
      try writer.append(
        SignalChunk(channels: [[.infinity], [0]], sampleRate: 100, startTime: .epoch, firstSampleIndex: 4))
    }
    writer.discard()
    #expect(try entries(directory) == [])
  }

  @Test("formats 24 and 32, several samples per frame, kept header fields, gaps filled with invalid samples")
  func digitalAndGaps() throws {
    let directory = try makeTemporaryDirectory("wfdb-digital")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("wide.hea").path
    var record = WFDBRecordWriter.Record(frameRate: 10)
    record.baseTimeOfDay = 3723.5
    record.comments = [" age: 42", " second line"]
    let writer = try WFDBRecordWriter(
      path: path,
      signals: [
        .init(
          name: "big", unit: "uV", gain: 2, baseline: -5, adcResolution: 24, adcZero: 3, samplesPerFrame: 2),
        .init(name: "small", unit: "mmHg", gain: 12.84, baseline: -1605),
      ], record: record, format: .int24)
    try writer.appendDigital(
      [[8_000_000, -8_388_608, 7, -2048], [-2048, 12]], frames: 2, invalid: [-8_388_608, -2048])
    #expect(throws: OutputError.self) {
      try writer.appendDigital([[8_388_608, 0], [0]], frames: 1, invalid: [nil, nil])
    }
    try writer.finish()
    let reader = try WFDBRecordReader(path: path)
    #expect(reader.formatName == "WFDB 24")
    #expect(reader.header.baseTimeOfDay == 3723.5 && reader.header.baseDate == nil)
    #expect(reader.header.comments == [" age: 42", " second line"])
    let specs = reader.header.signals
    #expect(specs.map(\.samplesPerFrame) == [2, 1])
    #expect(specs.map(\.gain) == [2, 12.84] && specs.map(\.baseline) == [-5, -1605])
    #expect(specs.map(\.adcResolution) == [24, 0] && specs[0].adcZero == 3)
    #expect(
      try reader.nextDigitalChunk(maxFrames: 10) == [[8_000_000, -8_388_608, 7, -2048], [-8_388_608, 12]])
    #expect(try reader.mismatchedChecksums() == [])

    let gapPath = directory.appendingPathComponent("gap.hea").path
    let gapped = try WFDBRecordWriter(
      path: gapPath, signals: [SignalDescription(name: "v", unit: "mV", sampleRate: 4, sampleCount: nil)],
      frameRate: 4)
    let start = Timestamp(secondsSinceEpoch: 100)
    try gapped.append(SignalChunk(channels: [[1, 2]], sampleRate: 4, startTime: start, firstSampleIndex: 0))
    try gapped.append(
      SignalChunk(
        channels: [[3]], sampleRate: 4, startTime: start.advanced(byNanoseconds: 1_000_000_000),
        firstSampleIndex: 2))
    try gapped.finish()
    let values = try #require(try WFDBRecordReader(path: gapPath).readAll()).channels[0]
    #expect(values.count == 5)
    #expect(values[0] == 1 && values[1] == 2 && values[2].isNaN && values[3].isNaN, "\(values)")
    #expect(abs(values[4] - 3) <= 0.0005, "\(values)")
  }

  @Test("a fitted gain keeps every value within half a step and decimal values exactly")
  func fittedGain() {
    var scan = SignalScan()
    scan.add([359, 854, 600.25])
    let signal = WFDBRecordWriter.Signal(name: "ppg", unit: "", fitting: scan)
    #expect(signal.gain == 100)
    #expect(signal.baseline == -60650)
    var narrow = SignalScan()
    narrow.add([-0.0011, 0.0012])
    #expect(WFDBRecordWriter.Signal(name: "x", unit: "", fitting: narrow).gain == 2e7)
    var constant = SignalScan()
    constant.add([5, 5])
    let flat = WFDBRecordWriter.Signal(name: "c", unit: "mV", fitting: constant)
    #expect(flat.gain == 1000 && flat.baseline == -5000)
    #expect(WFDBRecordWriter.Signal(name: "e", unit: "g", fitting: SignalScan()).gain == 100)
  }
}
