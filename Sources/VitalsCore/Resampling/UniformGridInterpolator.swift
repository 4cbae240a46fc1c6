/// Streaming interpolation of irregularly timed samples onto a uniform grid.
///
/// Wearables and phones time-stamp each sample, and their "100 Hz" streams come at 97–108 Hz with
/// jitter, repeated stamps and short gaps. Stages downstream need uniform samples, so readers measure
/// the rate (``measuredRate(times:)``) and feed the samples here. Grid point `k` lies at
/// `k / rate` seconds after the grid origin (computed from `k` directly, so no error accumulates); a
/// point is emitted once input samples on both sides of it (and, for the cubic method, one more on
/// the right) have arrived. No point is emitted before the first or after the last input time: there
/// is no extrapolation.
///
/// The state carried between calls is the last few input samples, so feeding a series in chunks of
/// any size gives exactly the same output as feeding it at once.
///
/// Input times must not decrease (the caller checks and reports bad input); samples at an equal time
/// are allowed, the later one wins for points at or after that time. NaN input values propagate to
/// the grid points whose interpolation uses them.
public struct UniformGridInterpolator: Sendable {
  /// How values between two input samples are estimated.
  public enum Method: String, Sendable, CaseIterable {
    /// Straight line between the two neighboring samples (numpy `interp`).
    case linear
    /// Piecewise cubic Hermite with three-point slopes for unequal spacing (the slope at sample `i`
    /// is that of the parabola through samples `i-1, i, i+1`; Fritsch & Carlson 1980 without the
    /// monotonicity limiter). Exact for quadratics; continuous first derivative. At the two ends
    /// the slope is the one-sided secant.
    case cubicHermite
  }

  /// Channels interpolated together (the same times for all).
  public let channelCount: Int
  /// Output samples per second.
  public let rate: Double
  /// The interpolation applied between input samples.
  public let method: Method

  /// The last (up to) three input samples: times in seconds from the origin, values per channel.
  private var times: [Double] = []
  private var values: [[Float]]
  /// Index of the next grid point to emit.
  private var nextPoint: Int64 = 0

  /// - Parameters:
  ///   - channelCount: number of channels (≥ 1).
  ///   - rate: output rate in Hz (> 0, finite).
  ///   - method: interpolation method.
  public init(channelCount: Int, rate: Double, method: Method = .linear) {
    precondition(channelCount >= 1, "at least one channel")
    precondition(rate > 0 && rate.isFinite, "rate must be positive and finite")
    self.channelCount = channelCount
    self.rate = rate
    self.method = method
    self.values = Array(repeating: [], count: channelCount)
  }

  /// Index of the next grid point to be emitted (the number emitted so far).
  public var emittedCount: Int64 { nextPoint }

  /// Time (seconds from the origin) of grid point `k`.
  @inlinable
  public func time(ofPoint k: Int64) -> Double { Double(k) / rate }

  /// Feeds input samples and appends every grid point they complete to `output` (one array per
  /// channel).
  ///
  /// - Parameters:
  ///   - sampleTimes: seconds from the grid origin, non-decreasing (also across calls).
  ///   - sampleValues: one array per channel, each `sampleTimes.count` long.
  ///   - output: grid values are appended to `output[c]`.
  public mutating func process(
    times sampleTimes: [Double], values sampleValues: [[Float]], into output: inout [[Float]]
  ) {
    precondition(sampleValues.count == channelCount && output.count == channelCount, "channel count mismatch")
    for i in sampleTimes.indices {
      let t = sampleTimes[i]
      precondition(times.last.map { t >= $0 } ?? true, "input times must not decrease")
      times.append(t)
      for c in 0..<channelCount { values[c].append(sampleValues[c][i]) }
      switch method {
      case .linear:
        if times.count >= 2 { emitSegment(upTo: t, inclusive: false, into: &output) }
      case .cubicHermite:
        // The segment between the two previous samples is complete once its right slope is known.
        if times.count >= 3 { emitSegment(upTo: times[times.count - 2], inclusive: false, into: &output) }
      }
      if times.count > 3 {
        times.removeFirst()
        for c in 0..<channelCount { values[c].removeFirst() }
      }
    }
  }

  /// Emits the grid points up to and including the last input time (end of the stream).
  public mutating func finish(into output: inout [[Float]]) {
    guard let last = times.last else { return }
    if times.count == 1 {
      if time(ofPoint: nextPoint) == last {
        for c in 0..<channelCount { output[c].append(values[c][0]) }
        nextPoint += 1
      }
      return
    }
    emitSegment(upTo: last, inclusive: true, into: &output)
  }

  /// Emits grid points with time `< end` (or `<= end` when `inclusive`) that fall in the segments
  /// held in the state.
  private mutating func emitSegment(upTo end: Double, inclusive: Bool, into output: inout [[Float]]) {
    let n = times.count
    while true {
      let g = time(ofPoint: nextPoint)
      if g < times[0] {
        // Before the first input sample ever seen: only at the start of the stream.
        nextPoint += 1
        continue
      }
      guard inclusive ? g <= end : g < end else { return }
      // Right end of the segment holding g: the first sample with time > g (the last one at the end).
      var right = 1
      while right < n - 1 && times[right] <= g { right += 1 }
      let left = right - 1
      let t0 = times[left]
      let t1 = times[right]
      let h = t1 - t0
      for c in 0..<channelCount {
        let v = values[c]
        let y0 = Double(v[left])
        let y1 = Double(v[right])
        var y: Double
        if h <= 0 {
          y = y1
        } else if g == t0 {
          y = y0  // on a sample: its value, whatever the neighbours hold
        } else {
          let s = (g - t0) / h
          switch method {
          case .linear:
            y = y0 + (y1 - y0) * s
          case .cubicHermite:
            let m0 = slope(at: left, channel: c)
            let m1 = slope(at: right, channel: c)
            let s2 = s * s
            let s3 = s2 * s
            y =
              (2 * s3 - 3 * s2 + 1) * y0 + (s3 - 2 * s2 + s) * h * m0 + (-2 * s3 + 3 * s2) * y1
              + (s3 - s2) * h * m1
          }
        }
        output[c].append(Float(y))
      }
      nextPoint += 1
    }
  }

  /// Three-point slope at held sample `i` (one-sided at the ends of the held window, secant when a
  /// neighbor shares its time).
  private func slope(at i: Int, channel c: Int) -> Double {
    let v = values[c]
    let n = times.count
    func secant(_ a: Int, _ b: Int) -> Double {
      let dt = times[b] - times[a]
      return dt > 0 ? (Double(v[b]) - Double(v[a])) / dt : 0
    }
    if i == 0 || (i == n - 1) { return i == 0 ? secant(0, min(1, n - 1)) : secant(n - 2, n - 1) }
    let hl = times[i] - times[i - 1]
    let hr = times[i + 1] - times[i]
    guard hl > 0, hr > 0 else { return hl > 0 ? secant(i - 1, i) : secant(i, i + 1) }
    let dl = (Double(v[i]) - Double(v[i - 1])) / hl
    let dr = (Double(v[i + 1]) - Double(v[i])) / hr
    return (hr * dl + hl * dr) / (hl + hr)
  }

  /// The sample rate implied by time stamps, in Hz: the reciprocal of the least-squares slope of
  /// time against sample index (the rate that best explains all stamps, robust to zero-mean jitter
  /// and to stamps quantized coarser than the sample interval, e.g. 15.6 ms timers on a 100 Hz
  /// stream, where the median interval would be 0 or 15.6 ms).
  ///
  /// - Parameter times: stamps in seconds, non-decreasing, at least two distinct.
  /// - Returns: the rate, or `nil` when fewer than two samples or no time elapses.
  public static func measuredRate(times: [Double]) -> Double? {
    let n = times.count
    guard n >= 2, times[n - 1] > times[0] else { return nil }
    let meanIndex = Double(n - 1) / 2
    let origin = times[0]
    var meanTime = 0.0
    for t in times { meanTime += t - origin }
    meanTime /= Double(n)
    var sxy = 0.0
    var sxx = 0.0
    for (i, t) in times.enumerated() {
      let dx = Double(i) - meanIndex
      sxy += dx * (t - origin - meanTime)
      sxx += dx * dx
    }
    let interval = sxy / sxx
    return interval > 0 ? 1 / interval : nil
  }
}
