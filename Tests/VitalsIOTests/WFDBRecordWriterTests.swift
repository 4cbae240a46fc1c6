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
    let start = Timestamp(secondsSinceEpoch: 1_700_000_000.125)
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
}
