import ArgumentParser
import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

/// A simulated 2-channel PPG with a wrist accelerometer, written by `vitals simulate`, with its truth.
private struct SimulatedPPGFile {
  let directory: String
  let path: String
  /// True systolic-peak samples (100 Hz).
  let peaks: [Int64]

  init(seconds: Int = 40, heartRate: Int = 84) throws {
    directory =
      FileManager.default.temporaryDirectory.appendingPathComponent("vitals-hr-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    path = directory + "/ppg.csv"
    let status = runInProcess([
      "simulate", "--signal", "ppg", "--duration", "\(seconds)", "--rate", "100", "--heart-rate",
      "\(heartRate)",
      "--sdnn", "20", "--ppg-channels", "2", "--motion", "--activity", "walking", "-o", path,
    ])
    #expect(status == 0)
    let truth = try String(contentsOfFile: directory + "/ppg.truth.csv", encoding: .utf8)
    peaks = truth.split(separator: "\n").dropFirst().compactMap { Int64($0.split(separator: ",")[0]) }
  }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

@Suite("vitals hr")
struct HeartRateTests {
  @Test(
    "usage errors exit 2",
    arguments: [["hr", "a", "--window", "1"], ["hr", "a", "--step", "0"], ["hr", "a", "--signal", "eeg"]])
  func usageErrors(arguments: [String]) {
    #expect(runInProcess(arguments) == 2)
  }

  @Test("CSV format: header, times without trailing zeros, bpm to 0.01, quality to 0.001, nan")
  func csvFormat() {
    let text = HeartRate.csv([
      HeartRateWindow(startTime: 0, endTime: 8, beatsPerMinute: 72.346, quality: 0.5, isReliable: true),
      HeartRateWindow(startTime: 0.5, endTime: 8.5, beatsPerMinute: .nan, quality: 0, isReliable: false),
    ])
    #expect(text == "window_start_s,window_end_s,bpm,quality\n0,8,72.35,0.500\n0.5,8.5,nan,0.000\n")
  }

  @Test("PPG channels and axes: by name by default, else --channel and --accel")
  func channelChoice() throws {
    let names = ["ppg1", "ppg2", "acc_x", "acc_y", "acc_z"]
    let all = try PPGChannels(names: names, channel: nil, accel: nil, path: "f")
    #expect(all.ppg == [0, 1] && all.axes == [2, 3, 4])
    let chosen = try PPGChannels(names: names, channel: "ppg2", accel: "2,acc_z", path: "f")
    #expect(chosen.ppg == [1] && chosen.axes == [2, 4])
    #expect(try PPGChannels(names: ["II", "PLETH"], channel: nil, accel: nil, path: "f").ppg == [1])
    #expect(try PPGChannels(names: ["green", "acc_x"], channel: nil, accel: nil, path: "f").ppg == [0])
    #expect(throws: InputError.self) {
      try PPGChannels(names: ["acc_x"], channel: nil, accel: nil, path: "f")
    }
    #expect(throws: InputError.self) { try PPGChannels(names: names, channel: "ppg3", accel: nil, path: "f") }
  }

  @Test("windows of a simulated walk follow the true rate; beats and hrv take --signal ppg")
  func simulatedPPG() throws {
    let file = try SimulatedPPGFile()
    defer { file.remove() }
    let command = try #require(try VitalsCommand.parseAsRoot(["hr", file.path]) as? HeartRate)
    let windows = try command.windows()
    #expect(windows.count == 17)
    let truth = BeatRateWindows.windows(beats: file.peaks, sampleRate: 100, duration: 40)
    let errors = zip(windows, truth).map { abs($0.beatsPerMinute - $1.beatsPerMinute) }
    #expect(errors.reduce(0, +) / Double(errors.count) < 2)

    let detection = try BeatDetection(ppgPath: file.path, input: try InputOptions.parse([]))
    #expect(detection.lead == "ppg1" && detection.sampleRate == 100 && detection.sampleCount == 4000)
    let matching = BeatMatching(reference: file.peaks, test: detection.beats, window: 6)
    #expect(Double(matching.pairs.count) > 0.95 * Double(file.peaks.count))
    #expect(runInProcess(["beats", file.path, "--signal", "ppg", "-o", file.directory + "/beats.csv"]) == 0)
    #expect(runInProcess(["hrv", file.path, "--signal", "ppg", "--json"]) == 0)
  }

  @Test("ECG: windows from the QRS detector's beats")
  func ecgWindows() throws {
    let record = try GeneratedRecord(seconds: 30)
    defer { record.remove() }
    let command = try #require(
      try VitalsCommand.parseAsRoot(["hr", record.path, "--signal", "ecg"]) as? HeartRate)
    let windows = try command.windows()
    #expect(windows.count == 12)
    let truth = BeatRateWindows.windows(beats: record.peaks, sampleRate: GeneratedRecord.rate, duration: 30)
    for (window, expected) in zip(windows, truth) {
      #expect(abs(window.beatsPerMinute - expected.beatsPerMinute) < 1)
    }
  }
}
