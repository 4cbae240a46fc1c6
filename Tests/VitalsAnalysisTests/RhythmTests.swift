import VitalsTestSupport
import Foundation
import Testing
import VitalsAnalysis
import VitalsSimulation

@Suite("Irregular rhythm (COSEn)")
struct RhythmTests {
  static let rate = 250.0

  /// Beat positions from RR intervals in seconds, first beat at 1 s.
  static func beats(_ rr: [Double]) -> [Int64] {
    var time = 1.0
    var result = [Int64((time * rate).rounded())]
    for interval in rr {
      time += interval
      result.append(Int64((time * rate).rounded()))
    }
    return result
  }

  /// Sinus rhythm at 70/min with respiratory (0.25 Hz) and Mayer-wave (0.1 Hz) modulation, small
  /// noise, and a premature beat with compensatory pause every `ectopicEvery` beats.
  static func sinus(count: Int, ectopicEvery: Int, seed: UInt64) -> [Double] {
    var generator = SplitMix64(state: seed)
    var rr: [Double] = []
    var time = 0.0
    while rr.count < count {
      var interval = 0.857 + 0.04 * sin(2 * .pi * 0.25 * time) + 0.02 * sin(2 * .pi * 0.1 * time)
      interval += Double.random(in: -0.008...0.008, using: &generator)
      if ectopicEvery > 0 && rr.count % ectopicEvery == ectopicEvery - 1 {
        rr.append(interval * 0.6)
        rr.append(interval * 1.4)
      } else {
        rr.append(interval)
      }
      time += interval
    }
    return rr
  }

  /// AF-like: independent intervals uniform in 0.35 … 1.05 s.
  static func fibrillation(count: Int, seed: UInt64) -> [Double] {
    var generator = SplitMix64(state: seed)
    return (0..<count).map { _ in Double.random(in: 0.35...1.05, using: &generator) }
  }

  @Test(
    "Sinus rhythm with respiratory variability and occasional ectopics is not AF", arguments: [0, 25, 60])
  func sinusIsRegular(ectopicEvery: Int) {
    let beats = Self.beats(Self.sinus(count: 700, ectopicEvery: ectopicEvery, seed: 3))
    let analysis = AtrialFibrillationDetector().analyze(beats: beats, sampleRate: Self.rate)
    #expect(analysis.episodes.isEmpty)
    #expect(analysis.segments(sampleCount: beats.last! + 1).allSatisfy { !$0 })
  }

  /// Beats of 200 sinus intervals, 400 AF-like ones (beats 200 to 600) and 200 sinus ones.
  static func fibrillationBetweenSinus() -> [Int64] {
    beats(
      sinus(count: 200, ectopicEvery: 0, seed: 5) + fibrillation(count: 400, seed: 9)
        + sinus(count: 200, ectopicEvery: 0, seed: 6))
  }

  @Test("Random AF-like intervals are AF, and the episode spans them")
  func fibrillationIsIrregular() {
    let beats = Self.fibrillationBetweenSinus()
    let analysis = AtrialFibrillationDetector().analyze(beats: beats, sampleRate: Self.rate)
    let afStart = Double(beats[200]) / Self.rate
    let afEnd = Double(beats[600]) / Self.rate
    #expect(analysis.episodes.count == 1)
    if let episode = analysis.episodes.first {
      #expect(abs(episode.start - afStart) < 10)
      #expect(abs(episode.end - afEnd) < 10)
    }
    // Segments: reference AF between the two transitions; every segment fully inside agrees.
    let reference = RhythmSegments.majority(
      of: [beats[200]..<beats[600]], sampleCount: beats.last! + 1, sampleRate: Self.rate)
    let score = RhythmSegments.Score(
      reference: reference, detected: analysis.segments(sampleCount: beats.last! + 1))
    #expect(score.sensitivity >= 0.9)
    #expect(score.specificity >= 0.9)
  }

  @Test("Bigeminy and trigeminy with varying coupling are repeating patterns, not AF", arguments: [2, 3])
  func geminy(period: Int) {
    var generator = SplitMix64(state: UInt64(period))
    var rr: [Double] = []
    while rr.count < 600 {
      // Premature beats with a varying coupling interval and a full compensatory pause: single
      // intervals vary widely, each N-to-N cycle does not.
      let cycle = 0.9 + 0.05 * sin(Double(rr.count) / 30)
      let premature = Double.random(in: 0.45...0.75, using: &generator) * cycle
      let pair = [premature, 2 * cycle - premature]
      rr += period == 2 ? pair : [cycle] + pair
    }
    let beats = Self.beats(rr)
    #expect(AtrialFibrillationDetector().analyze(beats: beats, sampleRate: Self.rate).episodes.isEmpty)
    var withoutExclusion = AtrialFibrillationDetector.Parameters()
    withoutExclusion.excludeArtifacts = false
    let kept = AtrialFibrillationDetector(parameters: withoutExclusion).analyze(
      beats: beats, sampleRate: Self.rate)
    #expect(kept.episodes.isEmpty)
  }

  /// Sinus rhythm (``sinus(count:ectopicEvery:seed:)`` without its ectopics) with a premature
  /// ventricular beat after each sinus beat with probability `share` (coupling 0.45–0.75 of the cycle,
  /// full compensatory pause), and the class of every beat (the first beat included).
  static func frequentPVCs(count: Int, share: Double, seed: UInt64) -> (rr: [Double], classes: [BeatClass]) {
    var generator = SplitMix64(state: seed)
    var rr: [Double] = []
    var classes: [BeatClass] = [.normal]
    for cycle in sinus(count: count, ectopicEvery: 0, seed: seed) {
      if classes.last == .normal && Double.random(in: 0..<1, using: &generator) < share {
        let premature = Double.random(in: 0.45...0.75, using: &generator) * cycle
        rr += [premature, 2 * cycle - premature]
        classes += [.ventricular, .normal]
      } else {
        rr.append(cycle)
        classes.append(.normal)
      }
    }
    return (rr, classes)
  }

  /// Parameters without the artifact rule and the pattern check: RR irregularity alone.
  static var irregularityAlone: AtrialFibrillationDetector.Parameters {
    var parameters = AtrialFibrillationDetector.Parameters()
    parameters.excludeArtifacts = false
    parameters.patternPeriods = []
    return parameters
  }

  @Test(
    "Frequent PVCs read as irregular without classes, not AF with them", arguments: [0.2, 0.4])
  func ectopyWithClasses(share: Double) {
    let (rr, classes) = Self.frequentPVCs(count: 700, share: share, seed: 7)
    let beats = Self.beats(rr)
    let detector = AtrialFibrillationDetector(parameters: Self.irregularityAlone)
    #expect(!detector.analyze(beats: beats, sampleRate: Self.rate).episodes.isEmpty)
    let classified = detector.analyze(beats: beats, sampleRate: Self.rate, beatClasses: classes)
    #expect(classified.episodes.isEmpty && classified.coveredSamples.isEmpty)
    #expect(
      classified.intervals.count == zip(classes, classes.dropFirst()).count { $0 == .normal && $1 == .normal }
    )
    // The defaults (artifact rule and pattern check) agree when given the classes.
    #expect(
      AtrialFibrillationDetector().analyze(beats: beats, sampleRate: Self.rate, beatClasses: classes).episodes
        .isEmpty)
  }

  @Test("AF with ectopic beats among its beats stays AF when they are left out")
  func fibrillationWithEctopicClasses() {
    let beats = Self.fibrillationBetweenSinus()
    // Every tenth beat is called ventricular, every seventeenth supraventricular (about 15 %).
    let classes = beats.indices.map {
      $0 % 10 == 3 ? BeatClass.ventricular : $0 % 17 == 5 ? .supraventricular : .normal
    }
    let sampleCount = beats.last! + 1
    let analysis = AtrialFibrillationDetector().analyze(
      beats: beats, sampleRate: Self.rate, beatClasses: classes)
    let reference = RhythmSegments.majority(
      of: [beats[200]..<beats[600]], sampleCount: sampleCount, sampleRate: Self.rate)
    let score = RhythmSegments.Score(
      reference: reference, detected: analysis.segments(sampleCount: sampleCount))
    #expect(analysis.episodes.count == 1)
    #expect(score.sensitivity >= 0.9)
    #expect(score.specificity >= 0.9)
  }

  /// ``fibrillationBetweenSinus()`` with ventricular and supraventricular beats among its beats and a gap
  /// of the signal in its fibrillation.
  static func classifiedFibrillationWithGap() -> (beats: [Int64], classes: [BeatClass], gaps: [Range<Int64>])
  {
    let beats = fibrillationBetweenSinus()
    let classes = beats.indices.map {
      $0 % 10 == 3 ? BeatClass.ventricular : $0 % 17 == 5 ? .supraventricular : .normal
    }
    return (beats, classes, [beats[300] + 10..<beats[303] - 10])
  }

  @Test("Judging a span covers, within it, what the whole analysis covers")
  func judgedSpan() {
    let (beats, classes, gaps) = Self.classifiedFibrillationWithGap()
    let detector = AtrialFibrillationDetector()
    let whole = detector.analyze(beats: beats, sampleRate: Self.rate, beatClasses: classes, gaps: gaps)
    func clipped(_ ranges: [Range<Int64>], to span: Range<Int64>) -> [Range<Int64>] {
      ranges.compactMap {
        let (lower, upper) = (max($0.lowerBound, span.lowerBound), min($0.upperBound, span.upperBound))
        return lower < upper ? lower..<upper : nil
      }
    }
    var compared = 0
    // Spans of 32 beats (as the streaming tracker decides), from every 7th beat, edges on beats and between.
    for first in stride(from: 0, to: beats.count - 40, by: 7) {
      for span in [beats[first]..<beats[first + 32], beats[first] + 40..<beats[first + 32] - 40] {
        let judged = detector.analyze(
          beats: beats, sampleRate: Self.rate, beatClasses: classes, gaps: gaps, judging: span)
        #expect(clipped(judged.coveredSamples, to: span) == clipped(whole.coveredSamples, to: span))
        if !clipped(whole.coveredSamples, to: span).isEmpty { compared += 1 }
      }
    }
    #expect(compared > 50, "spans with irregular rhythm in them: \(compared)")
  }

  @Test("One workspace reused from window to window gives each window's whole analysis")
  func reusedWorkspace() {
    let (beats, classes, gaps) = Self.classifiedFibrillationWithGap()
    let detector = AtrialFibrillationDetector()
    var workspace = AtrialFibrillationDetector.Workspace()
    // Windows that shrink and grow (the tracker's 128 beats among them), judged whole or in part.
    let windows = [0..<801, 150..<278, 280..<408, 600..<610, 190..<230, 0..<2, 260..<700, 500..<628]
    var irregular = 0
    for window in windows {
      let part = Array(beats[window])
      let partClasses = Array(classes[window])
      for span in [nil, part[part.count / 3]..<part[2 * part.count / 3]] {
        let expected = detector.analyze(
          beats: part, sampleRate: Self.rate, beatClasses: partClasses, gaps: gaps, judging: span)
        detector.analyze(
          beats: part, sampleRate: Self.rate, beatClasses: partClasses, gaps: gaps, judging: span,
          into: &workspace)
        #expect(workspace.series == expected.intervals)
        #expect(workspace.irregular == expected.irregular)
        #expect(workspace.covered == expected.coveredSamples)
        if !expected.coveredSamples.isEmpty { irregular += 1 }
      }
    }
    #expect(irregular >= 6, "analyses with irregular rhythm: \(irregular)")
  }

  /// A simulated ECG (250 Hz, one lead) with its true beats.
  static func simulatedECG(_ rhythm: RhythmConfiguration, duration: Double, seed: UInt64) -> (
    signal: [Float], beats: [Int64]
  ) {
    var configuration = ECGConfiguration(rhythm: rhythm)
    configuration.minimumIntegrationRate = 2 * rate
    var simulator = ECGSimulator(
      configuration: configuration, duration: duration, sampleRate: rate, seed: seed)
    let recording = simulator.generateAll()
    return (recording.channels[0], recording.events.map(\.sampleIndex))
  }

  @Test("Dense ectopy with P waves is irregular by RR alone but not AF with the ECG")
  func ectopyKeepsPWaves() {
    var rhythm = RhythmConfiguration(heartRate: 60)
    rhythm.ventricularEctopicProbability = 0.1
    rhythm.atrialEctopicProbability = 0.1
    let (signal, beats) = Self.simulatedECG(rhythm, duration: 300, seed: 11)
    let sampleCount = Int64(signal.count)
    let byRR = AtrialFibrillationDetector().analyze(beats: beats, sampleRate: Self.rate)
    let withECG = AtrialFibrillationDetector().analyze(beats: beats, sampleRate: Self.rate, signal: signal)
    #expect(byRR.segments(sampleCount: sampleCount).contains(true))
    #expect(withECG.segments(sampleCount: sampleCount).allSatisfy { !$0 })
    #expect(withECG.atrialConsistency.count == beats.count)
  }

  @Test("Fibrillatory waves instead of P waves keep AF detected with the ECG")
  func fibrillationWithECG() {
    var rhythm = RhythmConfiguration(heartRate: 70)
    rhythm.atrialFibrillation = [RhythmEpisode(start: 90, end: 390)]
    let (signal, beats) = Self.simulatedECG(rhythm, duration: 480, seed: 12)
    let sampleCount = Int64(signal.count)
    let analysis = AtrialFibrillationDetector().analyze(beats: beats, sampleRate: Self.rate, signal: signal)
    let reference = RhythmSegments.majority(
      of: [Int64(90 * Self.rate)..<Int64(390 * Self.rate)], sampleCount: sampleCount, sampleRate: Self.rate)
    let score = RhythmSegments.Score(
      reference: reference, detected: analysis.segments(sampleCount: sampleCount))
    #expect(score.sensitivity >= 0.9)
    #expect(score.specificity >= 0.9)
  }

  @Test("COSEn by hand")
  func cosenByHand() {
    // Intervals 1, 1, 2, 1, 1 s with r = 0.1 s: templates x0…x3 = 1, 1, 2, 1.
    // B: pairs (0,1), (0,3), (1,3) match → 3; A: of those, (x1,x2)=(1,2) no, (x1,x4)=(1,1) yes,
    // (x2,x4)=(2,1) no → 1. COSEn = −ln(1/3) + ln(0.2) − ln(1.2).
    let value = AtrialFibrillationDetector.coefficientOfSampleEntropy([1, 1, 2, 1, 1], tolerance: 0.1)
    let expected: Double = log(3.0) + log(0.2) - log(1.2)
    #expect(abs(value - expected) < 1e-12)
    #expect(AtrialFibrillationDetector.coefficientOfSampleEntropy([1, 2, 3, 4], tolerance: 0.1) == .infinity)
    #expect(AtrialFibrillationDetector.coefficientOfSampleEntropy([1, 2], tolerance: 0.1).isNaN)
  }

  @Test("COSEn's template matches slid along a series equal a recount of each window")
  func slidingTemplateMatches() {
    var generator = SplitMix64(state: 5)
    // On a 10-ms grid with r = 20 ms, so that many pairs lie exactly at the tolerance.
    let series = (0..<400).map { _ in 0.6 + 0.01 * Double(generator.next() % 40) }
    let r = 0.02
    func recount(_ window: Range<Int>) -> (a: Int, b: Int) {
      var (a, b) = (0, 0)
      for i in window.lowerBound..<(window.upperBound - 1) {
        for j in (i + 1)..<(window.upperBound - 1) where abs(series[i] - series[j]) <= r {
          b += 1
          if abs(series[i + 1] - series[j + 1]) <= r { a += 1 }
        }
      }
      return (a, b)
    }
    var matches = TemplateMatches(tolerance: r)
    // Slides by one, stays, jumps ahead and back, and changes width.
    let windows =
      (0..<200).map { $0..<($0 + 16) } + [199..<215, 250..<266, 251..<267, 10..<26, 11..<30, 12..<31]
    series.withUnsafeBufferPointer { x in
      for window in windows {
        matches.slide(to: window, in: x)
        let expected = recount(window)
        #expect(matches.a == expected.a && matches.b == expected.b, "window \(window)")
      }
    }
    #expect(windows.contains { recount($0).a > 0 })
  }

  @Test("Linear prediction gain: large for a sampled oscillation, near 1 for independent intervals")
  func predictionGain() {
    // Exact but for the window mean, which over 2 cycles differs from the oscillation's centre.
    let oscillation = (0..<16).map { 0.5 + 0.05 * cos(0.8 * Double($0) + 0.3) }
    #expect(AtrialFibrillationDetector.linearPredictionGain(oscillation[...]) > 1000)
    var generator = SplitMix64(state: 21)
    var gains: [Double] = []
    for _ in 0..<200 {
      let window = Self.fibrillation(count: 16, seed: generator.next())
      gains.append(AtrialFibrillationDetector.linearPredictionGain(window[...]))
    }
    gains.sort()
    #expect(gains[100] > 1 && gains[100] < 1.5)
    #expect(gains[197] < 3)
    #expect(gains[0] >= 14.0 / 16 * (1 - 1e-12))
    #expect(AtrialFibrillationDetector.linearPredictionGain([0.8, 0.9, 0.7]).isNaN)
    #expect(AtrialFibrillationDetector.linearPredictionGain([0.75, 0.75, 0.75, 0.75, 0.75]).isNaN)
    // Below 1 (the first two intervals, near the mean, count in the variance but are not predicted),
    // bounded by (n − 2)/n.
    let unpredicted = AtrialFibrillationDetector.linearPredictionGain([
      0.8, 0.8, 0.63, 0.83, 0.82, 0.85, 0.88, 0.79,
    ])
    #expect(unpredicted < 1 && unpredicted >= 6.0 / 8 * (1 - 1e-12))
  }

  @Test(
    "Large, smooth respiratory sinus arrhythmia at a high rate is not AF; without the prediction gain it is")
  func respiratoryArrhythmia() {
    // SDNN 50 ms at 110 bpm (RR 0.55 s): sinus swings large enough for COSEn and nRMSSD.
    var generator = RhythmGenerator(configuration: RhythmConfiguration(heartRate: 110), seed: 1)
    var beats: [Int64] = []
    while let beat = generator.next(), beat.time < 3600 { beats.append(Int64(beat.time * Self.rate)) }
    #expect(AtrialFibrillationDetector().analyze(beats: beats, sampleRate: Self.rate).episodes.isEmpty)
    var withoutGain = AtrialFibrillationDetector.Parameters()
    withoutGain.maximumPredictionGain = .infinity
    let byCOSEn = AtrialFibrillationDetector(parameters: withoutGain).analyze(
      beats: beats, sampleRate: Self.rate)
    #expect(!byCOSEn.episodes.isEmpty)
  }

  @Test("Reference rhythm ranges and majority segments")
  func reference() {
    let changes: [(sample: Int64, rhythm: String)] = [
      (0, "(N"), (1000, "(AFIB"), (2500, "(N"), (4000, "(AFIB"),
    ]
    let ranges = RhythmSegments.reference(rhythmChanges: changes, sampleCount: 5000)
    #expect(ranges == [1000..<2500, 4000..<5000])
    // 10 Hz, 100-s segments of 1000 samples: [0,1000) none, [1000,2000) full, [2000,3000) half → no,
    // [3000,4000) none, [4000,5000) full.
    let segments = RhythmSegments.majority(
      of: ranges, sampleCount: 5000, sampleRate: 10, segmentDuration: 100)
    #expect(segments == [false, true, false, false, true])
  }
}
