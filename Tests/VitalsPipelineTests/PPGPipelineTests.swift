import Foundation
import Testing
import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsSimulation
import VitalsStatistics
import VitalsTestSupport

@testable import VitalsPipeline

/// 3 minutes of a wrist PPG at 72 bpm with the wearer walking, and the accelerometer, at 50 Hz.
private let simulated: SimulatedRecording = {
  var simulator = PPGSimulator(
    configuration: PPGConfiguration(
      rhythm: RhythmConfiguration(heartRate: 72), motion: AccelerometerConfiguration(activity: .walking)),
    duration: 180, sampleRate: 50, seed: 5)
  return simulator.generateAll()
}()

/// The same at rest, without an accelerometer.
private let still: SimulatedRecording = {
  var simulator = PPGSimulator(
    configuration: PPGConfiguration(rhythm: RhythmConfiguration(heartRate: 72)), duration: 180,
    sampleRate: 50, seed: 5)
  return simulator.generateAll()
}()

/// A recording as a WFDB record in a fresh directory.
private func writeRecord(_ simulated: SimulatedRecording = simulated) throws -> (
  directory: String, path: String
) {
  let directory = try temporaryDirectory()
  let path = directory + "/wrist"
  let signals = zip(simulated.channelNames, simulated.units).map {
    SignalDescription(name: $0, unit: $1, sampleRate: simulated.sampleRate, sampleCount: nil)
  }
  let writer = try WFDBRecordWriter(
    path: path, signals: signals, frameRate: simulated.sampleRate,
    startTime: Timestamp(secondsSinceEpoch: 1_772_352_000),
    gains: Array(repeating: 1000, count: simulated.channels.count))
  try writer.append(
    SignalChunk(
      channels: simulated.channels, sampleRate: simulated.sampleRate, startTime: .epoch, firstSampleIndex: 0))
  try writer.finish()
  return (directory, path)
}

@Suite("PPG pipeline")
struct PPGPipelineTests {
  @Test("pulses, motion-corrected heart rate and pulse-rate variability; the same events in any chunks")
  func analysis() throws {
    let (directory, path) = try writeRecord()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var events: [[PipelineEvent]] = [[], []]
    var analyses: [RecordingAnalysis] = []
    for (k, chunkSize) in [4096, 777].enumerated() {
      analyses.append(
        try RecordingAnalyzer.analyze(
          path: path, options: AnalysisOptions(chunkSize: chunkSize), onEvent: { events[k].append($0) }))
    }
    // Events of one kind and signal come in the same order; the others interleave by chunk.
    for (signal, kind) in [
      (SignalKind.ppg, PipelineEvent.Kind.beat), (.ppg, .heartRate), (.accelerometer, .step),
    ] {
      let (a, b) = (
        events[0].filter { $0.signal == signal && $0.kind == kind },
        events[1].filter { $0.signal == signal && $0.kind == kind }
      )
      #expect(a == b, "\(signal) \(kind) events differ")
    }
    let analysis = analyses[0]
    #expect(analysis.sections.map(\.kind) == [.ppg, .accelerometer] && analysis.notAnalyzed.isEmpty)
    let ppg = try #require(analysis.section(PPGSection.self))
    let truth = simulated.events.count
    #expect(ppg.motionAxes == 3 && abs(ppg.beatCount - truth) <= truth / 50)
    #expect(ppg.beats.count == ppg.beatCount && ppg.eventTables["pulses"] == ppg.beats)
    let rate = try #require(ppg.heartRate)
    #expect(abs(rate.mean - 72) < 3 && ppg.reliableWindows > ppg.windows / 2)
    // Walking throughout: no stretch is free of periodic motion, so no pulse interval enters the PRV.
    #expect(ppg.cleanStretches.isEmpty && ppg.variability.intervals.count == 0)
    #expect(!RecordingAnalysis.insideCleanStretches(ppg).contains(true))
    #expect(ppg.reliableRates.count == ppg.reliableWindows)
    let readings = events[0].filter { $0.kind == .heartRate }
    #expect(
      readings.count == ppg.windows
        && readings.allSatisfy {
          if case .heartRate(_, .some) = $0.value { $0.signal == .ppg } else { false }
        })
    let line = analysis.jsonLine()
    #expect(
      line.contains("\"ppg\":{")
        && (line.contains("\"prv_clean_s\":0,") || line.contains("\"prv_clean_s\":0}"))
        && line.contains("\"motion_axes\":3"))

    // Without an ECG the reliable windows give the derived heart rate.
    let samples = try #require(analysis.derivedSamples())
    let heartRate = samples.compactMap { sample -> QuantitySample? in
      if case .quantity(let q) = sample, q.type == .heartRate { q } else { nil }
    }
    #expect(heartRate.count == 3 && heartRate.allSatisfy { abs($0.value - 72) < 4 })
    #expect(heartRate.first?.start == Timestamp(secondsSinceEpoch: 1_772_352_000))
  }

  @Test("at rest, the pulse-rate variability covers the clean stretches: most of the record")
  func variabilityAtRest() throws {
    let (directory, path) = try writeRecord(still)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let ppg = try #require(try RecordingAnalyzer.analyze(path: path).section(PPGSection.self))
    let clean = ppg.cleanStretches.reduce(0) { $0 + $1.count }
    #expect(ppg.motionAxes == 0 && Double(clean) > 0.8 * Double(ppg.samples))
    #expect(
      zip(ppg.cleanStretches, ppg.cleanStretches.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
    #expect(abs(ppg.variability.time.meanHR - 72) < 3 && ppg.variability.time.sdnn.isFinite)
    #expect(ppg.variability.intervals.count > ppg.beatCount * 3 / 4)
    // The derived samples take the same pulses: those inside a clean stretch (no gaps here).
    let inside = RecordingAnalysis.insideCleanStretches(ppg)
    #expect(inside.count == ppg.beats.count)
    #expect(
      zip(ppg.beats, inside).allSatisfy { beat, flag in
        flag == ppg.cleanStretches.contains { $0.contains(beat) }
      })
  }

  @Test("live, the clean stretches and the PRV cover the last HRV window only")
  func liveCleanStretches() throws {
    var configuration = PPGPipeline.Configuration()
    configuration.hrvWindow = 60
    var pipeline = try PPGPipeline(
      context: PipelineContext(
        path: "live", signals: [SignalDescription(name: "ppg", unit: "", sampleRate: 50, sampleCount: nil)],
        sampleRate: 50, channels: [0], accelerometer: [], live: true),
      configuration: configuration)
    var events: [PipelineEvent] = []
    let samples = still.channels[0]
    for start in stride(from: 0, to: samples.count, by: 1000) {
      let piece = Array(samples[start..<min(samples.count, start + 1000)])
      pipeline.process(
        SignalChunk(channels: [piece], sampleRate: 50, startTime: .epoch, firstSampleIndex: Int64(start)),
        events: &events)
    }
    let ppg = try #require(pipeline.finish(events: &events) as? PPGSection)
    let oldest = Int64(samples.count) - 60 * 50
    #expect(!ppg.cleanStretches.isEmpty && ppg.cleanStretches.allSatisfy { $0.lowerBound >= oldest })
    #expect(ppg.cleanStretches.reduce(0) { $0 + $1.count } <= 60 * 50)
    #expect(ppg.variability.intervals.count > 0 && ppg.variability.intervals.count < 60 * 72 / 60 + 2)
  }

  @Test("a rate under 25 Hz: not analysed, with the reason")
  func unavailable() {
    let signals = [SignalDescription(name: "ppg", unit: "", sampleRate: 20, sampleCount: nil)]
    #expect(throws: PipelineUnavailable.self) {
      _ = try PPGPipeline(
        context: PipelineContext(path: "x", signals: signals, sampleRate: 20, channels: [0], live: false))
    }
  }
}
