import VitalsCore

/// Signal quality of an ECG lead per window: the kurtosis signal-quality index (kSQI) of Li, Mark &
/// Clifford (2008), "Robust heart rate estimation from multiple asynchronous noisy sources using signal
/// quality indices and a Kalman filter", Physiol Meas 29:15–32 (also one of the indices of Clifford et al.
/// 2012, "Signal quality indices and data fusion for determining clinical acceptability of
/// electrocardiograms", Physiol Meas 33:1419), computed on the lead band-passed to the QRS band.
///
/// An ECG is a train of sharp QRS complexes over a quiet baseline: its samples are heavy-tailed, their
/// kurtosis well above 3. Muscle and motion noise in the QRS band are close to Gaussian (kurtosis 3) and
/// bury the complexes, and so does a lead that has come off: the window's kurtosis falls toward 3, where
/// a QRS detector fails. Baseline wander lies below the band and does not count, as it does not disturb
/// detection. The measure does not depend on the rhythm (fibrillation and ectopic beats keep sharp QRS
/// complexes), nor on the signal's scale.
///
/// Steps: the lead is filtered causally (Butterworth band-pass of order 2, ``Parameters/band``, in the
/// steady state for the first sample, SciPy `sosfilt` with `sosfilt_zi`); the samples are cut into
/// consecutive windows of ``Parameters/windowDuration`` from sample 0; a window's kurtosis is m₄ / m₂² of
/// its filtered samples about their mean; the window is unusable when it is below
/// ``Parameters/minimumKurtosis`` (or the window is constant). NaN and infinite samples are replaced by the
/// last finite one (they are gaps, which callers leave out anyway).
///
/// Causal and chunk invariant: a window is judged when its last sample arrives, from its own samples and
/// the filter's state only, so the windows do not depend on how the samples are chunked.
public struct ECGSignalQuality: Sendable {
  /// Settings of the index.
  public struct Parameters: Sendable, Equatable, Codable {
    /// Window length, seconds (Li et al. 2008 and Clifford et al. 2012 judge 10-s windows).
    public var windowDuration = 10.0
    /// Pass band, Hz: the QRS complex's energy, above baseline wander and T waves.
    public var band: ClosedRange<Double> = 5...25
    /// Kurtosis (non-excess: 3 for Gaussian noise) below which a window is unusable.
    public var minimumKurtosis = 5.0

    public init() {}
  }

  /// One judged window.
  public struct Window: Sendable, Equatable, Codable {
    /// The window's samples (record sample indices).
    public var samples: Range<Int64>
    /// Kurtosis of the band-passed samples (NaN for a constant window).
    public var kurtosis: Double
    /// Whether the window is fit for beat detection, heart rate, HRV and rhythm.
    public var isUsable: Bool
  }

  public let parameters: Parameters
  let windowLength: Int64
  var filter: SOSFilter
  var started = false
  var held: Float = 0
  /// Record index of the next sample.
  var position: Int64 = 0
  /// Sums of x, x², x³ and x⁴ over the current window's filtered samples.
  var sums = SIMD4<Double>()

  /// - Throws: ``FilterDesignError`` when ``Parameters/band`` does not fit below the Nyquist frequency.
  public init(sampleRate: Double, parameters: Parameters = Parameters()) throws(FilterDesignError) {
    precondition(parameters.windowDuration * sampleRate >= 2, "a window needs at least 2 samples")
    self.parameters = parameters
    windowLength = Int64((parameters.windowDuration * sampleRate).rounded())
    filter = SOSFilter(
      try SecondOrderSections.butterworth(
        order: 2, band: .bandpass(low: parameters.band.lowerBound, high: parameters.band.upperBound),
        sampleRate: sampleRate))
  }

  /// Feeds the next samples and appends the windows completed by them.
  public mutating func process(_ samples: [Float], appendingTo windows: inout [Window]) {
    if !started, let first = samples.first(where: \.isFinite) {
      filter = SOSFilter(filter.design, steadyStateFor: Double(first))
      started = true
    }
    var index = 0
    while index < samples.count {
      let windowEnd = (position / windowLength + 1) * windowLength
      let count = Int(min(Int64(samples.count - index), windowEnd - position))
      var chunk = samples[index..<(index + count)].map { value -> Float in
        if value.isFinite { held = value }
        return held
      }
      filter.process(&chunk)
      for value in chunk {
        let x = Double(value)
        let x2 = x * x
        sums += SIMD4(x, x2, x2 * x, x2 * x2)
      }
      index += count
      position += Int64(count)
      if position == windowEnd {
        windows.append(judged(windowEnd - windowLength..<windowEnd))
        sums = SIMD4()
      }
    }
  }

  /// Judges the last, partial window when it holds at least half a window of samples, and appends it.
  public mutating func finish(appendingTo windows: inout [Window]) {
    let start = position / windowLength * windowLength
    if 2 * (position - start) >= windowLength { windows.append(judged(start..<position)) }
    sums = SIMD4()
  }

  private func judged(_ samples: Range<Int64>) -> Window {
    let kurtosis = Self.kurtosis(sums: sums, count: Double(samples.count))
    return Window(samples: samples, kurtosis: kurtosis, isUsable: kurtosis >= parameters.minimumKurtosis)
  }

  /// m₄ / m₂² about the mean, from the sums of x, x², x³, x⁴ over `count` samples; NaN when m₂ is 0.
  static func kurtosis(sums s: SIMD4<Double>, count n: Double) -> Double {
    let mean = s[0] / n
    let m2 = s[1] / n - mean * mean
    let m4 = s[3] / n - 4 * mean * s[2] / n + 6 * mean * mean * s[1] / n - 3 * mean * mean * mean * mean
    return m2 > 0 ? m4 / (m2 * m2) : .nan
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
