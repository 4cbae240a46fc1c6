import Foundation
import VitalsCore
import VitalsIO
import VitalsSimulation
import VitalsTestSupport

/// A simulated ECG (ECGSYN-like, seeded), as samples and as files in a fresh temporary directory.
struct SimulatedECG {
  let rate: Double
  let samples: [Float]
  let atrialFibrillation: [RhythmEpisode]

  init(seconds: Double, rate: Double = 250, seed: UInt64 = 7, fibrillation: [RhythmEpisode] = []) {
    var rhythm = RhythmConfiguration(heartRate: 70)
    rhythm.atrialFibrillation = fibrillation
    var simulator = ECGSimulator(
      configuration: ECGConfiguration(rhythm: rhythm), duration: seconds, sampleRate: rate, seed: seed)
    let recording = simulator.generateAll()
    self.rate = rate
    samples = recording.channels[0]
    atrialFibrillation = recording.atrialFibrillationEpisodes
  }

  /// Writes the ECG as a WFDB record `directory/name` (lead `MLII`, mV) and returns the record path.
  @discardableResult
  func writeWFDB(in directory: String, name: String) throws -> String {
    let path = directory + "/" + name
    let writer = try WFDBRecordWriter(
      path: path, signals: [SignalDescription(name: "MLII", unit: "mV", sampleRate: rate, sampleCount: nil)],
      frameRate: rate)
    try writer.append(
      SignalChunk(channels: [samples], sampleRate: rate, startTime: .epoch, firstSampleIndex: 0))
    try writer.finish()
    return path
  }

  /// Writes the ECG as CSV (one column `ecg`, no time column) and returns the path.
  @discardableResult
  func writeCSV(in directory: String, name: String) throws -> String {
    let path = directory + "/" + name
    let text = "ecg\n" + samples.map { "\($0)\n" }.joined()
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }
}

/// A fresh temporary directory.
func temporaryDirectory() throws -> String {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent(
    "vitals-pipeline-\(UUID().uuidString)"
  )
  .path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

extension SimulatedActivityRecording {
  /// Writes the recording as a WFDB record `directory/name` (base time and date: ``startTime``; ECG at
  /// 1 µV, acceleration at 1 mg resolution) and returns the record path.
  @discardableResult
  func writeWFDB(in directory: String, name: String) throws -> String {
    let path = directory + "/" + name
    let signals = zip(Self.names, Self.units).map {
      SignalDescription(name: $0, unit: $1, sampleRate: rate, sampleCount: nil)
    }
    let writer = try WFDBRecordWriter(
      path: path, signals: signals, frameRate: rate, startTime: startTime, gains: [1000, 1000, 1000, 1000])
    try writer.append(
      SignalChunk(channels: channels, sampleRate: rate, startTime: startTime, firstSampleIndex: 0))
    try writer.finish()
    return path
  }
}
