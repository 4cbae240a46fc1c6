import VitalsTestSupport
import Foundation
import Testing
import VitalsAnalysis
import VitalsCore

/// A synthetic ECG with known R-peak times: each beat a sum of Gaussian waves (P, Q, R, S, T as in
/// McSharry et al. 2003), RR intervals varying at random, optional wide ectopic beats, noise, baseline
/// wander and an amplitude step. Deterministic (``SplitMix64`` seeds, from the scoring tests).
struct SyntheticECG {
  var samples: [Float]
  /// Sample indices of the R peaks (the dominant deflection of ectopic beats).
  var rPeaks: [Int64]

  struct Options {
    var seconds = 40.0
    var meanRR = 0.8
    var ectopicEvery = 0
    var noise: Float = 0
    var wander: Float = 0
    /// From the middle of the record on, every wave is scaled by this.
    var amplitudeStep: Float = 1
    /// Paced rhythm: every beat wide, preceded 40 ms earlier by a one-sample pacemaker spike this high (mV).
    var pacingSpike: Float = 0
    var seed: UInt64 = 1
  }

  /// (amplitude mV, centre s from R, width s)
  static let normal: [(Float, Double, Double)] = [
    (0.15, -0.20, 0.025), (-0.10, -0.025, 0.008), (1.0, 0, 0.010), (-0.25, 0.025, 0.008), (0.30, 0.30, 0.05),
  ]
  static let ectopic: [(Float, Double, Double)] = [(1.3, 0, 0.030), (-0.5, 0.07, 0.030), (-0.4, 0.36, 0.06)]

  init(sampleRate rate: Double, _ options: Options = Options()) {
    var random = SplitMix64(state: options.seed)
    let count = Int(options.seconds * rate)
    samples = [Float](repeating: 0, count: count)
    rPeaks = []
    var time = 0.5
    var beat = 0
    while time < options.seconds - 0.5 {
      beat += 1
      let isEctopic = options.ectopicEvery > 0 && beat % options.ectopicEvery == 0
      let rPeak = Int64((time * rate).rounded())
      rPeaks.append(rPeak)
      let waves = isEctopic || options.pacingSpike > 0 ? Self.ectopic : Self.normal
      let spike = Int(rPeak) - Int((0.040 * rate).rounded())
      if options.pacingSpike > 0 && spike >= 0 { samples[spike] += options.pacingSpike }
      let scale = time >= options.seconds / 2 ? options.amplitudeStep : 1
      for (amplitude, centre, width) in waves {
        let first = max(0, Int(((time + centre - 4 * width) * rate).rounded(.down)))
        let last = min(count - 1, Int(((time + centre + 4 * width) * rate).rounded(.up)))
        guard first <= last else { continue }
        for i in first...last {
          let offset = Double(i - Int(rPeak)) / rate - centre
          samples[i] += scale * amplitude * Float(exp(-offset * offset / (2 * width * width)))
        }
      }
      let jitter = 0.9 + 0.2 * Double.random(in: 0..<1, using: &random)
      time += options.meanRR * jitter * (isEctopic ? 1.3 : 1)
      if options.ectopicEvery > 0 && (beat + 1) % options.ectopicEvery == 0 { time -= 0.3 * options.meanRR }
    }
    for i in 0..<count {
      let t = Double(i) / rate
      samples[i] +=
        options.wander * Float(sin(2 * Double.pi * 0.25 * t) + 0.5 * sin(2 * Double.pi * 0.07 * t))
      samples[i] += options.noise * Float(Double.random(in: 0..<1, using: &random) * 2 - 1)
    }
  }
}

/// Pairs each true R peak with a detection within `tolerance` samples; returns (missed, false, worst error).
/// Detections before the first true beat are not counted: the detector takes the first peak it sees for
/// a beat (it has no learning period that would delay beats; only a peak near the start that a steeper
/// QRS complex follows within the latency bound is dropped), which on noise before the first beat is
/// false.
func compareBeats(_ truth: [Int64], _ allDetected: [Int64], tolerance: Int64) -> (Int, Int, Int64) {
  let detected = allDetected.filter { $0 >= (truth.first ?? 0) - tolerance }
  var missed = 0
  var matched = 0
  var worst: Int64 = 0
  var j = 0
  for r in truth {
    while j < detected.count && detected[j] < r - tolerance { j += 1 }
    if j < detected.count && abs(detected[j] - r) <= tolerance {
      worst = max(worst, abs(detected[j] - r))
      matched += 1
      j += 1
    } else {
      missed += 1
    }
  }
  return (missed, detected.count - matched, worst)
}

@Suite("QRS detector")
struct QRSDetectorTests {
  @Test(
    "finds every beat, on the R peak, at rates from 125 Hz to 1 kHz", arguments: [125.0, 250, 360, 500, 1000])
  func cleanSignal(rate: Double) throws {
    let ecg = SyntheticECG(sampleRate: rate)
    let beats = try QRSDetector.detect(ecg.samples, sampleRate: rate)
    let (missed, extra, worst) = compareBeats(ecg.rPeaks, beats, tolerance: Int64(0.15 * rate))
    #expect(missed == 0)
    #expect(extra == 0)
    #expect(Double(worst) / rate <= 0.0081, "R peak placed \(Double(worst) / rate) s away")
  }

  @Test(
    "gives the same beats for the signal scaled from 10⁻⁶ to 10¹³ (the feature's products stay finite)",
    arguments: [1e-6, 1e6, 1e9, 1e13] as [Float])
  func scaleInvariance(scale: Float) throws {
    let ecg = SyntheticECG(sampleRate: 360)
    let beats = try QRSDetector.detect(ecg.samples, sampleRate: 360)
    #expect(try QRSDetector.detect(ecg.samples.map { $0 * scale }, sampleRate: 360) == beats)
  }

  @Test(
    "holds up under noise, baseline wander, ectopic and paced beats and amplitude steps",
    arguments: [
      SyntheticECG.Options(noise: 0.08, wander: 0.8, seed: 2),
      SyntheticECG.Options(meanRR: 0.6, ectopicEvery: 3, noise: 0.03, seed: 3),
      SyntheticECG.Options(seconds: 60, amplitudeStep: 0.25, seed: 4),
      SyntheticECG.Options(seconds: 60, amplitudeStep: 4, seed: 5),
      SyntheticECG.Options(noise: 0.03, pacingSpike: 3, seed: 6),
    ])
  func hardSignals(options: SyntheticECG.Options) throws {
    for rate in [250.0, 360] {
      let ecg = SyntheticECG(sampleRate: rate, options)
      let beats = try QRSDetector.detect(ecg.samples, sampleRate: rate)
      let (missed, extra, worst) = compareBeats(ecg.rPeaks, beats, tolerance: Int64(0.15 * rate))
      // An amplitude drop may cost the beats before the signal level has adapted (at most 2).
      #expect(missed <= (options.amplitudeStep < 1 ? 2 : 0), "missed \(missed) of \(ecg.rPeaks.count)")
      #expect(extra == 0)
      #expect(Double(worst) / rate <= 0.03)
    }
  }

  /// Adds `scale` times the waves `waves` of a beat with its R peak at sample `rPeak` to `samples`.
  static func add(
    _ waves: [(Float, Double, Double)], at rPeak: Int64, scale: Float, to samples: inout [Float], rate: Double
  ) {
    for (amplitude, centre, width) in waves {
      let first = max(0, Int(rPeak) + Int(((centre - 4 * width) * rate).rounded(.down)))
      let last = min(samples.count - 1, Int(rPeak) + Int(((centre + 4 * width) * rate).rounded(.up)))
      guard first <= last else { continue }
      for i in first...last {
        let offset = Double(i - Int(rPeak)) / rate - centre
        samples[i] += scale * amplitude * Float(exp(-offset * offset / (2 * width * width)))
      }
    }
  }

  /// The missed and false beats (±150 ms) of the default detector on `samples`, and the beats of one with a
  /// rule turned off by `disable`.
  static func detectWithAndWithout(
    _ samples: [Float], truth: [Int64], rate: Double,
    disabling disable: (inout QRSDetector.Configuration) -> Void
  ) throws -> (missed: Int, extra: Int, unchecked: [Int64]) {
    let beats = try QRSDetector.detect(samples, sampleRate: rate)
    let (missed, extra, _) = compareBeats(truth, beats, tolerance: Int64(0.15 * rate))
    var off = QRSDetector.Configuration()
    disable(&off)
    return (missed, extra, try QRSDetector.detect(samples, sampleRate: rate, configuration: off))
  }

  @Test(
    "drops a small early spike in a steady rhythm, keeps a small premature beat followed by a pause",
    arguments: [250.0, 360])
  func interlopers(rate: Double) throws {
    let spike: [(Float, Double, Double)] = [(0.6, 0, 0.012)]
    let clean = SyntheticECG(sampleRate: rate, .init(seconds: 40, seed: 7))
    // Every fifth beat from the tenth on, a spike 60 % of the way to the next beat; the rhythm goes on.
    var artefacts = clean
    var premature = clean
    var prematureTruth = clean.rPeaks
    for k in stride(from: 10, to: clean.rPeaks.count - 2, by: 5) {
      let early = clean.rPeaks[k] + (clean.rPeaks[k + 1] - clean.rPeaks[k]) * 3 / 5
      Self.add(spike, at: early, scale: 1, to: &artefacts.samples, rate: rate)
      // The same spike as a premature beat: the next beat does not come (a compensatory pause).
      Self.add(spike, at: early, scale: 1, to: &premature.samples, rate: rate)
      Self.add(SyntheticECG.normal, at: clean.rPeaks[k + 1], scale: -1, to: &premature.samples, rate: rate)
      prematureTruth[prematureTruth.firstIndex(of: clean.rPeaks[k + 1])!] = early
    }
    let tolerance = Int64(0.15 * rate)
    let (missedSpikes, extraSpikes, unchecked) = try Self.detectWithAndWithout(
      artefacts.samples, truth: clean.rPeaks, rate: rate
    ) { $0.interloperPrematurity = 0 }
    #expect(missedSpikes == 0)
    #expect(extraSpikes == 0)
    #expect(compareBeats(clean.rPeaks, unchecked, tolerance: tolerance).1 >= 5)
    let beats = try QRSDetector.detect(premature.samples, sampleRate: rate)
    let (missed, extra, _) = compareBeats(prematureTruth.sorted(), beats, tolerance: tolerance)
    #expect(missed == 0)
    #expect(extra == 0)
  }

  @Test(
    "an early spike it cannot rule out does not turn the interloper check off for the next spike",
    arguments: [250.0, 360])
  func unconfirmedInterloper(rate: Double) throws {
    // Steep enough not to pass for a T wave so soon after a beat.
    let spike: [(Float, Double, Double)] = [(0.6, 0, 0.008)]
    var ecg = SyntheticECG(sampleRate: rate, .init(seconds: 60, meanRR: 0.9, seed: 8))
    // Every tenth beat from the tenth on, a spike 380 ms after the beat (past the T-wave window, but too
    // early for the next beat to be seen by the latency bound: taken for a beat), then, one beat later, a
    // spike 330 ms before the next beat (late enough to be ruled out, if the rhythm still counts as
    // steady).
    var firstSpikes: [Int64] = []
    var secondSpikes: [Int64] = []
    for k in stride(from: 10, to: ecg.rPeaks.count - 3, by: 10) {
      let first = ecg.rPeaks[k] + Int64((0.38 * rate).rounded())
      let second = ecg.rPeaks[k + 2] - Int64((0.33 * rate).rounded())
      Self.add(spike, at: first, scale: 1, to: &ecg.samples, rate: rate)
      Self.add(spike, at: second, scale: 1, to: &ecg.samples, rate: rate)
      firstSpikes.append(first)
      secondSpikes.append(second)
    }
    let beats = try QRSDetector.detect(ecg.samples, sampleRate: rate)
    let tolerance = Int64(0.15 * rate)
    let (missed, extra, _) = compareBeats(ecg.rPeaks, beats, tolerance: tolerance)
    #expect(missed == 0)
    let near = { (spikes: [Int64]) in spikes.count { s in beats.contains { abs($0 - s) <= tolerance } } }
    // The first spikes get through (most of them: the scene this test is about), the second ones do not.
    #expect(near(firstSpikes) >= firstSpikes.count / 2)
    #expect(near(secondSpikes) == 0)
    #expect(extra == near(firstSpikes))
  }

  @Test(
    "drops a premature one-sided step, as of electrode motion, that comes too early for the interloper check",
    arguments: [250.0, 360, 1000])
  func oneSidedSteps(rate: Double) throws {
    var ecg = SyntheticECG(sampleRate: rate, .init(seconds: 60, meanRR: 1.0, seed: 10))
    // Every third beat from the tenth on, 40 % of the way to the next beat (past the T-wave window, and
    // too early for the next beat to be seen within the latency bound): a 0.7 mV step rising in about
    // 10 ms and falling back over 200 ms.
    var steps: [Int64] = []
    for k in stride(from: 10, to: ecg.rPeaks.count - 1, by: 3) {
      let onset = ecg.rPeaks[k] + (ecg.rPeaks[k + 1] - ecg.rPeaks[k]) * 2 / 5
      steps.append(onset)
      for i in Int(onset)..<min(ecg.samples.count, Int(onset) + Int(rate)) {
        let t = Double(i - Int(onset)) / rate
        ecg.samples[i] += Float(0.7 * (1 - exp(-t / 0.004)) * exp(-t / 0.2))
      }
    }
    let tolerance = Int64(0.15 * rate)
    let near = { (beats: [Int64]) in steps.count { s in beats.contains { abs($0 - s) <= tolerance } } }
    let (missed, extra, unchecked) = try Self.detectWithAndWithout(
      ecg.samples, truth: ecg.rPeaks, rate: rate
    ) { $0.stepSlopeSymmetry = 0 }
    #expect(missed == 0)
    #expect(extra == 0)
    #expect(near(unchecked) >= steps.count / 2, "the steps are taken for beats without the rule")
  }

  @Test("the high band keeps slow electrode-motion bumps from passing for beats", arguments: [250.0, 360])
  func slowBumps(rate: Double) throws {
    var ecg = SyntheticECG(sampleRate: rate, .init(seconds: 60, meanRR: 1.0, seed: 12))
    // Halfway between beats from the tenth on, a smooth 1.5 mV bump (a Gaussian of 40 ms width) as tall as
    // the QRS complexes in the QRS band's feature, with little energy above 20 Hz.
    var bumps: [Int64] = []
    for k in 10..<(ecg.rPeaks.count - 1) {
      let centre = (ecg.rPeaks[k] + ecg.rPeaks[k + 1]) / 2
      bumps.append(centre)
      Self.add([(1.5, 0, 0.040)], at: centre, scale: 1, to: &ecg.samples, rate: rate)
    }
    let tolerance = Int64(0.1 * rate)
    let near = { (beats: [Int64]) in bumps.count { s in beats.contains { abs($0 - s) <= tolerance } } }
    let (missed, extra, unchecked) = try Self.detectWithAndWithout(
      ecg.samples, truth: ecg.rPeaks, rate: rate
    ) { $0.highBand = nil }
    #expect(missed == 0)
    #expect(extra == 0)
    #expect(near(unchecked) >= bumps.count / 2, "the bumps pass for beats with the QRS band alone")
  }

  @Test("gives the same beats for any chunking", arguments: [125.0, 360, 1000])
  func chunkInvariance(rate: Double) throws {
    let ecg = SyntheticECG(sampleRate: rate, .init(seconds: 20, ectopicEvery: 4, noise: 0.05, wander: 0.5))
    let chunkings = Chunking.standard + [.fixed(7), .fixed(100), .fixed(4096), .random(1...3000, seed: 9)]
    let whole = try expectChunkInvariant(count: ecg.samples.count, chunkings: chunkings) {
      try QRSDetector(sampleRate: rate)
    } feed: { detector, range in
      var beats: [Int64] = []
      ecg.samples.withUnsafeBufferPointer {
        detector.process(UnsafeBufferPointer(rebasing: $0[range]), appendingTo: &beats)
      }
      return beats
    } finish: { detector in
      var beats: [Int64] = []
      detector.finish(appendingTo: &beats)
      return beats
    }
    #expect(whole.count >= ecg.rPeaks.count - 1)
    #expect(try whole == QRSDetector.detect(ecg.samples, sampleRate: rate))
  }

  @Test(
    "finish reports the beats of the last latency bound, and none where the recording is cut",
    arguments: [125.0, 360, 1000])
  func finish(rate: Double) throws {
    let ecg = SyntheticECG(sampleRate: rate, .init(seconds: 12, noise: 0.03))
    let rPeak = ecg.rPeaks[ecg.rPeaks.count - 3]
    let placement = Int64((0.050 * rate).rounded())
    // Cut within the QRS complex, on the ST segment, on the T wave, after it.
    for delay in [0.02, 0.12, 0.25, 0.40, 0.60] {
      let cut = Int(rPeak + Int64(delay * rate))
      let truth = ecg.rPeaks.filter { $0 < Int64(cut) - placement }
      var detector = try QRSDetector(sampleRate: rate)
      var beats = detector.process(Array(ecg.samples[..<cut]))
      let undecided = truth.filter { $0 > (beats.last ?? -1) + placement }
      detector.finish(appendingTo: &beats)
      let finished = beats
      detector.finish(appendingTo: &beats)
      #expect(beats == finished, "finishing again adds nothing")
      let (missed, extra, _) = compareBeats(truth, beats, tolerance: Int64(0.15 * rate))
      #expect(missed == 0 && extra == 0, "cut \(delay) s after an R peak at \(rate) Hz")
      #expect(beats.allSatisfy { $0 < Int64(cut) - placement })
      // A beat 0.12 or 0.25 s before the cut (within the latency bound) comes only with the finish.
      if (0.1..<0.3).contains(delay) {
        #expect(!undecided.isEmpty, "cut \(delay) s after an R peak at \(rate) Hz")
      }
    }
    var unfed = try QRSDetector(sampleRate: rate)
    var none: [Int64] = []
    unfed.finish(appendingTo: &none)
    #expect(none.isEmpty)
  }

  @Test(
    "a recording that starts on a T wave gets no beat before its first QRS complex",
    arguments: [125.0, 360, 1000])
  func startAfterRPeak(rate: Double) throws {
    // 100 beats/min: the QRS complex after a T wave comes within the latency bound of its peak.
    let ecg = SyntheticECG(sampleRate: rate, .init(seconds: 12, meanRR: 0.6, noise: 0.03))
    let rPeak = ecg.rPeaks[3]
    // Started on the ST segment, on the T wave's rise, peak and fall. (Started inside the QRS complex,
    // its end may still be taken for a beat.)
    for delay in [0.12, 0.22, 0.30, 0.36] {
      let start = Int(rPeak + Int64(delay * rate))
      let truth = ecg.rPeaks.filter { $0 >= Int64(start) }.map { $0 - Int64(start) }
      let beats = try QRSDetector.detect(Array(ecg.samples[start...]), sampleRate: rate)
      #expect(
        beats.first.map { $0 >= truth[0] - Int64(0.15 * rate) } ?? false, "start \(delay) s after an R peak")
      #expect(beats.count == truth.count, "start \(delay) s after an R peak at \(rate) Hz")
    }
  }

  @Test("reports each beat within the latency bound", arguments: [125.0, 1000])
  func latency(rate: Double) throws {
    let ecg = SyntheticECG(sampleRate: rate, .init(seconds: 20, ectopicEvery: 5, noise: 0.05))
    var detector = try QRSDetector(sampleRate: rate)
    var worst: Int64 = 0
    var found = 0
    for (index, sample) in ecg.samples.enumerated() {
      for beat in detector.process([sample]) {
        worst = max(worst, Int64(index) - beat)
        found += 1
      }
    }
    #expect(found >= ecg.rPeaks.count - 1)
    #expect(Double(worst) / rate <= detector.configuration.maximumLatency)
    #expect(Double(worst) / rate < 0.5)
  }

  @Test("chunks carry record indices and times")
  func signalChunks() throws {
    let rate = 250.0
    let ecg = SyntheticECG(sampleRate: rate, .init(seconds: 10))
    let start = Timestamp(secondsSinceEpoch: 1_700_000_000)
    let offset: Int64 = 1000
    let beats = try expectChunkInvariant(
      count: ecg.samples.count, chunkings: Chunking.standard + [.fixed(333)]
    ) {
      try QRSDetector(sampleRate: rate)
    } feed: { detector, range in
      let samples = Array(ecg.samples[range])
      let chunk = SignalChunk(
        channels: [[Float](repeating: 0, count: samples.count), samples], sampleRate: rate,
        startTime: start.advanced(bySamples: Int64(range.lowerBound), rate: rate),
        firstSampleIndex: offset + Int64(range.lowerBound))
      return detector.process(chunk, lead: 1)
    } finish: { detector in
      detector.finishChunks()
    }
    let expected = try QRSDetector.detect(ecg.samples, sampleRate: rate)
    #expect(beats.map(\.sampleIndex) == expected.map { $0 + offset })
    #expect(beats.map(\.time) == expected.map { start.advanced(bySamples: $0, rate: rate) })
  }

  @Test("a gap of NaN samples holds no beat and detection resumes after it")
  func notANumber() throws {
    let rate = 360.0
    var ecg = SyntheticECG(sampleRate: rate, .init(seconds: 30))
    let gap = Int(10 * rate)..<Int(13 * rate)
    for i in gap { ecg.samples[i] = .nan }
    let beats = try QRSDetector.detect(ecg.samples, sampleRate: rate)
    let after = ecg.rPeaks.filter { $0 > Int64(gap.upperBound) + Int64(rate) }
    let (missed, _, _) = compareBeats(
      after, beats.filter { $0 > Int64(gap.upperBound) + Int64(rate) }, tolerance: 54)
    #expect(missed == 0)
    #expect(!beats.contains { gap.contains(Int($0)) })
  }

  /// A non-finite sample is a gap (``QRSDetector/gaps``): the beats before it are decided, none lies in it,
  /// and after it the detector goes on with what it learned. A sample missing in a T wave, 250 ms after an
  /// R peak, then adds no beat: a detector that forgot its thresholds and last beat took the T wave after
  /// the gap for a first beat. The same beats whatever the chunking.
  @Test(
    "a non-finite sample is a gap that neither loses nor adds a beat",
    arguments: [Float.nan, .infinity, -.infinity])
  func nonFiniteSampleIsAGap(value: Float) throws {
    let rate = 360.0
    let ecg = SyntheticECG(sampleRate: rate, .init(seconds: 20, noise: 0.02))
    for k in [4, 9, 15] {
      var spoiled = ecg
      let at = Int(ecg.rPeaks[k]) + Int(0.25 * rate)
      spoiled.samples[at] = value
      let beats = try QRSDetector.detect(spoiled.samples, sampleRate: rate)
      let (missed, extra, _) = compareBeats(ecg.rPeaks, beats, tolerance: 18)
      #expect(missed == 0 && extra == 0, "gap at \(at): \(missed) missed, \(extra) extra")
      var detector = try QRSDetector(sampleRate: rate)
      var chunked: [Int64] = []
      spoiled.samples.withUnsafeBufferPointer { buffer in
        for start in stride(from: 0, to: buffer.count, by: 13) {
          detector.process(
            UnsafeBufferPointer(rebasing: buffer[start..<min(start + 13, buffer.count)]),
            appendingTo: &chunked)
        }
      }
      detector.finish(appendingTo: &chunked)
      #expect(chunked == beats)
      #expect(detector.gaps == [Int64(at)..<Int64(at + 1)])
    }
  }

  /// Gaps of one sample all over the cardiac cycle (400 ms before to 600 ms after R peaks): none adds a
  /// beat, and together they cost no more beats than restarting afresh after each gap (each side detected
  /// as a recording of its own, whose first peak, often a T wave, may be taken for a beat). A gap
  /// up to 5 ms after an R peak costs nothing; one 10–40 ms after it may cost that beat, whose QRS complex
  /// the gap cuts (the end of the segment before the gap drops it, and its rest after the gap is often
  /// too small to be taken).
  @Test("gaps across the cardiac cycle add no beat and cost fewer than restarting afresh")
  func gapsAcrossTheCycle() throws {
    let rate = 360.0
    let ecg = SyntheticECG(sampleRate: rate, .init(seconds: 30, noise: 0.02))
    var kept = (missed: 0, extra: 0)
    var afresh = (missed: 0, extra: 0)
    var nearR: [String] = []
    for k in [5, 15, 25] {
      for milliseconds in stride(from: -400, through: 600, by: 20) + [-10, -5, 5] {
        let at = Int(ecg.rPeaks[k]) + Int(Double(milliseconds) / 1000 * rate)
        var spoiled = ecg
        spoiled.samples[at] = .nan
        let beats = try QRSDetector.detect(spoiled.samples, sampleRate: rate)
        let (missed, extra, _) = compareBeats(ecg.rPeaks, beats, tolerance: 18)
        kept = (kept.missed + missed, kept.extra + extra)
        if (-60...5).contains(milliseconds) && missed + extra > 0 {
          nearR.append("R \(k) \(milliseconds) ms")
        }
        let before = try QRSDetector.detect(Array(ecg.samples[..<at]), sampleRate: rate)
        let after = try QRSDetector.detect(Array(ecg.samples[(at + 1)...]), sampleRate: rate)
        let (missedAfresh, extraAfresh, _) = compareBeats(
          ecg.rPeaks, before + after.map { $0 + Int64(at + 1) }, tolerance: 18)
        afresh = (afresh.missed + missedAfresh, afresh.extra + extraAfresh)
      }
    }
    #expect(kept.extra == 0)
    #expect(kept.missed + kept.extra <= afresh.missed + afresh.extra, "kept \(kept), afresh \(afresh)")
    #expect(nearR.isEmpty, "\(nearR)")
  }

  /// `ecg` with sinus pauses of `lengths` seconds after the beats at `after`: the diastole from 450 ms after
  /// the R peak to 250 ms before the next, played forward and backward (so the signal stays continuous)
  /// until the pause is about that long; returns the samples, the moved R peaks and the pauses' ranges.
  static func withPauses(_ ecg: SyntheticECG, after: [Int], lengths: [Double], rate: Double) -> (
    samples: [Float], rPeaks: [Int64], pauses: [Range<Int64>]
  ) {
    var samples: [Float] = []
    var rPeaks = ecg.rPeaks
    var pauses: [Range<Int64>] = []
    var copied = 0
    for (k, length) in zip(after, lengths) {
      let low = Int(ecg.rPeaks[k]) + Int(0.45 * rate)
      let high = Int(ecg.rPeaks[k + 1]) - Int(0.25 * rate)
      let stretch = Array(ecg.samples[low..<high]) + ecg.samples[low..<high].reversed()
      samples += ecg.samples[copied..<low]
      let start = Int64(samples.count)
      for _ in 0..<Int((length * rate / Double(stretch.count)).rounded()) { samples += stretch }
      let inserted = Int64(samples.count) - start
      for j in (k + 1)..<rPeaks.count { rPeaks[j] += inserted }
      pauses.append(start..<start + inserted)
      copied = low
    }
    return (samples + ecg.samples[copied...], rPeaks, pauses)
  }

  @Test(
    "with the amplitude-drop floor, no beat in sinus pauses of 3 to 6 s, none missed; without, some",
    arguments: [250.0, 360, 1000])
  func sinusPauses(rate: Double) throws {
    let ecg = SyntheticECG(sampleRate: rate, .init(seconds: 60, meanRR: 0.8, noise: 0.04, seed: 13))
    let paused = Self.withPauses(ecg, after: [10, 25, 40, 55], lengths: [3, 4, 5, 6], rate: rate)
    var floored = QRSDetector.Configuration()
    floored.amplitudeDropFloor = 0.9
    let beats = try QRSDetector.detect(paused.samples, sampleRate: rate, configuration: floored)
    let (missed, extra, _) = compareBeats(paused.rPeaks, beats, tolerance: Int64(0.15 * rate))
    #expect(missed == 0)
    #expect(extra == 0)
    let unlimited = try QRSDetector.detect(paused.samples, sampleRate: rate)
    let inPauses = unlimited.count { beat in paused.pauses.contains { $0.contains(beat) } }
    #expect(inPauses >= 2, "without the floor, the noise of the pauses passes for beats")
  }

  @Test(
    "finds every beat of a 10-s recording, the first included, at rates from 125 Hz to 1 kHz",
    arguments: [125.0, 250, 500, 1000])
  func shortRecording(rate: Double) throws {
    for seed: UInt64 in 20..<26 {
      let ecg = SyntheticECG(
        sampleRate: rate, .init(seconds: 10, meanRR: 0.6 + 0.1 * Double(seed % 5), noise: 0.03, seed: seed))
      let beats = try QRSDetector.detect(ecg.samples, sampleRate: rate)
      let window = BeatComparison.windowSamples(0.075, sampleRate: rate)
      let score = BeatComparison.score(reference: ecg.rPeaks, test: beats, sampleRate: rate)
      let matching = BeatMatching(reference: ecg.rPeaks, test: beats, window: window)
      #expect(matching.unmatchedReference.isEmpty && matching.unmatchedTest.isEmpty, "seed \(seed): \(score)")
    }
  }

  @Test("rejects unsupported rates and options")
  func errors() {
    #expect(throws: QRSDetectorError.unsupportedSampleRate(50)) { try QRSDetector(sampleRate: 50) }
    var options = QRSDetector.Configuration()
    options.refractoryPeriod = 0.05
    #expect(throws: QRSDetectorError.invalidConfiguration("refractoryPeriod", 0.05)) {
      try QRSDetector(sampleRate: 360, configuration: options)
    }
    options = QRSDetector.Configuration()
    options.highBand = 0.5...45
    #expect(throws: QRSDetectorError.invalidConfiguration("highBand.lowerBound", 0.5)) {
      try QRSDetector(sampleRate: 360, configuration: options)
    }
    options = QRSDetector.Configuration()
    options.amplitudeDropPause = -1
    #expect(throws: QRSDetectorError.invalidConfiguration("amplitudeDropPause", -1)) {
      try QRSDetector(sampleRate: 360, configuration: options)
    }
  }
}

/// The noise-stress excerpts of MIT-BIH 118 (electrode-motion noise at 24, 12, 6 and 0 dB; `make eval-ecg`
/// prints the same scores with MIT-BIH's).
@Suite struct QRSNoiseStressTests {
  static func f1(_ snr: String, _ configuration: QRSDetector.Configuration = .init()) throws -> Double {
    let directory = "nstdb-118/118e\(snr)"
    let samples = try String(contentsOf: TestData.sharedData(directory + ".csv"), encoding: .utf8)
      .split(whereSeparator: \.isNewline).map { Float($0)! }
    let reference = try String(contentsOf: TestData.sharedData(directory + "_ann.csv"), encoding: .utf8)
      .split(whereSeparator: \.isNewline).map { Int64($0)! }
    let beats = try QRSDetector.detect(samples, sampleRate: 360, configuration: configuration)
    return BeatComparison.score(reference: reference, test: beats, sampleRate: 360).f1
  }

  @Test(
    "scores F1 of at least 99 % at 24 and 12 dB and 95 % at 6 dB; without the high band or the one-sided rules, less at 6 dB",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data (nstdb-118)"))
  func noiseStress() throws {
    #expect(try Self.f1("24") >= 0.99)
    #expect(try Self.f1("12") >= 0.99)
    let sixDecibels = try Self.f1("06")
    #expect(sixDecibels >= 0.95)
    var singleBand = QRSDetector.Configuration()
    singleBand.highBand = nil
    #expect(try Self.f1("06", singleBand) < sixDecibels - 0.05)
    var twoSided = QRSDetector.Configuration()
    twoSided.stepSlopeSymmetry = 0
    #expect(try Self.f1("06", twoSided) < sixDecibels - 0.03)
  }
}
