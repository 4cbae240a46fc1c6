import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsStatistics

/// The accelerometer pipeline: steps, walking bouts, cadence and a motion level over time, from three
/// acceleration axes (gravity included, g or m/s²).
///
/// Stages, all causal and fed chunk by chunk:
/// 1. `StepDetector` (acceleration magnitude, 0.5–2.5 Hz band-pass, peaks counted inside a regular
///    rhythm; Zhao 2010, Brajdic & Harle 2013): a ``PipelineEvent/Kind/step`` event per step (at its
///    peak, about 0.5 s later inside a bout, up to 15.3 s later for the first steps of a bout) and a
///    ``PipelineEvent/Kind/walkingBout`` event per bout once it has ended.
/// 2. Motion level: the standard deviation (population, `ddof = 0`) of the acceleration magnitude
///    `√(x² + y² + z²)` over windows of ``Configuration/motionWindow`` seconds aligned to absolute time
///    (whole multiples of the window since the Unix epoch, so a 10 s window never straddles a minute),
///    in g: the RMS of the dynamic acceleration, gravity and the sensor's offset removed as the window's
///    mean. A ``PipelineEvent/Kind/motion`` event per window holding at least half its samples, at the
///    window's first sample, once the window has ended, in the unit `StepDetector` decides (no level for
///    a window that ends before it has decided, within the first second from the first valid sample).
///    Still wear reads about the sensor noise (0.005 g in the simulator), walking 0.1–0.4 g. NaN magnitudes are left out of the window; a window of NaN
///    only gives no level. These levels gate resting heart rate and heart-rate events
///    (`DerivedMetrics`: a minute is quiet when no level in it exceeds 0.05 g).
/// 3. Whole records: `StepFootTracker` (the feet of the steps, from the sway of the three axes) and each
///    bout's step-time asymmetry (``StepsSection/asymmetry``), for `walkingAsymmetryPercentage`.
///
/// Live (``PipelineContext/live``): the step and motion lists are not kept; the final section has the
/// counts, walking time and cadence but no bouts.
///
/// Gaps (samples with a NaN or infinite axis, `StepDetector/gaps`): no step inside one, and a walking
/// bout ends at one.
public struct AccelerometerPipeline: RecordingPipeline {
  /// The pipeline's settings.
  public struct Configuration: Sendable, Hashable {
    /// The step detector's settings.
    public var steps = StepDetector.Configuration()
    /// Length of a motion-level window, seconds (a divisor of 60 keeps windows inside minutes).
    public var motionWindow = 10.0

    /// The default settings.
    public init() {}
  }

  /// ``SignalKind/accelerometer``.
  public var kind: SignalKind { .accelerometer }

  let configuration: Configuration
  let sampleRate: Double
  let axes: (Int, Int, Int)
  let axisNames: [String]
  let live: Bool
  var detector: StepDetector
  var output = StepDetector.Output()
  /// Whole records: the feet of the steps and the bouts' step-time asymmetry (``StepFootTracker``).
  var feet: StepFootTracker?
  var footed = StepFootTracker.Output()
  /// Batch: every step and bout, and every motion level.
  var steps: [StepEvent] = []
  var bouts: [WalkingBout] = []
  var motion: [MotionLevel] = []
  /// Counts kept in both modes.
  var stepCount = 0
  var boutCount = 0
  var walkingSeconds = 0.0
  var stepIntervals = 0
  var motionWindows = 0
  var motionSum = 0.0
  var motionMaximum = -Double.infinity
  /// Record index of the first sample and absolute time of record sample 0.
  var origin: Int64?
  var recordStart = Timestamp.epoch
  var samplesFed: Int64 = 0
  /// The window being filled: its absolute number, its first and end (exclusive) record samples, and the
  /// sums of the finite magnitudes in it.
  var window: Int64 = 0
  var windowStart: Int64 = 0
  var windowEnd: Int64 = 0
  var windowCount = 0
  var windowSum = 0.0
  var windowSquares = 0.0
  let windowNanoseconds: Int64
  /// The acceleration magnitudes of the chunk being processed, as the step detector computed them
  /// (reused; grown to the longest chunk).
  var magnitudes: [Float] = []

  /// A pipeline for the axes `context.channels` (x, y, z); throws unless there are three of them and the
  /// rate is within `StepDetector/supportedSampleRates`.
  public init(context: PipelineContext, configuration: Configuration = Configuration())
    throws(PipelineUnavailable)
  {
    precondition(configuration.motionWindow > 0, "the motion window must be positive")
    guard context.channels.count == 3 else {
      throw PipelineUnavailable(
        "step counting needs three acceleration axes, found \(context.channels.count)")
    }
    do {
      detector = try StepDetector(sampleRate: context.sampleRate, configuration: configuration.steps)
      feet = context.live ? nil : try StepFootTracker(sampleRate: context.sampleRate)
    } catch {
      throw PipelineUnavailable(error.description)
    }
    self.configuration = configuration
    sampleRate = context.sampleRate
    axes = (context.channels[0], context.channels[1], context.channels[2])
    axisNames = context.channels.map { context.signals[$0].name }
    live = context.live
    windowNanoseconds = Int64((configuration.motionWindow * 1e9).rounded())
  }

  /// The record sample index at which absolute window `number` starts (the first sample at or after
  /// its start time), not before the first sample.
  private func firstSample(ofWindow number: Int64) -> Int64 {
    let offset = Double(number * windowNanoseconds - recordStart.nanosecondsSinceEpoch) / 1e9
    return max(origin ?? 0, Int64((offset * sampleRate - 1e-6).rounded(.up)))
  }

  /// Feeds the next chunk: steps, ended bouts and ended motion windows.
  public mutating func process(_ chunk: SignalChunk, events: inout [PipelineEvent]) {
    if origin == nil {
      origin = chunk.firstSampleIndex
      recordStart = chunk.startTime.advanced(bySamples: -chunk.firstSampleIndex, rate: sampleRate)
      let start = chunk.startTime.nanosecondsSinceEpoch
      window = floorDivide(start, windowNanoseconds)
      windowStart = chunk.firstSampleIndex
      windowEnd = firstSample(ofWindow: window + 1)
    }
    if magnitudes.count < chunk.sampleCount { magnitudes = [Float](repeating: 0, count: chunk.sampleCount) }
    var magnitudes: [Float] = []
    swap(&magnitudes, &self.magnitudes)
    defer { swap(&magnitudes, &self.magnitudes) }
    magnitudes.withUnsafeMutableBufferPointer { m in
      if feet != nil {
        feet!.process(
          chunk, axes: axes, detector: &detector, detected: &output, into: &footed, magnitudes: m)
      } else {
        detector.process(chunk, axes: axes, into: &output, magnitudes: m)
      }
      var k = 0
      while k < chunk.sampleCount {
        let index = chunk.firstSampleIndex + Int64(k)
        if index >= windowEnd { closeWindow(events: &events) }
        let last = min(chunk.sampleCount, k + Int(windowEnd - index))
        (windowSum, windowSquares, windowCount) = Self.add(
          UnsafeBufferPointer(rebasing: m[k..<last]), to: (windowSum, windowSquares, windowCount))
        k = last
      }
    }
    samplesFed += Int64(chunk.sampleCount)
    if chunk.firstSampleIndex + Int64(chunk.sampleCount) >= windowEnd { closeWindow(events: &events) }
    takeSteps(events: &events)
  }

  /// `sums` (of the magnitudes, of their squares, and their count) with the finite magnitudes of
  /// `samples` added, sample by sample: the same sums whatever the chunking. (The sums are held in
  /// registers here, not in the pipeline's memory, which would put a store and a load into every
  /// addition's wait.)
  private static func add(
    _ samples: UnsafeBufferPointer<Float>, to sums: (Double, Double, Int)
  ) -> (Double, Double, Int) {
    var (sum, squares, count) = sums
    for sample in samples {
      let magnitude = Double(sample)
      if magnitude.isFinite {
        sum += magnitude
        squares += magnitude * magnitude
        count += 1
      }
    }
    return (sum, squares, count)
  }

  /// Ends the window being filled: a motion level when it holds at least half a window of samples.
  private mutating func closeWindow(events: inout [PipelineEvent]) {
    let expected = configuration.motionWindow * sampleRate
    if Double(windowCount) >= expected / 2, let unit = detector.resolvedUnit {
      let n = Double(windowCount)
      let mean = windowSum / n
      let variance = max(0, windowSquares / n - mean * mean)
      let level =
        variance.squareRoot() / (unit == .metersPerSecondSquared ? PhysicalConstants.standardGravity : 1)
      motionWindows += 1
      motionSum += level
      motionMaximum = max(motionMaximum, level)
      if !live {
        motion.append(
          MotionLevel(time: recordStart.advanced(bySamples: windowStart, rate: sampleRate), level: level))
      }
      events.append(
        PipelineEvent(
          .motion(level: level, window: configuration.motionWindow), signal: .accelerometer,
          sampleIndex: windowStart, sampleRate: sampleRate))
    }
    window += 1
    windowStart = windowEnd
    windowEnd = firstSample(ofWindow: window + 1)
    windowCount = 0
    windowSum = 0
    windowSquares = 0
  }

  /// Moves the steps and bouts the detector decided into events (and, batch, the lists).
  private mutating func takeSteps(events: inout [PipelineEvent]) {
    for step in output.steps {
      events.append(
        PipelineEvent(.step, signal: .accelerometer, sampleIndex: step.sampleIndex, sampleRate: sampleRate))
    }
    for bout in output.bouts {
      boutCount += 1
      walkingSeconds += bout.duration
      stepIntervals += bout.steps - 1
      events.append(
        PipelineEvent(
          .walkingBout(steps: bout.steps, duration: bout.duration, cadence: bout.cadence),
          signal: .accelerometer, sampleIndex: bout.start.sampleIndex, sampleRate: sampleRate))
    }
    stepCount += output.steps.count
    if !live {
      steps += output.steps
      bouts += output.bouts
    }
    output.steps.removeAll(keepingCapacity: true)
    output.bouts.removeAll(keepingCapacity: true)
    footed.steps.removeAll(keepingCapacity: true)
  }

  /// Confirms the last step and bout, ends the last motion window and returns the ``StepsSection``.
  public mutating func finish(events: inout [PipelineEvent]) -> any PipelineSection {
    if feet != nil {
      feet!.finish(detector: &detector, detected: &output, into: &footed)
    } else {
      detector.finish(into: &output)
    }
    if windowCount > 0 { closeWindow(events: &events) }
    takeSteps(events: &events)
    let walking = WalkingSummary(
      stepCount: stepCount, walkingSeconds: walkingSeconds,
      cadence: walkingSeconds > 0 ? 60 * Double(stepIntervals) / walkingSeconds : 0,
      bouts: live ? nil : bouts,
      sampleRate: sampleRate)
    var section = StepsSection(
      channels: axisNames, sampleRate: sampleRate, samples: samplesFed, unit: detector.resolvedUnit,
      walking: walking, steps: steps, motionWindow: configuration.motionWindow, motion: motion,
      motionMean: motionWindows > 0 ? motionSum / Double(motionWindows) : .nan,
      motionMaximum: motionWindows > 0 ? motionMaximum : .nan)
    section.gapSeconds = Double(detector.gaps.reduce(0) { $0 + $1.count }) / sampleRate
    section.asymmetry = footed.bouts
    return section
  }
}

/// What ``AccelerometerPipeline`` found in a recording, encoded under `"steps"` as
/// `{"channels":[…],"sample_rate":…,"samples":…,"unit":"g","steps":…,"walking_s":…,"cadence_spm":…,
/// "bouts":[{"start_s":…,"end_s":…,"steps":…}],"motion":{"window_s":…,"mean_g":…,"max_g":…}}`:
/// the keys of `vitals steps` (``WalkingSummary``, which live streams encode without `bouts`) plus the
/// motion levels' mean and maximum (null without a level), and `"gap_s"`, the seconds with a missing
/// axis, only when there are gaps.
public struct StepsSection: PipelineSection {
  /// The names of the x, y and z axes.
  public var channels: [String]
  /// Samples per second.
  public var sampleRate: Double
  /// Samples per axis analyzed.
  public var samples: Int64
  /// The unit the acceleration was found to be in; nil when no valid sample came.
  public var unit: StepDetector.InputUnit?
  /// Steps counted, walking time, cadence and (whole records) the walking bouts.
  public var walking: WalkingSummary
  /// Every step (whole records; empty for live streams).
  public var steps: [StepEvent]
  /// Length of a motion-level window, seconds.
  public var motionWindow: Double
  /// The motion level of every window (whole records; empty for live streams), g.
  public var motion: [MotionLevel]
  /// Mean and maximum motion level, g; NaN without a level.
  public var motionMean: Double, motionMaximum: Double
  /// Seconds with a missing (NaN or infinite) axis.
  public var gapSeconds = 0.0
  /// Whole records: each walking bout's step-time asymmetry (`StepFootTracker`), in time order.
  public var asymmetry: [BoutAsymmetry] = []

  /// A section.
  public init(
    channels: [String], sampleRate: Double, samples: Int64, unit: StepDetector.InputUnit?,
    walking: WalkingSummary, steps: [StepEvent], motionWindow: Double, motion: [MotionLevel],
    motionMean: Double, motionMaximum: Double
  ) {
    self.channels = channels
    self.sampleRate = sampleRate
    self.samples = samples
    self.unit = unit
    self.walking = walking
    self.steps = steps
    self.motionWindow = motionWindow
    self.motion = motion
    self.motionMean = motionMean
    self.motionMaximum = motionMaximum
  }

  /// `"steps"`: the steps' record sample indices (whole records only).
  public var eventTables: [String: [Int64]] {
    walking.bouts == nil ? [:] : ["steps": steps.map(\.sampleIndex)]
  }

  private struct Motion: Encodable {
    var window_s: Double
    var mean_g: Double?
    var max_g: Double?

    private enum CodingKeys: String, CodingKey {
      case window_s, mean_g, max_g
    }

    /// Writes the levels as null, rather than leaving their keys out, when there is none.
    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(window_s, forKey: .window_s)
      try c.encode(mean_g, forKey: .mean_g)
      try c.encode(max_g, forKey: .max_g)
    }
  }

  private enum CodingKeys: String, CodingKey {
    case channels, sample_rate, samples, unit, motion, gap_s
  }

  /// Encodes the JSON section described in the type's documentation.
  public func encode(to encoder: any Encoder) throws {
    try walking.encode(to: encoder)
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(channels, forKey: .channels)
    try c.encode(sampleRate, forKey: .sample_rate)
    try c.encode(samples, forKey: .samples)
    try c.encode(unit?.rawValue, forKey: .unit)
    try c.encode(
      Motion(
        window_s: motionWindow, mean_g: motionMean.isFinite ? motionMean : nil,
        max_g: motionMaximum.isFinite ? motionMaximum : nil), forKey: .motion)
    try c.encodeIfPresent(gapSeconds > 0 ? gapSeconds : nil, forKey: .gap_s)
  }
}
