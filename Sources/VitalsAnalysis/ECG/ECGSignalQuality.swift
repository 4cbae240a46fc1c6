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
/// Steps: the lead is filtered causally by two Butterworth band-passes of order 2, ``Parameters/qrsBand``
/// and ``Parameters/wideBand`` (both in the steady state for the first sample: SciPy `sosfilt` with
/// `sosfilt_zi`; the paper integrates a periodogram instead); the samples are cut into consecutive windows
/// of ``Parameters/windowDuration`` from sample 0; a window's ratio is the sum of squares of the first
/// output over that of the second; the window is unusable when the ratio is below
/// ``Parameters/minimumPowerRatio``, or undefined (a flat lead). NaN and infinite samples are replaced by
/// the last finite one (they are gaps, which callers leave out anyway).
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
  let windowLength: Int64
  var qrsFilter: SOSFilter
  var wideFilter: SOSFilter
  var started = false
  var held: Float = 0
  /// Record index of the next sample.
  var position: Int64 = 0
  /// Sums of squares of the two filters' outputs over the current window.
  var power = SIMD2<Double>()

  /// - Throws: `FilterDesignError` when a band does not fit below the Nyquist frequency.
  public init(sampleRate: Double, parameters: Parameters = Parameters()) throws(FilterDesignError) {
    precondition(parameters.windowDuration * sampleRate >= 2, "a window needs at least 2 samples")
    self.parameters = parameters
    windowLength = Int64((parameters.windowDuration * sampleRate).rounded())
    func bandPass(_ band: ClosedRange<Double>) throws(FilterDesignError) -> SOSFilter {
      SOSFilter(
        try SecondOrderSections.butterworth(
          order: 2, band: .bandpass(low: band.lowerBound, high: band.upperBound), sampleRate: sampleRate))
    }
    qrsFilter = try bandPass(parameters.qrsBand)
    wideFilter = try bandPass(parameters.wideBand)
  }

  /// Feeds the next samples and appends the windows completed by them.
  public mutating func process(_ samples: [Float], appendingTo windows: inout [Window]) {
    if !started, let first = samples.first(where: \.isFinite) {
      qrsFilter = SOSFilter(qrsFilter.design, steadyStateFor: Double(first))
      wideFilter = SOSFilter(wideFilter.design, steadyStateFor: Double(first))
      started = true
    }
    var index = 0
    // Blocks of at most `blockLength` samples, filtered in scratch space: no allocation per chunk.
    let blockLength = 1024
    withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * blockLength) { scratch in
      let held = UnsafeMutableBufferPointer(rebasing: scratch[0..<blockLength])
      let narrow = UnsafeMutableBufferPointer(rebasing: scratch[blockLength..<2 * blockLength])
      let wide = UnsafeMutableBufferPointer(rebasing: scratch[2 * blockLength..<3 * blockLength])
      while index < samples.count {
        let windowEnd = (position / windowLength + 1) * windowLength
        let count = Int(min(Int64(samples.count - index), windowEnd - position, Int64(blockLength)))
        for k in 0..<count {
          let value = samples[index + k]
          if value.isFinite { self.held = value }
          held[k] = self.held
        }
        let input = UnsafeBufferPointer(rebasing: held[0..<count])
        qrsFilter.process(input, into: UnsafeMutableBufferPointer(rebasing: narrow[0..<count]))
        wideFilter.process(input, into: UnsafeMutableBufferPointer(rebasing: wide[0..<count]))
        for k in 0..<count {
          power += SIMD2(Double(narrow[k]) * Double(narrow[k]), Double(wide[k]) * Double(wide[k]))
        }
        index += count
        position += Int64(count)
        if position == windowEnd {
          windows.append(judged(windowEnd - windowLength..<windowEnd))
          power = SIMD2()
        }
      }
    }
  }

  /// Judges the last, partial window when it holds at least half a window of samples, and appends it.
  public mutating func finish(appendingTo windows: inout [Window]) {
    let start = position / windowLength * windowLength
    if 2 * (position - start) >= windowLength { windows.append(judged(start..<position)) }
    power = SIMD2()
  }

  private func judged(_ samples: Range<Int64>) -> Window {
    let ratio = power[1] > 0 ? power[0] / power[1] : .nan
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
