import Foundation
import Testing
import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsSimulation
import VitalsTestSupport

@testable import VitalsPipeline

/// The context of a one-lead ECG recording at `rate`.
private func context(rate: Double, live: Bool = false) -> PipelineContext {
  let signals = [SignalDescription(name: "MLII", unit: "mV", sampleRate: rate, sampleCount: nil)]
  return PipelineContext(path: "test", signals: signals, sampleRate: rate, channels: [0], live: live)
}

/// Runs a fresh ECG pipeline over `samples` in chunks of `chunkSize`; returns every event and the section.
private func run(_ samples: [Float], rate: Double, chunkSize: Int, live: Bool = false) throws -> (
  events: [PipelineEvent], section: ECGSection
) {
  var pipeline = try ECGPipeline(context: context(rate: rate, live: live))
  var events: [PipelineEvent] = []
  var start = 0
  while start < samples.count {
    let end = min(samples.count, start + chunkSize)
    let chunk = SignalChunk(
      channels: [Array(samples[start..<end])], sampleRate: rate, startTime: .epoch,
      firstSampleIndex: Int64(start))
    pipeline.process(chunk, events: &events)
    start = end
  }
  let section = try #require(pipeline.finish(events: &events) as? ECGSection)
  return (events, section)
}

@Suite("ECG pipeline")
struct ECGPipelineTests {
  static let ecg = SimulatedECG(seconds: 90)

  @Test("beats, heart rate and HRV of a simulated 70 bpm record")
  func summary() throws {
    let (events, section) = try run(Self.ecg.samples, rate: Self.ecg.rate, chunkSize: 4096)
    let beats = events.filter { $0.kind == .beat }.map(\.sampleIndex)
    #expect(beats == section.beats)
    // The beats of the whole-record detector, the last ones (decided at the finish) included.
    #expect(beats == (try QRSDetector.detect(Self.ecg.samples, sampleRate: Self.ecg.rate)))
    #expect(abs(section.beatCount - 105) <= 3)
    #expect(abs(section.variability.time.meanHR - 70) < 3)
    let poincare = section.variability.poincare
    #expect(poincare.sd1.isFinite && poincare.sd2 > poincare.sd1)
    #expect(section.signalQuality > 0.9 && section.signalQuality <= 1)
    let rates = events.filter { $0.kind == .heartRate }
    // One reading per second once two beats are decided.
    #expect(rates.count >= 85 && rates.count <= 89)
    #expect(
      rates.allSatisfy { if case .heartRate(let bpm, nil) = $0.value { abs(bpm - 70) < 12 } else { false } })
    #expect(section.episodes.isEmpty)
  }

  @Test("the same events whatever the chunk size")
  func chunkInvariance() throws {
    let reports = try expectPipelineChunkInvariant(
      [Self.ecg.samples], rate: Self.ecg.rate, chunkings: Chunking.standard + [.fixed(250), .fixed(100_000)],
      canonical: groupedByKind
    ) {
      try ECGPipeline(context: context(rate: Self.ecg.rate))
    }
    #expect(try #require(reports.first?.events).filter { $0.kind == .beat }.count >= 100)
  }

  @Test("the same irregular-rhythm episodes whatever the chunk size")
  func chunkInvarianceWithFibrillation() throws {
    let ecg = SimulatedECG(seconds: 240, fibrillation: [RhythmEpisode(start: 60, end: 180)])
    let reports = try expectPipelineChunkInvariant([ecg.samples], rate: ecg.rate, canonical: groupedByKind) {
      try ECGPipeline(context: context(rate: ecg.rate))
    }
    let events = try #require(reports.first?.events)
    #expect(
      events.contains { $0.kind == .irregularRhythmStart }
        && events.contains { $0.kind == .irregularRhythmEnd })
  }

  @Test("live: periodic HRV events over a bounded window, no whole-record beat list")
  func live() throws {
    let (events, section) = try run(Self.ecg.samples, rate: Self.ecg.rate, chunkSize: 500, live: true)
    let hrv = events.filter { $0.kind == .hrv }
    #expect(hrv.map(\.seconds) == [60])
    let meanHR: Double? = if case .hrv(_, _, _, let meanHR, _) = hrv.first?.value { meanHR } else { nil }
    #expect(abs(try #require(meanHR) - 70) < 3)
    #expect(section.beats.isEmpty && section.eventTables.isEmpty)
    #expect(section.hrvWindow == 300)
    #expect(section.beatCount == events.filter { $0.kind == .beat }.count)

    // A stream longer than the window: the final section covers its last 300 s only.
    let long = Array(repeatElement(Self.ecg.samples, count: 4).joined())  // 360 s
    let (longEvents, longSection) = try run(long, rate: Self.ecg.rate, chunkSize: 4096, live: true)
    #expect(longEvents.filter { $0.kind == .hrv }.map(\.seconds) == [60, 120, 180, 240, 300])
    let first = try #require(longSection.variability.intervals.endTimes.first)
    #expect(first >= 60 && first < 65)
    #expect(longSection.signalQuality > 0.9)
  }

  @Test("a rate the QRS detector cannot take makes the pipeline unavailable")
  func unsupportedRate() {
    let signals = [SignalDescription(name: "ECG", unit: "mV", sampleRate: 50, sampleCount: nil)]
    let context = PipelineContext(path: "x", signals: signals, sampleRate: 50, channels: [0], live: false)
    #expect(throws: PipelineUnavailable.self) {
      _ = try PipelineRegistry.standard.makePipeline(.ecg, context: context)
    }
    #expect(throws: PipelineUnavailable("no ppg pipeline in this build")) {
      _ = try PipelineRegistry().makePipeline(.ppg, context: context)
    }
  }
}

@Suite("Irregular rhythm tracker")
struct IrregularRhythmTrackerTests {
  /// Beats at 360 Hz: regular (RR 0.8 s ± 2 %) with irregular stretches (RR 0.45–1.1 s, seeded).
  static func beats(irregular: [Range<Double>], seconds: Double) -> [Int64] {
    var generator = SplitMix64(state: 11)
    var t = 0.5
    var beats: [Int64] = []
    while t < seconds {
      beats.append(Int64((t * 360).rounded()))
      let fibrillating = irregular.contains { $0.contains(t) }
      t +=
        fibrillating
        ? Double.random(in: 0.45..<1.1, using: &generator)
        : 0.8 * Double.random(in: 0.99..<1.01, using: &generator)
    }
    return beats
  }

  /// The episodes and events of a tracker fed `beats` (each with its class from `classes` when given),
  /// deciding `block` beats at a time.
  static func track(
    _ beats: [Int64], classes: [BeatClass?]? = nil,
    parameters: AtrialFibrillationDetector.Parameters = .init(),
    sampleRate: Double = 360, block: Int = IrregularRhythmTracker.liveBlock
  ) -> (episodes: [IrregularRhythmEpisode], events: [PipelineEvent]) {
    var tracker = IrregularRhythmTracker(
      parameters: parameters, sampleRate: sampleRate, keepsEpisodes: true, block: block)
    var events: [PipelineEvent] = []
    for (index, beat) in beats.enumerated() { tracker.add(beat, beatClass: classes?[index], events: &events) }
    return (tracker.finish(events: &events), events)
  }

  @Test("streamed episodes match the whole-record detector's")
  func matchesBatch() {
    let beats = Self.beats(irregular: [120..<300, 420..<470], seconds: 600)
    var tracker = IrregularRhythmTracker(
      parameters: .init(), sampleRate: 360, keepsEpisodes: true, block: IrregularRhythmTracker.liveBlock)
    var events: [PipelineEvent] = []
    for beat in beats { tracker.add(beat, beatClass: nil, events: &events) }
    let streamed = tracker.finish(events: &events)
    let batch = AtrialFibrillationDetector().analyze(beats: beats, sampleRate: 360).episodes
    #expect(streamed.count == 2)
    #expect(streamed.count == batch.count)
    for (s, b) in zip(streamed, batch) {
      #expect(abs(s.start - b.start) < 2)
      #expect(abs(s.end - b.end) < 2)
    }
    #expect(
      events.map(\.kind) == [
        .irregularRhythmStart, .irregularRhythmEnd, .irregularRhythmStart, .irregularRhythmEnd,
      ])
    #expect(abs(tracker.irregularSeconds - streamed.reduce(0) { $0 + $1.duration }) < 1e-9)
  }

  @Test("premature ventricular beats given with their class do not open an episode; unclassified ones do")
  func ectopicClasses() {
    // Bigeminy at 360 Hz: cycles of 1.6 s ± 2 %, each a ventricular beat 0.45–0.75 of the way through.
    var generator = SplitMix64(state: 5)
    var beats: [Int64] = []
    var classes: [BeatClass] = []
    var t = 0.5
    while t < 400 {
      let cycle = 1.6 * Double.random(in: 0.98..<1.02, using: &generator)
      beats += [
        Int64((t * 360).rounded()),
        Int64(((t + cycle * Double.random(in: 0.45..<0.75, using: &generator)) * 360).rounded()),
      ]
      classes += [.normal, .ventricular]
      t += cycle
    }
    var parameters = AtrialFibrillationDetector.Parameters()
    parameters.excludeArtifacts = false
    parameters.patternPeriods = []
    func episodes(_ classes: [BeatClass?]) -> (episodes: [IrregularRhythmEpisode], events: [PipelineEvent]) {
      Self.track(beats, classes: classes, parameters: parameters)
    }
    let unclassified = episodes(classes.map { _ in nil })
    #expect(!unclassified.episodes.isEmpty)
    #expect(unclassified.events == episodes(classes.map { _ in .normal }).events)
    let classified = episodes(classes)
    #expect(classified.episodes.isEmpty && classified.events.isEmpty)
  }

  @Test("blocks after the first reuse the detector's storage")
  func reusesStorage() {
    let beats = Self.beats(irregular: [120..<300, 420..<470], seconds: 600)
    var tracker = IrregularRhythmTracker(
      parameters: .init(), sampleRate: 360, keepsEpisodes: true, block: IrregularRhythmTracker.liveBlock)
    var events: [PipelineEvent] = []
    /// Where the workspace's arrays of judged intervals keep their elements.
    func storage() -> [UnsafeRawPointer?] {
      let series = tracker.workspace.series
      return [
        series.intervals.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
        series.endTimes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
        series.followsPrevious.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
        tracker.workspace.irregular.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
      ]
    }
    var first: [UnsafeRawPointer?] = []
    for (index, beat) in beats.enumerated() {
      tracker.add(beat, beatClass: nil, events: &events)
      if index == 2 * tracker.block + 2 * IrregularRhythmTracker.context { first = storage() }
    }
    #expect(beats.count > 600)
    #expect(!first.isEmpty && storage() == first)
    #expect(tracker.finish(events: &events).count == 2)
  }

  @Test("the block size does not change the events or the episodes", arguments: [1, 7, 256, 1000])
  func blockSize(block: Int) {
    let beats = Self.beats(irregular: [120..<300, 420..<470, 520..<540, 700..<1400], seconds: 1800)
    let live = Self.track(beats)
    let other = Self.track(beats, block: block)
    #expect(live.episodes.count == 3)
    #expect(other.episodes == live.episodes)
    #expect(other.events == live.events)
  }

  @Test(
    "on the annotated beats and classes of MIT-BIH and CPSC 2021, the episodes and events of the whole-record detector",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"),
    arguments: [IrregularRhythmTracker.liveBlock, IrregularRhythmTracker.recordingBlock])
  func wholeRecordDetector(block: Int) throws {
    var episodes = 0
    for database in ["mitdb", "cpsc2021"] {
      let folder = TestData.sharedData(database).path
      for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
      where name.hasSuffix(".atr") {
        let reference = try BeatFile(path: folder + "/" + name)
        // A beat without a class as the tracker takes it: normal.
        let classes = try #require(reference.classes).map { $0 ?? .normal }
        let whole = AtrialFibrillationDetector().analyze(
          beats: reference.samples, sampleRate: reference.sampleRate, beatClasses: classes
        ).episodes
        let tracked = Self.track(
          reference.samples, classes: classes, sampleRate: reference.sampleRate, block: block)
        #expect(tracked.episodes == whole, "\(database)/\(name)")
        #expect(tracked.events.count == 2 * whole.count, "\(database)/\(name)")
        episodes += whole.count
      }
    }
    #expect(episodes >= 10)
  }

  @Test(
    "runs of ectopic beats: the whole-record detector's episodes, at every block size",
    arguments: [1, IrregularRhythmTracker.liveBlock, IrregularRhythmTracker.recordingBlock])
  func ectopicRuns(block: Int) {
    // Irregular stretches, and stretches where two beats of three are ventricular, so that 48 beats
    // hold about 16 judged intervals.
    let beats = Self.beats(irregular: [300..<420, 700..<760, 1000..<1500], seconds: 2400)
    let classes = beats.indices.map { index -> BeatClass in
      let seconds = Double(beats[index]) / 360
      let ectopicRun = (250..<900).contains(seconds) || (1300..<1900).contains(seconds)
      return ectopicRun && index % 3 != 0 ? .ventricular : .normal
    }
    let whole = AtrialFibrillationDetector().analyze(beats: beats, sampleRate: 360, beatClasses: classes)
      .episodes
    #expect(!whole.isEmpty)
    #expect(Self.track(beats, classes: classes, block: block).episodes == whole)
  }

  @Test("paced or ectopic beats without judged intervals keep the window bounded")
  func boundedWithoutJudgedIntervals() {
    var tracker = IrregularRhythmTracker(
      parameters: .init(), sampleRate: 360, keepsEpisodes: true, block: IrregularRhythmTracker.recordingBlock)
    var events: [PipelineEvent] = []
    var longest = 0
    for (index, beat) in Self.beats(irregular: [], seconds: 8000).enumerated() {
      tracker.add(beat, beatClass: index % 500 < 400 ? .unclassifiable : .normal, events: &events)
      longest = max(longest, tracker.window.count)
    }
    #expect(
      longest <= 2 * IrregularRhythmTracker.contextBeatLimit + IrregularRhythmTracker.recordingBlock + 1)
    #expect(tracker.finish(events: &events).isEmpty && events.isEmpty)
  }

  @Test("regular rhythm gives no episode")
  func regular() {
    let tracked = Self.track(Self.beats(irregular: [], seconds: 300))
    #expect(tracked.episodes.isEmpty && tracked.events.isEmpty)
  }
}

@Suite("ECG pipeline: beat classes")
struct ECGPipelineBeatClassTests {
  @Test("ectopic beats are counted by class and their intervals stay out of the HRV")
  func classesAndNormalIntervals() throws {
    var configuration = ECGConfiguration(rhythm: RhythmConfiguration(heartRate: 70))
    configuration.rhythm.ventricularEctopicProbability = 0.1
    let rate = 360.0
    var simulator = ECGSimulator(configuration: configuration, duration: 180, sampleRate: rate, seed: 21)
    let recording = simulator.generateAll()
    let truthV = recording.events.count { $0.label == .ventricular }
    let (_, section) = try run(recording.channels[0], rate: rate, chunkSize: 1000)
    #expect(section.classes.count == section.beats.count)
    #expect(section.classCounts.reduce(0, +) == section.beatCount)
    let ventricular = section.classCounts[Int(BeatClass.ventricular.rawValue)]
    #expect(truthV > 10 && abs(ventricular - truthV) <= 2, "\(ventricular) V labels, \(truthV) true V beats")
    // N→N only: no kept interval starts or ends at a ventricular beat.
    let ventricularEnds = Set(
      section.beats.indices.filter { section.classes[$0] == .ventricular }.flatMap {
        [
          Double(section.beats[$0]) / rate,
          $0 + 1 < section.beats.count ? Double(section.beats[$0 + 1]) / rate : -1,
        ]
      })
    #expect(section.variability.intervals.endTimes.allSatisfy { !ventricularEnds.contains($0) })
    #expect(section.eventLabels["beats"] == section.classes.map(\.letter))
  }
}
