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
public struct IntervalAccumulator: Hashable, Sendable, Codable {
  public let intervals: IntervalCollection
  public let style: AggregationStyle
  @usableFromInline var counts: [Int]
  @usableFromInline var sums: [Double]
  @usableFromInline var minima: [Double]
  @usableFromInline var maxima: [Double]
  @usableFromInline var durations: [Int64]
  @usableFromInline var latestEnds: [Int64]
  @usableFromInline var latestStarts: [Int64]
  @usableFromInline var latestValues: [Double]

  /// Empty statistics over `intervals` for a type aggregated as `style`.
  public init(intervals: IntervalCollection, style: AggregationStyle) {
    self.intervals = intervals
    self.style = style
    let n = intervals.count
    counts = Array(repeating: 0, count: n)
    sums = Array(repeating: 0, count: n)
    minima = Array(repeating: .greatestFiniteMagnitude, count: n)
    maxima = Array(repeating: -.greatestFiniteMagnitude, count: n)
    durations = Array(repeating: 0, count: n)
    latestEnds = Array(repeating: .min, count: n)
    latestStarts = Array(repeating: .min, count: n)
    latestValues = Array(repeating: -.greatestFiniteMagnitude, count: n)
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
    // The current interval [low, high) and its statistics, written back when a sample leaves it.
    var current = -1
    var low = Int64.max
    var high = Int64.min
    var n = 0
    var sum = 0.0
    var minimum = Double.greatestFiniteMagnitude
    var maximum = -Double.greatestFiniteMagnitude
    var duration: Int64 = 0
    var latestEnd = Int64.min
    var latestStart = Int64.min
    var latestValue = -Double.greatestFiniteMagnitude
    let cumulative = style == .cumulative
    for i in 0..<starts.count {
      let start = starts[i]
      let end = ends[i]
      let value = values[i]
      if !value.isFinite { continue }
      if !(start >= low && start < high && (!cumulative || end <= high)) {
        if current >= 0 {
          counts[current] = n
          sums[current] = sum
          minima[current] = minimum
          maxima[current] = maximum
          durations[current] = duration
          latestEnds[current] = latestEnd
          latestStarts[current] = latestStart
          latestValues[current] = latestValue
          current = -1
          (low, high) = (.max, .min)
        }
        if cumulative {
          let k = intervals.index(of: start)
          if k == nil || end > intervals.boundary(k! + 1).nanosecondsSinceEpoch {
            addSpanning(start: start, end: end, value: value)
            continue
          }
        }
        guard let k = intervals.index(of: start) else { continue }
        current = k
        low = intervals.boundary(k).nanosecondsSinceEpoch
        high = intervals.boundary(k + 1).nanosecondsSinceEpoch
        n = counts[k]
        sum = sums[k]
        minimum = minima[k]
        maximum = maxima[k]
        duration = durations[k]
        latestEnd = latestEnds[k]
        latestStart = latestStarts[k]
        latestValue = latestValues[k]
      }
      n += 1
      sum += value
      minimum = Swift.min(minimum, value)
      maximum = Swift.max(maximum, value)
      duration &+= end &- start
      if end > latestEnd
        || (end == latestEnd && (start > latestStart || (start == latestStart && value > latestValue)))
      {
        latestEnd = end
        latestStart = start
        latestValue = value
      }
    }
    if current >= 0 {
      counts[current] = n
      sums[current] = sum
      minima[current] = minimum
      maxima[current] = maximum
      durations[current] = duration
      latestEnds[current] = latestEnd
      latestStarts[current] = latestStart
      latestValues[current] = latestValue
    }
  }

  /// A cumulative sample that is not inside one interval: shared by overlap.
  @usableFromInline
  mutating func addSpanning(start: Int64, end: Int64, value: Double) {
    let first = intervals.start.nanosecondsSinceEpoch
    let last = intervals.end.nanosecondsSinceEpoch
    if let k = intervals.index(of: start) { noteLatest(k, start: start, end: end, value: value) }
    guard end > start else { return }
    let from = Swift.max(start, first)
    let to = Swift.min(end, last)
    guard from < to, var k = intervals.index(of: from) else { return }
    let length = Double(end - start)
    while k < intervals.count {
      let low = Swift.max(from, intervals.boundary(k).nanosecondsSinceEpoch)
      let high = Swift.min(to, intervals.boundary(k + 1).nanosecondsSinceEpoch)
      guard low < high else { break }
      counts[k] += 1
      sums[k] += value * (Double(high - low) / length)
      durations[k] += high - low
      k += 1
    }
  }

  @usableFromInline
  mutating func noteLatest(_ k: Int, start: Int64, end: Int64, value: Double) {
    if end > latestEnds[k]
      || (end == latestEnds[k]
        && (start > latestStarts[k] || (start == latestStarts[k] && value > latestValues[k])))
    {
      latestEnds[k] = end
      latestStarts[k] = start
      latestValues[k] = value
    }
  }

  /// Adds `other`'s samples: afterwards `self` holds the statistics of both sets of samples.
  /// Both must cover the same intervals with the same aggregation style.
  public mutating func merge(_ other: IntervalAccumulator) {
    precondition(
      intervals == other.intervals && style == other.style, "only partials of the same intervals merge")
    for k in 0..<intervals.count where other.counts[k] > 0 || other.latestEnds[k] != .min {
      counts[k] += other.counts[k]
      sums[k] += other.sums[k]
      minima[k] = Swift.min(minima[k], other.minima[k])
      maxima[k] = Swift.max(maxima[k], other.maxima[k])
      durations[k] += other.durations[k]
      noteLatest(k, start: other.latestStarts[k], end: other.latestEnds[k], value: other.latestValues[k])
    }
  }

  /// The statistics of interval `index`.
  public func statistics(_ index: Int) -> IntervalStatistics {
    var result = IntervalStatistics(
      start: intervals.boundary(index), end: intervals.boundary(index + 1), sampleCount: counts[index])
    guard counts[index] > 0 else { return result }
    result.duration = Double(durations[index]) / 1e9
    if latestEnds[index] != .min {
      result.mostRecent = .init(
        value: latestValues[index], start: Timestamp(nanosecondsSinceEpoch: latestStarts[index]),
        end: Timestamp(nanosecondsSinceEpoch: latestEnds[index]))
    }
    switch style {
    case .cumulative:
      result.sum = sums[index]
    case .discrete:
      result.average = sums[index] / Double(counts[index])
      result.minimum = minima[index]
      result.maximum = maxima[index]
    }
    return result
  }

  /// The statistics of every interval, in time order (empty intervals included).
  public var allStatistics: [IntervalStatistics] { (0..<intervals.count).map(statistics) }
}

extension IntervalStatistics {
  init(start: Timestamp, end: Timestamp, sampleCount: Int) {
    self.start = start
    self.end = end
    self.sampleCount = sampleCount
  }
}
