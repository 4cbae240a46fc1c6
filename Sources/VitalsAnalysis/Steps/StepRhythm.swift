import VitalsSupport

/// The walking test of ``StepDetector``: candidate peaks count as steps only inside a rhythm.
///
/// Outside a bout, candidates collect in a run; a candidate more than the longest step interval after the
/// previous one restarts the run, and one whose stride (the time since the candidate two before it, so the
/// same foot) differs from the run's last stride by more than the stride ratio keeps only the previous
/// candidate and itself, as does one whose peak is more than the amplitude ratio larger or smaller than that
/// of the candidate two before it (the same foot). A candidate that ends three peaks each smaller than
/// `ringingDecay` times the one before keeps only itself: a damped oscillation (a vehicle's suspension
/// after a bump, a device rocking on a surface) decays geometrically at a steady period, which the stride
/// test alone lets through. When the run holds `stepsToStartBout` candidates, they become the first steps
/// of a bout (the periodicity check of Brajdic & Harle 2013 and of phone step counters, which count
/// nothing until several regular steps have come; a run whose median peak is under `weakStepAmplitude`
/// needs `stepsToStartWeakBout`: weak rhythmic motion, such as a vehicle's, needs more evidence than the
/// heel strikes of a walk), together with the candidates just before the run that
/// chain back to it at step intervals (from 1/`continuationRatio` to `continuationRatio` bout periods, at
/// most ``backFillLimit``): the first steps of a walk, or those around a turn, that broke the run's
/// stride or amplitude test are counted once the walk is proven. Within `resumeWindow` samples of the last
/// bout's last step,
/// `stepsToResumeBout` candidates are enough, `stepsToResumeWeakBout` for a weak run (hysteresis: a walk
/// interrupted by a turn, a door or an obstacle resumes without proving itself again). Inside a bout, a candidate within `continuationRatio` step
/// periods (and the longest step interval) of the last step is a step; the step period follows the
/// intervals (exponential average, weight 1/5, each interval clipped to 0.5–1.5 periods). A later candidate,
/// or none by then, ends the bout, and the late candidate starts a new run.
///
/// Times are sample indices at the detector's internal rate; every limit is in those samples.
struct StepRhythm: Sendable {
  let stepsToStartBout: Int
  let stepsToResumeBout: Int
  let stepsToResumeWeakBout: Int
  let resumeWindow: Int64
  let maximumInterval: Double
  let strideRatio: ClosedRange<Double>
  let continuationRatio: Double
  let amplitudeRatio: Float
  let ringingDecay: Float
  let weakStepAmplitude: Float
  let stepsToStartWeakBout: Int
  /// Most candidates before a starting run that are back-filled as steps.
  static let backFillLimit = 16
  /// How long after a peak it is confirmed (the refractory window, plus one sample).
  let confirmationDelay: Int64

  /// Candidates of the current run (outside a bout), oldest first, and their peak values.
  private var run: [Int64]
  private var amplitudes: [Float]
  /// Scratch for the median of `amplitudes`.
  private var sortedAmplitudes: [Double]
  /// Candidates since the last pause longer than the longest step interval (outside a bout), oldest first,
  /// at most ``backFillLimit`` before the run's first.
  private var chain: [Int64]
  private(set) var walking = false
  private var period = 0.0
  private var boutStart: Int64 = 0
  private var boutSteps = 0
  private var lastStep: Int64 = 0
  /// The last step of the last bout that ended, if any.
  private var lastBoutEnd: Int64?
  /// The bout ends once no step has come by this sample.
  private var deadline = 0.0

  init(
    stepsToStartBout: Int, stepsToResumeBout: Int, stepsToResumeWeakBout: Int, resumeWindow: Int64,
    maximumInterval: Double,
    strideRatio: ClosedRange<Double>, continuationRatio: Double, amplitudeRatio: Double,
    ringingDecay: Double, weakStepAmplitude: Double, stepsToStartWeakBout: Int, confirmationDelay: Int64
  ) {
    self.stepsToStartBout = stepsToStartBout
    self.stepsToResumeBout = stepsToResumeBout
    self.stepsToResumeWeakBout = stepsToResumeWeakBout
    self.resumeWindow = resumeWindow
    self.maximumInterval = maximumInterval
    self.strideRatio = strideRatio
    self.continuationRatio = continuationRatio
    self.amplitudeRatio = Float(amplitudeRatio)
    self.ringingDecay = Float(ringingDecay)
    self.weakStepAmplitude = Float(weakStepAmplitude)
    self.stepsToStartWeakBout = stepsToStartWeakBout
    self.confirmationDelay = confirmationDelay
    run = []
    let longestRun = max(stepsToStartBout, stepsToStartWeakBout)
    run.reserveCapacity(longestRun)
    amplitudes = []
    amplitudes.reserveCapacity(longestRun)
    sortedAmplitudes = []
    sortedAmplitudes.reserveCapacity(longestRun)
    chain = []
    chain.reserveCapacity(Self.backFillLimit + longestRun + 1)
  }

  /// Takes the confirmed peak at `peak` of band-passed value `amplitude`; appends the steps it decides to
  /// `steps` and a bout it ends to `bouts` (first step, last step, steps).
  mutating func accept(
    _ peak: Int64, amplitude: Float, steps: inout [Int64],
    bouts: inout [(start: Int64, end: Int64, steps: Int)]
  ) {
    if walking {
      if Double(peak) <= deadline {
        let interval = Double(peak - lastStep)
        period += 0.2 * (min(max(interval, 0.5 * period), 1.5 * period) - period)
        lastStep = peak
        boutSteps += 1
        deadline = Double(peak) + min(maximumInterval, continuationRatio * period)
        steps.append(peak)
        return
      }
      endBout(into: &bouts)
    }
    extendChain(peak)
    guard let previous = run.last, Double(peak - previous) <= maximumInterval else {
      restartRun(keepingLast: false, peak, amplitude)
      return
    }
    let n = run.count
    if n >= 2 {
      // The same foot's previous peak: its size and (from three on) the stride since.
      let sameFoot = amplitudes[n - 2]
      if amplitude > amplitudeRatio * sameFoot || sameFoot > amplitudeRatio * amplitude {
        restartRun(keepingLast: true, peak, amplitude)
        return
      }
      if amplitude < ringingDecay * amplitudes[n - 1] && amplitudes[n - 1] < ringingDecay * sameFoot {
        restartRun(keepingLast: false, peak, amplitude)
        chain.removeAll(keepingCapacity: true)
        chain.append(peak)
        return
      }
    }
    if n >= 3 {
      let stride = Double(peak - run[n - 2])
      let lastStride = Double(run[n - 1] - run[n - 3])
      if !strideRatio.contains(stride / lastStride) {
        restartRun(keepingLast: true, peak, amplitude)
        return
      }
    }
    run.append(peak)
    amplitudes.append(amplitude)
    let resuming = lastBoutEnd.map { run[0] - $0 <= resumeWindow } ?? false
    var needed = resuming ? stepsToResumeBout : stepsToStartBout
    let weakNeeded = resuming ? stepsToResumeWeakBout : stepsToStartWeakBout
    if run.count >= needed && run.count < weakNeeded && medianAmplitude() < weakStepAmplitude {
      needed = weakNeeded
    }
    if run.count >= needed {
      walking = true
      period = Double(peak - run[0]) / Double(run.count - 1)
      let before = steps.count
      backFill(into: &steps)
      steps.append(contentsOf: run)
      boutStart = steps[before]
      boutSteps = steps.count - before
      lastStep = peak
      deadline = Double(peak) + min(maximumInterval, continuationRatio * period)
      run.removeAll(keepingCapacity: true)
      amplitudes.removeAll(keepingCapacity: true)
      chain.removeAll(keepingCapacity: true)
    }
  }

  /// The median peak value of the run.
  private mutating func medianAmplitude() -> Float {
    sortedAmplitudes.removeAll(keepingCapacity: true)
    for amplitude in amplitudes { sortedAmplitudes.append(Double(amplitude)) }
    sortedAmplitudes.sort()
    return Float(DescriptiveStatistics.median(sorted: sortedAmplitudes))
  }

  /// Appends `peak` to the chain of candidates, which starts afresh after a pause longer than the longest
  /// step interval and keeps at most ``backFillLimit`` candidates before the run.
  private mutating func extendChain(_ peak: Int64) {
    if let last = chain.last, Double(peak - last) > maximumInterval { chain.removeAll(keepingCapacity: true) }
    if chain.count > Self.backFillLimit + run.count { chain.removeFirst() }
    chain.append(peak)
  }

  /// Appends, oldest first, the candidates of the chain just before the run that lead to its first
  /// candidate at step intervals of the starting bout's period (from 1/`continuationRatio` to
  /// `continuationRatio` periods; a closer candidate is passed over, a farther one ends the search).
  private func backFill(into steps: inout [Int64]) {
    assert(chain.suffix(run.count).elementsEqual(run), "the run is the chain's tail")
    let first = chain.count - run.count
    let start = steps.count
    var next = run[0]
    for candidate in chain[..<first].reversed() {
      let interval = Double(next - candidate)
      if interval > continuationRatio * period { break }
      if interval >= period / continuationRatio {
        steps.append(candidate)
        next = candidate
      }
    }
    steps[start...].reverse()
  }

  /// Starts a new run with `peak`, after the last candidate of the old one when `keepingLast`.
  private mutating func restartRun(keepingLast: Bool, _ peak: Int64, _ amplitude: Float) {
    let last = keepingLast ? run.last.map { ($0, amplitudes.last!) } : nil
    run.removeAll(keepingCapacity: true)
    amplitudes.removeAll(keepingCapacity: true)
    if let last {
      run.append(last.0)
      amplitudes.append(last.1)
    }
    run.append(peak)
    amplitudes.append(amplitude)
  }

  /// Ends the bout when sample `now` is past the deadline by the confirmation delay: every peak up to the
  /// deadline has been confirmed, so none can continue the bout.
  mutating func advance(to now: Int64, bouts: inout [(start: Int64, end: Int64, steps: Int)]) {
    if walking && Double(now - confirmationDelay) > deadline { endBout(into: &bouts) }
  }

  /// Ends an open bout (end of the stream or of a segment before a gap); the next bout starts afresh.
  mutating func finish(bouts: inout [(start: Int64, end: Int64, steps: Int)]) {
    if walking { endBout(into: &bouts) }
    run.removeAll(keepingCapacity: true)
    amplitudes.removeAll(keepingCapacity: true)
    chain.removeAll(keepingCapacity: true)
    lastBoutEnd = nil
  }

  private mutating func endBout(into bouts: inout [(start: Int64, end: Int64, steps: Int)]) {
    bouts.append((boutStart, lastStep, boutSteps))
    walking = false
    lastBoutEnd = lastStep
  }
}
