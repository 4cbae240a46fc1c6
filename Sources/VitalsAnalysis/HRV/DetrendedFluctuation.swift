import Foundation

/// Detrended fluctuation analysis (Peng et al. 1995, "Quantification of scaling exponents and
/// crossover phenomena in nonstationary heartbeat time series", Chaos 5:82), as NeuroKit2 0.2.13's
/// `fractal_dfa` with its defaults (monofractal, q = 2, first-order detrending, overlapping windows).
public enum DetrendedFluctuation {
  /// The scaling exponent α of `x` over the window sizes `scales` (in samples, ≥ 2, < x.count, at least
  /// two of them).
  ///
  /// The profile y = cumsum(x − mean x) is cut into windows of s samples starting every ⌊s/2⌋ samples
  /// (starts 0, ⌊s/2⌋, … while start < N − s); a least-squares line is removed from each window and the
  /// population variance of the residual taken; variances ≤ 1e-8 are dropped; F(s) = √(mean variance).
  /// α is the least-squares slope of log₂ F(s) against log₂ s. O(N) per scale.
  ///
  /// - Returns: NaN when a scale has no window with variance.
  public static func alpha(_ x: [Double], scales: [Int]) -> Double {
    precondition(scales.count >= 2, "DFA needs at least two window sizes")
    precondition(scales.allSatisfy { $0 >= 2 && $0 < x.count }, "DFA window sizes must be in 2 ..< N")
    let average = Statistics.mean(x)
    var profile = [Double](repeating: 0, count: x.count)
    var running = 0.0
    for k in x.indices {
      running += x[k] - average
      profile[k] = running
    }
    var logScales: [Double] = []
    var logFluctuations: [Double] = []
    profile.withUnsafeBufferPointer { y in
      for s in scales {
        let fluctuation = self.fluctuation(y, window: s)
        logScales.append(log2(Double(s)))
        logFluctuations.append(log2(fluctuation))
      }
    }
    return Statistics.slope(x: logScales, y: logFluctuations)
  }

  /// F(s): root of the mean residual variance over the overlapping windows of size `s`.
  private static func fluctuation(_ y: UnsafeBufferPointer<Double>, window s: Int) -> Double {
    let length = Double(s)
    let meanX = (length - 1) / 2
    let sxx = length * (length * length - 1) / 12  // Σ (k − mean)² for k = 0 ..< s
    var total = 0.0
    var used = 0
    var start = 0
    while start < y.count - s {
      var sumY = 0.0
      for k in 0..<s { sumY += y[start + k] }
      let meanY = sumY / length
      var sxy = 0.0
      for k in 0..<s { sxy += (Double(k) - meanX) * (y[start + k] - meanY) }
      let slope = sxy / sxx
      let intercept = meanY - slope * meanX
      var residualSum = 0.0
      for k in 0..<s { residualSum += y[start + k] - (slope * Double(k) + intercept) }
      let residualMean = residualSum / length
      var variance = 0.0
      for k in 0..<s {
        let d = y[start + k] - (slope * Double(k) + intercept) - residualMean
        variance += d * d
      }
      variance /= length
      if variance > 1e-8 {
        total += variance
        used += 1
      }
      start += s / 2
    }
    return used == 0 ? .nan : (total / Double(used)).squareRoot()
  }
}
