import Foundation
import Testing
import VitalsIO

/// Commands given files whose values would overflow: each exits 1 with the input error instead of
/// trapping or running without end.
@Suite("vitals: file values within bounds")
struct FileValueBoundsCLITests {
  /// A record `rec` whose header states `rate` Hz (one 16-bit signal of 10 frames), with beats
  /// `rec.atr` and `rec.qrs`, and the CSV beat file `far.csv`, in a fresh directory.
  private struct Files {
    let directory: String
    var record: String { directory + "/rec" }

    init(rate: String) throws {
      directory =
        FileManager.default.temporaryDirectory.appendingPathComponent("vitals-bounds-\(UUID())").path
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let beats = WFDBAnnotationFile.encode([2, 5, 8].map { WFDBAnnotation(sample: $0, code: 1) })
      let files: [String: [UInt8]] = [
        "rec.hea": Array("rec 1 \(rate) 10\nrec.dat 16 200 16 0 0 0 0 ECG\n".utf8),
        "rec.dat": [UInt8](repeating: 0, count: 20),
        "rec.atr": beats,
        "rec.qrs": beats,
        "far.csv": Array("sample\n0\n1000\n9000000000000000000\n".utf8),
      ]
      for (name, bytes) in files {
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
      }
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
  }

  @Test("a record header at 1e300 Hz: score, report and hr exit 1")
  func absurdHeaderRate() throws {
    let files = try Files(rate: "1e300")
    defer { files.remove() }
    #expect(runInProcess(["score", files.record + ".atr", files.record + ".qrs"]) == 1)
    #expect(runInProcess(["report", files.record, "-o", files.directory + "/report.svg"]) == 1)
    #expect(runInProcess(["hr", files.record, "--channel", "0"]) == 1)
    #expect(runInProcess(["info", files.record]) == 1)
  }

  @Test("hrv on beats 0, 1000 and 9e18 at 1 Hz exits 1 at once, naming the line")
  func farBeats() throws {
    let files = try Files(rate: "360")
    defer { files.remove() }
    let started = ContinuousClock.now
    #expect(runInProcess(["hrv", "--beats", files.directory + "/far.csv", "--rate", "1"]) == 1)
    #expect(ContinuousClock.now - started < .seconds(10))
    guard hasBinary else { return }
    let result = try run(["hrv", "--beats", files.directory + "/far.csv", "--rate", "1"])
    #expect(result.status == 1)
    #expect(result.err.contains("far.csv:4: column 1:") && result.err.contains("366 days"), "\(result.err)")
  }
}
