import Foundation
import Testing
import VitalsAnalysis
import VitalsCore
import VitalsSimulation
import VitalsTestSupport

/// A simulated recording with its PPG channels first, then (with motion) the three axes.
private func simulate(
  heartRate: Profile, seconds: Double = 60, rate: Double = 125, channels: Int = 2,
  motion: AccelerometerConfiguration? = nil, white: Double = 0.01, artefactGain: Double = 1, seed: UInt64 = 11
) -> SimulatedRecording {
  var configuration = PPGConfiguration(
    rhythm: RhythmConfiguration(), channelCount: channels, motion: motion)
  configuration.rhythm.heartRate = heartRate
  configuration.rhythm.rrStandardDeviation = 0.02
  configuration.noise.white = white
  configuration.motionArtifactGain = artefactGain
  var simulator = PPGSimulator(configuration: configuration, duration: seconds, sampleRate: rate, seed: seed)
  return simulator.generateAll()
}

/// The estimator's windows for `recording` (its first `channels` signals are PPG, the rest axes unless
/// `useAxes` is false), fed in chunks of `chunk` samples.
private func estimate(
  _ recording: SimulatedRecording, channels: Int, useAxes: Bool = true, chunk: Int = 4096
) throws -> [HeartRateWindow] {
  let axes = useAxes ? Array(recording.channels[channels...]) : []
  var estimator = try PPGHeartRateEstimator(
    sampleRate: recording.sampleRate, ppgChannelCount: channels, accelerationAxisCount: axes.count)
  var windows: [HeartRateWindow] = []
  var start = 0
  let count = recording.channels[0].count
  while start < count {
    let end = min(count, start + chunk)
    windows += estimator.process(
      ppg: recording.channels[..<channels].map { Array($0[start..<end]) },
      acceleration: axes.map { Array($0[start..<end]) })
    start = end
  }
  return windows
}

/// Mean absolute difference, BPM, between the windows and the true rate of the same windows.
private func meanError(_ windows: [HeartRateWindow], _ recording: SimulatedRecording) -> Double {
  let truth = BeatRateWindows.windows(
    beats: recording.events.map(\.sampleIndex), sampleRate: recording.sampleRate,
    duration: Double(recording.channels[0].count) / recording.sampleRate)
  #expect(truth.count == windows.count)
  let errors = zip(windows, truth).map { abs($0.beatsPerMinute - $1.beatsPerMinute) }
  return errors.reduce(0, +) / Double(errors.count)
}

@Suite struct PPGHeartRateTests {
  @Test(arguments: [(60.0, 125.0), (95.0, 25.0), (150.0, 64.0)])
  func cleanPPG(heartRate: Double, rate: Double) throws {
    let recording = simulate(heartRate: Profile(constant: heartRate), seconds: 40, rate: rate, channels: 1)
    let windows = try estimate(recording, channels: 1)
    #expect(windows.count == 17)
    #expect(windows.first?.startTime == 0 && windows.first?.endTime == 8)
    #expect(windows.last?.startTime == 32)
    #expect(meanError(windows, recording) < 1.5)
    #expect(windows.allSatisfy { $0.isReliable })
    // No accelerometer: quality is capped by the unverified scale.
    #expect(windows.allSatisfy { $0.quality <= PPGHeartRateEstimator.unverifiedQualityScale + 1e-9 })
  }

  @Test func noisyPPG() throws {
    let recording = simulate(heartRate: Profile([(0, 70), (60, 100)]), white: 0.4)
    let windows = try estimate(recording, channels: 2)
    #expect(meanError(windows, recording) < 2.5)
  }

  /// Running with the device on the wrist: the arm swing and steps leak into both PPG channels, stronger
  /// than the pulse; the accelerometer lets the tracker follow the rising heart rate.
  @Test func motionCorruptedPPG() throws {
    let motion = AccelerometerConfiguration(activity: .running, placement: .wrist, cadence: 160)
    let recording = simulate(
      heartRate: Profile([(0, 95), (90, 150)]), seconds: 90, motion: motion, artefactGain: 3)
    let withAxes = try estimate(recording, channels: 2)
    let withoutAxes = try estimate(recording, channels: 2, useAxes: false)
    #expect(meanError(withAxes, recording) < 3)
    #expect(meanError(withoutAxes, recording) > 2 * meanError(withAxes, recording))
    let meanQuality = { (w: [HeartRateWindow]) in w.map(\.quality).reduce(0, +) / Double(w.count) }
    #expect(meanQuality(withoutAxes) < meanQuality(withAxes))
  }

  @Test func periodicMotionIsMeasuredOnlyWithAnAccelerometer() throws {
    let running = AccelerometerConfiguration(activity: .running, placement: .wrist, cadence: 160)
    let moving = simulate(heartRate: 95, seconds: 30, motion: running)
    #expect(try estimate(moving, channels: 2).allSatisfy { $0.periodicMotion == 1 })
    #expect(try estimate(moving, channels: 2, useAxes: false).allSatisfy { $0.periodicMotion == nil })
    // Axes of white noise (a still wrist's sensor noise) are not locomotion.
    let still = simulate(heartRate: 70, seconds: 30, channels: 1)
    var generator = SplitMix64(state: 5)
    let noise = (0..<3).map { _ in
      (0..<still.channels[0].count).map { _ in Float(Double.random(in: -1...1, using: &generator)) }
    }
    var estimator = try PPGHeartRateEstimator(sampleRate: 125, ppgChannelCount: 1, accelerationAxisCount: 3)
    let windows = estimator.process(ppg: [still.channels[0]], acceleration: noise)
    #expect(windows.allSatisfy { ($0.periodicMotion ?? 1) < 1 })
    #expect(windows.allSatisfy { abs($0.beatsPerMinute - 70) < 3 })
  }

  @Test func chunkSizesGiveTheSameWindows() throws {
    let motion = AccelerometerConfiguration(activity: .walking, placement: .wrist)
    let recording = simulate(heartRate: 80, seconds: 30, motion: motion)
    let axes = Array(recording.channels[2...])
    let whole = try expectChunkInvariant(
      count: recording.channels[0].count, chunkings: Chunking.standard + [7, 250, 1001].map(Chunking.fixed)
    ) {
      try PPGHeartRateEstimator(
        sampleRate: recording.sampleRate, ppgChannelCount: 2, accelerationAxisCount: 3)
    } feed: { estimator, range in
      estimator.process(
        ppg: recording.channels[..<2].map { Array($0[range]) }, acceleration: axes.map { Array($0[range]) })
    }
    #expect(axes.count == 3 && whole.count == 12)
    #expect(try whole == estimate(recording, channels: 2))
  }

  @Test func estimatesStayInRangeAndFlatSignalIsFlagged() throws {
    var estimator = try PPGHeartRateEstimator(sampleRate: 50)
    let flat = estimator.process(ppg: [[Float](repeating: 0, count: 500)])
    #expect(flat.count == 2)
    #expect(flat.allSatisfy { $0.beatsPerMinute.isNaN && $0.quality == 0 && !$0.isReliable })
    var noise = SimulationRandom(seed: 3)
    let random = estimator.process(ppg: [(0..<3000).map { _ in Float(noise.uniform()) }])
    #expect(!random.isEmpty)
    #expect(random.allSatisfy { (36...210).contains($0.beatsPerMinute) })
    #expect(random.map(\.quality).max()! < 0.5)
  }

  /// A lone spike leaves the band-pass ringing down after it: its normalized spectrum has a line near the
  /// band's lower edge, but no window holds a pulse (quality 0).
  @Test func aLoneSpikeIsNoPulse() throws {
    var samples = [Float](repeating: 0, count: 3000)
    samples[1500] = 1
    var estimator = try PPGHeartRateEstimator(sampleRate: 100)
    let windows = estimator.process(ppg: [samples])
    #expect(windows.count == 12)
    #expect(windows.allSatisfy { !$0.isReliable && $0.quality < 0.1 }, "\(windows.map(\.quality))")
  }

  @Test func rejectsLowRatesAndBadOptions() {
    #expect(throws: PPGAnalysisError.unsupportedSampleRate(20)) { try PPGHeartRateEstimator(sampleRate: 20) }
    var configuration = PPGHeartRateEstimator.Configuration()
    configuration.window = 1
    #expect(throws: PPGAnalysisError.invalidConfiguration("window", 1)) {
      try PPGHeartRateEstimator(sampleRate: 100, configuration: configuration)
    }
    #expect(throws: PPGAnalysisError.unsupportedSampleRate(10)) { try PPGPulseDetector(sampleRate: 10) }
  }
}

@Suite struct PPGPulseDetectorTests {
  /// Detected peaks against the simulator's systolic peaks, matched within 60 ms.
  private func sensitivityAndPredictivity(_ peaks: [Int64], _ recording: SimulatedRecording) -> (
    Double, Double
  ) {
    let window = Int64((0.06 * recording.sampleRate).rounded())
    let matching = BeatMatching(reference: recording.events.map(\.sampleIndex), test: peaks, window: window)
    return (
      Double(matching.pairs.count) / Double(recording.events.count),
      Double(matching.pairs.count) / Double(peaks.count)
    )
  }

  @Test(arguments: [(65.0, 125.0, 0.01), (110.0, 50.0, 0.05), (160.0, 250.0, 0.1)])
  func findsSystolicPeaks(heartRate: Double, rate: Double, white: Double) throws {
    let recording = simulate(heartRate: Profile(constant: heartRate), rate: rate, channels: 1, white: white)
    var detector = try PPGPulseDetector(sampleRate: rate)
    let pulses = detector.process(recording.channels[0])
    let (sensitivity, predictivity) = sensitivityAndPredictivity(pulses.map(\.peak), recording)
    #expect(sensitivity > 0.98)
    #expect(predictivity > 0.98)
    // Onsets precede their peaks by less than a beat.
    let beat = Int64(60 / heartRate * rate)
    #expect(pulses.allSatisfy { $0.onset < $0.peak && $0.peak - $0.onset < beat })
    // Pulse-rate variability: the mean NN interval matches the rate.
    let analysis = HRVAnalysis(beats: pulses.map(\.peak), sampleRate: rate)
    #expect(abs(analysis.time.meanNN - 60_000 / heartRate) < 0.02 * 60_000 / heartRate)
  }

  @Test func chunkSizesGiveTheSamePulses() throws {
    // 5000 samples: more than one of the detector's 4096-sample blocks.
    let recording = simulate(heartRate: 75, seconds: 40, channels: 1, white: 0.05)
    let samples = recording.channels[0]
    let pulses = try expectChunkInvariant(
      count: samples.count, chunkings: Chunking.standard + [13, 500, 4097].map(Chunking.fixed)
    ) {
      try PPGPulseDetector(sampleRate: recording.sampleRate)
    } feed: { detector, range in
      detector.process(Array(samples[range]))
    }
    #expect(pulses.count > 40)
  }

  @Test func nonFiniteSamplesAreGaps() throws {
    var samples = simulate(heartRate: 70, seconds: 20, channels: 1).channels[0]
    samples[1000] = .infinity
    var detector = try PPGPulseDetector(sampleRate: 125)
    let pulses = detector.process(samples)
    // The two sides, each detected as a recording of its own.
    var first = try PPGPulseDetector(sampleRate: 125)
    var second = try PPGPulseDetector(sampleRate: 125)
    let expected =
      first.process(Array(samples[..<1000]))
      + second.process(Array(samples[1001...])).map { PPGPulse(peak: $0.peak + 1001, onset: $0.onset + 1001) }
    #expect(pulses == expected)
    #expect((18...24).contains(pulses.count))
    #expect(detector.gaps == [1000..<1001])
  }
}

@Suite struct BeatRateWindowTests {
  @Test func regularBeatsAndAnExtraBeat() {
    // 75 BPM at 100 Hz (0.8 s), with one extra beat at 10.3 s.
    var beats = stride(from: 50, to: 2000, by: 80).map(Int64.init)
    beats.append(1030)
    beats.sort()
    let windows = BeatRateWindows.windows(beats: beats, sampleRate: 100, duration: 20)
    #expect(windows.count == 7)
    #expect(windows.allSatisfy { abs($0.beatsPerMinute - 75) < 1e-9 })
    #expect(windows[0].quality == 1 && windows[0].isReliable)
    // Windows holding the extra beat keep the rate but lose quality.
    #expect(windows[2].quality < 1)
    let empty = BeatRateWindows.windows(beats: [10], sampleRate: 100, duration: 9)
    #expect(empty.count == 1 && empty[0].beatsPerMinute.isNaN && !empty[0].isReliable)
  }

  /// Beats 5 s apart (a 1 Hz sine read as an ECG) or 0.2 s apart are no heart rate: NaN, quality 0.
  @Test(arguments: [500, 20])
  func medianIntervalOutsideTheRateRangeIsNoReading(period: Int) {
    let beats = stride(from: 50, to: 3000, by: period).map(Int64.init)
    let windows = BeatRateWindows.windows(beats: beats, sampleRate: 100, duration: 30)
    #expect(windows.count == 12)
    #expect(windows.allSatisfy { $0.beatsPerMinute.isNaN && $0.quality == 0 && !$0.isReliable })
  }
}

@Suite struct PPGSharedDataTests {
  /// SPC 2015 recording 1 (a resting start, then running): the tracker stays close to the ECG truth.
  @Test(.enabled(if: TestData.hasSharedData, "needs ../shared/data (IEEE SPC 2015)"))
  func spcRecordingFollowsTheTruth() throws {
    let url = TestData.sharedData("ieee-spc2015/DATA_01_TYPE01.csv")
    let text = try String(contentsOf: url, encoding: .utf8)
    var columns = Array(repeating: [Float](), count: 6)
    for line in text.split(separator: "\n").dropFirst() {
      for (k, field) in line.split(separator: ",").enumerated() where k < 6 {
        columns[k].append(Float(field)!)
      }
    }
    var estimator = try PPGHeartRateEstimator(sampleRate: 125, ppgChannelCount: 2, accelerationAxisCount: 3)
    let windows = estimator.process(ppg: Array(columns[1...2]), acceleration: Array(columns[3...5]))
    let truthText = try String(
      contentsOf: TestData.sharedData("ieee-spc2015/DATA_01_TYPE01_bpm.csv"), encoding: .utf8)
    let truth = truthText.split(separator: "\n").dropFirst().map { Double($0.split(separator: ",")[2])! }
    #expect(windows.count == truth.count)
    let errors: [Double] = zip(windows, truth).map { abs($0.beatsPerMinute - $1) }
    let meanError = errors.reduce(0, +) / Double(errors.count)
    #expect(meanError < 3)
  }
}
