import Foundation
import Testing
import VitalsSimulation

@testable import VitalsCLI

@Suite("vitals beats and hrv on a recording with a time-stamp gap")
struct TimeStampGapTests {
  @Test("no beat inside the gap, the beats after it at their true times, no interval across it")
  func beatsAroundGap() throws {
    // 120 s of ECG at 250 Hz whose stamps skip 10 s after 50 s: the file spans 130 s.
    var simulator = ECGSimulator(configuration: ECGConfiguration(), duration: 120, sampleRate: 250, seed: 5)
    let ecg = simulator.generateAll().channels[0]
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-gap-\(UUID())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var text = "time_s,ECG\n"
    for (i, value) in ecg.enumerated() { text += "\(Double(i < 12_500 ? i : i + 2500) / 250),\(value)\n" }
    let input = directory + "/gap.csv"
    try Data(text.utf8).write(to: URL(fileURLWithPath: input))
    let output = directory + "/gap.beats.csv"
    #expect(runInProcess(["beats", input, "-o", output]) == 0)
    let times = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").dropFirst()
      .map { Double($0.split(separator: ",")[1])! }
    #expect(!times.contains { $0 > 50 && $0 < 60 })
    #expect(times.contains { $0 > 60.5 && $0 < 62 })
    #expect((times.last ?? 0) > 128)

    let hrv = try #require(try HRV.parseAsRoot([input, "--json"]) as? HRV)
    let report = try #require(try hrv.reports().first?.get())
    let intervals = report.analysis.intervals
    // The interval across the gap (about 10.5 s) is not an NN interval.
    #expect(intervals.intervals.count > 100)
    #expect(!intervals.intervals.contains { $0 > 2000 })
  }
}
