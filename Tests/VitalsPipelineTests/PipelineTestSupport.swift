import Foundation
import Testing
import VitalsCore
import VitalsIO
import VitalsPipeline
import VitalsSimulation
import VitalsTestSupport

/// A simulated ECG (ECGSYN-like, seeded), as samples and as files in a fresh temporary directory.
struct SimulatedECG {
  let rate: Double
  var samples: [Float]
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

/// What a pipeline reports over a whole recording: its events, each kind of each signal in its own run
/// (runs of different kinds interleave by chunk), then its section as sorted-key JSON and its event
/// tables.
enum PipelineReport<Event: Equatable>: Equatable {
  case events([Event])
  case section(json: String, tables: [String: [Int64]])

  /// The report of `section`.
  static func section(of section: any PipelineSection) throws -> Self {
    .section(json: try sortedJSON(section), tables: section.eventTables)
  }

  /// The events, when this report holds them.
  var events: [Event]? {
    if case .events(let events) = self { return events }
    return nil
  }
}

/// The events grouped by signal and kind, each group in the order the pipeline reported it.
func groupedByKind(_ events: [PipelineEvent]) -> [PipelineEvent] {
  Dictionary(grouping: events) { "\($0.signal.rawValue) \($0.kind.rawValue)" }.sorted { $0.key < $1.key }
    .flatMap(\.value)
}

/// The section as sorted-key JSON (where NaN equals NaN).
func sortedJSON(_ section: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = .sortedKeys
  return String(decoding: try encoder.encode(section), as: UTF8.self)
}

/// Expects the pipeline made by `makePipeline` to report the same events (through `canonical`) and the
/// same section over `channels` at `rate` from `startTime`, whatever the chunks they come in (see
/// ``expectChunkInvariant(count:chunkings:_:sourceLocation:makeStage:feed:finish:)``); returns the
/// reports of the whole recording.
@discardableResult
func expectPipelineChunkInvariant<Pipeline: RecordingPipeline, Event: Equatable>(
  _ channels: [[Float]], rate: Double, startTime: Timestamp = .epoch,
  chunkings: [Chunking] = Chunking.standard,
  canonical: ([PipelineEvent]) -> [Event], sourceLocation: SourceLocation = #_sourceLocation,
  makePipeline: () throws -> Pipeline
) throws -> [PipelineReport<Event>] {
  try expectChunkInvariant(
    count: channels[0].count, chunkings: chunkings, sourceLocation: sourceLocation,
    makeStage: { (pipeline: try makePipeline(), events: [PipelineEvent]()) },
    feed: { stage, range in
      let chunk = SignalChunk(
        channels: channels.map { Array($0[range]) }, sampleRate: rate,
        startTime: startTime.advanced(bySamples: Int64(range.lowerBound), rate: rate),
        firstSampleIndex: Int64(range.lowerBound))
      stage.pipeline.process(chunk, events: &stage.events)
      return [PipelineReport<Event>]()
    },
    finish: { stage in
      let section = stage.pipeline.finish(events: &stage.events)
      return [.events(canonical(stage.events)), try .section(of: section)]
    })
}
