import Foundation
import Testing
import VitalsAnalysis
import VitalsCore
import VitalsSimulation
import VitalsTestSupport

/// A simulated ambulatory ECG lead (ECGSYN model, MIT-BIH's 360 Hz) and its true R peaks.
private func simulatedECG(seconds: Double = 120, rate: Double = 360, seed: UInt64 = 3) -> SimulatedRecording {
  var simulator = ECGSimulator(
    configuration: .ambulatory, duration: seconds, sampleRate: rate, seed: seed)
  return simulator.generateAll()
}

/// `samples` with the samples at `indices` set to NaN.
private func spoiled(_ samples: [Float], _ indices: some Sequence<Int>) -> [Float] {
  var result = samples
  for i in indices { result[i] = .nan }
  return result
}

/// The beats and gaps of `samples` fed in chunks of `size`.
private func detectBeats(_ samples: [Float], rate: Double, chunk size: Int) throws -> (
  [Int64], [Range<Int64>]
) {
  var detector = try QRSDetector(sampleRate: rate)
  var beats: [Int64] = []
  samples.withUnsafeBufferPointer { buffer in
    for start in stride(from: 0, to: buffer.count, by: size) {
      detector.process(
        UnsafeBufferPointer(rebasing: buffer[start..<min(start + size, buffer.count)]), appendingTo: &beats)
    }
  }
  detector.finish(appendingTo: &beats)
  return (beats, detector.gaps)
}

/// Whether `a` and `b` hold as many beats, pairwise within `tolerance` samples. A restarted detector
/// subtracts another first sample from the lead, which changes the rounding of the filtered signal and can
/// move an R peak by a sample or two between the close peaks of a notched complex.
private func sameBeats(_ a: [Int64], _ b: [Int64], tolerance: Int64 = 4) -> Bool {
  a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}

/// What a detector reports in a chunk-invariance check: its events as they come, then its gaps.
private enum Report<Event: Equatable>: Equatable {
  case event(Event)
  case gaps([Range<Int64>])

  /// The event, when this is one.
  var event: Event? {
    if case .event(let event) = self { return event }
    return nil
  }
}

/// The elements of `events` inside `range`.
private func inside<T: Comparable>(_ events: [T], _ range: Range<T>) -> [T] { events.filter(range.contains) }

@Suite("Gap tracker")
struct GapTrackerTests {
  @Test("finds the runs of missing samples across chunks, NaN or infinite, in any SIMD lane or the tail")
  func runsAcrossChunks() {
    var samples = [Float](repeating: 1, count: 40)
    for i in [0, 9, 10, 11, 23, 39] { samples[i] = .nan }
    samples[30] = .infinity
    /// A missing sample's index as the runs come, then the tracker's state before and after `finish()`.
    enum Found: Equatable {
      case missing(Int)
      case state(gaps: [Range<Int64>], ended: [Range<Int64>], openStart: Int64?, missing: Int64, in: Int64)
    }
    func state(_ tracker: GapTracker) -> Found {
      .state(
        gaps: tracker.gaps, ended: tracker.endedGaps, openStart: tracker.openGapStart,
        missing: tracker.missingSampleCount, in: tracker.missingCount(in: 10..<31))
    }
    let chunkings = Chunking.standard + [3, 8, 9, 17].map(Chunking.fixed)
    let found = expectChunkInvariant(count: samples.count, chunkings: chunkings) {
      GapTracker()
    } feed: { tracker, range in
      let runs = samples.withUnsafeBufferPointer {
        tracker.runs(in: UnsafeBufferPointer(rebasing: $0[range]))
      }
      return (runs ?? []).filter(\.isMissing).flatMap {
        $0.offsets.map { Found.missing($0 + range.lowerBound) }
      }
    } finish: { tracker in
      let before = state(tracker)
      tracker.finish()
      return [before, state(tracker)]
    }
    let gaps: [Range<Int64>] = [0..<1, 9..<12, 23..<24, 30..<31, 39..<40]
    #expect(
      found == [0, 9, 10, 11, 23, 30, 39].map(Found.missing) + [
        .state(gaps: gaps, ended: Array(gaps.dropLast()), openStart: 39, missing: 7, in: 4),
        .state(gaps: gaps, ended: gaps, openStart: nil, missing: 7, in: 4),
      ])
  }

  @Test("a chunk without a missing sample outside a gap takes the fast path (no runs)")
  func fastPath() {
    var tracker = GapTracker()
    let present = [Float](repeating: 2, count: 37)
    #expect(present.withUnsafeBufferPointer { tracker.runs(in: $0) } == nil)
    for i in present.indices {
      var lane = present
      lane[i] = -.nan
      #expect(!lane.withUnsafeBufferPointer(GapTracker.allPresent), "NaN at \(i)")
    }
    let missing = [Float](repeating: .nan, count: 5)
    #expect(missing.withUnsafeBufferPointer { tracker.runs(in: $0) }?.count == 1)
    // A present chunk after a gap ends it, so it comes as a run.
    #expect(
      present.withUnsafeBufferPointer { tracker.runs(in: $0) } == [.init(offsets: 0..<37, isMissing: false)])
    #expect(tracker.gaps == [37..<42] && tracker.sampleCount == 79)
  }

  @Test("several channels: a sample is missing when it is missing in any")
  func channels() {
    var tracker = GapTracker()
    var a = [Float](repeating: 0, count: 10)
    var b = a
    a[2] = .nan
    b[7] = .nan
    let runs = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in tracker.runs(in: [a, b]) } }
    #expect(runs?.filter(\.isMissing).map(\.offsets) == [2..<3, 7..<8])
  }

  @Test("overlap and complement of sorted ranges")
  func rangeArithmetic() {
    let gaps: [Range<Int64>] = [2..<5, 10..<12, 20..<30]
    #expect(gaps.overlapCount(with: 0..<100) == 15)
    #expect(gaps.overlapCount(with: 4..<11) == 2)
    #expect(gaps.overlapCount(with: 12..<20) == 0)
    #expect(gaps.complement(within: 0..<25) == [0..<2, 5..<10, 12..<20])
    #expect(gaps.complement(within: 3..<4) == [])
    #expect(gaps.complement(within: 30..<31) == [30..<31])
  }
}

@Suite("Gaps in the QRS detector")
struct QRSDetectorGapTests {
  let rate = 360.0

  @Test("a 10 s gap: no beat inside; before and after it (past 1 s of start-up) the beats of the whole lead")
  func tenSecondGap() throws {
    let ecg = simulatedECG()
    let samples = ecg.channels[0]
    let whole = try QRSDetector.detect(samples, sampleRate: rate)
    #expect(whole.count >= ecg.events.count - 2)
    let gap = Int(55 * rate)..<Int(65 * rate)
    let (beats, gaps) = try detectBeats(spoiled(samples, gap), rate: rate, chunk: 10_000)
    let g = Int64(gap.lowerBound)..<Int64(gap.upperBound)
    #expect(gaps == [g])
    #expect(inside(beats, g).isEmpty)
    // Before: every beat up to the placement window at the gap's edge (decided as at a record's end).
    let placement = Int64(0.05 * rate)
    #expect(inside(beats, 0..<g.lowerBound - placement) == inside(whole, 0..<g.lowerBound - placement))
    // After: the same beats once the detector has restarted.
    let after = g.upperBound + Int64(rate)..<Int64(samples.count)
    #expect(sameBeats(inside(beats, after), inside(whole, after)))
    #expect(inside(beats, after).count > 40)
  }

  @Test("one NaN sample ends the segment and restarts the detector; beats away from it are unchanged")
  func singleSample() throws {
    let ecg = simulatedECG(seconds: 60)
    let samples = ecg.channels[0]
    let whole = try QRSDetector.detect(samples, sampleRate: rate)
    let at = Int(30.3 * rate)
    let (beats, gaps) = try detectBeats(spoiled(samples, [at]), rate: rate, chunk: 4096)
    #expect(gaps == [Int64(at)..<Int64(at + 1)])
    let near = Int64(at) - Int64(0.05 * rate)..<Int64(at) + Int64(rate)
    #expect(inside(beats, 0..<near.lowerBound) == inside(whole, 0..<near.lowerBound))
    let after = near.upperBound..<Int64(samples.count)
    #expect(sameBeats(inside(beats, after), inside(whole, after)))
    #expect(inside(beats, near).count <= inside(whole, near).count)
  }

  @Test("NaN at the first and the last sample; an all-NaN lead gives no beat")
  func edges() throws {
    let samples = simulatedECG(seconds: 30).channels[0]
    let whole = try QRSDetector.detect(samples, sampleRate: rate)
    let n = samples.count
    let (beats, gaps) = try detectBeats(spoiled(samples, [0, n - 1]), rate: rate, chunk: 1000)
    #expect(gaps == [0..<1, Int64(n - 1)..<Int64(n)])
    let body = Int64(rate)..<Int64(n) - Int64(rate)
    #expect(sameBeats(inside(beats, body), inside(whole, body)))
    let (none, allGaps) = try detectBeats([Float](repeating: .nan, count: 5000), rate: rate, chunk: 777)
    #expect(none.isEmpty && allGaps == [0..<5000])
    #expect(try QRSDetector.detect([], sampleRate: rate).isEmpty)
  }

  @Test("the same beats and gaps for any chunk size, gaps anywhere")
  func chunkInvariance() throws {
    let samples = simulatedECG(seconds: 40).channels[0]
    let spoiledSamples = spoiled(
      samples, [0, 1, 4095, 4096, 9000] + Array(2047..<2049) + Array(10_000..<12_345) + [samples.count - 1])
    let chunkings = Chunking.standard + [7, 2047, 2048, 2049, 50_000].map(Chunking.fixed)
    let reports = try expectChunkInvariant(count: spoiledSamples.count, chunkings: chunkings) {
      try QRSDetector(sampleRate: rate)
    } feed: { detector, range in
      var beats: [Int64] = []
      spoiledSamples.withUnsafeBufferPointer {
        detector.process(UnsafeBufferPointer(rebasing: $0[range]), appendingTo: &beats)
      }
      return beats.map(Report.event)
    } finish: { detector in
      var beats: [Int64] = []
      detector.finish(appendingTo: &beats)
      return beats.map(Report.event) + [.gaps(detector.gaps)]
    }
    #expect(reports.compactMap(\.event).count > 30)
    #expect(
      reports.last
        == .gaps([
          0..<2, 2047..<2049, 4095..<4097, 9000..<9001, 10_000..<12_345,
          Int64(spoiledSamples.count - 1)..<Int64(spoiledSamples.count),
        ]))
  }

  @Test("chunks: record indices of beats after a gap")
  func signalChunks() throws {
    let samples = spoiled(simulatedECG(seconds: 30).channels[0], 3600..<5400)
    let offset: Int64 = 500
    /// Expects the chunks' beats, as `beat(_:)` reports them, and gaps not to depend on the chunking.
    func expectInvariant<Output: Equatable>(_ beat: (DetectedBeat) -> Output) throws -> [Report<Output>] {
      try expectChunkInvariant(count: samples.count, chunkings: Chunking.standard + [.fixed(1000)]) {
        try QRSDetector(sampleRate: rate)
      } feed: { detector, range in
        let chunk = SignalChunk(
          channels: [Array(samples[range])], sampleRate: rate,
          startTime: .epoch.advanced(bySamples: offset + Int64(range.lowerBound), rate: rate),
          firstSampleIndex: offset + Int64(range.lowerBound))
        return detector.process(chunk).map { .event(beat($0)) }
      } finish: { detector in
        detector.finishChunks().map { .event(beat($0)) } + [.gaps(detector.gaps)]
      }
    }
    let reports = try expectInvariant(\.sampleIndex)
    let expected = try QRSDetector.detect(samples, sampleRate: rate)
    #expect(reports.compactMap(\.event) == expected.map { $0 + offset })
    #expect(reports.last == .gaps([3600..<5400]))
    _ = try expectInvariant { $0 }
  }

  @Test("chunks: beat times follow a jump of the chunks' start times, whatever the chunking")
  func timeDiscontinuity() throws {
    let recording = simulatedECG(seconds: 30)
    let samples = recording.channels[0]
    let jumpIndex = samples.count / 2
    let jump: Int64 = 10_000_000_000  // the second half starts 10 s later than its samples lead
    func time(of index: Int) -> Timestamp {
      let time = Timestamp.epoch.advanced(bySamples: Int64(index), rate: rate)
      return index < jumpIndex ? time : time.advanced(byNanoseconds: jump)
    }
    func beats(cuts: [Int]) throws -> [DetectedBeat] {
      var detector = try QRSDetector(sampleRate: rate)
      let bounds = [0] + cuts + [samples.count]
      var beats: [DetectedBeat] = []
      for (start, end) in zip(bounds, bounds.dropFirst()) {
        beats += detector.process(
          SignalChunk(
            channels: [Array(samples[start..<end])], sampleRate: rate, startTime: time(of: start),
            firstSampleIndex: Int64(start)))
      }
      return beats + detector.finishChunks()
    }
    let twoChunks = try beats(cuts: [jumpIndex])
    #expect(twoChunks.count == recording.events.count)
    for beat in twoChunks { #expect(beat.time == time(of: Int(beat.sampleIndex))) }
    #expect(try beats(cuts: [1000, 2345, jumpIndex, jumpIndex + 77, jumpIndex + 5000]) == twoChunks)
  }
}

@Suite("Gaps in the PPG detectors")
struct PPGGapTests {
  let rate = 125.0

  private func recording(seconds: Double = 90) -> SimulatedRecording {
    var configuration = PPGConfiguration(rhythm: RhythmConfiguration(), channelCount: 1)
    configuration.rhythm.heartRate = 72
    configuration.noise.white = 0.02
    var simulator = PPGSimulator(configuration: configuration, duration: seconds, sampleRate: rate, seed: 5)
    return simulator.generateAll()
  }

  private func pulses(_ samples: [Float], chunk size: Int) throws -> ([Int64], [Range<Int64>]) {
    var detector = try PPGPulseDetector(sampleRate: rate)
    var pulses: [PPGPulse] = []
    for start in stride(from: 0, to: samples.count, by: size) {
      pulses += detector.process(Array(samples[start..<min(start + size, samples.count)]))
    }
    #expect(pulses.allSatisfy { $0.onset <= $0.peak })
    return (pulses.map(\.peak), detector.gaps)
  }

  @Test("pulse detector: a 10 s gap, a single NaN, NaN at both ends, all NaN, any chunking")
  func pulseDetector() throws {
    let samples = recording().channels[0]
    let (whole, _) = try pulses(samples, chunk: samples.count)
    #expect(whole.count > 100)
    let gap = Int64(40 * rate)..<Int64(50 * rate)
    let gapped = spoiled(samples, Int(gap.lowerBound)..<Int(gap.upperBound))
    let (beats, gaps) = try pulses(gapped, chunk: 4096)
    #expect(gaps == [gap])
    #expect(inside(beats, gap).isEmpty)
    // Before: the pulses whose blocks ended before the gap (reported a beat window after their peak).
    #expect(
      inside(beats, 0..<gap.lowerBound - Int64(rate)) == inside(whole, 0..<gap.lowerBound - Int64(rate)))
    // After: the same pulses once the running mean square has settled (10 s time constant; 12 s here).
    let after = gap.upperBound + Int64(12 * rate)..<Int64(samples.count)
    #expect(inside(beats, after) == inside(whole, after))
    // The pulses soon after the gap are real ones too (within 60 ms of a pulse of the whole signal).
    let soon = inside(beats, gap.upperBound..<after.lowerBound)
    #expect(soon.count >= 10)
    #expect(soon.allSatisfy { peak in whole.contains { abs($0 - peak) <= Int64(0.06 * rate) } })
    let reports = try expectChunkInvariant(
      count: gapped.count, chunkings: Chunking.standard + [13, 4096, 4097].map(Chunking.fixed)
    ) {
      try PPGPulseDetector(sampleRate: rate)
    } feed: { detector, range in
      detector.process(Array(gapped[range])).map(Report.event)
    } finish: { detector in
      [.gaps(detector.gaps)]
    }
    #expect(reports.compactMap(\.event?.peak) == beats && reports.last == .gaps(gaps))

    let n = samples.count
    let (edges, edgeGaps) = try pulses(spoiled(samples, [0, 4000, n - 1]), chunk: 1000)
    #expect(edgeGaps == [0..<1, 4000..<4001, Int64(n - 1)..<Int64(n)])
    #expect(!inside(edges, 5000..<Int64(n) - Int64(rate)).isEmpty)
    let (none, allGaps) = try pulses([Float](repeating: .nan, count: 3000), chunk: 1000)
    #expect(none.isEmpty && allGaps == [0..<3000])
  }

  @Test("heart-rate windows: NaN over a gap, unreliable when partly missing, unchanged far from it")
  func heartRateWindows() throws {
    let samples = recording(seconds: 80).channels[0]
    func windows(_ samples: [Float], chunk: Int) throws -> [HeartRateWindow] {
      var estimator = try PPGHeartRateEstimator(sampleRate: rate)
      var result: [HeartRateWindow] = []
      for start in stride(from: 0, to: samples.count, by: chunk) {
        result += estimator.process(ppg: [Array(samples[start..<min(start + chunk, samples.count)])])
      }
      return result
    }
    let whole = try windows(samples, chunk: samples.count)
    let gap = Int(30 * rate)..<Int(40 * rate)
    let gapped = spoiled(samples, gap)
    // Compared as text, where NaN equals NaN.
    let result = try expectChunkInvariant(
      count: gapped.count, chunkings: Chunking.standard + [.fixed(333), .fixed(1000)],
      by: { "\($0)" == "\($1)" }
    ) {
      try PPGHeartRateEstimator(sampleRate: rate)
    } feed: { estimator, range in
      estimator.process(ppg: [Array(gapped[range])])
    } finish: { _ in
      []
    }
    #expect(result.count == whole.count)
    for (w, reference) in zip(result, whole) {
      let overlap = max(0, min(w.endTime, 40) - max(w.startTime, 30)) / (w.endTime - w.startTime)
      if overlap > PPGHeartRateEstimator.maximumMissingShare {
        #expect(w.beatsPerMinute.isNaN && w.quality == 0 && !w.isReliable, "\(w)")
      } else if overlap > 0 {
        #expect(!w.isReliable, "\(w)")
      } else if w.endTime <= 30 {
        #expect(w == reference)
      } else if w.startTime >= 44 {
        #expect(abs(w.beatsPerMinute - reference.beatsPerMinute) < 2, "\(w) against \(reference)")
      }
    }
    let nothing = try windows([Float](repeating: .nan, count: Int(20 * rate)), chunk: 500)
    #expect(!nothing.isEmpty && nothing.allSatisfy { $0.beatsPerMinute.isNaN && !$0.isReliable })
  }
}

@Suite("Gaps in the step detector")
struct StepDetectorGapTests {
  let rate = 100.0

  private func walk(seconds: Double = 120) -> SimulatedRecording {
    var simulator = AccelerometerSimulator(
      configuration: AccelerometerConfiguration(activity: .walking, placement: .frontPocket, unit: .g),
      duration: seconds, sampleRate: rate, seed: 7)
    return simulator.generateAll()
  }

  private func detect(_ axes: [[Float]], chunk size: Int) throws -> (StepDetector.Output, [Range<Int64>]) {
    var detector = try StepDetector(sampleRate: rate)
    var output = StepDetector.Output()
    for start in stride(from: 0, to: axes[0].count, by: size) {
      let end = min(start + size, axes[0].count)
      let chunk = axes.map { Array($0[start..<end]) }
      chunk[0].withUnsafeBufferPointer { x in
        chunk[1].withUnsafeBufferPointer { y in
          chunk[2].withUnsafeBufferPointer { z in detector.process(x: x, y: y, z: z, into: &output) }
        }
      }
    }
    detector.finish(into: &output)
    return (output, detector.gaps)
  }

  @Test("a 10 s gap ends the bout; no step inside; steps after it once a new bout is recognised")
  func tenSecondGap() throws {
    let axes = walk().channels
    let (whole, _) = try detect(axes, chunk: 4096)
    #expect(whole.bouts.count == 1)
    let gap = Int64(50 * rate)..<Int64(60 * rate)
    var gapped = axes
    // A missing axis makes the sample missing.
    for i in Int(gap.lowerBound)..<Int(gap.upperBound) { gapped[i % 3][i] = .nan }
    let (output, gaps) = try detect(gapped, chunk: 1000)
    #expect(gaps == [gap])
    let stepIndices = output.steps.map(\.sampleIndex)
    #expect(inside(stepIndices, gap).isEmpty)
    #expect(output.bouts.count == 2)
    #expect(
      output.bouts.allSatisfy {
        $0.end.sampleIndex < gap.lowerBound || $0.start.sampleIndex >= gap.upperBound
      })
    // Before: the steps of the whole recording (the last one within the filters' reach of the gap aside).
    let wholeSteps = whole.steps.map(\.sampleIndex)
    let before = 0..<gap.lowerBound - Int64(rate)
    #expect(inside(stepIndices, before) == inside(wholeSteps, before))
    // After: a new bout, whose steps lie within a few samples of those of the whole recording.
    let after = inside(stepIndices, gap.upperBound + Int64(2 * rate)..<Int64(axes[0].count))
    let reference = inside(wholeSteps, gap.upperBound + Int64(2 * rate)..<Int64(axes[0].count))
    #expect(abs(after.count - reference.count) <= 2, "\(after.count) of \(reference.count)")
    #expect(after.allSatisfy { step in reference.contains { abs($0 - step) <= 5 } })
    let reports = try expectChunkInvariant(
      count: gapped[0].count, chunkings: Chunking.standard + [97, 1000, 4096, 5000].map(Chunking.fixed)
    ) {
      (detector: try StepDetector(sampleRate: rate), output: StepDetector.Output())
    } feed: { stage, range in
      let chunk = gapped.map { Array($0[range]) }
      chunk[0].withUnsafeBufferPointer { x in
        chunk[1].withUnsafeBufferPointer { y in
          chunk[2].withUnsafeBufferPointer { z in
            stage.detector.process(x: x, y: y, z: z, into: &stage.output)
          }
        }
      }
      return [Report<StepDetector.Output>]()
    } finish: { stage in
      stage.detector.finish(into: &stage.output)
      return [.event(stage.output), .gaps(stage.detector.gaps)]
    }
    #expect(reports == [.event(output), .gaps(gaps)])
  }

  @Test("a single NaN sample, NaN at both ends, all NaN")
  func edgesAndSingleSamples() throws {
    let axes = walk(seconds: 60).channels
    let n = axes[0].count
    var spoiledAxes = axes
    for i in [0, 3000, n - 1] { spoiledAxes[1][i] = .nan }
    let (output, gaps) = try detect(spoiledAxes, chunk: 4096)
    #expect(gaps == [0..<1, 3000..<3001, Int64(n - 1)..<Int64(n)])
    #expect(!output.steps.contains { $0.sampleIndex == 3000 })
    #expect(output.bouts.count == 2)
    let nothing = try detect(Array(repeating: [Float](repeating: .nan, count: 5000), count: 3), chunk: 1024)
    #expect(nothing.0 == StepDetector.Output() && nothing.1 == [0..<5000])
  }
}

@Suite("Gaps in beat series")
struct BeatSeriesGapTests {
  @Test("NN intervals: none across a gap, and the next interval does not follow the previous one")
  func nnSeries() {
    let beats: [Int64] = [0, 100, 200, 300, 900, 1000, 1100]
    let series = NNSeries(beats: beats, sampleRate: 100, excludingBeats: [], gaps: [350..<850])
    #expect(series.intervals == [1000, 1000, 1000, 1000, 1000])
    #expect(series.endTimes == [1, 2, 3, 10, 11])
    #expect(series.followsPrevious == [false, true, true, false, true])
    // A gap between two beats that touches neither removes only their interval.
    let touching = NNSeries(beats: beats, sampleRate: 100, excludingBeats: [5], gaps: [301..<899])
    #expect(touching.intervals == [1000, 1000, 1000])
  }

  @Test("HRV from an ECG with a gap takes no interval across it")
  func hrvAcrossAGap() throws {
    let rate = 360.0
    let samples = spoiled(simulatedECG(seconds: 120).channels[0], Int(50 * rate)..<Int(60 * rate))
    var detector = try QRSDetector(sampleRate: rate)
    var beats = detector.process(samples)
    detector.finish(appendingTo: &beats)
    let gap = detector.gaps[0]
    let series = NNSeries(beats: beats, sampleRate: rate, excludingBeats: [], gaps: detector.gaps)
    #expect(series.count == beats.count - 2)
    for (interval, end) in zip(series.intervals, series.endTimes) {
      let start = end - interval / 1000
      #expect(!(start * rate < Double(gap.upperBound) && end * rate > Double(gap.lowerBound)))
    }
    #expect(series.intervals.max()! < 1500)
    // The whole analysis: artefacts are looked for on either side of the gap, so the 10 s interval across
    // it flags no beat, as it does when the gap is not known.
    let analysis = HRVAnalysis(beats: beats, sampleRate: rate, gaps: detector.gaps)
    let blind = HRVAnalysis(beats: beats, sampleRate: rate)
    let closing = beats.firstIndex { $0 > gap.upperBound }!
    #expect(blind.artifacts.allBeats.contains(closing))
    #expect(!analysis.artifacts.allBeats.contains(closing))
    #expect(analysis.intervals.intervals.max()! < 1500)
    #expect(
      analysis.time.sdnn < blind.time.sdnn || blind.time.sdnn.isNaN
        || analysis.intervals.count > blind.intervals.count)
    let labelled = HRVAnalysis(
      beats: beats, sampleRate: rate, labels: Array(repeating: "N", count: beats.count), gaps: detector.gaps)
    #expect(labelled.intervals == analysis.intervals)
  }

  @Test("artefacts between gaps: the indices of each stretch's artefacts, on the whole beat list")
  func artefactsBetweenGaps() {
    // Beats about 1 s apart at 100 Hz with an extra beat in each half; a gap between the halves.
    var random = SplitMix64(state: 4)
    var beats: [Int64] = [0]
    while beats.last! < 6000 {
      beats.append(beats.last! + 95 + Int64(Double.random(in: 0..<10, using: &random)))
    }
    beats.removeAll { (3000..<4000).contains($0) }
    beats += [1530, 5030]
    beats.sort()
    let whole = RRArtifacts.detect(beats: beats, sampleRate: 100, gaps: [3001..<3999])
    let first = RRArtifacts.detect(beats: beats.filter { $0 < 3000 }, sampleRate: 100)
    let second = RRArtifacts.detect(beats: beats.filter { $0 > 3000 }, sampleRate: 100)
    let offset = beats.firstIndex { $0 > 3000 }!
    #expect(whole.allBeats == first.allBeats + second.allBeats.map { $0 + offset })
    #expect(!whole.allBeats.isEmpty)
  }

  @Test("heart-rate windows from beats: NaN over a gap, unreliable when partly missing")
  func beatRateWindows() {
    // 75 BPM at 100 Hz; a gap of 9 s from 20 s, without beats.
    let beats = stride(from: 50, to: 6000, by: 80).map(Int64.init).filter { !(2000..<2900).contains($0) }
    let windows = BeatRateWindows.windows(
      beats: beats, sampleRate: 100, duration: 60, gaps: [2000..<2900])
    for w in windows {
      let overlap = max(0, min(w.endTime, 29) - max(w.startTime, 20)) / 8
      if overlap > 0.25 {
        #expect(w.beatsPerMinute.isNaN && !w.isReliable, "\(w)")
      } else if overlap > 0 {
        #expect(!w.isReliable && abs(w.beatsPerMinute - 75) < 1e-9, "\(w)")
      } else {
        #expect(w.isReliable && abs(w.beatsPerMinute - 75) < 1e-9, "\(w)")
      }
    }
    #expect(windows.contains { $0.beatsPerMinute.isNaN })
  }

  @Test("irregular rhythm: no interval across a gap is judged, no gap sample covered")
  func rhythm() {
    // An irregular rhythm (RR 0.4–1.2 s at random) at 100 Hz with a 20 s gap in the middle.
    var random = SplitMix64(state: 9)
    var beats: [Int64] = [0]
    while beats.last! < 30_000 {
      beats.append(beats.last! + 40 + Int64(Double.random(in: 0..<1, using: &random) * 80))
    }
    let gap: Range<Int64> = 14_000..<16_000
    beats.removeAll { gap.contains($0) }
    let analysis = AtrialFibrillationDetector().analyze(beats: beats, sampleRate: 100, gaps: [gap])
    #expect(!analysis.coveredSamples.isEmpty)
    #expect(analysis.coveredSamples.allSatisfy { !$0.overlaps(gap) })
    let spanning = zip(analysis.intervals.intervals, analysis.intervals.endTimes).contains { interval, end in
      (end - interval / 1000) * 100 < Double(gap.upperBound) && end * 100 > Double(gap.lowerBound)
    }
    #expect(!spanning)
  }
}
