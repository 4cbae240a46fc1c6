import Foundation
import Testing
import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsSimulation
import VitalsStatistics
import VitalsTestSupport

@testable import VitalsPipeline

/// Still, walking, typing: 4 minutes at 100 Hz starting at 2026-03-01T08:00:05Z (not on a window boundary).
private let recording = SimulatedActivityRecording(
  segments: [
    .init(duration: 70, heartRate: 60, activity: .still),
    .init(duration: 100, heartRate: 95, activity: .walking),
    .init(duration: 70, heartRate: 65, activity: .typing),
  ], rate: 100, startTime: Timestamp(secondsSinceEpoch: 1_772_352_005))

/// The recording's context, its axes (channels 1–3) for the accelerometer pipeline.
private func context(live: Bool = false) -> PipelineContext {
  let signals = zip(SimulatedActivityRecording.names, SimulatedActivityRecording.units).map {
    SignalDescription(name: $0, unit: $1, sampleRate: recording.rate, sampleCount: nil)
  }
  return PipelineContext(
    path: "x", signals: signals, sampleRate: recording.rate, channels: [1, 2, 3], live: live)
}

/// The accelerometer pipeline over the recording's axes in chunks of `chunkSize`.
private func run(chunkSize: Int, live: Bool = false) throws -> (
  events: [PipelineEvent], section: StepsSection
) {
  var pipeline = try AccelerometerPipeline(context: context(live: live))
  var events: [PipelineEvent] = []
  var start = 0
  let count = recording.channels[0].count
  while start < count {
    let end = min(count, start + chunkSize)
    pipeline.process(
      SignalChunk(
        channels: recording.channels.map { Array($0[start..<end]) }, sampleRate: recording.rate,
        startTime: recording.startTime.advanced(bySamples: Int64(start), rate: recording.rate),
        firstSampleIndex: Int64(start)), events: &events)
    start = end
  }
  let section = try #require(pipeline.finish(events: &events) as? StepsSection)
  return (events, section)
}

@Suite("Accelerometer pipeline")
struct AccelerometerPipelineTests {
  @Test("steps and bouts are the step detector's, whatever the chunking")
  func equalsDetector() throws {
    let expected = try StepDetector.detect(
      x: recording.channels[1], y: recording.channels[2], z: recording.channels[3],
      sampleRate: recording.rate,
      startTime: recording.startTime)
    let whole = try run(chunkSize: 1 << 20)
    let reports = try expectPipelineChunkInvariant(
      recording.channels, rate: recording.rate, startTime: recording.startTime,
      chunkings: Chunking.standard + [.fixed(333)], canonical: groupedByKind
    ) {
      try AccelerometerPipeline(context: context())
    }
    #expect(try reports == [.events(groupedByKind(whole.events)), .section(of: whole.section)])
    #expect(whole.section.steps == expected.steps && whole.section.walking.bouts == expected.bouts)
    #expect(abs(whole.section.walking.stepCount - recording.steps.count) <= 3)
    #expect(whole.events.filter { $0.kind == .step }.map(\.sampleIndex) == expected.steps.map(\.sampleIndex))
    #expect(whole.section.eventTables["steps"] == expected.steps.map(\.sampleIndex))
    let cadence = whole.section.walking.cadence
    #expect(abs(cadence - expected.bouts.overallCadence) < 1e-9 && cadence > 90)
    let bouts = whole.events.filter { $0.kind == .walkingBout }
    let firstBoutSteps: Int? =
      if case .walkingBout(let steps, _, _) = bouts.first?.value { steps } else { nil }
    #expect(bouts.count == expected.bouts.count && firstBoutSteps == expected.bouts[0].steps)
    // Each bout's asymmetry, the same whatever the chunking; the simulated walk is even.
    #expect(whole.section.asymmetry.map(\.bout) == expected.bouts)
    #expect(try run(chunkSize: 333).section.asymmetry == whole.section.asymmetry)
    #expect(try #require(whole.section.asymmetry.first?.percentage) < 10)
    #expect(try run(chunkSize: 4096, live: true).section.asymmetry.isEmpty)
  }

  @Test("walkingAsymmetryPercentage: one sample per bout long enough, as a fraction over the bout")
  func asymmetrySamples() throws {
    let bouts = try run(chunkSize: 4096).section.asymmetry
    let bout = try #require(bouts.first)
    let samples = DerivedMetrics.walkingAsymmetry(
      bouts + [
        BoutAsymmetry(
          bout: WalkingBout(start: bout.bout.end, end: bout.bout.end, steps: 1), pairs: 0,
          asymmetricPairs: 0)
      ], minimumSteps: 10, device: "x")
    #expect(
      samples.count == 1 && samples[0].type == .walkingAsymmetryPercentage && samples[0].unit == .percent)
    #expect(samples[0].value == Double(bout.asymmetricPairs) / Double(bout.pairs))
    #expect(samples[0].start == bout.bout.start.time && samples[0].end == bout.bout.end.time)
    #expect(DerivedMetrics.walkingAsymmetry(bouts, minimumSteps: bout.bout.steps + 1).isEmpty)
  }

  @Test("motion levels: 10 s windows aligned to absolute time, low when still, high when walking")
  func motion() throws {
    let section = try run(chunkSize: 4096).section
    let levels = section.motion
    // 240 s from 08:00:05: 08:00:05–10 (half a window, kept), 23 windows from 08:00:10, 08:04:00–05.
    #expect(levels.count == 25)
    #expect(levels.dropFirst().allSatisfy { $0.time.nanosecondsSinceEpoch % 10_000_000_000 == 0 })
    let seconds = levels.map { recording.startTime.seconds(to: $0.time) }
    let still = zip(seconds, levels).filter { $0.0 < 65 }.map(\.1.level)
    let walking = zip(seconds, levels).filter { $0.0 > 75 && $0.0 < 160 }.map(\.1.level)
    #expect(!still.isEmpty && still.allSatisfy { $0 < 0.02 })
    #expect(!walking.isEmpty && walking.allSatisfy { $0 > 0.05 })
    #expect(section.motionMaximum == levels.map(\.level).max())
    #expect(try run(chunkSize: 333).section.motion == levels)
  }

  @Test("motion levels in g from a walk in g whose first sample is a 3.3 g jolt")
  func motionAfterAFirstJolt() throws {
    var simulator = AccelerometerSimulator(
      configuration: AccelerometerConfiguration(activity: .walking, placement: .hand), duration: 40,
      sampleRate: 50, seed: 7)
    let clean = simulator.generateAll().channels
    var jolted = clean
    (jolted[0][0], jolted[1][0], jolted[2][0]) = (3.3, 0, 0)
    /// The steps section of `channels`, fed whole.
    func section(_ channels: [[Float]]) throws -> StepsSection {
      let signals = ["x", "y", "z"].map {
        SignalDescription(name: $0, unit: "g", sampleRate: 50, sampleCount: nil)
      }
      var pipeline = try AccelerometerPipeline(
        context: PipelineContext(
          path: "x", signals: signals, sampleRate: 50, channels: [0, 1, 2], live: false))
      var events: [PipelineEvent] = []
      pipeline.process(
        SignalChunk(channels: channels, sampleRate: 50, startTime: .epoch, firstSampleIndex: 0),
        events: &events)
      return try #require(pipeline.finish(events: &events) as? StepsSection)
    }
    let expected = try section(clean)
    let found = try section(jolted)
    #expect(found.unit == .g)
    #expect(expected.motionMean > 0.05)
    #expect(abs(found.motionMean - expected.motionMean) < 0.05 * expected.motionMean)
  }

  @Test("live: counts without lists")
  func live() throws {
    let batch = try run(chunkSize: 4096).section
    let live = try run(chunkSize: 4096, live: true).section
    #expect(live.walking.stepCount == batch.walking.stepCount)
    #expect(live.walking.walkingSeconds == batch.walking.walkingSeconds)
    #expect(
      live.steps.isEmpty && live.motion.isEmpty && live.walking.bouts == nil && live.eventTables.isEmpty)
  }

  @Test("fewer than three axes or a rate under 15 Hz: not analysed, with the reason")
  func unavailable() {
    let signals = (0..<3).map {
      SignalDescription(name: "acc\($0)", unit: "g", sampleRate: 50, sampleCount: nil)
    }
    #expect(throws: PipelineUnavailable("step counting needs three acceleration axes, found 2")) {
      _ = try AccelerometerPipeline(
        context: PipelineContext(path: "x", signals: signals, sampleRate: 50, channels: [0, 1], live: false))
    }
    #expect(throws: PipelineUnavailable.self) {
      _ = try AccelerometerPipeline(
        context: PipelineContext(
          path: "x", signals: signals, sampleRate: 10, channels: [0, 1, 2], live: false))
    }
  }

  @Test("the analyzer runs it beside the ECG: a steps section, steps CSV and derived samples")
  func analyzer() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = try recording.writeWFDB(in: directory, name: "day")
    let analysis = try RecordingAnalyzer.analyze(path: path)
    #expect(analysis.notAnalyzed.isEmpty)
    #expect(analysis.sections.map(\.kind) == [.ecg, .accelerometer])
    let line = analysis.jsonLine()
    #expect(line.contains("\"steps\":{\"bouts\":[{\"end_s\":"))
    #expect(line.contains("\"channels\":[\"acc_x\",\"acc_y\",\"acc_z\"]"))
    let layout = BatchOutputLayout(directory: directory + "/out")
    try layout.write(analysis, name: "day")
    let table = try String(contentsOfFile: layout.tablePath(name: "day", suffix: "steps"), encoding: .utf8)
    #expect(table.hasPrefix("sample,time_s\n"))
    let steps = try #require(analysis.section(StepsSection.self))
    #expect(table.split(separator: "\n").count == steps.walking.stepCount + 1)
    let reader = try SamplesFileReader(path: layout.samplesPath(name: "day"))
    var types: [String: Int] = [:]
    while let sample = try reader.next() {
      guard case .quantity(let quantity) = sample else { continue }
      #expect(quantity.source == "Vitals" && quantity.device == "day")
      types[quantity.type.rawValue, default: 0] += 1
    }
    #expect((types["heartRate"] ?? 0) >= 4 && types["stepCount"] == 2)
  }

  @Test("a header-less phone log (time stamps, x, y, z, three counters): analysed on its first three signals")
  func headerlessPhoneLog() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/walk.csv"
    let start = recording.startTime.nanosecondsSinceEpoch
    var text = ""
    for i in recording.channels[1].indices {
      let c = recording.channels
      text += "\(start + Int64(i) * 10_000_000),\(c[1][i]),\(c[2][i]),\(c[3][i]),0,0,0\n"
    }
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let analysis = try RecordingAnalyzer.analyze(path: path)
    #expect(analysis.roles == ChannelRoles(ecg: nil, accelerometer: [0, 1, 2]))
    let steps = try #require(analysis.section(StepsSection.self))
    #expect(steps.channels == ["col1", "col2", "col3"])
    #expect(try steps.walking.bouts == run(chunkSize: 4096).section.walking.bouts)
  }
}
