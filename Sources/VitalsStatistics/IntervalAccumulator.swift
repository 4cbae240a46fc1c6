import VitalsCore

/// The partial statistics of samples over an ``IntervalCollection``: a mergeable value, so that
/// shards of the samples aggregated on any threads, processes or machines combine into the
/// statistics of all of them.
///
/// Per interval it keeps the sample count, the sum, minimum and maximum of the values, the summed
/// duration in nanoseconds, and the most recent sample. Which interval a sample counts in:
/// - **discrete** types: the interval holding the sample's start, with its whole value and duration
///   (a sample is counted exactly once; HealthKit's collection queries also place a discrete sample
///   by its start date). Samples starting outside the collection are ignored.
/// - **cumulative** types: every interval the half-open span `[start, end)` overlaps, with the share
///   `value × overlap / (end − start)` and the overlap as duration; an instantaneous sample
///   (`start == end`) counts wholly in the interval holding it. The most recent sample is taken in
///   the interval holding its start. Parts outside the collection are dropped.
/// NaN and infinite values are skipped (the state holds finite numbers only, so it encodes as JSON).
///
/// Merging (``merge(_:)``) adds counts, sums and durations, takes minima, maxima and the most recent
/// sample (latest end, then latest start, then larger value): counts, extrema, durations and the most
/// recent sample of merged partials equal those of aggregating all samples exactly, and sums equal
/// them up to floating-point rounding (a few units in the last place per merge).
///
/// Aggregation (``add(starts:ends:values:)``) takes the samples as columns (struct of arrays) and is
/// fastest when they come in time order: it keeps the current interval's statistics in registers and
/// looks up an interval only when a sample leaves the current one.
///
/// Storage is sparse: only the run of intervals from the first to the last one a sample touched is
/// held (grown as needed), so the partial of a shard of samples close in time is small to keep, encode
/// and merge, whatever the length of the collection; merging costs time in proportion to the run of
/// the partial merged in. Equality compares the statistics, not the storage.
public struct IntervalAccumulator: Equatable, Sendable, Codable {
  /// The intervals the statistics are kept for.
  public let intervals: IntervalCollection
  /// How samples count (see above).
  public let style: AggregationStyle
  /// The collection index of `cells[0]`.
  @usableFromInline var base = 0
  /// The statistics of intervals `base..<base + cells.count`.
  @usableFromInline var cells: [Cell] = []

  /// The running statistics of one interval.
  @usableFromInline
  struct Cell: Equatable, Sendable, Codable {
    @usableFromInline var count = 0
    @usableFromInline var sum = 0.0
    @usableFromInline var minimum = Double.greatestFiniteMagnitude
    @usableFromInline var maximum = -Double.greatestFiniteMagnitude
    @usableFromInline var duration: Int64 = 0
    @usableFromInline var latestEnd = Int64.min
    @usableFromInline var latestStart = Int64.min
    @usableFromInline var latestValue = -Double.greatestFiniteMagnitude

    @usableFromInline init() {}

    /// Takes `(start, end, value)` as the most recent sample when it is more recent than the one held.
    @inlinable
    mutating func noteLatest(start: Int64, end: Int64, value: Double) {
      if end > latestEnd
        || (end == latestEnd && (start > latestStart || (start == latestStart && value > latestValue)))
      {
        latestEnd = end
        latestStart = start
        latestValue = value
      }
    }
  }

  /// Empty statistics over `intervals` for a type aggregated as `style`.
  public init(intervals: IntervalCollection, style: AggregationStyle) {
    self.intervals = intervals
    self.style = style
  }

  /// Makes interval `k` part of the storage; returns its position in ``cells``.
  @usableFromInline
  mutating func slot(_ k: Int) -> Int {
    if cells.isEmpty {
      base = k
      cells.append(Cell())
    } else if k < base {
      // Grow downwards by at least the held run, so intervals met in reverse order cost amortised O(1).
      let newBase = Swift.max(0, Swift.min(k, base - cells.count))
      cells.insert(contentsOf: repeatElement(Cell(), count: base - newBase), at: 0)
      base = newBase
    } else if k >= base + cells.count {
      cells.append(contentsOf: repeatElement(Cell(), count: k + 1 - base - cells.count))
    }
    return k - base
  }

  /// Adds one sample: `value` over `[start, end)` (ns since the epoch, `start <= end`).
  @inlinable
  public mutating func add(start: Int64, end: Int64, value: Double) {
    withUnsafePointer(to: start) { s in
      withUnsafePointer(to: end) { e in
        withUnsafePointer(to: value) { v in
          add(
            starts: UnsafeBufferPointer(start: s, count: 1), ends: UnsafeBufferPointer(start: e, count: 1),
            values: UnsafeBufferPointer(start: v, count: 1))
        }
      }
    }
  }

  /// Adds samples given as columns of equal length: starts and ends in ns since the epoch
  /// (`start <= end` each), values in the unit the caller aggregates in.
  @inlinable
  public mutating func add(
    starts: UnsafeBufferPointer<Int64>, ends: UnsafeBufferPointer<Int64>, values: UnsafeBufferPointer<Double>
  ) {
    precondition(starts.count == ends.count && starts.count == values.count, "columns of equal length")
    let intervals = self.intervals
    let cumulative = style == .cumulative
    // The current interval [low, high), its position in `cells` and its statistics, written back
    // when a sample leaves it.
    var current = -1
    var low = Int64.max
    var high = Int64.min
    var cell = Cell()
    for i in 0..<starts.count {
      let start = starts[i]
      let end = ends[i]
      let value = values[i]
      if !value.isFinite { continue }
      if !(start >= low && start < high && (!cumulative || end <= high)) {
        if current >= 0 {
          cells[current] = cell
          current = -1
          (low, high) = (.max, .min)
        }
        let k = intervals.index(of: start)
        if cumulative && (k == nil || end > intervals.boundary(k! + 1).nanosecondsSinceEpoch) {
          addSpanning(start: start, end: end, value: value)
          continue
        }
        guard let k else { continue }
        current = slot(k)
        low = intervals.boundary(k).nanosecondsSinceEpoch
        high = intervals.boundary(k + 1).nanosecondsSinceEpoch
        cell = cells[current]
      }
      cell.count += 1
      cell.sum += value
      cell.minimum = Swift.min(cell.minimum, value)
      cell.maximum = Swift.max(cell.maximum, value)
      cell.duration &+= end &- start
      cell.noteLatest(start: start, end: end, value: value)
    }
    if current >= 0 { cells[current] = cell }
  }

  /// A cumulative sample that is not inside one interval: shared by overlap.
  @usableFromInline
  mutating func addSpanning(start: Int64, end: Int64, value: Double) {
    if let k = intervals.index(of: start) {
      cells[slot(k)].noteLatest(start: start, end: end, value: value)
    }
    guard end > start else { return }
    let from = Swift.max(start, intervals.start.nanosecondsSinceEpoch)
    let to = Swift.min(end, intervals.end.nanosecondsSinceEpoch)
    guard from < to, var k = intervals.index(of: from) else { return }
    let length = Double(end - start)
    while k < intervals.count {
      let low = Swift.max(from, intervals.boundary(k).nanosecondsSinceEpoch)
      let high = Swift.min(to, intervals.boundary(k + 1).nanosecondsSinceEpoch)
      guard low < high else { break }
      let j = slot(k)
      cells[j].count += 1
      cells[j].sum += value * (Double(high - low) / length)
      cells[j].duration += high - low
      k += 1
    }
  }

  /// Adds `other`'s samples: afterwards `self` holds the statistics of both sets of samples.
  /// Both must cover the same intervals with the same aggregation style. Costs time in proportion to
  /// the run of intervals `other` holds.
  public mutating func merge(_ other: IntervalAccumulator) {
    precondition(
      intervals == other.intervals && style == other.style, "only partials of the same intervals merge")
    guard !other.cells.isEmpty else { return }
    _ = slot(other.base)
    _ = slot(other.base + other.cells.count - 1)
    let offset = other.base - base
    cells.withUnsafeMutableBufferPointer { cells in
      for (j, theirs) in other.cells.enumerated() where theirs.count > 0 || theirs.latestEnd != .min {
        cells[offset + j].count += theirs.count
        cells[offset + j].sum += theirs.sum
        cells[offset + j].minimum = Swift.min(cells[offset + j].minimum, theirs.minimum)
        cells[offset + j].maximum = Swift.max(cells[offset + j].maximum, theirs.maximum)
        cells[offset + j].duration += theirs.duration
        cells[offset + j].noteLatest(
          start: theirs.latestStart, end: theirs.latestEnd, value: theirs.latestValue)
      }
    }
  }

  /// The statistics of interval `index` (of the collection).
  public func statistics(_ index: Int) -> IntervalStatistics {
    precondition(index >= 0 && index < intervals.count, "interval \(index) is not in 0..<\(intervals.count)")
    let cell = cells.indices.contains(index - base) ? cells[index - base] : Cell()
    var result = IntervalStatistics(
      start: intervals.boundary(index), end: intervals.boundary(index + 1), sampleCount: cell.count)
    guard cell.count > 0 else { return result }
    result.duration = Double(cell.duration) / 1e9
    if cell.latestEnd != .min {
      result.mostRecent = .init(
        value: cell.latestValue, start: Timestamp(nanosecondsSinceEpoch: cell.latestStart),
        end: Timestamp(nanosecondsSinceEpoch: cell.latestEnd))
    }
    switch style {
    case .cumulative:
      result.sum = cell.sum
    case .discrete:
      result.average = cell.sum / Double(cell.count)
      result.minimum = cell.minimum
      result.maximum = cell.maximum
    }
    return result
  }

  /// The statistics of every interval, in time order (empty intervals included).
  public var allStatistics: [IntervalStatistics] { (0..<intervals.count).map(statistics) }

  /// Equal when both cover the same intervals with the same style and hold the same statistics.
  public static func == (a: IntervalAccumulator, b: IntervalAccumulator) -> Bool {
    a.intervals == b.intervals && a.style == b.style && a.allStatistics == b.allStatistics
  }
}

extension IntervalStatistics {
  init(start: Timestamp, end: Timestamp, sampleCount: Int) {
    self.start = start
    self.end = end
    self.sampleCount = sampleCount
  }
}
