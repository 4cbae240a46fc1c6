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
    let text = HeartRateWindow.csv([
      HeartRateWindow(startTime: 0, endTime: 8, beatsPerMinute: 72.346, quality: 0.5, isReliable: true),
      HeartRateWindow(startTime: 0.5, endTime: 8.5, beatsPerMinute: .nan, quality: 0, isReliable: false),
    ])
    #expect(text == "window_start_s,window_end_s,bpm,quality\n0,8,72.35,0.500\n0.5,8.5,nan,0.000\n")
  }

  @Test("PPG channels and axes: ChannelRoles' rule by default, else --channel and --accel")
  func channelChoice() throws {
    func channels(_ names: [String], _ units: [String]? = nil, channel: String? = nil, accel: String? = nil)
      throws -> (ppg: [Int], axes: [Int])
    {
      let signals = names.indices.map {
        SignalDescription(name: names[$0], unit: units?[$0] ?? "", sampleRate: 125, sampleCount: nil)
      }
      return try PPGRecording.channels(
        signals: signals, ppg: channel.map(ChannelSelector.list),
        accelerometer: accel.map(ChannelSelector.list),
        path: "f")
    }
    let names = ["ecg", "ppg1", "ppg2", "acc_x", "acc_y", "acc_z"]
    let all = try channels(names)
    #expect(all.ppg == [1, 2] && all.axes == [3, 4, 5])
    let chosen = try channels(names, channel: "ppg2", accel: "3,acc_z")
    #expect(chosen.ppg == [2] && chosen.axes == [3, 5])
    #expect(try channels(["II", "PLETH"]).ppg == [1])
    // The only signal besides the axes is the PPG; with two, or only an ECG lead, none is guessed.
    let green = try channels(["green", "acc_x"])
    #expect(green.ppg == [0] && green.axes == [1])
    #expect(try channels(["col1"]).ppg == [0])
    for unclear in [["acc_x"], ["green", "red"], ["col1", "col2", "col3", "col4"]] {
      #expect(throws: InputError.self) { try channels(unclear) }
    }
    #expect(throws: InputError.self) { try channels(["MLII", "V1"], ["mV", "mV"]) }
    #expect(throws: InputError.self) { try channels(["MLII", "pulse"], ["mV", ""]) }
    #expect(throws: InputError.self) { try channels(["ecg", "acc_x", "acc_y", "acc_z"]) }
    #expect(throws: InputError.self) { try channels(names, channel: "ppg3") }
  }

  @Test("windows of a simulated walk follow the true rate; beats and hrv take --signal ppg")
  func simulatedPPG() throws {
    let file = try SimulatedPPGFile()
    defer { file.remove() }
    let command = try #require(try VitalsCommand.parseAsRoot(["hr", file.path]) as? HeartRate)
    let windows = try command.windows()
    #expect(windows.count == 17)
    let truth = BeatRateWindows.windows(beats: file.peaks, sampleRate: 100, duration: 40)
    let errors: [Double] = zip(windows, truth).map { abs($0.beatsPerMinute - $1.beatsPerMinute) }
    let meanError = errors.reduce(0, +) / Double(errors.count)
    #expect(meanError < 2)
    let three = [true, false, true].map {
      HeartRateWindow(startTime: 0, endTime: 8, beatsPerMinute: 70, quality: 0.5, isReliable: $0)
    }
    #expect(command.reliableShare(three) == "\(file.path): 2 of 3 windows reliable (66.7 %)")
    #expect(command.reliableShare([]) == "\(file.path): 0 of 0 windows reliable (– %)")

    let detection = try RecordingBeats(ppgPath: file.path, options: RecordingOptions())
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
