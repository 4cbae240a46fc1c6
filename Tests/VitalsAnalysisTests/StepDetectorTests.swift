import Foundation
import Testing
@testable import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsSimulation
import VitalsTestSupport

/// A simulated recording of `activity` at `placement` (seed fixed per case).
private func simulate(
  _ activity: Activity, _ placement: Placement, seconds: Double = 60, rate: Double = 100,
  unit: AccelerationUnit = .g, jitter: Double = 0, seed: UInt64 = 7
) -> SimulatedRecording {
  var configuration = AccelerometerConfiguration(activity: activity, placement: placement, unit: unit)
  configuration.timingJitter = jitter
  var simulator = AccelerometerSimulator(
    configuration: configuration, duration: seconds, sampleRate: rate, seed: seed)
  return simulator.generateAll()
}

/// The steps and bouts of a whole recording.
private func detect(
  _ recording: SimulatedRecording, configuration: StepDetector.Configuration = .init()
) throws -> StepDetector.Output {
  let c = recording.channels
  return try StepDetector.detect(
    x: c[0], y: c[1], z: c[2], sampleRate: recording.sampleRate, configuration: configuration)
}

@Suite("StepDetector")
struct StepDetectorTests {
  @Test(
    "every placement's walk and run is counted within 3 % of the heel strikes",
    arguments: Placement.allCases, [Activity.walking, .running])
  func placements(placement: Placement, activity: Activity) throws {
    let recording = simulate(activity, placement)
    let output = try detect(recording)
    let truth = recording.events.count
    #expect(abs(output.steps.count - truth) <= max(2, truth * 3 / 100), "\(output.steps.count) of \(truth)")
    // One bout spanning the walk, at the simulated cadence.
    #expect(output.bouts.count == 1)
    let cadence = activity == .running ? 165.0 : 110.0
    #expect(abs(output.bouts.overallCadence - cadence) < 0.05 * cadence)
    #expect(output.bouts.first?.steps == output.steps.count)
  }

  @Test("cadences from a slow walk to a fast run", arguments: [70.0, 90, 130, 185])
  func cadences(cadence: Double) throws {
    let activity: Activity = cadence > 140 ? .running : .walking
    var simulator = AccelerometerSimulator(
      configuration: AccelerometerConfiguration(
        activity: activity, placement: .hand, cadence: Profile(constant: cadence)),
      duration: 60, sampleRate: 100, seed: 5)
    let recording = simulator.generateAll()
    let output = try detect(recording)
    let truth = recording.events.count
    #expect(abs(output.steps.count - truth) <= max(2, truth * 3 / 100), "\(output.steps.count) of \(truth)")
    #expect(abs(output.bouts.overallCadence - cadence) < 0.05 * cadence)
  }

  @Test("steps lie on the heel strikes: each within 0.1 s of a true one", arguments: Placement.allCases)
  func timing(placement: Placement) throws {
    let recording = simulate(.walking, placement)
    let output = try detect(recording)
    let truth = recording.events.map(\.time)
    for step in output.steps {
      let t = Double(step.sampleIndex) / recording.sampleRate
      let nearest = truth.map { abs($0 - t) }.min()!
      #expect(nearest < 0.1, "step at \(t) s")
    }
  }

  @Test(
    "non-walking activity adds at most one false step per minute",
    arguments: [Activity.still, .typing, .vehicle, .gestures, .shaking],
    [Placement.wrist, .frontPocket, .bag])
  func falseSteps(activity: Activity, placement: Placement) throws {
    let output = try detect(simulate(activity, placement, seconds: 120))
    #expect(output.steps.count <= 2)
  }

  /// Steps and bouts are compared once finished: a bout and the steps after it can be decided in one chunk.
  /// 7-sample chunks never fill the boxcar's 16 SIMD lanes: at 15, 50 and 100 Hz (factors 1, 2 and 4) they
  /// hold the lanes' means to the sample-by-sample ones; 150 Hz (factor 6) has no lanes.
  @Test("the same steps and bouts whatever the chunk sizes", arguments: [15.0, 50, 100, 150])
  func chunkInvariance(rate: Double) throws {
    let recording = simulate(.walking, .hand, seconds: 40, rate: rate)
    let outputs = try expectChunkInvariant(
      count: recording.channels[0].count, chunkings: Chunking.standard + [7, 333, 4097].map(Chunking.fixed)
    ) {
      (detector: try StepDetector(sampleRate: rate), output: StepDetector.Output())
    } feed: { stage, range in
      let chunk = SignalChunk(
        channels: recording.channels.map { Array($0[range]) }, sampleRate: rate,
        startTime: recording.startTime.advanced(bySamples: Int64(range.lowerBound), rate: rate),
        firstSampleIndex: Int64(range.lowerBound))
      stage.detector.process(chunk, into: &stage.output)
      return [StepDetector.Output]()
    } finish: { stage in
      stage.detector.finish(into: &stage.output)
      return [stage.output]
    }
    let whole = try detect(recording)
    #expect(!whole.steps.isEmpty)
    #expect(outputs == [whole])
  }

  @Test("g and m/s² give the same steps; the unit is recognised from gravity")
  func units() throws {
    let inG = simulate(.walking, .backPocket, seconds: 40)
    let inSI = simulate(.walking, .backPocket, seconds: 40, unit: .metersPerSecondSquared)
    let steps = try detect(inG).steps
    #expect(steps.count > 50)
    #expect(try detect(inSI).steps == steps)
    var configuration = StepDetector.Configuration()
    configuration.unit = .metersPerSecondSquared
    #expect(try detect(inSI, configuration: configuration).steps == steps)
    // Readings taken for g while they are m/s² are ten times too large: peaks pass the threshold that
    // would not, but the rhythm still decides; the unit is what the detector reports.
    var detector = try StepDetector(sampleRate: 100)
    var output = StepDetector.Output()
    let c = inSI.channels
    c[0].withUnsafeBufferPointer { x in
      c[1].withUnsafeBufferPointer { y in
        c[2].withUnsafeBufferPointer { z in detector.process(x: x, y: y, z: z, into: &output) }
      }
    }
    #expect(detector.resolvedUnit == .metersPerSecondSquared)
  }

  /// A 3.3 g jolt as the first sample of a walk in g, or a 3.0 m/s² first sample of one in m/s²: the unit
  /// is decided from the first second, so the steps are those with the unit given, whatever the chunking.
  @Test(
    "one outlying first sample does not decide the unit",
    arguments: [(AccelerationUnit.g, Float(3.3)), (.metersPerSecondSquared, 3.0)])
  func unitFromTheFirstSecond(unit: AccelerationUnit, first: Float) throws {
    var recording = simulate(.walking, .hand, seconds: 40, rate: 50, unit: unit)
    (recording.channels[0][0], recording.channels[1][0], recording.channels[2][0]) = (first, 0, 0)
    var configuration = StepDetector.Configuration()
    configuration.unit = unit == .g ? .g : .metersPerSecondSquared
    let given = try detect(recording, configuration: configuration)
    #expect(given.steps.count > 50)
    let outputs = try expectChunkInvariant(
      count: recording.channels[0].count, chunkings: Chunking.standard + [7, 49, 51].map(Chunking.fixed)
    ) {
      (detector: try StepDetector(sampleRate: 50), output: StepDetector.Output())
    } feed: { stage, range in
      let chunk = SignalChunk(
        channels: recording.channels.map { Array($0[range]) }, sampleRate: 50,
        startTime: recording.startTime.advanced(bySamples: Int64(range.lowerBound), rate: 50),
        firstSampleIndex: Int64(range.lowerBound))
      stage.detector.process(chunk, into: &stage.output)
      return [StepDetector.InputUnit?]()
    } finish: { stage in
      stage.detector.finish(into: &stage.output)
      let same = stage.output == given
      #expect(same, "\(stage.output.steps.count) steps, \(given.steps.count) with the unit given")
      return [stage.detector.resolvedUnit]
    }
    #expect(outputs == [configuration.unit])
  }

  @Test("irregular time stamps, resampled onto a uniform grid, keep the count", arguments: [25.0, 50, 100])
  func irregularTiming(rate: Double) throws {
    let recording = simulate(.walking, .armband, rate: rate, jitter: 0.3 / rate)
    let times = (0..<recording.channels[0].count).map { recording.time(ofSample: $0) }
    let measured = try #require(UniformGridInterpolator.measuredRate(times: times))
    var interpolator = UniformGridInterpolator(channelCount: 3, rate: measured)
    var grid: [[Float]] = [[], [], []]
    interpolator.process(times: times, values: recording.channels, into: &grid)
    interpolator.finish(into: &grid)
    let output = try StepDetector.detect(x: grid[0], y: grid[1], z: grid[2], sampleRate: measured)
    let truth = recording.events.count
    #expect(abs(output.steps.count - truth) <= max(2, truth * 3 / 100), "\(output.steps.count) of \(truth)")
  }

  @Test("rates from 15 Hz to 1 kHz", arguments: [15.0, 32, 200, 1000])
  func rates(rate: Double) throws {
    let recording = simulate(.walking, .neckPouch, seconds: 40, rate: rate)
    let output = try detect(recording)
    let truth = recording.events.count
    #expect(abs(output.steps.count - truth) <= max(2, truth * 3 / 100), "\(output.steps.count) of \(truth)")
  }

  @Test("a recording that starts with zero readings and holds a NaN sample: two bouts, both counted")
  func invalidSamples() throws {
    var recording = simulate(.walking, .wrist, seconds: 60)
    let reference = try detect(recording).steps.count
    for c in 0..<3 {
      for i in 0..<50 { recording.channels[c][i] = 0 }
    }
    recording.channels[2][3000] = .nan
    let output = try detect(recording)
    #expect(output.bouts.count == 2)
    #expect(output.bouts[0].end.sampleIndex < 3000 && output.bouts[1].start.sampleIndex > 3000)
    #expect(abs(output.steps.count - reference) <= 2)
    #expect(output.steps.allSatisfy { $0.sampleIndex >= 0 })
  }

  @Test("the magnitudes handed out are √(x² + y² + z²) of each sample, NaN kept; the steps are unchanged")
  func magnitudes() throws {
    var recording = simulate(.walking, .wrist, seconds: 100)
    for c in 0..<3 {
      for i in 0..<50 { recording.channels[c][i] = 0 }
      for i in stride(from: 1000, to: 3000, by: 97) { recording.channels[c][i] = .nan }
    }
    let (x, y, z) = (recording.channels[0], recording.channels[1], recording.channels[2])
    var detector = try StepDetector(sampleRate: recording.sampleRate)
    var output = StepDetector.Output()
    // Longer than a block (4096 samples), so both the whole blocks and the tail are handed out.
    var magnitudes = [Float](repeating: -1, count: x.count + 1)
    x.withUnsafeBufferPointer { x in
      y.withUnsafeBufferPointer { y in
        z.withUnsafeBufferPointer { z in
          magnitudes.withUnsafeMutableBufferPointer {
            detector.process(x: x, y: y, z: z, into: &output, magnitudes: $0)
          }
        }
      }
    }
    detector.finish(into: &output)
    #expect(output == (try detect(recording)))
    let expected = x.indices.map { i in (x[i] * x[i] + y[i] * y[i] + z[i] * z[i]).squareRoot() }
    #expect(zip(magnitudes, expected).allSatisfy { $0.bitPattern == $1.bitPattern })
    #expect(magnitudes.last == -1)
  }

  /// The steps and bouts a rhythm test at 25 Hz decides for candidate peaks (sample, band-passed value):
  /// 10 candidates start a bout, 14 when their median is under 0.12 g, 4 within `resumeWindow`
  /// (`resumingWeak` when weak).
  private func rhythmSteps(
    _ peaks: [(Int64, Float)], resumeWindow: Int64 = 250, resumingWeak: Int = 14
  ) -> (steps: [Int64], bouts: Int) {
    var rhythm = StepRhythm(
      stepsToStartBout: 10, stepsToResumeBout: 4, stepsToResumeWeakBout: resumingWeak,
      resumeWindow: resumeWindow, maximumInterval: 37.5,
      strideRatio: 0.7...1.4, continuationRatio: 1.6, amplitudeRatio: 4, ringingDecay: 0.9,
      weakStepAmplitude: 0.12, stepsToStartWeakBout: 14, confirmationDelay: 8)
    var found: [Int64] = []
    var bouts: [(start: Int64, end: Int64, steps: Int)] = []
    for (peak, amplitude) in peaks {
      rhythm.advance(to: peak, bouts: &bouts)
      rhythm.accept(peak, amplitude: amplitude, steps: &found, bouts: &bouts)
    }
    rhythm.finish(bouts: &bouts)
    return (found, bouts.count)
  }

  @Test("a walk that resumes within the resume window needs only stepsToResumeBout regular steps")
  func resumedWalk() {
    // 12 steps 0.6 s apart, a pause of `pause` samples, then 5 more steps.
    func steps(pause: Int64, resumeWindow: Int64) -> (steps: Int, bouts: Int) {
      let first = (0..<12).map { Int64(15 * $0) }
      let second = (0..<5).map { first.last! + pause + Int64(15 * $0) }
      let found = rhythmSteps((first + second).map { ($0, 0.3) }, resumeWindow: resumeWindow)
      return (found.steps.count, found.bouts)
    }
    #expect(steps(pause: 150, resumeWindow: 250) == (17, 2))
    #expect(steps(pause: 150, resumeWindow: 0) == (12, 1))
    #expect(steps(pause: 300, resumeWindow: 250) == (12, 1))
  }

  @Test("a weak walk that resumes within the resume window needs stepsToResumeWeakBout regular steps")
  func resumedWeakWalk() {
    // 16 weak steps 0.6 s apart, a pause of 6 s, then 6 more weak steps.
    let first = (0..<16).map { Int64(15 * $0) }
    let second = (0..<6).map { first.last! + 150 + Int64(15 * $0) }
    let peaks = (first + second).map { ($0, Float(0.08)) }
    #expect(rhythmSteps(peaks, resumingWeak: 6) == (first + second, 2))
    #expect(rhythmSteps(peaks, resumingWeak: 7) == (first, 1))
    #expect(rhythmSteps(peaks, resumeWindow: 0, resumingWeak: 6) == (first, 1))
  }

  @Test("the first steps of a walk that broke the run's tests are back-filled once the bout starts")
  func backFilledSteps() {
    // 14 steps 0.6 s apart; the third is weak (6 times smaller than its foot's previous and next peaks),
    // which restarts the run twice: the bout starts with the fourth step's run and back-fills three.
    let times = (0..<14).map { Int64(15 * $0) }
    let peaks = times.enumerated().map { ($0.element, $0.offset == 2 ? Float(0.05) : 0.3) }
    let found = rhythmSteps(peaks)
    #expect(found.steps == times)
    #expect(found.bouts == 1)
    // A candidate 1.2 s before the first is not back-filled: the chain back ends at an interval over 1.6
    // periods.
    #expect(rhythmSteps([(-30, 0.3)] + peaks).steps == times)
  }

  @Test("a damped oscillation's peaks start no bout, nor are they back-filled")
  func ringing() {
    // Bumps every 1.1 to 1.5 s, each ringing at 0.56 s with its peaks decaying by 0.6 each.
    var peaks: [(Int64, Float)] = []
    var start: Int64 = 0
    for bump in 0..<20 {
      for k in 0..<3 { peaks.append((start + 14 * Int64(k), 0.3 * pow(0.6, Float(k)))) }
      start += 28 + 14 + Int64(bump % 3) * 3
    }
    #expect(rhythmSteps(peaks).steps.isEmpty)
    // The same times at a steady size are a walk.
    #expect(rhythmSteps(peaks.map { ($0.0, 0.3) }).steps.count == peaks.count)
  }

  @Test("a weak rhythm needs stepsToStartWeakBout candidates")
  func weakRhythm() {
    let times = (0..<12).map { Int64(15 * $0) }
    #expect(rhythmSteps(times.map { ($0, 0.08) }).steps.isEmpty)
    #expect(rhythmSteps(times.map { ($0, 0.2) }).steps == times)
    let longer = (0..<16).map { Int64(15 * $0) }
    #expect(rhythmSteps(longer.map { ($0, 0.08) }).steps == longer)
  }

  @Test("the wrist's settings: six candidates whose peaks keep their size; the body's are the defaults")
  func placements() {
    #expect(StepDetector.Configuration(placement: .body) == StepDetector.Configuration())
    let wrist = StepDetector.Configuration(placement: .wrist)
    var expected = StepDetector.Configuration()
    expected.stepsToStartBout = 6
    expected.amplitudeRatio = 2
    expected.stepsToResumeWeakBout = 14
    #expect(wrist == expected)
  }

  @Test("bad rates and options throw")
  func errors() {
    #expect(throws: StepDetectorError.unsupportedSampleRate(10)) { try StepDetector(sampleRate: 10) }
    var configuration = StepDetector.Configuration()
    configuration.stepsToStartBout = 1
    #expect(throws: StepDetectorError.invalidConfiguration("stepsToStartBout", 1)) {
      try StepDetector(sampleRate: 100, configuration: configuration)
    }
    configuration = StepDetector.Configuration()
    configuration.stepsToResumeBout = 12
    #expect(throws: StepDetectorError.invalidConfiguration("stepsToResumeBout", 12)) {
      try StepDetector(sampleRate: 100, configuration: configuration)
    }
  }

  @Test(
    "an Oxford walk is counted within 4 % of the hand count",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func oxfordWalk() throws {
    let path = TestData.sharedData("oxford-steps/user2_hand_1506421987098.csv").path
    let csv = CSVOptions(hasHeader: false, timeColumn: ChannelSelector("0"), timeUnit: .nanoseconds)
    var reader = try RecordingOpener.open(path: path, options: RecordingOptions(csv: csv))
    var detector = try StepDetector(sampleRate: reader.chunkSampleRate, startTime: reader.startTime ?? .epoch)
    var output = StepDetector.Output()
    while let chunk = try reader.nextChunk(maxSamples: 4096) {
      detector.process(chunk, into: &output)
    }
    detector.finish(into: &output)
    #expect(abs(output.steps.count - 340) <= 13, "\(output.steps.count) steps, 340 counted by hand")
  }
}

@Test("the band-pass's phase delay at 1.8 Hz matches SciPy's sosfreqz (0.073 s at 25 Hz)")
func stepBandPhaseDelay() throws {
  let design = try SecondOrderSections.butterworth(
    order: 2, band: .bandpass(low: 0.5, high: 2.5), sampleRate: 25)
  // scipy.signal.sosfreqz(butter(2, [0.5, 2.5], 'bandpass', fs=25, output='sos'), worN=[1.8], fs=25):
  // −angle / (2π · 1.8) = 0.07266 s.
  #expect(abs(design.phaseDelay(atFrequency: 1.8, sampleRate: 25) / 25 - 0.07266) < 1e-4)
}

@Test("the steps guide's example: a reader's chunks in, steps and bouts out")
func readmeStepsExample() throws {
  var simulator = AccelerometerSimulator(
    configuration: AccelerometerConfiguration(activity: .walking, placement: .frontPocket), duration: 60,
    sampleRate: 50, seed: 3)
  let recording = simulator.generateAll()
  let chunks = stride(from: 0, to: 3000, by: 1000).map { (start: Int) -> SignalChunk in
    SignalChunk(
      channels: recording.channels.map { Array($0[start..<start + 1000]) }, sampleRate: 50,
      startTime: Timestamp(secondsSinceEpoch: Double(start) / 50), firstSampleIndex: Int64(start))
  }
  // The code of the Steps guide (StepsGuide.md), with the chunks for a reader's.
  var detector = try StepDetector(sampleRate: 50)
  var found = StepDetector.Output()
  for chunk in chunks { detector.process(chunk, into: &found) }  // axes 0, 1, 2 = x, y, z
  detector.finish(into: &found)
  #expect(abs(found.steps.count - recording.events.count) <= 3)
  #expect(abs(found.bouts.overallCadence - 110) < 5)
}
