import VitalsCore

/// One of the walker's two feet. The acceleration tells the two apart but not which is left:
/// ``first`` is the foot during whose steps the trunk or the limb carrying the device leans one way, the
/// same foot throughout a recording while the device keeps its place on the body.
public enum Foot: String, Sendable, Hashable, Codable, CaseIterable {
  case first
  case second
}

/// A step and the foot that took it (nil where the bout's motion does not tell the feet apart).
public struct FootedStep: Sendable, Hashable {
  public var step: StepEvent
  public var foot: Foot?

  public init(step: StepEvent, foot: Foot?) {
    self.step = step
    self.foot = foot
  }
}

/// The step-time asymmetry of one walking bout: how many pairs of consecutive steps by opposite feet it
/// holds and in how many the two step times differ by more than the tracker's
/// ``StepFootTracker/Configuration-swift.struct/asymmetryTolerance``.
public struct BoutAsymmetry: Sendable, Hashable {
  public var bout: WalkingBout
  /// Pairs of consecutive step times (heel strike to heel strike) ending on opposite feet.
  public var pairs: Int
  /// Those whose longer step time exceeds the shorter by more than the tolerance.
  public var asymmetricPairs: Int

  public init(bout: WalkingBout, pairs: Int, asymmetricPairs: Int) {
    self.bout = bout
    self.pairs = pairs
    self.asymmetricPairs = asymmetricPairs
  }

  /// HealthKit's `walkingAsymmetryPercentage` for the bout: the percentage of asymmetric pairs, 0–100; nil
  /// without pairs.
  public var percentage: Double? { pairs > 0 ? 100 * Double(asymmetricPairs) / Double(pairs) : nil }
}

/// Which foot took each step that ``StepDetector`` found, and each walking bout's step-time asymmetry,
/// from the same three acceleration axes.
///
/// Method: while a foot is on the ground the trunk sways over it (Zijlstra & Hof 2003) and the limbs
/// swing at half the step rate, so the mean acceleration vector over the interval after a heel strike
/// (to the next one) leans to one side for one foot and to the other for the other foot. For each step,
/// `c` is that interval's mean (the three axes, decimated as the detector's magnitude) minus the mean of
/// its neighbors' (which removes gravity and posture). The direction that alternates most from step to
/// step is the `u` maximizing `Σ (u·(c_k − c_{k+1}))² / Σ (u·(c_k + c_{k+1}))²` over the consecutive
/// steps of all bouts so far (a 3 × 3 generalized eigenproblem, kept pointing the same way from bout to
/// bout); the step's evidence is `c·u` over its RMS in the bout. A Viterbi pass over each bout picks the
/// feet that maximize `Σ evidence·(±1) + alternationWeight · (number of foot changes)`: walking
/// alternates feet, but a turn or a shuffle may take two steps with one foot. A bout whose evidence
/// alternates less than it persists (``Configuration-swift.struct/minimumAlternation``) gets no feet.
///
/// Asymmetry: a step time is the interval from one heel strike to the next, each strike timed at its
/// impact (the largest acceleration magnitude within 0.15 s of the detector's step peak, refined between
/// samples by a parabola); a pair is two consecutive step times ending on opposite feet, asymmetric when
/// the longer exceeds the shorter by more than ``Configuration-swift.struct/asymmetryTolerance``
/// (HealthKit's walking asymmetry is "the percentage of steps in which one foot moves at a different
/// speed than the other"; healthy adults' left/right ratios of stance, swing and step length stay under
/// about 1.05–1.08, Patterson et al. 2010). A device in a trouser pocket times its own leg's steps
/// differently from the other leg's (<doc:StepDetection> gives the measured figures per placement).
///
/// Delay: a step's foot is decided when its bout ends (``StepDetector`` reports the bout), so steps come
/// out of the tracker then, in order. Cost: O(1) per sample (running sums of the three axes per decimated
/// sample, in a ring of ``historySeconds``) and O(steps) per bout; memory grows with the steps of the bout
/// in progress. With detector settings that report a step more than about 48 s after its peak, such a
/// step's interval and impact have left the ring: it keeps the detector's time and adds no evidence.
///
/// References: W. Zijlstra, A. L. Hof, "Assessment of spatio-temporal gait parameters from trunk
/// accelerations during human walking", Gait & Posture 18(2), 2003, 1–10. K. K. Patterson et al.,
/// "Evaluation of gait symmetry after stroke: a comparison of current methods and recommendations for
/// standardization", Gait & Posture 31(2), 2010, 241–246.
public struct StepFootTracker: Sendable {
  /// The tracker's parameters.
  public struct Configuration: Sendable, Hashable {
    /// Score of a change of foot between consecutive steps, against the evidence of one step (unit RMS).
    public var alternationWeight = 2.0
    /// Largest relative difference of two consecutive step times that still counts as symmetric.
    public var asymmetryTolerance = 0.1
    /// Least ratio of the alternating to the persisting part of a bout's evidence for it to get feet.
    public var minimumAlternation = 1.0

    public init() {}
  }

  /// What the tracker has decided: steps with their feet, and bouts with their asymmetry, in time order.
  public struct Output: Sendable, Hashable {
    public var steps: [FootedStep] = []
    public var bouts: [BoutAsymmetry] = []

    public init() {}
  }

  /// Seconds of acceleration kept for the steps still to come: a piece of input (``pieceSeconds``) and
  /// the detector's longest delay (a back-filled step is reported at most 45.3 s after its peak by
  /// default).
  public static let historySeconds = 64.0
  /// Longest piece of input fed to the detector at once, seconds.
  public static let pieceSeconds = 16.0

  /// How far from the detector's step peak its heel strike is looked for, seconds.
  static let strikeSearchSeconds = 0.15

  public let configuration: Configuration
  public let sampleRate: Double
  /// Input samples per decimated sample (the detector's factor, `⌊rate / 25⌋`).
  let factor: Int
  /// Running sums of the finite samples' axes and their count, one entry per decimated sample: entry `j`
  /// holds the sums over the input samples before `j · factor`. The last `capacity` entries are kept, in
  /// a ring whose length is a power of two (entry `j` at `j & ringMask`, no division).
  var sums: [SIMD4<Double>]
  let capacity: Int
  let ringMask: Int64
  /// Completed decimated samples, and the sums of the block being filled and before it.
  var completed: Int64 = 0
  var block = SIMD4<Double>()
  var blockCount = 0
  var total = SIMD4<Double>()
  /// Steps reported but not yet in a bout: each with its heel strike (``strike(near:)``) and its
  /// interval's mean (nil for the last one until the next step comes, or when its interval is out of the
  /// ring or holds no finite sample).
  var pending: [Pending] = []
  struct Pending: Sendable {
    var step: StepEvent
    var strike: Double
    var mean: SIMD3<Double>?
  }
  /// The alternation statistics `Σ d dᵀ` and `Σ s sᵀ` over all bouts, and the direction last chosen.
  var alternating = Matrix3()
  var persisting = Matrix3()
  var direction: SIMD3<Double>?

  /// A tracker for acceleration sampled at `sampleRate` Hz (within ``StepDetector/supportedSampleRates``).
  public init(sampleRate: Double, configuration: Configuration = Configuration()) throws(StepDetectorError) {
    guard StepDetector.supportedSampleRates.contains(sampleRate) else {
      throw .unsupportedSampleRate(sampleRate)
    }
    for (name, value, range) in [
      ("alternationWeight", configuration.alternationWeight, 0.0...100),
      ("asymmetryTolerance", configuration.asymmetryTolerance, 0.0...1),
      ("minimumAlternation", configuration.minimumAlternation, 0.0...100),
    ] where !range.contains(value) {
      throw .invalidConfiguration(name, value)
    }
    self.configuration = configuration
    self.sampleRate = sampleRate
    factor = max(1, Int(sampleRate / StepDetector.internalRate))
    capacity = Int((Self.historySeconds * sampleRate / Double(factor)).rounded(.up)) + 1
    let ringCount = Int.powerOfTwo(atLeast: capacity)
    ringMask = Int64(ringCount - 1)
    sums = [SIMD4<Double>](repeating: .zero, count: ringCount)
  }

  /// Feeds the next samples of the three axes (equal counts) to `detector` and to the tracker, in pieces of
  /// at most ``pieceSeconds`` so that every step's samples are still at hand when the detector reports it;
  /// appends the detector's steps and bouts to `detected` as it decides them, and the steps and bouts whose
  /// feet are decided to `output`. The detector must run at the tracker's rate and be fed by this call
  /// only. `magnitudes`, when given, receives each sample's magnitude as in
  /// ``StepDetector/process(x:y:z:into:magnitudes:)``.
  public mutating func process(
    x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>,
    detector: inout StepDetector, detected: inout StepDetector.Output, into output: inout Output,
    magnitudes: UnsafeMutableBufferPointer<Float>? = nil
  ) {
    precondition(x.count == y.count && y.count == z.count, "the three axes hold the same number of samples")
    precondition(
      detector.sampleRate == sampleRate, "detector \(detector.sampleRate) Hz, tracker \(sampleRate) Hz")
    let piece = max(1, Int(Self.pieceSeconds * sampleRate))
    var start = 0
    while start < x.count {
      let range = start..<min(x.count, start + piece)
      let (px, py, pz) = (
        UnsafeBufferPointer(rebasing: x[range]), UnsafeBufferPointer(rebasing: y[range]),
        UnsafeBufferPointer(rebasing: z[range])
      )
      let known = (detected.steps.count, detected.bouts.count)
      detector.process(
        x: px, y: py, z: pz, into: &detected,
        magnitudes: magnitudes.map { UnsafeMutableBufferPointer(rebasing: $0[range]) })
      accumulate(x: px, y: py, z: pz)
      take(steps: detected.steps[known.0...], bouts: detected.bouts[known.1...], into: &output)
      start = range.upperBound
    }
  }

  /// Feeds the next chunk of a recording, taking the axes from channels `axes` (x, y, z), as
  /// ``process(x:y:z:detector:detected:into:magnitudes:)``; the chunk sets the detector's record origin as
  /// ``StepDetector/process(_:axes:into:magnitudes:)`` does.
  public mutating func process(
    _ chunk: SignalChunk, axes: (Int, Int, Int) = (0, 1, 2), detector: inout StepDetector,
    detected: inout StepDetector.Output, into output: inout Output,
    magnitudes: UnsafeMutableBufferPointer<Float>? = nil
  ) {
    detector.begin(chunk, axes: axes)
    chunk.channels[axes.0].withUnsafeBufferPointer { x in
      chunk.channels[axes.1].withUnsafeBufferPointer { y in
        chunk.channels[axes.2].withUnsafeBufferPointer { z in
          process(
            x: x, y: y, z: z, detector: &detector, detected: &detected, into: &output, magnitudes: magnitudes)
        }
      }
    }
  }

  /// Ends the stream: finishes `detector` (appending its last steps and bout to `detected`) and appends
  /// the last decisions to `output`; steps outside any bout come out without a foot.
  public mutating func finish(
    detector: inout StepDetector, detected: inout StepDetector.Output, into output: inout Output
  ) {
    let known = (detected.steps.count, detected.bouts.count)
    detector.finish(into: &detected)
    take(steps: detected.steps[known.0...], bouts: detected.bouts[known.1...], into: &output)
    output.steps += pending.map { FootedStep(step: $0.step, foot: nil) }
    pending.removeAll()
  }

  /// Adds samples to the running sums (NaN or infinite samples are left out).
  mutating func accumulate(
    x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>
  ) {
    // Sample by sample into the block's sums: the same sums whatever the chunking. The running values are
    // held in locals (registers), not in the tracker's memory, where each addition would wait on a store
    // and a load.
    var (block, blockCount, completed, total) = (self.block, self.blockCount, self.completed, self.total)
    let (factor, ringMask) = (self.factor, self.ringMask)
    sums.withUnsafeMutableBufferPointer { sums in
      for i in 0..<x.count {
        if (x[i] + y[i] + z[i]).isFinite { block += SIMD4(Double(x[i]), Double(y[i]), Double(z[i]), 1) }
        blockCount += 1
        if blockCount == factor {
          completed += 1
          total += block
          sums[Int(completed & ringMask)] = total
          block = .zero
          blockCount = 0
        }
      }
    }
    (self.block, self.blockCount, self.completed, self.total) = (block, blockCount, completed, total)
  }

  /// Takes the steps and bouts the detector has just decided, and appends the steps and bouts whose feet
  /// are decided to `output`.
  mutating func take(
    steps: ArraySlice<StepEvent>, bouts: ArraySlice<WalkingBout>, into output: inout Output
  ) {
    for step in steps {
      if let last = pending.indices.last, pending[last].mean == nil {
        pending[last].mean = intervalMean(from: pending[last].step.sampleIndex, to: step.sampleIndex)
      }
      pending.append(Pending(step: step, strike: strike(near: step.sampleIndex), mean: nil))
    }
    // Indices, not slices, into `pending`: a slice alive at `removeFirst` would make it copy the whole
    // array, which in a walk of hours holds every step since the bout began.
    for bout in bouts {
      let end = pending.firstIndex { $0.step.sampleIndex > bout.end.sampleIndex } ?? pending.endIndex
      let start = pending[..<end].firstIndex { $0.step.sampleIndex >= bout.start.sampleIndex } ?? end
      output.steps += pending[..<start].map { FootedStep(step: $0.step, foot: nil) }
      decide(bout: bout, steps: pending[start..<end], into: &output)
      pending.removeFirst(end)
    }
  }

  /// The mean acceleration over input samples `start..<end`, nil when it has left the ring or holds no
  /// finite sample.
  func intervalMean(from start: Int64, to end: Int64) -> SIMD3<Double>? {
    let first = start / Int64(factor)
    let last = min(end / Int64(factor), completed)
    guard last > first, completed - first < Int64(capacity) else { return nil }
    return mean(ofDecimated: first..<last)
  }

  /// The mean acceleration over decimated samples `range` (all of them still in the ring), nil without a
  /// finite sample in it.
  func mean(ofDecimated range: Range<Int64>) -> SIMD3<Double>? {
    let end = sums[Int(range.upperBound & ringMask)]
    let sum = end - (range.lowerBound == 0 ? .zero : sums[Int(range.lowerBound & ringMask)])
    return sum.w > 0 ? SIMD3(sum.x, sum.y, sum.z) / sum.w : nil
  }

  /// The heel strike of the step the detector placed at input sample `index`, in input samples: the
  /// largest acceleration magnitude (the impact) among the decimated samples within
  /// ``strikeSearchSeconds`` of it, refined by a parabola through it and its neighbors; the step's own
  /// sample when none of them is in the ring.
  func strike(near index: Int64) -> Double {
    let center = index / Int64(factor)
    let reach = Int64((Self.strikeSearchSeconds * sampleRate / Double(factor)).rounded(.up))
    let low = max(center - reach, completed - Int64(capacity) + 2, 0)
    let high = min(center + reach, completed - 1)
    guard low <= high else { return Double(index) }
    var best = low
    var largest = -Double.infinity
    for j in low...high {
      let m = blockMagnitude(j)
      if m > largest {
        largest = m
        best = j
      }
    }
    guard largest.isFinite else { return Double(index) }
    var offset = 0.0
    if best > low && best < high {
      let (before, after) = (blockMagnitude(best - 1), blockMagnitude(best + 1))
      let curvature = before - 2 * largest + after
      if curvature < 0 { offset = min(0.5, max(-0.5, 0.5 * (before - after) / curvature)) }
    }
    return (Double(best) + 0.5 + offset) * Double(factor) - 0.5
  }

  /// The magnitude of decimated sample `j`'s mean acceleration; −∞ without a finite sample in it.
  func blockMagnitude(_ j: Int64) -> Double {
    guard let mean = mean(ofDecimated: j..<j + 1) else { return -.infinity }
    return (mean * mean).sum().squareRoot()
  }

  /// Decides the feet of one bout's steps and its asymmetry.
  mutating func decide(
    bout: WalkingBout, steps: ArraySlice<Pending>, into output: inout Output
  ) {
    // The last step's interval runs past the bout.
    var means = steps.map(\.mean)
    if !means.isEmpty { means[means.count - 1] = nil }
    let evidence = stepEvidence(means)
    let feet = evidence.map { Self.alternatingFeet(evidence: $0, weight: configuration.alternationWeight) }
    output.steps += steps.enumerated().map { FootedStep(step: $1.step, foot: feet?[$0]) }
    let counts =
      feet.map {
        Self.asymmetry(strikes: steps.map(\.strike), feet: $0, tolerance: configuration.asymmetryTolerance)
      } ?? (pairs: 0, asymmetric: 0)
    output.bouts.append(BoutAsymmetry(bout: bout, pairs: counts.pairs, asymmetricPairs: counts.asymmetric))
  }

  /// The pairs of consecutive step times (from strike to strike, any unit) ending on opposite feet among
  /// one walk's `strikes` (increasing) taken by `feet`, and those whose longer step time exceeds the
  /// shorter by more than `tolerance` (a fraction).
  public static func asymmetry(strikes: [Double], feet: [Foot], tolerance: Double) -> (
    pairs: Int, asymmetric: Int
  ) {
    precondition(strikes.count == feet.count, "one foot per strike")
    var pairs = 0
    var asymmetric = 0
    for k in strikes.indices.dropFirst(2) where feet[k] != feet[k - 1] && feet[k - 1] != feet[k - 2] {
      let earlier = strikes[k - 1] - strikes[k - 2]
      let later = strikes[k] - strikes[k - 1]
      pairs += 1
      if max(earlier, later) > (1 + tolerance) * min(earlier, later) { asymmetric += 1 }
    }
    return (pairs, asymmetric)
  }

  /// Each step's evidence for one foot (positive) or the other, or nil when the bout has too few steps
  /// with intervals or its evidence does not alternate. Updates the alternation statistics and the
  /// direction.
  mutating func stepEvidence(_ means: [SIMD3<Double>?]) -> [Double]? {
    // c_k: the interval's mean minus the mean of its neighbors' (nil where a mean is missing).
    let deviations: [SIMD3<Double>?] = means.indices.map { k in
      guard let mean = means[k] else { return nil }
      let before = k > 0 ? means[k - 1] : nil
      let after = k + 1 < means.count ? means[k + 1] : nil
      switch (before, after) {
      case (let b?, let a?): return mean - (a + b) / 2
      case (let only?, nil), (nil, let only?): return mean - only
      case (nil, nil): return nil
      }
    }
    for k in deviations.indices.dropLast() {
      guard let a = deviations[k], let b = deviations[k + 1] else { continue }
      alternating.add(outer: a - b)
      persisting.add(outer: a + b)
    }
    guard var u = Matrix3.mostAlternating(alternating, persisting, start: direction) else { return nil }
    if let previous = direction, (u * previous).sum() < 0 { u = -u }
    direction = u
    let projections = deviations.map { $0.map { ($0 * u).sum() } }
    let known = projections.compactMap { $0 }
    let meanSquare = known.reduce(0) { $0 + $1 * $1 } / Double(max(1, known.count))
    guard known.count >= 2, meanSquare > 0 else { return nil }
    let evidence = projections.map { ($0 ?? 0) / meanSquare.squareRoot() }
    var change = 0.0
    var persistence = 0.0
    for k in evidence.indices.dropLast() {
      change += (evidence[k] - evidence[k + 1]) * (evidence[k] - evidence[k + 1])
      persistence += (evidence[k] + evidence[k + 1]) * (evidence[k] + evidence[k + 1])
    }
    return change >= configuration.minimumAlternation * persistence ? evidence : nil
  }

  /// The feet maximizing `Σ evidence_k · (+1 for first, −1 for second) + weight · (changes of foot)`
  /// (Viterbi over the two states).
  static func alternatingFeet(evidence: [Double], weight: Double) -> [Foot] {
    guard !evidence.isEmpty else { return [] }
    // Scores of the best labelings ending on first (index 0) and second (1), and the back pointers.
    var score = (evidence[0], -evidence[0])
    var cameFrom: [(Bool, Bool)] = []  // for each state, whether the best predecessor was the other foot
    cameFrom.reserveCapacity(evidence.count)
    for value in evidence.dropFirst() {
      let fromOtherToFirst = score.1 + weight > score.0
      let fromOtherToSecond = score.0 + weight > score.1
      score = (
        (fromOtherToFirst ? score.1 + weight : score.0) + value,
        (fromOtherToSecond ? score.0 + weight : score.1) - value
      )
      cameFrom.append((fromOtherToFirst, fromOtherToSecond))
    }
    var onFirst = score.0 >= score.1
    var feet = [onFirst ? Foot.first : .second]
    for step in cameFrom.reversed() {
      if onFirst ? step.0 : step.1 { onFirst.toggle() }
      feet.append(onFirst ? .first : .second)
    }
    return feet.reversed()
  }
}

/// A symmetric 3 × 3 matrix (row-major), for the alternation statistics of ``StepFootTracker``.
struct Matrix3: Sendable {
  var rows = (SIMD3<Double>(), SIMD3<Double>(), SIMD3<Double>())

  /// Adds `v vᵀ`.
  mutating func add(outer v: SIMD3<Double>) {
    rows.0 += v.x * v
    rows.1 += v.y * v
    rows.2 += v.z * v
  }

  func times(_ v: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3((rows.0 * v).sum(), (rows.1 * v).sum(), (rows.2 * v).sum())
  }

  var trace: Double { rows.0.x + rows.1.y + rows.2.z }

  /// The unit `u` maximizing `uᵀ a u / uᵀ b u` (a and b symmetric, b positive definite after adding
  /// 10⁻⁶ · trace(b) to its diagonal): power iteration on `b⁻¹ a` from `start` (or the diagonal); nil when
  /// `a` is zero.
  static func mostAlternating(_ a: Matrix3, _ b: Matrix3, start: SIMD3<Double>?) -> SIMD3<Double>? {
    guard a.trace > 0 else { return nil }
    var b = b
    let ridge = max(1e-12, 1e-6 * b.trace)
    b.rows.0.x += ridge
    b.rows.1.y += ridge
    b.rows.2.z += ridge
    guard let inverse = b.inverse else { return nil }
    var u = start ?? SIMD3(1, 1, 1)
    for _ in 0..<100 {
      let next = inverse.times(a.times(u))
      let norm = (next * next).sum().squareRoot()
      guard norm > 0 && norm.isFinite else { return nil }
      u = next / norm
    }
    return u
  }

  /// The inverse, nil when singular.
  var inverse: Matrix3? {
    let (r0, r1, r2) = rows
    let c0 = SIMD3(r1.y * r2.z - r1.z * r2.y, r1.z * r2.x - r1.x * r2.z, r1.x * r2.y - r1.y * r2.x)
    let determinant = (r0 * c0).sum()
    guard determinant != 0 && determinant.isFinite else { return nil }
    let c1 = SIMD3(r0.z * r2.y - r0.y * r2.z, r0.x * r2.z - r0.z * r2.x, r0.y * r2.x - r0.x * r2.y)
    let c2 = SIMD3(r0.y * r1.z - r0.z * r1.y, r0.z * r1.x - r0.x * r1.z, r0.x * r1.y - r0.y * r1.x)
    // The adjugate's rows are the cofactors' columns.
    return Matrix3(
      rows: (
        SIMD3(c0.x, c1.x, c2.x) / determinant, SIMD3(c0.y, c1.y, c2.y) / determinant,
        SIMD3(c0.z, c1.z, c2.z) / determinant
      ))
  }
}
