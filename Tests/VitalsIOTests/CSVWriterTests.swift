import Foundation
import Testing
import VitalsCore
import VitalsIO

@Suite("CSV writers")
struct CSVWriterTests {
  private func temporaryPath(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("vitals-\(UUID())-\(name)")
  }

  @Test("signals: time from chunk start times, names quoted when needed, NaN spelled out")
  func signals() throws {
    let url = temporaryPath("signals.csv")
    defer { try? FileManager.default.removeItem(at: url) }
    let writer = try CSVSignalWriter(path: url.path, signalNames: ["a", "b,c"])
    let start = Timestamp(nanosecondsSinceEpoch: 1_000_000_000_000)
    try writer.write(
      SignalChunk(channels: [[1, .nan], [0.5, -2]], sampleRate: 4, startTime: start, firstSampleIndex: 0))
    // A later chunk after a 1-second gap.
    try writer.write(
      SignalChunk(
        channels: [[3], [4]], sampleRate: 4, startTime: start.advanced(byNanoseconds: 1_500_000_000),
        firstSampleIndex: 2))
    try writer.close()
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text == "time_s,a,\"b,c\"\n0,1.0,0.5\n0.25,NaN,-2.0\n1.5,3.0,4.0\n")
    // What the writer writes, the reader reads back.
    let reader = try CSVSignalReader(path: url.path)
    #expect(reader.signals.map(\.name) == ["a", "b,c"])
  }

  @Test("events: sample,time_s")
  func events() throws {
    let url = temporaryPath("events.csv")
    defer { try? FileManager.default.removeItem(at: url) }
    try EventCSVWriter.write(samples: [0, 360, 541], sampleRate: 360, to: url.path)
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text == "sample,time_s\n0,0\n360,1\n541,1.502777778\n")
  }

  @Test("an unwritable path throws OutputError")
  func unwritable() {
    #expect(throws: OutputError.self) {
      try CSVSignalWriter(path: "/nonexistent/dir/x.csv", signalNames: ["a"])
    }
  }
}
