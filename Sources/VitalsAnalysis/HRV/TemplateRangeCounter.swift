/// Orthogonal range counting over the embedding vectors of a ranked series: for each vector, how many
/// vectors lie in the box of ranks within the tolerance of its own, itself included.
///
/// A k-d tree (Bentley 1975, "Multidimensional binary search trees used for associative searching",
/// Commun. ACM 18:509) over the vectors, split at the median of the widest coordinate, each node
/// keeping the bounding box of its vectors: a node inside the query box adds its size without being
/// visited, a node outside it is skipped, so only nodes crossing the box's border are opened.
enum TemplateRangeCounter {
  /// Vectors per leaf, compared one by one.
  private static let leafSize = 8

  /// For each vector i in 0 ..< `templates` (the ranks at i ..< i + `dimension`), the vectors j in
  /// 0 ..< `templates` with `lower[rank(i + d)] ≤ rank(j + d) ≤ upper[rank(i + d)]` for every d; at
  /// least 1 (a vector holding a non-finite value matches only itself).
  static func matchCounts(_ series: ToleranceRanks, dimension k: Int, templates: Int) -> [Int] {
    precondition(k >= 1 && templates >= 1 && templates + k - 1 <= series.ranks.count)
    var depth = 0
    while (templates + (1 << depth) - 1) >> depth > leafSize { depth += 1 }
    let nodes = 2 << depth
    // Vectors in tree order, k coordinates each; per node, k minima then k maxima.
    var points = [Int32](repeating: 0, count: templates * k)
    var bounds = [Int32](repeating: 0, count: nodes * 2 * k)
    var counts = [Int](repeating: 0, count: templates)
    series.ranks.withUnsafeBufferPointer { ranks in
      points.withUnsafeMutableBufferPointer { points in
        for i in 0..<templates {
          for d in 0..<k { points[i * k + d] = ranks[i + d] }
        }
        bounds.withUnsafeMutableBufferPointer { bounds in
          let tree = Tree(dimension: k, points: points, bounds: bounds)
          tree.build(node: 1, lo: 0, hi: templates)
          series.lower.withUnsafeBufferPointer { lower in
            series.upper.withUnsafeBufferPointer { upper in
              counts.withUnsafeMutableBufferPointer { counts in
                var box = [Int32](repeating: 0, count: 2 * k)
                box.withUnsafeMutableBufferPointer { box in
                  for i in 0..<templates {
                    for d in 0..<k {
                      let rank = Int(ranks[i + d])
                      box[d] = lower[rank]
                      box[k + d] = upper[rank]
                    }
                    counts[i] = Swift.max(1, tree.count(node: 1, lo: 0, hi: templates, box: box))
                  }
                }
              }
            }
          }
        }
      }
    }
    return counts
  }

  /// The tree over buffers owned by ``matchCounts(_:dimension:templates:)``; node `node` (1-based heap
  /// numbering) holds the points `lo ..< hi`, its children the halves split at `(lo + hi) / 2`.
  private struct Tree {
    let dimension: Int
    let points: UnsafeMutableBufferPointer<Int32>
    let bounds: UnsafeMutableBufferPointer<Int32>

    func build(node: Int, lo: Int, hi: Int) {
      let k = dimension
      let base = node * 2 * k
      for d in 0..<k {
        var low = Int32.max
        var high = Int32.min
        for p in lo..<hi {
          let value = points[p * k + d]
          low = Swift.min(low, value)
          high = Swift.max(high, value)
        }
        bounds[base + d] = low
        bounds[base + k + d] = high
      }
      guard hi - lo > TemplateRangeCounter.leafSize else { return }
      var widest = 0
      for d in 1..<k
      where bounds[base + k + d] - bounds[base + d] > bounds[base + k + widest] - bounds[base + widest] {
        widest = d
      }
      let middle = (lo + hi) / 2
      select(middle, lo: lo, hi: hi, coordinate: widest)
      build(node: 2 * node, lo: lo, hi: middle)
      build(node: 2 * node + 1, lo: middle, hi: hi)
    }

    /// Reorders points `lo ..< hi` so that the one at `target` has its rank in order along `coordinate`,
    /// none before it larger and none after it smaller (Hoare's selection with a median-of-three pivot).
    private func select(_ target: Int, lo: Int, hi: Int, coordinate d: Int) {
      let k = dimension
      var lo = lo
      var hi = hi - 1
      while lo < hi {
        let a = points[lo * k + d]
        let b = points[((lo + hi) / 2) * k + d]
        let c = points[hi * k + d]
        let pivot = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
        var i = lo
        var j = hi
        while i <= j {
          while points[i * k + d] < pivot { i += 1 }
          while points[j * k + d] > pivot { j -= 1 }
          if i <= j {
            swapPoints(i, j)
            i += 1
            j -= 1
          }
        }
        if target <= j {
          hi = j
        } else if target >= i {
          lo = i
        } else {
          return
        }
      }
    }

    private func swapPoints(_ i: Int, _ j: Int) {
      let k = dimension
      for d in 0..<k { points.swapAt(i * k + d, j * k + d) }
    }

    /// Points of node `node` (holding `lo ..< hi`) inside `box` (k lower then k upper rank bounds).
    func count(node: Int, lo: Int, hi: Int, box: UnsafeMutableBufferPointer<Int32>) -> Int {
      let k = dimension
      let base = node * 2 * k
      var inside = true
      for d in 0..<k {
        let low = bounds[base + d]
        let high = bounds[base + k + d]
        if high < box[d] || low > box[k + d] { return 0 }
        inside = inside && low >= box[d] && high <= box[k + d]
      }
      if inside { return hi - lo }
      guard hi - lo > TemplateRangeCounter.leafSize else {
        var total = 0
        for p in lo..<hi {
          var matches = true
          for d in 0..<k {
            let value = points[p * k + d]
            matches = matches && value >= box[d] && value <= box[k + d]
          }
          if matches { total += 1 }
        }
        return total
      }
      let middle = (lo + hi) / 2
      return count(node: 2 * node, lo: lo, hi: middle, box: box)
        + count(node: 2 * node + 1, lo: middle, hi: hi, box: box)
    }
  }
}
