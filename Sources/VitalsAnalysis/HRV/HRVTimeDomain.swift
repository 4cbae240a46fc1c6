import VitalsSupport

/// Time-domain heart-rate variability of an NN series, with NeuroKit2's `hrv_time` names and
/// definitions (NeuroKit2 0.2.13; Task Force of the ESC and NASPE 1996; Sollers et al. 2007 for
/// SDRMSSD). Intervals, deviations and percentiles are in milliseconds, rates in beats per minute,
/// ratios and percentages unitless.
///
/// Values that cannot be computed are NaN: SDANNx/SDNNIx when the series spans fewer than 3 windows of
/// x minutes (after rounding) or more than ``maximumWindowCount``, HTI and TINN when the longest
/// interval needs more than ``maximumHistogramBins`` bins, standard deviations of fewer than 2 values,
/// everything of an empty series. The NN values are used in order; gaps matter only for successive differences.
public struct HRVTimeDomain: Sendable, Equatable, Codable {
  /// Mean NN interval (ms).
  public var meanNN: Double
  /// Standard deviation of NN intervals, ddof = 1 (ms).
  public var sdnn: Double
  /// Standard deviation of the means of consecutive 1-, 2- and 5-minute windows (ms), ddof = 1.
  public var sdann1: Double, sdann2: Double, sdann5: Double
  /// Mean of the standard deviations (ddof = 1) of consecutive 1-, 2- and 5-minute windows (ms).
  public var sdnni1: Double, sdnni2: Double, sdnni5: Double
  /// Root mean square of successive differences (ms).
  public var rmssd: Double
  /// Standard deviation of successive differences, ddof = 1 (ms).
  public var sdsd: Double
  /// SDNN / MeanNN.
  public var cvnn: Double
  /// RMSSD / MeanNN.
  public var cvsd: Double
  /// Median NN interval (ms).
  public var medianNN: Double
  /// Median absolute deviation × 1.4826 (ms).
  public var madNN: Double
  /// MadNN / MedianNN.
  public var mcvnn: Double
  /// Interquartile range, linear quantiles (ms).
  public var iqrnn: Double
  /// SDNN / RMSSD.
  public var sdrmssd: Double
  /// 20th and 80th percentiles, linear (ms).
  public var prc20NN: Double, prc80NN: Double
  /// Percentage of successive differences larger than 50 ms and 20 ms; the denominator is the number
  /// of differences + 1, as in NeuroKit2.
  public var pnn50: Double, pnn20: Double
  /// Shortest and longest NN interval (ms).
  public var minNN: Double, maxNN: Double
  /// HRV triangular index: NN count / height of the histogram's highest bin (bins of 1/128 s from 0).
  public var hti: Double
  /// Triangular interpolation of the NN histogram: base M − N of the best-fitting triangle (ms).
  public var tinn: Double
  /// Mean heart rate, 60000 / MeanNN (beats per minute).
  public var meanHR: Double
  /// Lowest and highest heart rate, 60000 / MaxNN and 60000 / MinNN (beats per minute).
  public var minHR: Double, maxHR: Double

  /// The NeuroKit2 histogram bin width of HTI and TINN: 1/128 s in milliseconds (7.8125, exact).
  public static let histogramBinWidth = 1000.0 / 128.0

  /// The most bins of the HTI and TINN histogram: 2²⁰ (8 MiB; a longest interval of 2.3 hours).
  public static let maximumHistogramBins = 1 << 20

  /// The most SDANN/SDNNI windows: 2²⁰ (a span of 2 years in 1-minute windows).
  public static let maximumWindowCount = 1 << 20

  /// Computes every metric of `series` in O(n log n) (one sort) plus at most O(b²) for TINN over the b
  /// histogram bins above the mode.
  public init(_ series: NNSeries) {
    let rri = series.intervals
    var differences: [Double] = []
    differences.reserveCapacity(rri.count)
    for k in rri.indices.dropFirst() where series.followsPrevious[k] {
      differences.append(rri[k] - rri[k - 1])
    }
    let sorted = rri.sorted()

    meanNN = DescriptiveStatistics.mean(rri)
    sdnn = DescriptiveStatistics.standardDeviation(rri, ddof: 1)
    (sdann1, sdnni1) = Self.windowed(rri, minutes: 1)
    (sdann2, sdnni2) = Self.windowed(rri, minutes: 2)
    (sdann5, sdnni5) = Self.windowed(rri, minutes: 5)
    rmssd =
      differences.isEmpty
      ? .nan : (differences.reduce(0) { $0 + $1 * $1 } / Double(differences.count)).squareRoot()
    sdsd = DescriptiveStatistics.standardDeviation(differences, ddof: 1)
    cvnn = sdnn / meanNN
    cvsd = rmssd / meanNN
    medianNN = DescriptiveStatistics.quantile(sorted: sorted, 0.5)
    let median = medianNN
    madNN = DescriptiveStatistics.quantile(sorted: rri.map { abs($0 - median) }.sorted(), 0.5) * 1.4826
    mcvnn = madNN / medianNN
    iqrnn =
      DescriptiveStatistics.quantile(sorted: sorted, 0.75)
      - DescriptiveStatistics.quantile(sorted: sorted, 0.25)
    sdrmssd = sdnn / rmssd
    prc20NN = DescriptiveStatistics.quantile(sorted: sorted, 0.20)
    prc80NN = DescriptiveStatistics.quantile(sorted: sorted, 0.80)
    // NeuroKit2 divides by the number of intervals; with none, the shares are undefined, not 0.
    let denominator = rri.isEmpty ? .nan : Double(differences.count + 1)
    pnn50 = Double(differences.count { abs($0) > 50 }) / denominator * 100
    pnn20 = Double(differences.count { abs($0) > 20 }) / denominator * 100
    minNN = sorted.first ?? .nan
    maxNN = sorted.last ?? .nan
    (hti, tinn) = Self.triangular(rri, minNN: minNN, maxNN: maxNN)
    meanHR = 60000 / meanNN
    minHR = 60000 / maxNN
    maxHR = 60000 / minNN
  }

  /// SDANN and SDNNI over windows of `minutes`, as NeuroKit2's `_sdann` / `_sdnni`: window edges on the
  /// cumulative time `(cumsum(rri/1000) − first) · 1000 + rri[0]`, `round()` (half to even) windows,
  /// each window the intervals from the first at or after its start up to, but excluding, the last one
  /// before its end.
  private static func windowed(_ rri: [Double], minutes: Double) -> (sdann: Double, sdnni: Double) {
    guard !rri.isEmpty else { return (.nan, .nan) }
    let windowSize = minutes * 60 * 1000
    var cumulative = [Double](repeating: 0, count: rri.count)
    var running = 0.0
    for k in rri.indices {
      running += rri[k] / 1000
      cumulative[k] = running
    }
    let first = cumulative[0]
    for k in rri.indices { cumulative[k] = (cumulative[k] - first) * 1000 + rri[0] }
    let span = (cumulative[rri.count - 1] / windowSize).rounded(.toNearestOrEven)
    guard span >= 3, span <= Double(maximumWindowCount) else { return (.nan, .nan) }
    let windows = Int(span)
    var means: [Double] = []
    var deviations: [Double] = []
    means.reserveCapacity(windows)
    deviations.reserveCapacity(windows)
    var startIndex = 0
    var endIndex = 0
    for w in 0..<windows {
      let start = Double(w) * windowSize
      while startIndex < rri.count && !(cumulative[startIndex] >= start) { startIndex += 1 }
      while endIndex + 1 < rri.count && cumulative[endIndex + 1] < start + windowSize { endIndex += 1 }
      let slice = startIndex < endIndex ? rri[startIndex..<endIndex] : rri[0..<0]
      means.append(DescriptiveStatistics.mean(slice))
      deviations.append(DescriptiveStatistics.standardDeviation(slice, ddof: 1))
    }
    return (
      DescriptiveStatistics.standardDeviation(means.filter { !$0.isNaN }, ddof: 1),
      DescriptiveStatistics.mean(deviations.filter { !$0.isNaN })
    )
  }

  /// HTI and TINN from the histogram `numpy.histogram(rri, bins=arange(0, max + w, w))`, w = 1/128 s.
  ///
  /// TINN follows NeuroKit2's `_hrv_TINN`: with X the left edge of the first highest bin and Y its
  /// count, for every bin edge N (first edge above the shortest interval … below X) and M (X + w …
  /// below the longest interval), the triangle q rising linearly from 0 at N to Y at X and falling to
  /// 0 at M; the squared error Σ(count − q)² over the bins from N to M is minimized, starting from an
  /// error bound of 2¹⁴ (so TINN is 0 when no triangle fits better). NeuroKit2 never resets M in its
  /// loop over N, so only the first N is tried; Vitals does the same to give equal values. O(b²) at
  /// worst, but the sum for an M stops once it reaches the best error so far: its terms are
  /// non-negative, so a floating-point partial sum never decreases and that M cannot win (same
  /// result, same summation order). Long pauses between beats (b in the thousands) then cost O(b).
  private static func triangular(_ rri: [Double], minNN: Double, maxNN: Double) -> (hti: Double, tinn: Double)
  {
    guard !rri.isEmpty else { return (.nan, .nan) }
    let width = histogramBinWidth
    let edges = ((maxNN + width) / width).rounded(.up)
    guard edges <= Double(maximumHistogramBins + 1) else { return (.nan, .nan) }
    let edgeCount = Int(edges)
    let binCount = edgeCount - 1
    var counts = [Double](repeating: 0, count: binCount)
    for value in rri {
      var bin = Int((value / width).rounded(.down))
      if Double(bin) * width > value { bin -= 1 } else if Double(bin + 1) * width <= value { bin += 1 }
      counts[Swift.min(bin, binCount - 1)] += 1
    }
    var peakBin = 0
    for k in counts.indices where counts[k] > counts[peakBin] { peakBin = k }
    let peak = counts[peakBin]
    let hti = Double(rri.count) / peak

    let x = Double(peakBin) * width
    var firstN = 0
    while firstN < edgeCount && !(Double(firstN) * width - minNN > 0) { firstN += 1 }
    guard firstN < edgeCount else { return (hti, .nan) }
    // NeuroKit2 never resets M inside its loop over N, so only the first N is ever tried.
    guard firstN < peakBin else { return (hti, 0) }
    let n = Double(firstN) * width
    var leftError = 0.0
    for k in firstN..<peakBin {
      let q = peak * (Double(k) * width - n) / (x - n)
      leftError += (counts[k] - q) * (counts[k] - q)
    }
    leftError += (counts[peakBin] - peak) * (counts[peakBin] - peak)
    var minimum = 16384.0
    var best = (n: 0.0, m: 0.0)
    var mIndex = peakBin + 1
    while Double(mIndex) * width < maxNN {
      let m = Double(mIndex) * width
      var error = leftError
      var k = peakBin + 1
      while k <= mIndex && error < minimum {
        let q = peak * (m - Double(k) * width) / (m - x)
        error += (counts[k] - q) * (counts[k] - q)
        k += 1
      }
      if error < minimum {
        minimum = error
        best = (n, m)
      }
      mIndex += 1
    }
    return (hti, best.m - best.n)
  }
}
