import VitalsCore

/// One pulse found in a photoplethysmogram.
public struct PPGPulse: Sendable, Hashable, Codable {
  /// Record sample index of the systolic peak (the largest band-passed value of the pulse).
  public var peak: Int64
  /// Record sample index of the pulse onset (the foot: the smallest band-passed value between the previous
  /// pulse and this pulse's upstroke).
  public var onset: Int64

  public init(peak: Int64, onset: Int64) {
    self.peak = peak
    self.onset = onset
  }
}

/// Systolic peaks and onsets of a PPG, streaming: the two-moving-averages detector of Elgendi et al. 2013
/// ("Systolic peak detection in acceleration photoplethysmograms measured from emergency responders in
/// tropical conditions", PLoS ONE 8(10):e76585), as in NeuroKit2's `ppg_peaks(method="elgendi")`, made
/// causal.
///
/// Steps: band-pass 0.5–8 Hz (Butterworth, order 2 per corner, causal); clip at 0 and square; a short
/// moving average (``Configuration/peakWindow``, the systolic peak's width) and a long one
/// (``Configuration/beatWindow``, a beat), both centered on the same sample; blocks of interest where the
/// short one exceeds the long one plus ``Configuration/offset`` times the mean squared signal (here a
/// running mean over the last 10 s instead of the whole record); a block at least a peak window long
/// holds one systolic peak, its largest band-passed sample, unless it began before the first trough of the
/// signal (the pulse's foot, its onset, is not in the signal); blocks are looked for only from the first
/// sample whose long window lies in the signal. A peak closer than
/// ``Configuration/refractoryPeriod`` to the previous one is dropped. Pulses are reported half a beat
/// window plus the block's length after their peak.
///
/// The band-pass starts in the steady state for the first sample, so a signal's level makes no start-up
/// transient.
///
/// The peaks are beat times for pulse-rate variability (``NNSeries``, ``HRVAnalysis``). NaN and infinite
/// samples are missing data (a gap, see ``gaps``): a pulse whose block is still open at a gap is dropped, as
/// at the end of a recording, none is reported inside the gap, and detection starts afresh after it, with
/// sample indices still counted from the first sample fed. Feeding a signal in chunks of any sizes gives
/// exactly the same pulses.
public struct PPGPulseDetector: Sendable {
  /// The detector's parameters (Elgendi et al. 2013's values).
  public struct Configuration: Sendable, Hashable {
    /// Short moving-average window, seconds (0.05…0.3).
    public var peakWindow = 0.111
    /// Long moving-average window, seconds (peak window…2).
    public var beatWindow = 0.667
    /// Threshold offset β, times the mean squared signal (0…1).
    public var offset = 0.02
    /// Shortest time between two systolic peaks, seconds (0…1; 0.27 s is 220 BPM).
    public var refractoryPeriod = 0.27

    public init() {}
  }

  /// The parameters in use.
  public let configuration: Configuration
  /// Samples per second.
  public let sampleRate: Double

  var filter: SOSFilter
  /// Whether the band-pass has been set to the steady state for the segment's first sample.
  var filterStarted = false
  let shortHalf: Int
  let longHalf: Int
  let refractory: Int64
  let meanWeight: Double
  /// The last `2·longHalf + 2` band-passed samples and their clipped squares, by the segment's sample
  /// index (``count``) modulo the length.
  var values: [Float]
  var squares: [Float]
  /// The slot of ``values`` and ``squares`` the next sample goes to: ``count`` modulo their length.
  var slot = 0
  var shortSum = 0.0
  var longSum = 0.0
  var meanSquare = 0.0
  /// Samples of the current segment (since the last gap or the record's start) and the record index of
  /// its first.
  var count: Int64 = 0
  var segmentStart: Int64 = 0
  var gapTracker = GapTracker()
  var blockLength = 0
  var blockMaximum = -Float.infinity
  var blockPeak: Int64 = 0
  /// The block's onset: the trough before it; nil when the block began before any trough of the segment
  /// (its pulse's foot lies before the segment's first sample, and it is not reported).
  var blockOnset: Int64?
  var troughValue = Float.infinity
  var troughIndex: Int64 = 0
  var lastPeak: Int64?
  /// The block of held and band-passed samples being stepped through (``blockSize`` long, reused).
  var scratch: [Float]
  /// Samples band-passed at a time.
  static let blockSize = 4096

  /// A detector for a PPG sampled at `sampleRate` Hz.
  ///
  /// - Throws: ``PPGAnalysisError`` for a rate below ``PPGHeartRateEstimator/minimumSampleRate`` or an
  ///   option out of range.
  public init(sampleRate: Double, configuration: Configuration = Configuration()) throws(PPGAnalysisError) {
    filter = try PPGAnalysisError.bandPass(low: 0.5, high: 8, sampleRate: sampleRate)
    let c = configuration
    let check = PPGAnalysisError.check
    try check("peakWindow", c.peakWindow, 0.05...0.3)
    try check("beatWindow", c.beatWindow, c.peakWindow...2)
    try check("offset", c.offset, 0...1)
    try check("refractoryPeriod", c.refractoryPeriod, 0...1)
    self.configuration = c
    self.sampleRate = sampleRate
    shortHalf = max(1, Int((c.peakWindow * sampleRate / 2).rounded()))
    longHalf = max(shortHalf, Int((c.beatWindow * sampleRate / 2).rounded()))
    refractory = Int64((c.refractoryPeriod * sampleRate).rounded())
    meanWeight = 1 / (10 * sampleRate)
    values = Array(repeating: 0, count: 2 * longHalf + 2)
    squares = values
    scratch = Array(repeating: 0, count: Self.blockSize)
  }

  /// The gaps of the signal so far: runs of NaN or infinite samples, as sample ranges counted from the first
  /// sample fed; a gap still open ends at the last sample fed.
  public var gaps: [Range<Int64>] { gapTracker.gaps }

  /// Detects pulses in the next `samples` and appends those whose block has ended.
  public mutating func process(_ samples: UnsafeBufferPointer<Float>, appendingTo pulses: inout [PPGPulse]) {
    var scratch: [Float] = []
    swap(&scratch, &self.scratch)
    defer { swap(&scratch, &self.scratch) }
    scratch.withUnsafeMutableBufferPointer { buffer in
      var start = 0
      while start < samples.count {
        let block = UnsafeBufferPointer(rebasing: samples[start..<min(samples.count, start + buffer.count)])
        let first = gapTracker.sampleCount
        if let runs = gapTracker.runs(in: block) {
          for run in runs {
            if run.isMissing {
              if count > 0 { restart() }
              continue
            }
            if count == 0 { segmentStart = first + Int64(run.offsets.lowerBound) }
            processPresent(UnsafeBufferPointer(rebasing: block[run.offsets]), buffer, appendingTo: &pulses)
          }
        } else {
          processPresent(block, buffer, appendingTo: &pulses)
        }
        start += block.count
      }
    }
  }

  /// Band-passes finite samples (into `buffer`, at least as long) and steps through them.
  mutating func processPresent(
    _ samples: UnsafeBufferPointer<Float>, _ buffer: UnsafeMutableBufferPointer<Float>,
    appendingTo pulses: inout [PPGPulse]
  ) {
    guard let first = samples.first else { return }
    if !filterStarted {
      filter = SOSFilter(filter.design, steadyStateFor: Double(first))
      filterStarted = true
    }
    let block = UnsafeMutableBufferPointer(rebasing: buffer[0..<samples.count])
    filter.process(samples, into: block)
    // The rings are taken out of `self` for the block, so that `step` writes them without a uniqueness
    // check per sample.
    var values: [Float] = []
    var squares: [Float] = []
    swap(&values, &self.values)
    swap(&squares, &self.squares)
    defer {
      swap(&values, &self.values)
      swap(&squares, &self.squares)
    }
    values.withUnsafeMutableBufferPointer { values in
      squares.withUnsafeMutableBufferPointer { squares in
        // Stepped in a local copy, whose running sums stay in registers (in `self`, every sample would
        // store and reload them), and stored back once per block.
        var detector = self
        for x in block { detector.step(x, values: values, squares: squares, appendingTo: &pulses) }
        self = detector
      }
    }
  }

  /// Forgets the segment that a gap ends: the pending block, the moving averages, the mean square and the
  /// last peak; the band-pass is set anew by the next sample.
  mutating func restart() {
    filterStarted = false
    for i in values.indices {
      values[i] = 0
      squares[i] = 0
    }
    shortSum = 0
    longSum = 0
    meanSquare = 0
    count = 0
    slot = 0
    blockLength = 0
    troughValue = .infinity
    troughIndex = 0
    lastPeak = nil
  }

  /// The pulses in the next `samples` (see ``process(_:appendingTo:)``).
  public mutating func process(_ samples: [Float]) -> [PPGPulse] {
    var pulses: [PPGPulse] = []
    samples.withUnsafeBufferPointer { process($0, appendingTo: &pulses) }
    return pulses
  }

  /// One band-passed sample: updates both moving averages, centered `longHalf` samples back, and the block.
  /// `values` and `squares` are the rings ``values`` and ``squares``.
  @inline(__always)
  mutating func step(
    _ x: Float, values: UnsafeMutableBufferPointer<Float>, squares: UnsafeMutableBufferPointer<Float>,
    appendingTo pulses: inout [PPGPulse]
  ) {
    let length = values.count
    let n = count
    // The slot of sample n − back (back < length).
    func slotBack(_ back: Int) -> Int {
      let s = slot - back
      return s < 0 ? s + length : s
    }
    let square = x > 0 ? x * x : 0
    // The slot being overwritten holds sample n − length, which has left the long window already.
    values[slot] = x
    squares[slot] = square
    longSum += Double(square)
    let leaving = n - Int64(2 * longHalf + 1)
    if leaving >= 0 { longSum -= Double(squares[slotBack(2 * longHalf + 1)]) }
    let center = n - Int64(longHalf)
    let shortEnd = center + Int64(shortHalf)
    let shortLeaving = center - Int64(shortHalf) - 1
    if shortEnd >= 0 { shortSum += Double(squares[slotBack(longHalf - shortHalf)]) }
    if shortLeaving >= 0 { shortSum -= Double(squares[slotBack(longHalf + shortHalf + 1)]) }
    meanSquare += max(meanWeight, 1 / Double(n + 1)) * (Double(square) - meanSquare)
    let centerSlot = slotBack(longHalf)
    count += 1
    slot = slot + 1 == length ? 0 : slot + 1
    // Both moving averages are decided on only once the long one spans the signal.
    guard center >= Int64(longHalf) else { return }
    let value = values[centerSlot]
    let shortAverage = shortSum / Double(2 * shortHalf + 1)
    let longAverage = longSum / Double(2 * longHalf + 1)
    if shortAverage > longAverage + configuration.offset * meanSquare {
      if blockLength == 0 {
        blockMaximum = -.infinity
        blockOnset = troughValue.isFinite ? troughIndex : nil
      }
      blockLength += 1
      if value > blockMaximum {
        blockMaximum = value
        blockPeak = center
      }
      return
    }
    if blockLength > 0 {
      if let onset = blockOnset, blockLength >= 2 * shortHalf + 1,
        lastPeak.map({ blockPeak - $0 >= refractory }) ?? true
      {
        pulses.append(
          PPGPulse(peak: segmentStart + blockPeak, onset: segmentStart + min(onset, blockPeak)))
        lastPeak = blockPeak
        troughValue = .infinity
      }
      blockLength = 0
    }
    if value < troughValue {
      troughValue = value
      troughIndex = center
    }
  }
}
