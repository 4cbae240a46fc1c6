import VitalsSupport

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
  /// α is the least-squares slope of log₂ F(s) against log₂ s.
  ///
  /// A window's residual variance is (M_yy − M_ky²/M_kk)/s from its centered second moments, which come
  /// from O(log s) power-of-two blocks of the profile merged with Chan, Golub & LeVeque's pairwise
  /// update (1979, "Updating formulae and a pairwise algorithm for computing sample variances"): no
  /// cancellation between large running sums, and O((N/s) log s) per scale, so that NeuroKit2's N/10
  /// scales of α2 cost O(N log² N) rather than O(N²). Agrees with the window-by-window fit to about
  /// 1e-13 relative.
  ///
  /// - Returns: NaN when a scale has no window with variance.
  public static func alpha(_ x: [Double], scales: [Int]) -> Double {
    precondition(scales.count >= 2, "DFA needs at least two window sizes")
    precondition(scales.allSatisfy { $0 >= 2 && $0 < x.count }, "DFA window sizes must be in 2 ..< N")
    let average = DescriptiveStatistics.mean(x)
    var profile = [Double](repeating: 0, count: x.count)
    var running = 0.0
    for k in x.indices {
      running += x[k] - average
      profile[k] = running
    }
    let blocks = ProfileBlocks(profile)
    var logScales: [Double] = []
    var logFluctuations: [Double] = []
    for s in scales {
      logScales.append(log2(Double(s)))
      logFluctuations.append(log2(blocks.fluctuation(window: s)))
    }
    return DescriptiveStatistics.slope(x: logScales, y: logFluctuations)
  }

  /// Centered moments of a run of consecutive profile samples, positions k and values y: the count, the
  /// mean value, M_yy = Σ(y − ȳ)² and M_ky = Σ(k − k̄)(y − ȳ) (k̄ and M_kk follow from the count).
  private struct Moments {
    var count: Double
    var mean: Double
    var yy: Double
    var ky: Double

    /// The moments of this run followed by `next` (Chan, Golub & LeVeque 1979).
    func merged(with next: Moments) -> Moments {
      let total = count + next.count
      let weight = count * next.count / total
      let dy = next.mean - mean
      let dk = total / 2  // distance between the runs' mean positions: (count + next.count) / 2
      return Moments(
        count: total, mean: mean + dy * next.count / total, yy: yy + next.yy + dy * dy * weight,
        ky: ky + next.ky + dk * dy * weight)
    }
  }

  /// The moments of every aligned power-of-two block of the profile: level ℓ holds blocks
  /// [j·2^ℓ, (j + 1)·2^ℓ), all levels one after the other in one array.
  private struct ProfileBlocks {
    var blocks: [Moments]
    /// Where each level starts in ``blocks``.
    var levelStarts: [Int]
    let count: Int

    init(_ y: [Double]) {
      count = y.count
      blocks = y.map { Moments(count: 1, mean: $0, yy: 0, ky: 0) }
      blocks.reserveCapacity(2 * y.count)
      levelStarts = [0]
      var levelCount = y.count
      while levelCount >= 2 {
        let start = levelStarts.last!
        levelStarts.append(blocks.count)
        for j in 0..<(levelCount / 2) {
          blocks.append(blocks[start + 2 * j].merged(with: blocks[start + 2 * j + 1]))
        }
        levelCount /= 2
      }
    }

    /// The moments of samples `start ..< end`, merged from the largest aligned blocks, left to right.
    static func moments(
      _ start: Int, _ end: Int, blocks: UnsafeBufferPointer<Moments>, levelStarts: UnsafeBufferPointer<Int>
    ) -> Moments {
      let top = levelStarts.count - 1
      var position = start
      /// The largest aligned block that starts at `position` and ends by `end` (0 has every alignment:
      /// its trailing zero count is the word's width); `position` moves past it.
      func nextBlock() -> Moments {
        var level = Swift.min(position.trailingZeroBitCount, top)
        while position + (1 << level) > end { level -= 1 }
        defer { position += 1 << level }
        return blocks[levelStarts[level] + (position >> level)]
      }
      var result = nextBlock()
      while position < end { result = result.merged(with: nextBlock()) }
      return result
    }

    /// F(s): root of the mean residual variance over the overlapping windows of size `s`.
    func fluctuation(window s: Int) -> Double {
      let length = Double(s)
      let kk = length * (length * length - 1) / 12  // Σ (k − k̄)² over s consecutive positions
      var total = 0.0
      var used = 0
      blocks.withUnsafeBufferPointer { blocks in
        levelStarts.withUnsafeBufferPointer { levelStarts in
          var start = 0
          while start < count - s {
            let window = Self.moments(start, start + s, blocks: blocks, levelStarts: levelStarts)
            let variance = (window.yy - window.ky * window.ky / kk) / length
            if variance > 1e-8 {
              total += variance
              used += 1
            }
            start += s / 2
          }
        }
      }
      return used == 0 ? .nan : (total / Double(used)).squareRoot()
    }
  }
}
