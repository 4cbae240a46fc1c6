import Foundation
import Testing
import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsSimulation
import VitalsTestSupport

@testable import VitalsPipeline

/// Runs `pipeline` over `channels` (all of the recording's channels) in chunks of `size`; returns every
/// event and the section.
private func run<Pipeline: RecordingPipeline>(
  _ pipeline: Pipeline, _ channels: [[Float]], rate: Double, chunk size: Int
) -> (events: [PipelineEvent], section: any PipelineSection) {
  var pipeline = pipeline
  var events: [PipelineEvent] = []
  for start in stride(from: 0, to: channels[0].count, by: size) {
    let end = min(channels[0].count, start + size)
    pipeline.process(
      SignalChunk(
        channels: channels.map { Array($0[start..<end]) }, sampleRate: rate,
        startTime: .epoch.advanced(bySamples: Int64(start), rate: rate), firstSampleIndex: Int64(start)),
      events: &events)
  }
  let section = pipeline.finish(events: &events)
  return (events, section)
}

/// The context of a recording whose channels are named `names`, all at `rate`.
private func context(_ names: [String], rate: Double, channels: [Int], accelerometer: [Int] = [])
  -> PipelineContext
{
  PipelineContext(
    path: "gaps",
    signals: names.map { SignalDescription(name: $0, unit: "", sampleRate: rate, sampleCount: nil) },
    sampleRate: rate, channels: channels, accelerometer: accelerometer, live: false)
}

/// Events in a canonical order, as text (NaN equal to NaN).
private func canonical(_ events: [PipelineEvent]) -> [String] {
  events.sorted { ($0.kind.rawValue, $0.sampleIndex) < ($1.kind.rawValue, $1.sampleIndex) }.map { event in
    "\(event.kind) \(event.sampleIndex) \(event.value.outputFields.map { "\($0.key)=\($0.value)" })"
  }
}

@Suite("Gaps in the pipelines")
struct GapPipelineTests {
  @Test("ECG: no beat in a gap, no RR interval across it in readings or HRV, gap_s, any chunking")
  func ecg() throws {
    let rate = 250.0
    var samples = SimulatedECG(seconds: 120, rate: rate).samples
    let gap = Int64(50 * rate)..<Int64(60 * rate)
    for i in gap { samples[Int(i)] = .nan }
    let pipeline = try ECGPipeline(context: context(["MLII"], rate: rate, channels: [0]))
    let (events, anySection) = run(pipeline, [samples], rate: rate, chunk: 4096)
    let section = try #require(anySection as? ECGSection)
    let beats = events.filter { $0.kind == .beat }.map(\.sampleIndex)
    #expect(beats.count > 120)
    #expect(!beats.contains { gap.contains($0) })
    #expect(section.beats == beats)
    // Readings from 8 RR intervals of a 70 bpm rhythm: one 10 s interval across the gap would pull the
    // median, and one alone (the first reading after the gap) would read 6 bpm.
    let readings = events.filter { $0.kind == .heartRate }
    #expect(readings.count > 80)
    let rates = readings.compactMap { if case .heartRate(let bpm, nil) = $0.value { bpm } else { nil } }
    #expect(rates.count == readings.count && rates.allSatisfy { (60...80).contains($0) }, "\(rates)")
    #expect(section.gapSeconds == 10)
    #expect(try sortedJSON(section).contains("\"gap_s\":10"))
    let nn = section.variability.intervals
    for (interval, end) in zip(nn.intervals, nn.endTimes) {
      #expect(
        !(end * rate - interval / 1000 * rate < Double(gap.upperBound) && end * rate > Double(gap.lowerBound))
      )
    }
    #expect(nn.intervals.max()! < 1200)
    let reports = try expectPipelineChunkInvariant(
      [samples], rate: rate, chunkings: Chunking.standard + [.fixed(999), .fixed(4096)], canonical: canonical
    ) { pipeline }
    #expect(try reports == [.events(canonical(events)), .section(of: section)])
    // No gap: no gap_s key.
    let clean = run(pipeline, [SimulatedECG(seconds: 30, rate: rate).samples], rate: rate, chunk: 4096)
    #expect(try !sortedJSON(#require(clean.section as? ECGSection)).contains("gap_s"))
  }

  @Test("PPG: no pulse in a gap, windows over it without an event or unreliable, gap_s")
  func ppg() throws {
    let rate = 50.0
    var simulator = PPGSimulator(
      configuration: PPGConfiguration(
        rhythm: RhythmConfiguration(heartRate: 72), motion: AccelerometerConfiguration(activity: .walking)),
      duration: 120, sampleRate: rate, seed: 5)
    var recording = simulator.generateAll()
    let gap = Int64(40 * rate)..<Int64(52 * rate)
    for i in gap { recording.channels[0][Int(i)] = .nan }
    // Without its accelerometer: with it, the walk is locomotion throughout and leaves the PRV no clean
    // stretch (see PPGPipelineTests).
    let pipeline = try PPGPipeline(
      context: context(recording.channelNames, rate: rate, channels: [0], accelerometer: []))
    let (events, anySection) = run(pipeline, recording.channels, rate: rate, chunk: 1000)
    let section = try #require(anySection as? PPGSection)
    let pulses = events.filter { $0.kind == .beat }.map(\.sampleIndex)
    #expect(pulses.count > 100)
    #expect(!pulses.contains { gap.contains($0) })
    for window in events.filter({ $0.kind == .heartRate }) {
      // Window ends at the event; 8 s long.
      let span = window.sampleIndex - Int64(8 * rate)..<window.sampleIndex
      let missing = [gap].overlapCount(with: span)
      #expect(Double(missing) <= 0.25 * Double(span.count))
      if missing > 0, case .heartRate(_, let quality) = window.value { #expect(quality?.isReliable == false) }
    }
    #expect(section.gapSeconds == 12)
    #expect(try sortedJSON(section).contains("\"gap_s\":12"))
    let nn = section.variability.intervals
    #expect(nn.count > 80 && nn.intervals.max()! < 1200)
    let reports = try expectPipelineChunkInvariant(
      recording.channels, rate: rate, chunkings: Chunking.standard + [.fixed(333), .fixed(1000)],
      canonical: canonical
    ) { pipeline }
    #expect(try reports == [.events(canonical(events)), .section(of: section)])
  }

  @Test("accelerometer: no step in a gap, a walking bout ends at it, gap_s")
  func accelerometer() throws {
    let rate = 100.0
    var simulator = AccelerometerSimulator(
      configuration: AccelerometerConfiguration(activity: .walking, placement: .wrist, unit: .g),
      duration: 120, sampleRate: rate, seed: 7)
    var recording = simulator.generateAll()
    let gap = Int64(60 * rate)..<Int64(65 * rate)
    for i in gap { recording.channels[2][Int(i)] = .nan }
    let pipeline = try AccelerometerPipeline(
      context: context(["x", "y", "z"], rate: rate, channels: [0, 1, 2]))
    let (events, anySection) = run(pipeline, recording.channels, rate: rate, chunk: 4096)
    let section = try #require(anySection as? StepsSection)
    let steps = events.filter { $0.kind == .step }.map(\.sampleIndex)
    #expect(steps.count > 150)
    #expect(!steps.contains { gap.contains($0) })
    let bouts = try #require(section.walking.bouts)
    #expect(bouts.count == 2)
    #expect(bouts[0].end.sampleIndex < gap.lowerBound && bouts[1].start.sampleIndex >= gap.upperBound)
    #expect(section.gapSeconds == 5)
    #expect(try sortedJSON(section).contains("\"gap_s\":5"))
    let reports = try expectPipelineChunkInvariant(
      recording.channels, rate: rate, chunkings: Chunking.standard + [.fixed(4096)], canonical: canonical
    ) { pipeline }
    #expect(try reports == [.events(canonical(events)), .section(of: section)])
  }

  @Test("live stream: NaN lines are a gap, with no beat in it")
  func liveStream() throws {
    let ecg = SimulatedECG(seconds: 60)
    let gap = Int(20 * ecg.rate)..<Int(30 * ecg.rate)
    let lines = ecg.samples.indices.map { gap.contains($0) ? "nan\n" : "\(ecg.samples[$0])\n" }
    var analysis = try LiveAnalysis(
      signal: .ecg, sampleRate: ecg.rate, format: .csv, channelCount: 1, channels: [0])
    var beats: [Int64] = []
    let bytes = Array(lines.joined().utf8)
    for start in stride(from: 0, to: bytes.count, by: 5000) {
      try bytes[start..<min(start + 5000, bytes.count)].withUnsafeBytes { raw in
        try analysis.consume(raw) { if $0.kind == .beat { beats.append($0.sampleIndex) } }
      }
    }
    let sections = try analysis.finish { if $0.kind == .beat { beats.append($0.sampleIndex) } }
    #expect(beats.count > 40)
    #expect(!beats.contains { gap.contains(Int($0)) })
    #expect(beats.contains { $0 > Int64(gap.upperBound) })
    let section = try #require(sections.first?.section as? ECGSection)
    #expect(section.gapSeconds == 10)
  }
}
