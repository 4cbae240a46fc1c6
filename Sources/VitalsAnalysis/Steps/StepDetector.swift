import VitalsCore

import VitalsSupport

/// Why a step detector could not be set up.
public enum StepDetectorError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The sample rate lies outside ``StepDetector/supportedSampleRates``.
  case unsupportedSampleRate(Double)
  /// A configuration value is out of its range: the field's name and the value.
  case invalidConfiguration(String, Double)

  public var description: String {
    switch self {
    case .unsupportedSampleRate(let rate):
      "step detection needs a sample rate in \(StepDetector.supportedSampleRates) Hz, got \(rate) Hz"
    case .invalidConfiguration(let name, let value): "step detector option \(name) is out of range: \(value)"
    }
  }
}

/// A streaming, causal step counter for 3-axis acceleration (gravity included) from a device carried
/// anywhere — hand, trouser pocket, bag, armband, neck pouch, wrist, lower back — at 15 Hz to 1 kHz, set
/// for the wrist or the rest of the body (``Placement``). The same steps and bouts come out whatever the
/// sizes of the blocks the signal is fed in.
///
/// Method: the acceleration magnitude (orientation-free: Zhao 2010), in g, decimated to 15–50 Hz and
/// band-passed around the step frequency (``Configuration-swift.struct/passband``); candidate steps are
/// its peaks above ``Configuration-swift.struct/threshold`` spaced by at least
/// ``Configuration-swift.struct/refractoryPeriod``, unless vibration dominates; steps count once
/// ``Configuration-swift.struct/stepsToStartBout`` candidates have come at a regular stride (the
/// periodicity check of Brajdic & Harle 2013; ``Configuration-swift.struct/stepsToStartWeakBout`` for weak
/// ones), or ``Configuration-swift.struct/stepsToResumeBout`` soon after a bout, and the candidates just
/// before them at step intervals are back-filled. <doc:StepDetection> gives each stage and its settings.
///
/// References: N. Zhao, "Full-featured pedometer design realized with 3-axis digital accelerometer",
/// Analog Dialogue 44(6), 2010. A. Brajdic, R. Harle, "Walk detection and step counting on unconstrained
/// smartphones", UbiComp 2013, 225–234.
///
/// Latency: a step inside a bout is reported about 0.5 s after its peak; the first steps of a bout wait
/// for the bout to be recognized, at most 21.3 s by default after the first of its starting run, and a
/// back-filled step at most 45.3 s (<doc:StepDetection>); with ``InputUnit/automatic``, nothing is decided
/// before ``unitDecisionTime`` seconds from the first valid sample, from which the unit is decided.
///
/// Input: samples in g or m/s² with gravity. A sample with a NaN or infinite axis is missing (a gap, see
/// ``gaps``): at a gap the detector ends as at ``finish(into:)``, reports nothing inside it, and starts
/// afresh after it, with sample indices still counted from the record's first sample.
///
/// Cost: O(1) per sample and no allocation after initialization except the appended events and, on first
/// use, one scratch block.
///
/// Accuracy: `make eval-steps` on the shared Oxford walks against the hand count, the Clemson trials
/// against their marked steps, and simulated non-walking (docs/accuracy.md); method, choices and
/// protocol in <doc:StepDetection>.
public struct StepDetector: Sendable {
  /// The sample rates the detector accepts, in Hz.
  public static let supportedSampleRates: ClosedRange<Double> = 15...1000
  /// Samples taken per block (the scratch block is this long).
  public static let blockSize = 4096
  /// Rate the magnitude is decimated to, at least, in Hz (the decimation factor is `⌊rate / 25⌋`).
  static let internalRate = 25.0
  /// A magnitude at or under this (in the input's unit) is no valid reading before the first valid one.
  static let validMagnitude: Float = 0.1
  /// With ``InputUnit/automatic``, the unit is g when the median of the first valid magnitudes is under
  /// this, else m/s² (between gravity in g, 1, and in m/s², 9.81).
  static let unitBoundary: Float = 3.2
  /// With ``InputUnit/automatic``, how long a stretch of magnitudes, from the first valid one, decides the
  /// unit, seconds.
  public static let unitDecisionTime = 1.0
  /// The unit of the input acceleration.
  public enum InputUnit: String, Sendable, Hashable, CaseIterable, Codable {
    /// Recognized from the gravity level: g when the median magnitude of the first
    /// ``StepDetector/unitDecisionTime`` seconds from the first valid sample is under 3.2, else m/s².
    case automatic
    /// Standard gravity, 9.80665 m/s².
    case g
    /// Meters per second squared.
    case metersPerSecondSquared = "m/s^2"
  }

  /// Where the device is worn, which sets how much a starting run's peaks may change in size
  /// (``Configuration-swift.struct/init(placement:)``).
  public enum Placement: String, Sendable, Hashable, CaseIterable, Codable {
    /// Anywhere but the wrist: trunk, trouser pocket, bag, a phone in the hand, upper arm, ankle. Steps
    /// are the main rhythmic motion, and uneven heel strikes (turns, obstacles, shuffling) still count.
    case body
    /// A watch or wristband: the arm moves without steps (household work, gestures), so a starting run's
    /// peaks must keep their size (``Configuration-swift.struct/amplitudeRatio`` 2, and 6 candidates to
    /// start a bout).
    case wrist
  }

  /// The detector's parameters, in physical units (seconds, hertz, g, ratios).
  public struct Configuration: Sendable, Hashable {
    /// The input's unit.
    public var unit: InputUnit = .automatic
    /// Lower and upper −3 dB corners of the step band-pass, Hz (30 to 150 steps/min; running at 165 or 185
    /// steps/min is attenuated by 4.5 or 6.5 dB, which its stronger impacts make up for).
    public var passband: ClosedRange<Double> = 0.5...2.5
    /// Smallest band-passed magnitude of a step peak, g.
    public var threshold = 0.03
    /// Two steps are never closer than this, seconds (at most 200 steps/min).
    public var refractoryPeriod = 0.3
    /// Regular candidates needed before a bout starts (and they count); 6 at the wrist
    /// (``init(placement:)``).
    public var stepsToStartBout = 5
    /// Regular candidates needed before a bout starts when their median peak is under
    /// ``weakStepAmplitude``.
    public var stepsToStartWeakBout = 14
    /// Median band-passed peak under which a starting run is weak, g: in this band the heel strikes of the
    /// Oxford phone walks peak at 0.28–0.51 g (medians), those of the Clemson hip at 0.18 g, a simulated
    /// vehicle's bumps at 0.06–0.1 g.
    public var weakStepAmplitude = 0.12
    /// Regular candidates needed before a bout starts within ``resumeWindow`` of the last bout's end.
    public var stepsToResumeBout = 4
    /// Regular candidates needed before a bout starts within ``resumeWindow`` of the last bout's end when
    /// their median peak is under ``weakStepAmplitude``: after a walk, a weak rhythm (a slow walker's steps
    /// out of a stop or a turn) needs the evidence of a fresh strong start; ``stepsToStartWeakBout`` at
    /// the wrist (``init(placement:)``), where the arm moves on without steps after a walk.
    public var stepsToResumeWeakBout = 5
    /// How long after a bout's last step a new bout needs only ``stepsToResumeBout`` candidates, seconds.
    public var resumeWindow = 10.0
    /// Longest interval between two steps of a bout, seconds.
    public var maximumStepInterval = 1.5
    /// Allowed ratio of a stride (two steps) to the previous stride while a bout is being recognized.
    public var strideRatio: ClosedRange<Double> = 0.7...1.4
    /// Inside a bout, a step comes within this many step periods of the last one, or the bout ends. A
    /// device in a trouser pocket sees its own leg's and the other leg's steps at unequal intervals (up to
    /// 0.8 and 0.4 s at 0.6 s a step in the Oxford walks), so this stays well above their ratio to the mean.
    public var continuationRatio = 1.6
    /// While a bout is being recognized, a peak is at most this many times larger or smaller than the
    /// same foot's previous peak (two candidates before); 2 at the wrist (``init(placement:)``).
    public var amplitudeRatio = 3.0
    /// While a bout is being recognized, three candidates each smaller than this times the one before are
    /// a damped oscillation, no steps (0 turns the test off).
    public var ringingDecay = 0.9
    /// A peak is no step candidate while the RMS of the vibration band (3.5–8 Hz) exceeds this many times
    /// that of the step band (running means over 1 s): shaking the device, whose energy lies above the
    /// step frequencies (3.7 and more in a simulated 5 Hz shake). Walking stays under 2.4 in the Oxford
    /// walks, even in a pocket, where heel strikes are sharpest.
    public var maximumVibrationRatio = 3.0

    /// The defaults for a device on the body, not at the wrist (``Placement/body``).
    public init() {}

    /// The defaults for a device worn at `placement`: those of ``init()``; at the wrist, 6 candidates to
    /// start a bout, an amplitude ratio of 2 and ``stepsToStartWeakBout`` candidates to resume a weak one.
    public init(placement: Placement) {
      if placement == .wrist {
        stepsToStartBout = 6
        amplitudeRatio = 2
        stepsToResumeWeakBout = stepsToStartWeakBout
      }
    }
  }

  /// The parameters in use.
  public let configuration: Configuration
  /// Input samples per second.
  public let sampleRate: Double
  /// Input samples averaged into one sample of the band-passed signal.
  public let decimationFactor: Int
  /// The unit the input was found to be in (the configured one unless ``InputUnit/automatic``); nil until
  /// it is decided: ``unitDecisionTime`` after the first valid sample, or at the first gap or the finish
  /// when these come sooner (from the samples before them).
  public private(set) var resolvedUnit: InputUnit?

  /// The step band-pass (first) and the vibration band (second: 3.5–8 Hz, at most 0.45 × the internal
  /// rate), run in one pass (``SOSFilterPair``), and the pair at rest, for a restart after a gap.
  var bands: SOSFilterPair
  let restingBands: SOSFilterPair
  /// The running mean squares of the step and the vibration bands (exponential, time constant 1 s).
  var power: (Float, Float) = (0, 0)
  let powerWeight: Float
  /// ``Configuration-swift.struct/maximumVibrationRatio`` squared.
  let highBandLimit: Float
  var rhythm: StepRhythm
  /// Input samples before the first valid one (skipped), and whether it has come.
  var skipped: Int64 = 0
  var hasValidSample = false
  /// Input samples seen.
  var inputCount: Int64 { gapTracker.sampleCount }
  /// The gaps of the input, and whether the detector is inside one (its segment ended, the next one not
  /// yet begun).
  var gapTracker = GapTracker()
  var inGap = false
  /// The segment's first valid magnitude and the factor to g.
  var origin: Float = 0
  var scale: Float = 1
  /// While the unit is being decided, the magnitudes from the first valid one on (input unit; held, not
  /// yet filtered), and how many decide.
  var unitSamples: [Float] = []
  let unitSampleCount: Int
  /// The boxcar's running sum and sample count.
  var boxSum: Float = 0
  var boxCount = 0
  /// Index of the next band-passed sample and the two before it.
  var decimatedIndex: Int64 = 0
  var previous: (Float, Float) = (0, 0)
  /// The peak waiting for its refractory window to pass.
  var candidate: (index: Int64, value: Float)?
  let threshold: Float
  let refractory: Int64
  /// Input samples from a band-passed sample's block center back to the peak it stands for: the band-pass's
  /// phase delay at 1.8 Hz (108 steps/min), by which it shifts the crests of the step rhythm.
  let delay: Int64
  /// Absolute time of record sample 0.
  var recordStart: Timestamp
  var chunkIndexOrigin: Int64?
  /// Magnitudes of one block, when the caller gives no buffer for them (``blockSize`` long once allocated,
  /// on first use).
  var scratch: [Float] = []
  var decimated: [Float]
  var peakScratch: [Int64] = []
  var boutScratch: [(start: Int64, end: Int64, steps: Int)] = []

  /// A detector for acceleration sampled at `sampleRate` Hz whose sample 0 was taken at `startTime`.
  ///
  /// - Throws: ``StepDetectorError`` when the rate is outside ``supportedSampleRates`` or an option is
  ///   outside its range.
  public init(
    sampleRate: Double, startTime: Timestamp = .epoch, configuration: Configuration = Configuration()
  ) throws(StepDetectorError) {
    guard Self.supportedSampleRates.contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
    let c = configuration
    func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(StepDetectorError) {
      guard range.contains(value) else { throw .invalidConfiguration(name, value) }
    }
    let factor = max(1, Int(sampleRate / Self.internalRate))
    let rate = sampleRate / Double(factor)
    try check("passband.lowerBound", c.passband.lowerBound, 0.1...2)
    try check("passband.upperBound", c.passband.upperBound, c.passband.lowerBound + 0.5...min(6, rate / 2.5))
    try check("threshold", c.threshold, 0.001...1)
    try check("refractoryPeriod", c.refractoryPeriod, 0.15...1)
    try check("stepsToStartBout", Double(c.stepsToStartBout), 3...50)
    try check("stepsToStartWeakBout", Double(c.stepsToStartWeakBout), Double(c.stepsToStartBout)...50)
    try check("weakStepAmplitude", c.weakStepAmplitude, 0...1)
    try check("stepsToResumeBout", Double(c.stepsToResumeBout), 3...Double(c.stepsToStartBout))
    try check(
      "stepsToResumeWeakBout", Double(c.stepsToResumeWeakBout),
      Double(c.stepsToResumeBout)...Double(c.stepsToStartWeakBout))
    try check("resumeWindow", c.resumeWindow, 0...60)
    try check("maximumStepInterval", c.maximumStepInterval, c.refractoryPeriod...5)
    try check("strideRatio.lowerBound", c.strideRatio.lowerBound, 0.1...1)
    try check("strideRatio.upperBound", c.strideRatio.upperBound, 1...10)
    try check("continuationRatio", c.continuationRatio, 1...5)
    try check("amplitudeRatio", c.amplitudeRatio, 1...100)
    try check("ringingDecay", c.ringingDecay, 0...1)
    try check("maximumVibrationRatio", c.maximumVibrationRatio, 0.5...100)
    let design: SecondOrderSections
    do {
      design = try .butterworth(
        order: 2, band: .bandpass(low: c.passband.lowerBound, high: c.passband.upperBound), sampleRate: rate)
    } catch {
      throw .invalidConfiguration("passband", c.passband.upperBound)
    }
    self.configuration = c
    self.sampleRate = sampleRate
    self.decimationFactor = factor
    self.resolvedUnit = c.unit == .automatic ? nil : c.unit
    self.scale = c.unit == .metersPerSecondSquared ? Float(1 / PhysicalConstants.standardGravity) : 1
    self.unitSampleCount = max(1, Int((Self.unitDecisionTime * sampleRate).rounded()))
    if c.unit == .automatic { unitSamples.reserveCapacity(unitSampleCount) }
    do {
      self.restingBands = SOSFilterPair(
        design,
        try .butterworth(order: 2, band: .bandpass(low: 3.5, high: min(8, 0.45 * rate)), sampleRate: rate))
    } catch {
      preconditionFailure("the vibration band fits every supported rate: \(error)")
    }
    self.bands = restingBands
    self.powerWeight = Float(1 - exp(-1 / rate))
    self.highBandLimit = Float(c.maximumVibrationRatio * c.maximumVibrationRatio)
    self.threshold = Float(c.threshold)
    self.refractory = max(1, Int64((c.refractoryPeriod * rate).rounded(.down)))
    self.delay = Int64((design.phaseDelay(atFrequency: 1.8, sampleRate: rate) * Double(factor)).rounded())
    self.rhythm = StepRhythm(
      stepsToStartBout: c.stepsToStartBout, stepsToResumeBout: c.stepsToResumeBout,
      stepsToResumeWeakBout: c.stepsToResumeWeakBout,
      resumeWindow: Int64((c.resumeWindow * rate).rounded()), maximumInterval: c.maximumStepInterval * rate,
      strideRatio: c.strideRatio, continuationRatio: c.continuationRatio, amplitudeRatio: c.amplitudeRatio,
      ringingDecay: c.ringingDecay, weakStepAmplitude: c.weakStepAmplitude,
      stepsToStartWeakBout: c.stepsToStartWeakBout, confirmationDelay: refractory + 1)
    self.recordStart = startTime
    self.decimated = [Float](repeating: 0, count: 2 * Self.blockSize)
  }

  /// What a detector found in the samples fed so far: steps and completed walking bouts, in time order.
  public struct Output: Sendable, Hashable {
    /// Steps, in the order they were decided (increasing time).
    public var steps: [StepEvent] = []
    /// Bouts that have ended.
    public var bouts: [WalkingBout] = []

    public init() {}
  }

  /// The gaps of the input so far: runs of samples with a NaN or infinite axis, as sample ranges counted
  /// from the record's first sample; a gap still open ends at the last sample fed.
  public var gaps: [Range<Int64>] { gapTracker.gaps }

  /// Feeds the next samples of the three axes (equal counts) and appends the steps and bouts decided so
  /// far to `output`.
  ///
  /// When `magnitudes` is given (at least as long as the axes), each sample's magnitude
  /// `√(x² + y² + z²)` in the input's unit is written to it: the values the detector computes for
  /// itself (in SIMD lanes) and works on there (NaN where an axis is NaN, infinite where one is infinite).
  /// A caller that needs them too reads them there instead of computing them again; the detector then
  /// needs no scratch block of its own.
  public mutating func process(
    x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>,
    into output: inout Output, magnitudes: UnsafeMutableBufferPointer<Float>? = nil
  ) {
    precondition(x.count == y.count && y.count == z.count, "the three axes hold the same number of samples")
    precondition(magnitudes.map { $0.count >= x.count } ?? true, "the magnitudes buffer is too short")
    var scratch: [Float] = []
    swap(&scratch, &self.scratch)
    defer { swap(&scratch, &self.scratch) }
    if magnitudes == nil && scratch.isEmpty { scratch = [Float](repeating: 0, count: Self.blockSize) }
    scratch.withUnsafeMutableBufferPointer { buffer in
      var blockStart = 0
      while blockStart < x.count {
        let count = min(Self.blockSize, x.count - blockStart)
        let block =
          magnitudes.map { UnsafeMutableBufferPointer(rebasing: $0[blockStart..<blockStart + count]) }
          ?? UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
        let first = gapTracker.sampleCount
        let finite = Self.magnitudes(
          x: x.baseAddress! + blockStart, y: y.baseAddress! + blockStart, z: z.baseAddress! + blockStart,
          into: block)
        if finite && !inGap {
          gapTracker.advance(presentCount: count)
          processMagnitudes(UnsafeBufferPointer(block), into: &output)
        } else {
          for run in gapTracker.runs(in: UnsafeBufferPointer(block)) ?? [] {
            if run.isMissing {
              if !inGap { endSegment(into: &output) }
              inGap = true
            } else {
              if inGap { restart(at: first + Int64(run.offsets.lowerBound)) }
              processMagnitudes(UnsafeBufferPointer(rebasing: block[run.offsets]), into: &output)
            }
          }
        }
        blockStart += count
      }
    }
  }

  /// Feeds the next chunk of a recording, taking the axes from channels `axes` (x, y, z), and appends the
  /// steps and bouts decided so far to `output`; `magnitudes`, when given, receives each sample's
  /// magnitude as in ``process(x:y:z:into:magnitudes:)``. Chunks must follow each other without gaps and
  /// at the detector's rate; the first chunk's time and index set the record's origin (instead of
  /// `startTime`).
  public mutating func process(
    _ chunk: SignalChunk, axes: (Int, Int, Int) = (0, 1, 2), into output: inout Output,
    magnitudes: UnsafeMutableBufferPointer<Float>? = nil
  ) {
    begin(chunk, axes: axes)
    let channels = chunk.channels
    channels[axes.0].withUnsafeBufferPointer { x in
      channels[axes.1].withUnsafeBufferPointer { y in
        channels[axes.2].withUnsafeBufferPointer { z in
          process(x: x, y: y, z: z, into: &output, magnitudes: magnitudes)
        }
      }
    }
  }

  /// Checks that `chunk` follows the samples fed so far at the detector's rate and holds `axes`; the first
  /// chunk's time and index set the record's origin.
  mutating func begin(_ chunk: SignalChunk, axes: (Int, Int, Int)) {
    precondition(
      chunk.sampleRate == sampleRate, "chunk rate \(chunk.sampleRate) Hz, detector \(sampleRate) Hz")
    // Three tests rather than an array of the axes, which would be allocated per chunk.
    let channels = chunk.channels.indices
    precondition(
      channels.contains(axes.0) && channels.contains(axes.1) && channels.contains(axes.2),
      "the axes are channels of the chunk")
    if chunkIndexOrigin == nil {
      chunkIndexOrigin = chunk.firstSampleIndex
      recordStart = chunk.startTime.advanced(bySamples: -chunk.firstSampleIndex, rate: sampleRate)
    }
    precondition(
      chunkIndexOrigin! + inputCount == chunk.firstSampleIndex,
      "chunk starts at sample \(chunk.firstSampleIndex), expected \(chunkIndexOrigin! + inputCount)")
  }

  /// Ends the stream: confirms a pending peak and closes an open bout, appending them to `output`. A run
  /// of candidates too short to start a bout is dropped. The detector is not to be fed afterwards.
  public mutating func finish(into output: inout Output) {
    if !inGap { endSegment(into: &output) }
    gapTracker.finish()
  }

  /// Ends the signal before a gap or at the end: decides the unit from the magnitudes held, if any, and
  /// filters them; confirms a pending peak, closes an open bout.
  mutating func endSegment(into output: inout Output) {
    if resolvedUnit == nil && !unitSamples.isEmpty { decideUnit(into: &output) }
    if let c = candidate {
      candidate = nil
      rhythm.accept(c.index, amplitude: c.value, steps: &peakScratch, bouts: &boutScratch)
    }
    rhythm.finish(bouts: &boutScratch)
    emit(into: &output)
  }

  /// The steps and bouts of a whole recording of three axes.
  public static func detect(
    x: [Float], y: [Float], z: [Float], sampleRate: Double, startTime: Timestamp = .epoch,
    configuration: Configuration = Configuration()
  ) throws(StepDetectorError) -> Output {
    var detector = try StepDetector(
      sampleRate: sampleRate, startTime: startTime, configuration: configuration)
    var output = Output()
    x.withUnsafeBufferPointer { x in
      y.withUnsafeBufferPointer { y in
        z.withUnsafeBufferPointer { z in detector.process(x: x, y: y, z: z, into: &output) }
      }
    }
    detector.finish(into: &output)
    return output
  }

  /// Writes `√(x² + y² + z²)` for each sample to `output` (8 lanes at a time); returns whether every
  /// magnitude is finite.
  @inline(__always)
  static func magnitudes(
    x: UnsafePointer<Float>, y: UnsafePointer<Float>, z: UnsafePointer<Float>,
    into output: UnsafeMutableBufferPointer<Float>
  ) -> Bool {
    let n = output.count
    let out = output.baseAddress!
    // m − m is 0 for a finite m and NaN otherwise, so the block is finite when the sum of these is 0.
    var check = SIMD8<Float>()
    var i = 0
    while i &+ 8 <= n {
      let vx = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD8<Float>.self)
      let vy = UnsafeRawPointer(y + i).loadUnaligned(as: SIMD8<Float>.self)
      let vz = UnsafeRawPointer(z + i).loadUnaligned(as: SIMD8<Float>.self)
      let m = (vx * vx + vy * vy + vz * vz).squareRoot()
      check += m - m
      UnsafeMutableRawPointer(out + i).storeBytes(of: m, as: SIMD8<Float>.self)
      i &+= 8
    }
    var tail: Float = 0
    while i < n {
      let m = (x[i] * x[i] + y[i] * y[i] + z[i] * z[i]).squareRoot()
      tail += m - m
      out[i] = m
      i &+= 1
    }
    return check.sum() + tail == 0
  }

  /// Starts a new segment at record sample `index`, after a gap: filters at rest, no origin, an empty
  /// rhythm; the unit found before is kept.
  mutating func restart(at index: Int64) {
    inGap = false
    hasValidSample = false
    skipped = index
    bands = restingBands
    power = (0, 0)
    boxSum = 0
    boxCount = 0
    decimatedIndex = 0
    previous = (0, 0)
    candidate = nil
  }

  /// Runs one block of finite magnitudes (input unit) through the validity check and, once the unit is
  /// known, ``filter(_:into:)``; while it is being decided, the magnitudes are held.
  mutating func processMagnitudes(_ block: UnsafeBufferPointer<Float>, into output: inout Output) {
    var start = 0
    if !hasValidSample {
      guard let first = block.firstIndex(where: { $0 > Self.validMagnitude && $0.isFinite }) else {
        skipped += Int64(block.count)
        return
      }
      start = first
      skipped += Int64(first)
      origin = block[first] * scale
      hasValidSample = true
    }
    if resolvedUnit == nil {
      let taken = min(block.count - start, unitSampleCount - unitSamples.count)
      unitSamples.append(contentsOf: block[start..<start + taken])
      start += taken
      guard unitSamples.count == unitSampleCount else { return }
      decideUnit(into: &output)
    }
    filter(UnsafeBufferPointer(rebasing: block[start...]), into: &output)
  }

  /// Decides the unit from the held magnitudes, g when more than half of the valid ones (over
  /// ``validMagnitude``) are under ``unitBoundary``, sets the origin from the first, and filters them.
  mutating func decideUnit(into output: inout Output) {
    // Readings of nothing (dropouts after the first valid sample) do not vote.
    let valid = unitSamples.count { $0 > Self.validMagnitude }
    let below = unitSamples.count { $0 > Self.validMagnitude && $0 < Self.unitBoundary }
    resolvedUnit = 2 * below > valid ? .g : .metersPerSecondSquared
    scale = resolvedUnit == .g ? 1 : Float(1 / PhysicalConstants.standardGravity)
    origin = unitSamples[0] * scale
    var held: [Float] = []
    swap(&held, &unitSamples)
    held.withUnsafeBufferPointer { filter($0, into: &output) }
  }

  /// Runs finite magnitudes (input unit, at most ``blockSize``) of the current segment, from its first
  /// valid one on, through the boxcar, the band-pass and the peak and rhythm logic.
  mutating func filter(_ body: UnsafeBufferPointer<Float>, into output: inout Output) {
    var decimated: [Float] = []
    swap(&decimated, &self.decimated)
    defer { swap(&decimated, &self.decimated) }
    decimated.withUnsafeMutableBufferPointer { out in
      let produced = boxcar(body, into: out.baseAddress!)
      let filtered = UnsafeMutableBufferPointer(rebasing: out[0..<produced])
      let high = UnsafeMutableBufferPointer(rebasing: out[Self.blockSize..<Self.blockSize + produced])
      bands.process(UnsafeBufferPointer(filtered), into: filtered, high)
      scanPeaks(UnsafeBufferPointer(filtered), high: UnsafeBufferPointer(high))
    }
    emit(into: &output)
  }

  /// Writes the boxcar means of `magnitudes` (each group of ``decimationFactor`` samples, continuing the
  /// group the last block left open) in g, less the origin, to `out`; returns how many. Each
  /// group is summed in sample order, `((m₀ + m₁) + m₂) + …`, whatever the factor and the block sizes, so
  /// the output does not depend on them; factors 1, 2 and 4 (rates under 75 Hz and 100–124 Hz) sum 16
  /// samples at a time in SIMD lanes, one group per lane.
  @inline(__always)
  mutating func boxcar(
    _ magnitudes: UnsafeBufferPointer<Float>, into out: UnsafeMutablePointer<Float>
  ) -> Int {
    let factor = decimationFactor
    let inverse = scale / Float(factor)
    let origin = origin
    let m = magnitudes.baseAddress!
    var produced = 0
    var i = 0
    var sum = boxSum
    var count = boxCount
    /// Adds the samples up to `end` one at a time, writing each group's mean as it fills.
    func addEach(upTo end: Int) {
      while i < end {
        sum += m[i]
        i &+= 1
        count &+= 1
        if count == factor {
          out[produced] = sum * inverse - origin
          produced &+= 1
          sum = 0
          count = 0
        }
      }
    }
    if count > 0 { addEach(upTo: min(magnitudes.count, factor - count)) }
    if count == 0 && (factor == 1 || factor == 2 || factor == 4) {
      while i &+ 16 <= magnitudes.count {
        let v = UnsafeRawPointer(m + i).loadUnaligned(as: SIMD16<Float>.self)
        let target = UnsafeMutableRawPointer(out + produced)
        switch factor {
        case 4:
          let (even, odd) = (v.evenHalf, v.oddHalf)
          let sums = ((even.evenHalf + odd.evenHalf) + even.oddHalf) + odd.oddHalf
          target.storeBytes(of: sums * inverse - origin, as: SIMD4<Float>.self)
        case 2: target.storeBytes(of: (v.evenHalf + v.oddHalf) * inverse - origin, as: SIMD8<Float>.self)
        default: target.storeBytes(of: v * inverse - origin, as: SIMD16<Float>.self)
        }
        produced &+= 16 / factor
        i &+= 16
      }
    }
    addEach(upTo: magnitudes.count)
    boxSum = sum
    boxCount = count
    return produced
  }

  /// Finds the peaks in band-passed samples and passes the confirmed ones to the rhythm test.
  mutating func scanPeaks(_ values: UnsafeBufferPointer<Float>, high: UnsafeBufferPointer<Float>) {
    var (before, last) = previous
    var index = decimatedIndex
    var (stepPower, highPower) = power
    let weight = powerWeight
    for (value, h) in zip(values, high) {
      stepPower += weight * (value * value - stepPower)
      highPower += weight * (h * h - highPower)
      if let c = candidate, index - 1 - c.index >= refractory {
        candidate = nil
        rhythm.accept(c.index, amplitude: c.value, steps: &peakScratch, bouts: &boutScratch)
      }
      if before < last && last >= value && last > threshold && highPower <= highBandLimit * stepPower {
        if candidate == nil || last > candidate!.value { candidate = (index - 1, last) }
      }
      rhythm.advance(to: index, bouts: &boutScratch)
      before = last
      last = value
      index += 1
    }
    previous = (before, last)
    power = (stepPower, highPower)
    decimatedIndex = index
  }

  /// Turns decided steps and bouts (band-passed sample indices) into events.
  mutating func emit(into output: inout Output) {
    for peak in peakScratch { output.steps.append(event(peak)) }
    for bout in boutScratch {
      output.bouts.append(WalkingBout(start: event(bout.start), end: event(bout.end), steps: bout.steps))
    }
    peakScratch.removeAll(keepingCapacity: true)
    boutScratch.removeAll(keepingCapacity: true)
  }

  /// The step event of band-passed sample `index`: the center of its boxcar block, moved back by the
  /// band-pass's phase delay.
  func event(_ index: Int64) -> StepEvent {
    let factor = Int64(decimationFactor)
    let sample = max(0, skipped + index * factor + (factor - 1) / 2 - delay)
    return StepEvent(sampleIndex: sample, time: recordStart.advanced(bySamples: sample, rate: sampleRate))
  }
}
