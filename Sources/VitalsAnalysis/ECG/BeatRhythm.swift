import VitalsSupport

/// The rhythm stage of ``BeatClassifier``: the reference RR interval a beat's timing is judged against,
/// and whether the rhythm around it is regular enough for prematurity to mean anything.
///
/// The reference is the median of the last 8 RR intervals between two beats labelled normal (N→N), as
/// in the "local RR" of de Chazal et al. (2004), restricted to normal beats so that a run of premature
/// beats does not become its own reference. After 32 labels in a row that are not normal, the reference
/// restarts from the current interval: a sustained change of rate is the rhythm, not a run of ectopy.
/// Regularity is the median absolute difference of successive RR intervals over the last 16 intervals
/// (all beats) divided by their median: robust to the isolated long–short pairs that ectopic beats
/// make, high in atrial fibrillation, where prematurity says nothing about the beat's origin.
struct BeatRhythm: Sendable {
  static let referenceLength = 8
  static let regularityLength = 16
  static let restartRun = 32

  /// N→N intervals, seconds, oldest first.
  private var normalIntervals: [Double] = []
  /// RR intervals of every beat, seconds, oldest first.
  private var intervals: [Double] = []
  private var previousLabel = BeatClass.normal
  private var ectopicRun = 0

  init() {
    normalIntervals.reserveCapacity(Self.referenceLength + 1)
    intervals.reserveCapacity(Self.regularityLength + 1)
  }

  /// The label of the last beat recorded.
  var lastLabel: BeatClass { previousLabel }

  /// The reference RR interval, seconds, or nil before the first N→N interval.
  private(set) var reference: Double?

  /// Whether the recent RR intervals are regular: at least 4 of them, with a median absolute successive
  /// difference below `limit` times their median.
  func isRegular(below limit: Double) -> Bool {
    guard intervals.count >= 4 else { return false }
    let median = Self.median(intervals)
    return withUnsafeTemporaryAllocation(of: Double.self, capacity: intervals.count - 1) { differences in
      for k in 1..<intervals.count { differences[k - 1] = abs(intervals[k] - intervals[k - 1]) }
      return Self.median(UnsafeBufferPointer(differences)) < limit * median
    }
  }

  /// Notes a beat's RR interval before it (seconds; nil for the first beat or after a gap) before it is
  /// labelled.
  mutating func observe(interval: Double?) {
    guard let interval else { return }
    intervals.append(interval)
    if intervals.count > Self.regularityLength { intervals.removeFirst() }
  }

  /// Records the label given to the beat whose interval was last observed.
  mutating func record(_ label: BeatClass, interval: Double?) {
    if let interval, label == .normal && previousLabel == .normal {
      normalIntervals.append(interval)
      if normalIntervals.count > Self.referenceLength { normalIntervals.removeFirst() }
    }
    ectopicRun = label == .normal ? 0 : ectopicRun + 1
    if ectopicRun >= Self.restartRun, let interval {
      normalIntervals.removeAll(keepingCapacity: true)
      normalIntervals.append(interval)
    }
    reference = normalIntervals.isEmpty ? nil : Self.median(normalIntervals)
    previousLabel = label
  }

  private static func median(_ values: [Double]) -> Double {
    values.withUnsafeBufferPointer { median($0) }
  }

  /// The median of a few values, by insertion sort into scratch space.
  private static func median(_ values: UnsafeBufferPointer<Double>) -> Double {
    withUnsafeTemporaryAllocation(of: Double.self, capacity: values.count) { sorted in
      for (i, value) in values.enumerated() {
        var j = i
        while j > 0 && sorted[j - 1] > value {
          sorted[j] = sorted[j - 1]
          j -= 1
        }
        sorted[j] = value
      }
      return DescriptiveStatistics.median(sorted: UnsafeBufferPointer(sorted))
    }
  }
}
