import VitalsCore

/// Signal quality of an ECG lead per window: the spectral-distribution index pSQI of Li, Mark & Clifford
/// (2008), "Robust heart rate estimation from multiple asynchronous noisy sources using signal quality
/// indices and a Kalman filter", Physiol Meas 29:15–32 (also one of the indices of Clifford et al. 2012,
/// "Signal quality indices and data fusion for determining clinical acceptability of
/// electrocardiograms", Physiol Meas 33:1419): the power of the lead in 5–15 Hz over its power in
/// 5–40 Hz.
///
/// The QRS complex puts most of its power between 5 and 15 Hz; muscle noise spreads power up to 40 Hz
/// and beyond, where it buries the complexes and a QRS detector fails, so the ratio falls (Li et al.
/// judge 0.5–0.8 good). Baseline wander lies below 5 Hz and does not count, as it does not disturb
/// detection. The ratio does not depend on the rhythm (fibrillation and ectopic beats keep their QRS
/// complexes) nor on the signal's scale.
///
/// Steps: the lead, less its first finite sample, is brought to 150–300 Hz by the means of blocks of
/// ⌊rate / 150⌋ samples (at most 0.8 dB down at 40 Hz, 0.1 dB at 15 Hz; the QRS detector's feature rate),
/// then filtered causally by two Butterworth band-passes of order 2 run side by side,
/// ``Parameters/qrsBand`` and ``Parameters/wideBand`` (starting at rest, which for a band-pass equals SciPy
/// `sosfilt` with `sosfilt_zi` on the lead itself; the paper integrates a periodogram instead). The
/// samples are cut into consecutive windows of ``Parameters/windowDuration`` (rounded to whole blocks)
/// from sample 0; a window's ratio is the sum of squares of the first output over that of the second; the
/// window is unusable when the ratio is below ``Parameters/minimumPowerRatio``, or undefined (a flat lead).
/// NaN and infinite samples are replaced by the last finite one (they are gaps, which callers leave out
/// anyway).
///
/// Causal and chunk invariant: a window is judged when its last sample arrives, from its own samples and
/// the filters' state only, so the windows do not depend on how the samples are chunked.
///
/// Accuracy: `make eval-quality` adds the noise-stress test's muscle and baseline-wander noise to the
/// shared MIT-BIH records as WFDB `nst` does, and prints the share marked and the QRS detector's F1
/// inside and outside the marked windows; the limit 0.5 (the lower end of Li et al.'s good range) is
/// also the choice of leave-one-record-out cross-validation there.
public struct ECGSignalQuality: Sendable {
  /// Settings of the index.
  public struct Parameters: Sendable, Equatable, Codable {
    /// Window length, seconds (Li et al. 2008 and Clifford et al. 2012 judge 10-s windows).
    public var windowDuration = 10.0
    /// The QRS complex's band, Hz (the ratio's numerator).
    public var qrsBand: ClosedRange<Double> = 5...15
    /// The wider band, Hz (the ratio's denominator); its upper edge must lie below the Nyquist frequency.
    public var wideBand: ClosedRange<Double> = 5...40
    /// Power ratio below which a window is unusable.
    public var minimumPowerRatio = 0.5

    public init() {}
  }

  /// One judged window.
  public struct Window: Sendable, Equatable, Codable {
    /// The window's samples (record sample indices).
    public var samples: Range<Int64>
    /// Power in ``Parameters/qrsBand`` over power in ``Parameters/wideBand`` (NaN for a flat window).
    public var powerRatio: Double
    /// Whether the window is fit for beat detection, heart rate, HRV and rhythm.
    public var isUsable: Bool
  }

  public let parameters: Parameters
  /// Input samples per filtered sample: the lead is brought to 150–300 Hz by means of blocks of this many.
  let factor: Int
  /// Window length in input samples, whole blocks.
  let windowLength: Int64
  /// The QRS band-pass (first) and the wide band-pass (second), run side by side.
  var filters: SOSFilterPair
  /// The first finite sample, subtracted from every sample so that the filters start at rest.
  var origin: Float?
  /// The last finite sample, which stands in for missing ones.
  var held: Float = 0
  /// Record index of the next sample.
  var position: Int64 = 0
  /// The sum of the current block's samples (less the origin), and how many it holds.
  var blockSum: Float = 0
  var blockFill = 0
  /// Filtered samples so far.
  var filteredCount: Int64 = 0
  /// Sums of squares of the two filters' outputs over the current window, filtered sample `j` in lane
  /// `j % 8` (the sums do not depend on how the samples are chunked).
  var narrowPower = SIMD8<Float>()
  var widePower = SIMD8<Float>()
  /// Filtered samples per block of ``process(_:appendingTo:)``.
  static let blockLength = 1024
  /// Scratch of ``process(_:appendingTo:)`` (a block's means and their two filtered series), kept from
  /// chunk to chunk: `withUnsafeTemporaryAllocation` keeps only 1 KiB on the stack for sure, and took
  /// these 12 KiB from the heap for every chunk on the analysis threads.
  var scratch = [Float](repeating: 0, count: 3 * blockLength)

  /// - Throws: `FilterDesignError` when a band does not fit below the Nyquist frequency.
  public init(sampleRate: Double, parameters: Parameters = Parameters()) throws(FilterDesignError) {
    precondition(parameters.windowDuration * sampleRate >= 2, "a window needs at least 2 samples")
    self.parameters = parameters
    factor = max(1, Int(sampleRate / 150))
    let blocks = max(1, Int64((parameters.windowDuration * sampleRate / Double(factor)).rounded()))
    windowLength = blocks * Int64(factor)
    let filteredRate = sampleRate / Double(factor)
    func bandPass(_ band: ClosedRange<Double>) throws(FilterDesignError) -> SecondOrderSections {
      try SecondOrderSections.butterworth(
        order: 2, band: .bandpass(low: band.lowerBound, high: band.upperBound), sampleRate: filteredRate)
    }
    filters = SOSFilterPair(try bandPass(parameters.qrsBand), try bandPass(parameters.wideBand))
  }

  /// Feeds the next samples and appends the windows completed by them.
  public mutating func process(_ samples: [Float], appendingTo windows: inout [Window]) {
    if self.origin == nil, let first = samples.first(where: \.isFinite) {
      self.origin = first
      held = first
    }
    // Blocks of at most `blockLength` filtered samples, in scratch space: no allocation per chunk.
    let blockLength = Self.blockLength
    // Taken out of `self` while the closure below mutates the rest of it.
    var scratch: [Float] = []
    swap(&scratch, &self.scratch)
    defer { swap(&scratch, &self.scratch) }
    scratch.withUnsafeMutableBufferPointer { scratch in
      let means = UnsafeMutableBufferPointer(rebasing: scratch[0..<blockLength])
      let narrow = UnsafeMutableBufferPointer(rebasing: scratch[blockLength..<2 * blockLength])
      let wide = UnsafeMutableBufferPointer(rebasing: scratch[2 * blockLength..<3 * blockLength])
      samples.withUnsafeBufferPointer { samples in
        var index = 0
        while index < samples.count {
          let windowEnd = (position / windowLength + 1) * windowLength
          let room = blockLength * factor - blockFill
          let count = Int(min(Int64(samples.count - index), windowEnd - position, Int64(room)))
          let filtered = blockMeans(
            UnsafeBufferPointer(rebasing: samples[index..<index + count]), into: means)
          filters.process(
            UnsafeBufferPointer(rebasing: means[0..<filtered]),
            into: UnsafeMutableBufferPointer(rebasing: narrow[0..<filtered]),
            UnsafeMutableBufferPointer(rebasing: wide[0..<filtered]))
          accumulatePower(UnsafeBufferPointer(narrow), UnsafeBufferPointer(wide), count: filtered)
          index += count
          position += Int64(count)
          if position == windowEnd {
            windows.append(judged(windowEnd - windowLength..<windowEnd))
            narrowPower = SIMD8()
            widePower = SIMD8()
          }
        }
      }
    }
  }

  /// Adds `samples` (missing ones replaced by the last finite sample, the origin subtracted) to the block
  /// means, writes the means of the blocks they complete to `means` and returns their number.
  private mutating func blockMeans(
    _ samples: UnsafeBufferPointer<Float>, into means: UnsafeMutableBufferPointer<Float>
  ) -> Int {
    let origin = self.origin ?? 0
    var count = 0
    var index = 0
    // Whole blocks of finite samples take the fast path; the sums add in the same order on both paths.
    if blockFill == 0 && GapTracker.allPresent(samples) {
      let whole = samples.count / factor
      if factor == 1 {
        // The general loop's values (but for the sign of a zero, which the squares do not see), in a loop
        // the compiler vectorizes.
        for k in 0..<whole { means[k] = samples[k] - origin }
      } else {
        for block in 0..<whole {
          var sum: Float = 0
          for k in block * factor..<(block + 1) * factor { sum += samples[k] - origin }
          means[block] = sum / Float(factor)
        }
      }
      count = whole
      index = whole * factor
      if index > 0 { held = samples[index - 1] }
    }
    for value in samples[index...] {
      if value.isFinite { held = value }
      blockSum += held - origin
      blockFill += 1
      if blockFill == factor {
        means[count] = blockSum / Float(factor)
        count += 1
        blockSum = 0
        blockFill = 0
      }
    }
    return count
  }

  /// Adds the squares of the first `count` outputs of both filters to the window's sums, eight lanes keyed
  /// by the filtered samples' index.
  private mutating func accumulatePower(
    _ narrow: UnsafeBufferPointer<Float>, _ wide: UnsafeBufferPointer<Float>, count: Int
  ) {
    var k = 0
    func addOne() {
      let lane = Int((filteredCount + Int64(k)) % 8)
      // Multiply, then add, as the lanes below (not `addProduct`: a call to `fmaf` per lane where the
      // build's target lacks FMA).
      narrowPower[lane] += narrow[k] * narrow[k]
      widePower[lane] += wide[k] * wide[k]
      k += 1
    }
    while k < count && (filteredCount + Int64(k)) % 8 != 0 { addOne() }
    let narrowRaw = UnsafeRawPointer(narrow.baseAddress!)
    let wideRaw = UnsafeRawPointer(wide.baseAddress!)
    while k + 8 <= count {
      let n = narrowRaw.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
      let w = wideRaw.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
      narrowPower += n * n
      widePower += w * w
      k += 8
    }
    while k < count { addOne() }
    filteredCount += Int64(count)
  }

  /// Judges the last, partial window when it holds at least half a window of samples, and appends it.
  public mutating func finish(appendingTo windows: inout [Window]) {
    let start = position / windowLength * windowLength
    if 2 * (position - start) >= windowLength { windows.append(judged(start..<position)) }
    narrowPower = SIMD8()
    widePower = SIMD8()
  }

  private func judged(_ samples: Range<Int64>) -> Window {
    let narrow = (0..<8).reduce(0.0) { $0 + Double(narrowPower[$1]) }
    let wide = (0..<8).reduce(0.0) { $0 + Double(widePower[$1]) }
    let ratio = wide > 0 ? narrow / wide : .nan
    return Window(samples: samples, powerRatio: ratio, isUsable: ratio >= parameters.minimumPowerRatio)
  }

  /// The unusable stretches of `windows` (in order), adjacent ones joined: increasing, disjoint sample
  /// ranges, the form of ``QRSDetector/gaps`` and of the `gaps:` parameters of HRV and rhythm analysis.
  public static func unusableStretches(_ windows: [Window]) -> [Range<Int64>] {
    var stretches: [Range<Int64>] = []
    for window in windows where !window.isUsable {
      if let last = stretches.last, last.upperBound == window.samples.lowerBound {
        stretches[stretches.count - 1] = last.lowerBound..<window.samples.upperBound
      } else {
        stretches.append(window.samples)
      }
    }
    return stretches
  }

  /// The windows of a whole lead held in memory (fed at once, then finished).
  public static func windows(
    _ samples: [Float], sampleRate: Double, parameters: Parameters = Parameters()
  ) throws(FilterDesignError) -> [Window] {
    var quality = try ECGSignalQuality(sampleRate: sampleRate, parameters: parameters)
    var windows: [Window] = []
    quality.process(samples, appendingTo: &windows)
    quality.finish(appendingTo: &windows)
    return windows
  }
}
