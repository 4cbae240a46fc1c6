/// The pairing of detected beats with reference beats, each used at most once.
public struct BeatMatching: Sendable, Equatable, Codable {
  /// One reference beat paired with one detected beat, as indices into the two input arrays.
  public struct Pair: Sendable, Equatable, Hashable, Codable {
    public var reference: Int
    public var test: Int

    public init(reference: Int, test: Int) {
      self.reference = reference
      self.test = test
    }
  }

  /// Matched pairs, in increasing time.
  public var pairs: [Pair]
  /// Indices of reference beats no detection was paired with (false negatives), increasing.
  public var unmatchedReference: [Int]
  /// Indices of detections paired with no reference beat (false positives), increasing.
  public var unmatchedTest: [Int]

  public init(pairs: [Pair], unmatchedReference: [Int], unmatchedTest: [Int]) {
    self.pairs = pairs
    self.unmatchedReference = unmatchedReference
    self.unmatchedTest = unmatchedTest
  }

  /// Pairs reference beats with detected beats within `window` samples of each other.
  ///
  /// The result is the optimal one-to-one matching: the largest possible number of pairs, and among
  /// matchings with that many pairs, the smallest total |reference − test| time. Optimal matchings of
  /// points on a line never cross, so a dynamic programme over the two sorted lists finds one; it only
  /// visits, for each reference beat, the detections inside its window, so the cost is
  /// O(R + T + Σ window occupancy) time and memory — linear for any realistic beat series.
  ///
  /// This is what WFDB `bxb` (ANSI/AAMI EC57) approximates with its one-step look-ahead: a detection is
  /// paired with the nearest reference beat, and a greedy scan cannot take a detection away from a
  /// closer reference beat. Ties (equal counts and equal total distance) resolve deterministically.
  ///
  /// - Parameters:
  ///   - reference: reference beat positions in samples, sorted non-decreasing.
  ///   - test: detected beat positions in samples, sorted non-decreasing.
  ///   - window: the largest |reference − test| that still matches, in samples (inclusive), ≥ 0.
  public init(reference: [Int64], test: [Int64], window: Int64) {
    precondition(window >= 0, "match window must be non-negative, got \(window)")
    precondition(Self.isSorted(reference), "reference beats must be sorted by time")
    precondition(Self.isSorted(test), "detected beats must be sorted by time")
    let solver = MatchingSolver(reference: reference, test: test, window: window)
    self = solver.solve()
  }

  private static func isSorted(_ values: [Int64]) -> Bool {
    values.indices.dropFirst().allSatisfy { values[$0 - 1] <= values[$0] }
  }
}

/// The dynamic programme behind ``BeatMatching/init(reference:test:window:)``.
///
/// `f(i, j)` is the best (count, −cost) matching of the first `i` reference beats with the first `j`
/// detections. Row `i + 1` differs from row `i` only for `j` inside reference `i`'s window band
/// `lo_i + 1 ... hi_i + 1`; below the band it equals row `i`, above it stays constant. One array
/// therefore holds the current row, refreshed band by band, and the decisions of each band are kept
/// for the trace back.
private struct MatchingSolver {
  struct Score: Comparable {
    var count: Int
    var cost: Int64

    static func < (lhs: Score, rhs: Score) -> Bool {
      lhs.count != rhs.count ? lhs.count < rhs.count : lhs.cost > rhs.cost
    }
  }

  enum Step: UInt8 {
    case skipReference, skipTest, match
  }

  let reference: [Int64]
  let test: [Int64]
  let window: Int64

  func solve() -> BeatMatching {
    let n = reference.count
    let m = test.count
    var row = [Score](repeating: Score(count: 0, cost: 0), count: m + 1)
    var bandLow = [Int](repeating: 0, count: n)
    var bandHigh = [Int](repeating: -1, count: n)
    var bandOffset = [Int](repeating: 0, count: n)
    var steps: [Step] = []
    var tailStart = 0  // row[j] for j > tailStart equals row[tailStart]
    var low = 0
    var high = -1
    for i in 0..<n {
      while low < m && test[low] < reference[i] - window { low += 1 }
      if high < low - 1 { high = low - 1 }
      while high + 1 < m && test[high + 1] <= reference[i] + window { high += 1 }
      bandLow[i] = low
      bandHigh[i] = high
      bandOffset[i] = steps.count
      guard high >= low else { continue }
      if high + 1 > tailStart {
        let tail = row[tailStart]
        for j in (tailStart + 1)...(high + 1) { row[j] = tail }
        tailStart = high + 1
      }
      var previousOld = row[low]
      for j in (low + 1)...(high + 1) {
        let old = row[j]
        var best = old
        var step = Step.skipReference
        if best < row[j - 1] {
          best = row[j - 1]
          step = .skipTest
        }
        let distance = abs(test[j - 1] - reference[i])
        let matched = Score(count: previousOld.count + 1, cost: previousOld.cost + distance)
        if best < matched {
          best = matched
          step = .match
        }
        row[j] = best
        steps.append(step)
        previousOld = old
      }
    }

    var pairs: [BeatMatching.Pair] = []
    var unmatchedReference: [Int] = []
    var unmatchedTest: [Int] = []
    var i = n
    var j = m
    while i > 0 {
      let r = i - 1
      if bandHigh[r] < bandLow[r] || j <= bandLow[r] {
        unmatchedReference.append(r)
        i -= 1
        continue
      }
      if j > bandHigh[r] + 1 {
        unmatchedTest.append(contentsOf: (bandHigh[r] + 1..<j).reversed())
        j = bandHigh[r] + 1
      }
      switch steps[bandOffset[r] + (j - bandLow[r] - 1)] {
      case .skipReference:
        unmatchedReference.append(r)
        i -= 1
      case .skipTest:
        unmatchedTest.append(j - 1)
        j -= 1
      case .match:
        pairs.append(BeatMatching.Pair(reference: r, test: j - 1))
        i -= 1
        j -= 1
      }
    }
    unmatchedTest.append(contentsOf: (0..<j).reversed())
    return BeatMatching(
      pairs: pairs.reversed(), unmatchedReference: unmatchedReference.reversed(),
      unmatchedTest: unmatchedTest.reversed())
  }
}
