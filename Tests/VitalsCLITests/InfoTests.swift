import Foundation
import Testing
import Vitals

@testable import VitalsCLI

@Suite("vitals info")
struct InfoTests {
  @Test("a time-stamped CSV file's gaps and jitter are reported")
  func timeStampGaps() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("info-gaps-\(getpid()).csv").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    // 250 Hz, 12 000 stamps with 10 s missing after row 9000: 130 s of time, 120 s of samples.
    var text = "time_s,ecg\n"
    for i in 0..<30_000 { text += "\(Double(i < 9000 ? i : i + 2500) / 250),0.5\n" }
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let summary = try RecordingOpener.summarize(path: path)
    #expect(summary.gapCount == 1)
    #expect(Info.duration(summary) == 130)
    let json = Info.json(summary)
    #expect(json.contains("\"gaps\":1"))
    #expect(json.contains("\"missing_s\":10"))
    #expect(json.contains("\"longest_gap_s\":10.004,"))
    #expect(json.contains("\"jitter_s\":0"))
    #expect(Info.text(summary).contains("gaps: 1 (missing 10.0 s, longest 10.004 s)"))
  }
}
