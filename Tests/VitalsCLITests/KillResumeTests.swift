import Foundation
import Testing
import VitalsCore
import VitalsTestSupport

/// `files` with the two wall-clock fields of each summary (`processing_s`, `samples_per_s`), which differ
/// between any two runs, cut out of the bytes; every other byte is kept.
private func withoutTimings(_ files: [String: Data]) -> [String: Data] {
  files.mapValues { bytes in
    var text = String(decoding: bytes, as: UTF8.self)
    for field in ["\"processing_s\":", "\"samples_per_s\":"] {
      while let start = text.range(of: field) {
        var end = start.upperBound
        while end < text.endIndex && text[end] != "," && text[end] != "}" { end = text.index(after: end) }
        if end < text.endIndex && text[end] == "," { end = text.index(after: end) }
        text.removeSubrange(start.lowerBound..<end)
      }
    }
    return Data(text.utf8)
  }
}

@Suite("vitals analyze --out: killed and resumed", .serialized)
struct KillResumeTests {
  @Test(
    "SIGKILL at 24 random moments, each run resuming the last, then a rerun: the outputs of one uninterrupted run (but for the timings), inputs unchanged",
    .enabled(if: VitalsProcess.exists, "needs the built vitals binary"))
  func killAndResume() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-kill-\(UUID())")
    let inputs = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let recordings: [[String]] = [
      ["--signal", "ecg", "--duration", "60", "--rate", "250", "--seed", "1"],
      ["--signal", "ecg", "--duration", "45", "--rate", "360", "--seed", "2", "--pvc", "0.1"],
      ["--signal", "ppg", "--duration", "60", "--rate", "125", "--seed", "3", "--motion"],
      ["--signal", "acc", "--duration", "60", "--rate", "100", "--seed", "4"],
    ]
    for (index, options) in recordings.enumerated() {
      let path = inputs.appendingPathComponent("r\(index).csv").path
      let result = try VitalsProcess.run(["simulate"] + options + ["-o", path])
      try #require(result.status == 0, "simulate: \(result.err)")
      try FileManager.default.removeItem(atPath: String(path.dropLast(4)) + ".truth.csv")
    }
    let inputBytes = try VitalsProcess.snapshot(inputs)

    // The simulated files state no start time: --start gives one, so that derived samples are written.
    let start = ["--start", "2024-03-10T06:00:00Z"]
    let clean = root.appendingPathComponent("clean")
    let began = Date()
    let reference = try VitalsProcess.run(
      ["analyze", inputs.path, "--out", clean.path, "--jobs", "2"] + start)
    let duration = Date().timeIntervalSince(began)
    try #require(reference.status == 0, "clean run: \(reference.err)")
    let expected = withoutTimings(try VitalsProcess.snapshot(clean))
    // Summaries and samples of the four, the tables: beats twice, the PPG's pulses and steps, steps.
    #expect(expected.count == 4 + 4 + 5)

    let killed = root.appendingPathComponent("killed")
    var generator = SplitMix64(state: 18)
    var interrupted = 0
    var attempts = 0
    // Each run resumes what the killed one before it left; a run that finished before its kill starts
    // the next from an empty folder, so that every kill falls in work still to do.
    while interrupted < 24 && attempts < 100 {
      attempts += 1
      let delay = Double(generator.next() % 1000) / 1000 * duration
      let started = try VitalsProcess.start(
        ["analyze", inputs.path, "--out", killed.path, "--jobs", "2"] + start)
      usleep(useconds_t(delay * 1_000_000))
      let wasRunning = started.process.isRunning
      if wasRunning {
        kill(started.process.processIdentifier, SIGKILL)
        interrupted += 1
      }
      _ = VitalsProcess.finish(started)
      // Whatever the moment, no file under a final name is partial: each equals the clean run's.
      for (name, bytes) in withoutTimings(try VitalsProcess.snapshot(killed))
      where !name.hasSuffix(".partial") {
        #expect(bytes == expected[name], "\(name) after a kill at \(delay) s")
      }
      if !wasRunning { try FileManager.default.removeItem(at: killed) }
    }
    #expect(interrupted == 24, "only \(interrupted) of \(attempts) runs were still running when killed")
    let resumed = try VitalsProcess.run(
      ["analyze", inputs.path, "--out", killed.path, "--jobs", "2"] + start)
    #expect(resumed.status == 0, "\(resumed.err)")
    let final = withoutTimings(try VitalsProcess.snapshot(killed))
    #expect(final.keys.sorted() == expected.keys.sorted())
    #expect(final == expected)
    #expect(!final.keys.contains { $0.hasSuffix(".partial") })
    #expect(try VitalsProcess.snapshot(inputs) == inputBytes)
  }
}
