import VitalsCore

/// Normal-to-normal (NN) intervals: the RR intervals HRV is computed from, with the gaps left by
/// excluded intervals kept explicit.
///
/// Interval `k` lasts ``intervals``[k] milliseconds and ends at ``endTimes``[k] seconds;
/// ``followsPrevious``[k] is `true` when interval `k − 1` ends where interval `k` starts, i.e. no
/// interval was dropped between them. Successive differences (RMSSD, SDSD, pNNx, Poincaré) use only
/// such pairs — as NeuroKit2 does when given `RRI` and `RRI_Time` with gaps, and the PhysioNet HRV
/// Toolkit does for N→N pairs.
public struct NNSeries: Sendable, Equatable, Codable {
  /// Interval lengths in milliseconds.
  public var intervals: [Double]
  /// Time of the beat closing each interval, in seconds from the start of the record.
  public var endTimes: [Double]
  /// Whether each interval directly follows the previous one (the first is always `false`).
  public var followsPrevious: [Bool]

  /// A series from its parts; the three arrays must have equal lengths.
  public init(intervals: [Double], endTimes: [Double], followsPrevious: [Bool]) {
    precondition(
      intervals.count == endTimes.count && intervals.count == followsPrevious.count,
      "NN intervals, end times and continuity flags must have equal lengths")
    self.intervals = intervals
    self.endTimes = endTimes
    self.followsPrevious = followsPrevious
  }

  /// Every RR interval of `beats`, none excluded.
  ///
  /// - Parameters:
  ///   - beats: beat positions in samples, strictly increasing.
  ///   - sampleRate: samples per second; intervals are `(b[k] − b[k−1]) / rate · 1000` ms, exactly as
  ///     NeuroKit2's `np.diff(peaks) / sampling_rate * 1000`.
  public init(beats: [Int64], sampleRate: Double) {
    self.init(beats: beats, sampleRate: sampleRate, excludingBeats: [])
  }

  /// The NN intervals of `beats`, leaving out every interval that starts or ends at an excluded beat
  /// (both intervals around a flagged beat are dropped; nothing is interpolated).
  ///
  /// - Parameters:
  ///   - beats: beat positions in samples, strictly increasing.
  ///   - sampleRate: samples per second.
  ///   - excluded: indices of beats to exclude (e.g. ``RRArtifacts/allBeats``, or beats that are not
  ///     normal).
  public init(beats: [Int64], sampleRate: Double, excludingBeats excluded: some Sequence<Int>) {
    self.init(beats: beats, sampleRate: sampleRate, excludingBeats: excluded, gaps: [])
  }

  /// The NN intervals of `beats`, leaving out every interval that starts or ends at an excluded beat and
  /// every interval across a gap of the signal (missing samples between its two beats): the heart beat
  /// unseen there, so the interval is unknown. Both are removed as artifacts are: the intervals on either
  /// side do not follow each other.
  ///
  /// - Parameters:
  ///   - beats: beat positions in samples, strictly increasing.
  ///   - sampleRate: samples per second.
  ///   - excluded: indices of beats to exclude.
  ///   - gaps: the signal's gaps, as sample ranges on the beats' scale, increasing and disjoint (e.g.
  ///     ``QRSDetector/gaps``).
  public init(
    beats: [Int64], sampleRate: Double, excludingBeats excluded: some Sequence<Int>, gaps: [Range<Int64>]
  ) {
    self.init(intervals: [], endTimes: [], followsPrevious: [])
    var isExcluded: [Bool] = []
    // An array: iterating a generic sequence, unspecialized when called from another module, allocates
    // for each element.
    assign(
      beats: beats, sampleRate: sampleRate, excludingBeats: Array(excluded), gaps: gaps, scratch: &isExcluded)
  }

  /// Replaces this series with ``init(beats:sampleRate:excludingBeats:gaps:)``'s of the same arguments (equal
  /// bit for bit), reusing the storage of its arrays and of `scratch` (one flag per beat): nothing is
  /// allocated once they have grown to the beats' count.
  package mutating func assign(
    beats: [Int64], sampleRate: Double, excludingBeats excluded: [Int], gaps: [Range<Int64>],
    scratch isExcluded: inout [Bool]
  ) {
    precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive and finite")
    precondition(
      beats.indices.dropFirst().allSatisfy { beats[$0 - 1] < beats[$0] }, "beats must be strictly increasing")
    isExcluded.removeAll(keepingCapacity: true)
    isExcluded.append(contentsOf: repeatElement(false, count: beats.count))
    for index in excluded {
      precondition(beats.indices.contains(index), "excluded beat \(index) is not a beat index")
      isExcluded[index] = true
    }
    intervals.removeAll(keepingCapacity: true)
    endTimes.removeAll(keepingCapacity: true)
    followsPrevious.removeAll(keepingCapacity: true)
    let most = Swift.max(0, beats.count - 1)
    intervals.reserveCapacity(most)
    endTimes.reserveCapacity(most)
    followsPrevious.reserveCapacity(most)
    var previousKept = -1
    var gap = 0
    for k in beats.indices.dropFirst() where !isExcluded[k] && !isExcluded[k - 1] {
      // The first gap not ending at or before the interval's start; the interval spans it when it starts
      // before the interval's end.
      while gap < gaps.count && gaps[gap].upperBound <= beats[k - 1] { gap += 1 }
      if gap < gaps.count && gaps[gap].lowerBound < beats[k] { continue }
      intervals.append(distance(from: beats[k - 1], to: beats[k]) / sampleRate * 1000)
      endTimes.append(Double(beats[k]) / sampleRate)
      followsPrevious.append(previousKept == k - 1)
      previousKept = k
    }
  }

  /// The NN intervals of an annotated record: only intervals between two consecutive beats whose
  /// labels are both normal count (the PhysioNet HRV Toolkit's N→N rule), optionally also leaving out
  /// beats flagged as artifacts.
  ///
  /// - Parameters:
  ///   - beats: beat positions in samples, strictly increasing (beat annotations only).
  ///   - labels: the MIT mnemonic of each beat (`N`, `V`, …), as many as `beats`.
  ///   - sampleRate: samples per second.
  ///   - normalLabels: labels that count as normal (default `N` only, as the HRV Toolkit).
  ///   - artifacts: beats to exclude in addition to the non-normal ones.
  ///   - gaps: the signal's gaps, as sample ranges on the beats' scale, increasing and disjoint: no interval
  ///     across one counts.
  public init(
    beats: [Int64], labels: [String], sampleRate: Double, normalLabels: Set<String> = ["N"],
    excludingBeats artifacts: some Sequence<Int> = [Int](), gaps: [Range<Int64>] = []
  ) {
    precondition(labels.count == beats.count, "one label per beat")
    let abnormal = labels.indices.filter { !normalLabels.contains(labels[$0]) }
    self.init(beats: beats, sampleRate: sampleRate, excludingBeats: abnormal + Array(artifacts), gaps: gaps)
  }

  /// Number of intervals.
  @inlinable
  public var count: Int { intervals.count }
}
