import ArgumentParser
import Foundation
import Testing
import Vitals

@testable import VitalsCLI

@Suite("vitals simulate")
struct SimulateTests {
  /// A fresh temporary directory.
  static func directory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "vitals-sim-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Runs `vitals simulate` with `arguments`, then reads the CSV back (every channel) and the truth rows.
  static func simulate(_ arguments: [String], file: String) throws -> (
    names: [String], rate: Double, channels: [[Float]], truth: [[String]]
  ) {
    var command = try VitalsCommand.parseAsRoot(["simulate"] + arguments + ["-o", file])
    try command.run()
    var reader = try RecordingOpener.open(path: file)
    var channels = reader.signals.map { _ in [Float]() }
    while let chunk = try reader.nextChunk(maxSamples: 10_000) {
      for index in channels.indices { channels[index] += chunk.channels[index] }
    }
    let truth = try String(contentsOfFile: Simulate.truthPath(for: file), encoding: .utf8)
      .split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
    return (reader.signals.map(\.name), reader.chunkSampleRate, channels, truth)
  }

  @Test func ecgWithTruthMatchesTheLibrary() throws {
    let file = try Self.directory() + "/ecg.csv"
    let result = try Self.simulate(
      [
        "--signal", "ecg", "--duration", "20", "--rate", "250", "--seed", "4", "--heart-rate", "90",
        "--chunk-size", "777",
      ],
      file: file)
    #expect(result.names == ["ecg"])
    #expect(abs(result.rate - 250) < 1e-6)
    var rhythm = RhythmConfiguration(heartRate: 90, rrStandardDeviation: 0.05, lfHfRatio: 0.5)
    rhythm.atrialFibrillation = []
    var simulator = ECGSimulator(
      configuration: ECGConfiguration(rhythm: rhythm), duration: 20, sampleRate: 250, seed: 4)
    let expected = simulator.generateAll()
    #expect(result.channels[0] == expected.channels[0])
    #expect(result.truth[0] == ["sample", "time_s", "label", "rate"])
    #expect(result.truth.dropFirst().map { Int64($0[0])! } == expected.events.map(\.sampleIndex))
    #expect(result.truth.dropFirst().allSatisfy { $0[2] == "N" })
  }

  @Test func accelerometerStepsAndUnits() throws {
    let file = try Self.directory() + "/acc.csv"
    let result = try Self.simulate(
      [
        "--signal", "acc", "--duration", "30", "--rate", "50", "--activity", "walking", "--placement",
        "front-pocket",
        "--cadence", "100", "--unit", "m/s^2",
      ],
      file: file)
    #expect(result.names == ["acc_x", "acc_y", "acc_z"])
    #expect(abs(result.truth.count - 1 - 50) <= 2)
    #expect(result.truth.dropFirst().allSatisfy { $0[2] == "S" })
    let means = result.channels.map { Double($0.reduce(0, +)) / Double($0.count) }
    let gravity = (means.map { $0 * $0 }.reduce(0, +)).squareRoot()
    #expect(gravity > 8 && gravity < 11, "mean acceleration \(gravity) m/s²")
  }

  @Test func ppgWithMotionHasFiveColumns() throws {
    let file = try Self.directory() + "/ppg.csv"
    let result = try Self.simulate(
      [
        "--signal", "ppg", "--duration", "10", "--rate", "100", "--ppg-channels", "2", "--motion",
        "--activity", "running",
      ],
      file: file)
    #expect(result.names == ["ppg1", "ppg2", "acc_x", "acc_y", "acc_z"])
    #expect(result.channels[0].count == 1000)
    #expect(result.truth.count > 8)
  }

  @Test func badOptionsAreRejected() {
    for arguments in [
      ["--signal", "ecg", "--duration", "10", "--rate", "250", "-o", "x.txt"],
      ["--signal", "ecg", "--duration", "10", "--rate", "0", "-o", "x.csv"],
      ["--signal", "ecg", "--duration", "10", "--rate", "250", "--afib", "5:2", "-o", "x.csv"],
      ["--signal", "ecg", "--duration", "10", "--rate", "250", "--pvc", "0.6", "-o", "x.csv"],
      ["--signal", "eeg", "--duration", "10", "--rate", "250", "-o", "x.csv"],
    ] {
      #expect(throws: (any Error).self) { try VitalsCommand.parseAsRoot(["simulate"] + arguments) }
    }
  }

  @Test func unwritableOutputExitsWithOne() throws {
    var command = try VitalsCommand.parseAsRoot(
      ["simulate", "--signal", "ecg", "--duration", "1", "--rate", "100", "-o", "/nonexistent-dir/x.csv"])
    #expect(throws: ExitCode(1)) { try command.run() }
  }
}
