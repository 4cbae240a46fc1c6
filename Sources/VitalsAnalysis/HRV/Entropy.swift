import Foundation

/// Approximate and sample entropy of a series, computed together in one pass over pairs of vectors.
///
/// Embedding with delay 1 and Chebyshev distance; two vectors match when every coordinate differs by
/// at most `tolerance` (inclusive, as scikit-learn's `KDTree.query_radius` that NeuroKit2 uses).
/// - ApEn (Pincus 1991), NeuroKit2's `entropy_approximate`: |Φm − Φm+1|, Φk the mean over the
///   N − k + 1 vectors of ln(matches including itself / (N − k + 1)).
/// - SampEn (Richman & Moorman 2000), NeuroKit2's `entropy_sample`: −ln(A / B), B the ordered pairs of
///   distinct m-vectors among the first N − m that match, A the same for (m + 1)-vectors; +∞ when no
///   (m + 1)-vectors match (A/B within 1e-8 of 0), −∞ when no m-vectors match (B/((N−m)(N−m−1)) within
///   1e-8 of 0), mirroring NeuroKit2.
///
/// O(N²) time (one comparison per pair of samples, whatever m), O(N) memory; unitless results.
public struct Entropies: Sendable, Equatable, Codable {
  /// Approximate entropy; NaN when N ≤ m + 1.
  public var approximate: Double
  /// Sample entropy; NaN when N ≤ m + 2.
  public var sample: Double

  /// Both entropies of `x` with embedding dimension `dimension` (≥ 1) and tolerance `tolerance`
  /// (in the unit of `x`, ≥ 0).
  public init(_ x: [Double], dimension m: Int, tolerance r: Double) {
    precondition(m >= 1, "embedding dimension must be at least 1")
    precondition(r >= 0, "tolerance must be non-negative")
    let n = x.count
    guard n > m + 1 else {
      self.init(approximate: .nan, sample: .nan)
      return
    }
    // shortCounts[i]: m-vectors (0 ... n − m) matching vector i; longCounts: (m + 1)-vectors (0 ... n − m − 1).
    var shortCounts = [Int](repeating: 1, count: n - m + 1)
    var longCounts = [Int](repeating: 1, count: n - m)
    var shortPairs = 0  // unordered matching pairs of m-vectors, both among the first n − m
    var longPairs = 0
    // For each lag d, a run of consecutive coordinates t with |x[t] − x[t + d]| ≤ r of length ≥ m
    // ending at t means the m-vectors at t − m + 1 and t − m + 1 + d match; ≥ m + 1, the (m + 1)-vectors
    // at t − m and t − m + d. One comparison per pair of samples instead of up to m + 1 per vector pair.
    x.withUnsafeBufferPointer { x in
      shortCounts.withUnsafeMutableBufferPointer { shortCounts in
        longCounts.withUnsafeMutableBufferPointer { longCounts in
          for d in 1..<n {
            var run = 0
            for t in 0..<(n - d) {
              run = abs(x[t] - x[t + d]) <= r ? run + 1 : 0
              guard run >= m else { continue }
              let i = t - m + 1
              shortCounts[i] += 1
              shortCounts[i + d] += 1
              if i + d < n - m { shortPairs += 1 }
              guard run > m else { continue }
              longPairs += 1
              longCounts[i - 1] += 1
              longCounts[i - 1 + d] += 1
            }
          }
        }
      }
    }
    func phi(_ counts: [Int]) -> Double {
      let total = Double(counts.count)
      return counts.reduce(0.0) { $0 + Foundation.log(Double($1) / total) } / total
    }
    let approximate = abs(phi(shortCounts) - phi(longCounts))
    var sample = Double.nan
    if n > m + 2 {
      let vectors = Double(n - m)
      let b = 2 * Double(shortPairs) / (vectors * (vectors - 1))
      let a = 2 * Double(longPairs) / (vectors * (vectors - 1))
      if abs(b) <= 1e-8 {
        sample = -.infinity
      } else if abs(a / b) <= 1e-8 {
        sample = .infinity
      } else {
        sample = -Foundation.log(a / b)
      }
    }
    self.init(approximate: approximate, sample: sample)
  }

  public init(approximate: Double, sample: Double) {
    self.approximate = approximate
    self.sample = sample
  }
}
