/// Descriptive statistics of samples (mean, standard deviation, quantiles, rolling quantiles, slope)
/// with NumPy's exact conventions, shared by the HRV code and the derived metrics of VitalsStatistics.
package enum DescriptiveStatistics {
  // The statistics of whole arrays and of slices are concrete functions over one generic body that
  // this module specializes: a generic entry point called from another module runs unspecialized,
  // which allocates as it iterates.

  /// Arithmetic mean; NaN when empty.
  package static func mean(_ values: [Double]) -> Double { meanOf(values) }

  /// Arithmetic mean; NaN when empty.
  package static func mean(_ values: ArraySlice<Double>) -> Double { meanOf(values) }

  /// Standard deviation with `ddof` delta degrees of freedom (`numpy.std(x, ddof=)`), two-pass;
  /// NaN when `count <= ddof`.
  package static func standardDeviation(_ values: [Double], ddof: Int) -> Double {
    standardDeviationOf(values, ddof: ddof)
  }

  /// Standard deviation with `ddof` delta degrees of freedom, as for an array.
  package static func standardDeviation(_ values: ArraySlice<Double>, ddof: Int) -> Double {
    standardDeviationOf(values, ddof: ddof)
  }

  private static func meanOf(_ values: some Collection<Double>) -> Double {
    values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count)
  }

  private static func standardDeviationOf(_ values: some Collection<Double>, ddof: Int) -> Double {
    guard values.count > ddof else { return .nan }
    let average = meanOf(values)
    var sum = 0.0
    for value in values {
      let d = value - average
      sum += d * d
    }
    return (sum / Double(values.count - ddof)).squareRoot()
  }

  /// The `q`-quantile (0...1) of ascending `sorted` values with linear interpolation between closest
  /// ranks (`numpy.percentile(x, 100 q)` default, pandas `rolling().quantile(q)`); NaN when empty.
  @inlinable package static func quantile(sorted: UnsafeBufferPointer<Double>, _ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let position = q * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = Swift.min(lower + 1, sorted.count - 1)
    let fraction = position - Double(lower)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
  }

  @inlinable package static func quantile(sorted: [Double], _ q: Double) -> Double {
    sorted.withUnsafeBufferPointer { quantile(sorted: $0, q) }
  }

  /// The median of ascending `sorted` values (not empty): the middle value, or the mean of the two middle
  /// values, `(a + b) / 2`.
  package static func median(sorted: [Double]) -> Double { medianOf(sorted: sorted) }

  /// The median of ascending `sorted` values (not empty), as for an array.
  package static func median(sorted: ArraySlice<Double>) -> Double { medianOf(sorted: sorted) }

  /// The median of ascending `sorted` values (not empty), as for an array.
  package static func median(sorted: UnsafeBufferPointer<Double>) -> Double { medianOf(sorted: sorted) }

  private static func medianOf(sorted: some RandomAccessCollection<Double>) -> Double {
    let half = sorted.index(sorted.startIndex, offsetBy: sorted.count / 2)
    guard sorted.count % 2 == 0 else { return sorted[half] }
    return (sorted[sorted.index(before: half)] + sorted[half]) / 2
  }

  /// Centered rolling quantiles over `width` (odd) values, windows shortened at the ends
  /// (pandas `rolling(width, center=True, min_periods=1).quantile(q)` for each q of `qs`, linear), written
  /// to `rows`, which they replace: the quantile `qs[k]` of the window centered on `values[i]` at
  /// `rows[k · n + i]` for the n values. NaN values are left out, as pandas does; a window of NaNs alone
  /// gives NaN. O(n · width): the window is kept sorted, places in it are found by counting (eight
  /// values at a time, without a branch), and where one value leaves it and one enters only the values
  /// between the two places move. Allocates nothing once `rows` holds `qs.count · n` values (its
  /// capacity is kept).
  @inlinable package static func rollingQuantiles(
    _ values: [Double], width: Int, _ qs: [Double], into rows: inout [Double]
  ) {
    precondition(width >= 1 && width % 2 == 1, "rolling window width must be odd")
    rows.removeAll(keepingCapacity: true)
    rows.append(contentsOf: repeatElement(.nan, count: qs.count * values.count))
    values.withUnsafeBufferPointer { values in
      rows.withUnsafeMutableBufferPointer { rows in
        rollingQuantiles(values, width: width, qs, into: rows)
      }
    }
  }

  /// ``rollingQuantiles(_:width:_:into:)`` on buffers: `rows` holds `qs.count · values.count` values.
  @inlinable package static func rollingQuantiles(
    _ values: UnsafeBufferPointer<Double>, width: Int, _ qs: [Double],
    into rows: UnsafeMutableBufferPointer<Double>
  ) {
    let half = width / 2
    let n = values.count
    withUnsafeTemporaryAllocation(of: Double.self, capacity: width + 1) { storage in
      let window = storage.baseAddress!
      var size = 0  // the values of values[windowStart..<windowEnd] but NaNs, ascending, in window[0..<size]
      var windowEnd = 0
      var windowStart = 0
      for i in values.indices {
        let newEnd = Swift.min(n, i + half + 1)
        let newStart = Swift.max(0, i - half)
        if windowEnd < newEnd && windowStart < newStart && !values[windowStart].isNaN
          && !values[windowEnd].isNaN
        {
          replace(values[windowStart], with: values[windowEnd], in: window, count: size)
          windowStart += 1
          windowEnd += 1
        }
        while windowEnd < newEnd {
          let value = values[windowEnd]
          if !value.isNaN {
            let at = count(in: UnsafeBufferPointer(start: window, count: size), below: value)
            (window + at + 1).update(from: window + at, count: size - at)
            window[at] = value
            size += 1
          }
          windowEnd += 1
        }
        while windowStart < newStart {
          let value = values[windowStart]
          if !value.isNaN {
            let at = count(in: UnsafeBufferPointer(start: window, count: size), below: value)
            (window + at).update(from: window + at + 1, count: size - at - 1)
            size -= 1
          }
          windowStart += 1
        }
        let sorted = UnsafeBufferPointer(start: window, count: size)
        for (k, q) in qs.enumerated() { rows[k * n + i] = quantile(sorted: sorted, q) }
      }
    }
  }

  /// Replaces `outgoing` (one of the `count` ascending values at `window`, none NaN) by `incoming` (not
  /// NaN), keeping them ascending: the values between the two places move by one.
  @inlinable static func replace(
    _ outgoing: Double, with incoming: Double, in window: UnsafeMutablePointer<Double>, count: Int
  ) {
    let values = UnsafeBufferPointer(start: window, count: count)
    let from = Self.count(in: values, below: outgoing)
    // The values between the two places move one place toward `from`.
    if incoming > outgoing {
      let to = Self.count(in: values, below: incoming) - 1
      window.advanced(by: from).update(from: window + from + 1, count: to - from)
      window[to] = incoming
    } else {
      let to = Self.count(
        in: UnsafeBufferPointer(start: window, count: from), below: incoming, inclusive: true)
      (window + to + 1).update(from: window + to, count: from - to)
      window[to] = incoming
    }
  }

  /// The first index of ascending `sorted` whose value is not below `value` (`sorted.count` when none is).
  @inlinable package static func lowerBound(_ sorted: [Double], _ value: Double) -> Int {
    sorted.withUnsafeBufferPointer { lowerBound($0, value) }
  }

  /// The first index of ascending `sorted` whose value is not below `value` (`sorted.count` when none is).
  @inlinable package static func lowerBound(_ sorted: UnsafeBufferPointer<Double>, _ value: Double) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
      let mid = (low + high) / 2
      if sorted[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// How many of `values` lie below `bound` (`inclusive`: at or below it), counted eight at a time without
  /// a branch: in a short ascending window, the place of `bound` for less than the mispredicted branches
  /// of a binary search.
  @inlinable static func count(
    in values: UnsafeBufferPointer<Double>, below bound: Double, inclusive: Bool = false
  ) -> Int {
    guard let start = values.baseAddress else { return 0 }
    let bounds = SIMD8<Double>(repeating: bound)
    var counts = SIMD8<Int64>()
    var i = 0
    while i &+ 8 <= values.count {
      let chunk = UnsafeRawPointer(start + i).loadUnaligned(as: SIMD8<Double>.self)
      counts &-= unsafeBitCast(inclusive ? chunk .<= bounds : chunk .< bounds, to: SIMD8<Int64>.self)
      i &+= 8
    }
    var count = Int(counts.wrappedSum())
    while i < values.count {
      count &+= (inclusive ? values[i] <= bound : values[i] < bound) ? 1 : 0
      i &+= 1
    }
    return count
  }

  /// Least-squares slope of `y` on `x` (`numpy.polyfit(x, y, 1)[0]`).
  @inlinable package static func slope(x: [Double], y: [Double]) -> Double {
    let mx = mean(x)
    let my = mean(y)
    var sxy = 0.0
    var sxx = 0.0
    for k in x.indices {
      sxy += (x[k] - mx) * (y[k] - my)
      sxx += (x[k] - mx) * (x[k] - mx)
    }
    return sxy / sxx
  }
}
