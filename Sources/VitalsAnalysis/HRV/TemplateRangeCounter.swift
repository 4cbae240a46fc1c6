/// Orthogonal range counting over the embedding vectors of a ranked series: for each vector, how many
/// vectors lie in the box of ranks within the tolerance of its own, itself included.
///
/// Identical vectors (common: RR intervals are whole numbers of sampling periods) become one point
/// weighted by their number, queried once. A k-d tree (Bentley 1975, "Multidimensional binary search
/// trees used for associative searching", Commun. ACM 18:509) over the points, split at the median of
/// the widest coordinate, each node keeping the bounding box of its points: a node inside the query box
/// adds its weight without being visited, a node outside it is skipped, so only nodes crossing the
/// box's border are opened.
enum TemplateRangeCounter {
  /// Points per leaf, compared one by one.
  private static let leafSize = 8

  /// For each vector i in 0 ..< `templates` (the ranks at i ..< i + `dimension`), the vectors j in
  /// 0 ..< `templates` with `lower[rank(i + d)] ≤ rank(j + d) ≤ upper[rank(i + d)]` for every d; at
  /// least 1 (a vector holding a non-finite value matches only itself).
  static func matchCounts(_ series: ToleranceRanks, dimension k: Int, templates: Int) -> [Int] {
    precondition(k >= 1 && templates >= 1 && templates + k - 1 <= series.ranks.count)
    let ranks = series.ranks
    // The vectors in lexicographic order, then the distinct ones with their weights.
    let order = (0..<templates).sorted { i, j in
      for d in 0..<k where ranks[i + d] != ranks[j + d] { return ranks[i + d] < ranks[j + d] }
      return false
    }
    var points: [Int32] = []  // distinct vectors, k coordinates each (tree order once built)
    var weights: [Int] = []
    points.reserveCapacity(templates * k)
    weights.reserveCapacity(templates)
    var point = [Int](repeating: 0, count: templates)  // the distinct vector of each vector
    for (position, i) in order.enumerated() {
      if position == 0 || (0..<k).contains(where: { ranks[i + $0] != ranks[order[position - 1] + $0] }) {
        points.append(contentsOf: ranks[i..<(i + k)])
        weights.append(0)
      }
      weights[weights.count - 1] += 1
      point[i] = weights.count - 1
    }
    let distinct = weights.count
    var depth = 0
    while (distinct + (1 << depth) - 1) >> depth > leafSize { depth += 1 }
    // Per node, k minima then k maxima; per point in tree order, the weight of the points before it.
    var bounds = [Int32](repeating: 0, count: (2 << depth) * 2 * k)
    var before = [Int](repeating: 0, count: distinct + 1)
    var ids = (0..<distinct).map(Int32.init)  // each tree position's distinct vector
    var pointCounts = [Int](repeating: 0, count: distinct)
    points.withUnsafeMutableBufferPointer { points in
      weights.withUnsafeMutableBufferPointer { weights in
        ids.withUnsafeMutableBufferPointer { ids in
          bounds.withUnsafeMutableBufferPointer { bounds in
            before.withUnsafeMutableBufferPointer { before in
              let tree = Tree(
                dimension: k, points: points, weights: weights, ids: ids, bounds: bounds, before: before)
              tree.build(node: 1, lo: 0, hi: distinct)
              for p in 0..<distinct { before[p + 1] = before[p] + weights[p] }
              series.lower.withUnsafeBufferPointer { lower in
                series.upper.withUnsafeBufferPointer { upper in
                  var box = [Int32](repeating: 0, count: 2 * k)
                  box.withUnsafeMutableBufferPointer { box in
                    // Queried in tree order; each count goes to the point's place in sorted order.
                    for p in 0..<distinct {
                      for d in 0..<k {
                        let rank = Int(points[p * k + d])
                        box[d] = lower[rank]
                        box[k + d] = upper[rank]
                      }
                      pointCounts[Int(ids[p])] = tree.count(node: 1, lo: 0, hi: distinct, box: box)
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    return (0..<templates).map { Swift.max(1, pointCounts[point[$0]]) }
  }

  /// The tree over buffers owned by ``matchCounts(_:dimension:templates:)``; node `node` (1-based heap
  /// numbering) holds the points `lo ..< hi`, its children the halves split at `(lo + hi) / 2`.
  private struct Tree {
    let dimension: Int
    let points: UnsafeMutableBufferPointer<Int32>
    /// The number of vectors each point stands for (kept in step with `points` while building).
    let weights: UnsafeMutableBufferPointer<Int>
    /// The distinct vector each point is (kept in step with `points` while building).
    let ids: UnsafeMutableBufferPointer<Int32>
    let bounds: UnsafeMutableBufferPointer<Int32>
    /// The total weight of the points before each position, filled once built.
    let before: UnsafeMutableBufferPointer<Int>

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
      weights.swapAt(i, j)
      ids.swapAt(i, j)
    }

    /// Weight of the points of node `node` (holding `lo ..< hi`) inside `box` (k lower then k upper rank bounds).
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
      if inside { return before[hi] - before[lo] }
      guard hi - lo > TemplateRangeCounter.leafSize else {
        var total = 0
        for p in lo..<hi {
          var matches = true
          for d in 0..<k {
            let value = points[p * k + d]
            matches = matches && value >= box[d] && value <= box[k + d]
          }
          if matches { total += weights[p] }
        }
        return total
      }
      let middle = (lo + hi) / 2
      return count(node: 2 * node, lo: lo, hi: middle, box: box)
        + count(node: 2 * node + 1, lo: middle, hi: hi, box: box)
    }
  }
}
