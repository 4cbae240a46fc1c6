import VitalsCore

/// The partial statistics of samples over an ``IntervalCollection``: a mergeable value, so that
/// shards of the samples aggregated on any threads, processes or machines combine into the
/// statistics of all of them.
///
/// Per interval it keeps the sample count and the sum of the values, and, as ``options`` ask, the
/// minimum and maximum (discrete types), the summed duration in nanoseconds and the most recent
/// sample. Which interval a sample counts in:
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
/// fastest when they come in time order: it finds the run of samples that stay in one interval by a
/// galloping search on the starts, checks the run block by block (every start inside the interval,
/// cumulative samples ending inside it, every value finite) with branch-free SIMD reductions that
/// also give the block's sum, and reads the other columns only for the statistics ``options`` keep.
/// A block that fails the check (samples out of order, spanning a boundary, NaN or infinite) goes
/// through the sample-by-sample path, which gives the same statistics; sums of blocks are added in a
/// different order than one by one, so they agree with it up to floating-point rounding. Keeping the
/// most recent sample takes the sample-by-sample path throughout (a comparison chain per sample); so
/// the fast path is for queries that do not ask for ``StatisticsOption/mostRecent``.
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
  /// The statistics kept (those valid for ``style``); ``IntervalStatistics`` leaves the others `nil`.
  /// The sample count is always kept, and the sum too (it gives the average and the sum).
  public var options: Set<StatisticsOption> { Set(StatisticsOption.allCases.filter(keeps)) }
  /// ``options`` as bits (``StatisticsOption/bit``): compared on every merge, so kept small.
  let kept: UInt8
  /// The collection index of `cells[0]`.
  var base = 0
  /// The statistics of intervals `base..<base + cells.count`.
  var cells: [Cell] = []

  /// The running statistics of one interval.
  struct Cell: Equatable, Sendable, Codable {
    var count = 0
    var sum = 0.0
    var minimum = Double.greatestFiniteMagnitude
    var maximum = -Double.greatestFiniteMagnitude
    var duration: Int64 = 0
    var latestEnd = Int64.min
    var latestStart = Int64.min
    var latestValue = -Double.greatestFiniteMagnitude

    /// Takes `(start, end, value)` as the most recent sample when it is more recent than the one held.
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

  /// What `add` computes beyond counts and sums, read once per call from ``options``.
  struct Work {
    var extremes: Bool
    var duration: Bool
    var latest: Bool
  }

  /// Empty statistics over `intervals` for a type aggregated as `style`, keeping `options` (default:
  /// all; options that do not apply to `style`, see ``StatisticsOption/isValid(for:)``, are left
  /// out). Keeping fewer makes aggregation faster: a discrete average needs the starts and values
  /// only, a cumulative sum the starts, ends and values.
  public init(
    intervals: IntervalCollection, style: AggregationStyle,
    options: Set<StatisticsOption> = Set(StatisticsOption.allCases)
  ) {
    self.intervals = intervals
    self.style = style
    kept = options.reduce(0) { $1.isValid(for: style) ? $0 | $1.bit : $0 }
  }

  /// Whether `option` is kept.
  func keeps(_ option: StatisticsOption) -> Bool { kept & option.bit != 0 }

  private enum CodingKeys: String, CodingKey { case intervals, style, kept, base, cells }

  /// Decodes the statistics `encode(to:)` wrote; throws `DecodingError.dataCorrupted` when the cells
  /// held are not intervals of the collection or the options kept are not valid for the style, so
  /// that a damaged partial is an error rather than a state later operations cannot take.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    intervals = try container.decode(IntervalCollection.self, forKey: .intervals)
    style = try container.decode(AggregationStyle.self, forKey: .style)
    kept = try container.decode(UInt8.self, forKey: .kept)
    base = try container.decode(Int.self, forKey: .base)
    cells = try container.decode([Cell].self, forKey: .cells)
    let valid = StatisticsOption.allCases.reduce(UInt8(0)) { $1.isValid(for: style) ? $0 | $1.bit : $0 }
    guard kept & ~valid == 0, base >= 0, cells.count <= intervals.count - base else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "cells \(base)..<\(base + cells.count) of \(intervals.count) intervals, "
            + "options \(kept) for \(style)"))
    }
  }

  var work: Work {
    Work(
      extremes: keeps(.discreteMin) || keeps(.discreteMax), duration: keeps(.duration),
      latest: keeps(.mostRecent))
  }

  /// Makes interval `k` part of the storage; returns its position in ``cells``.
  mutating func slot(_ k: Int) -> Int {
    if cells.isEmpty {
      base = k
      cells.append(Cell())
    } else if k < base {
      // Grow downwards by at least the held run, so intervals met in reverse order cost amortized O(1).
      let newBase = Swift.max(0, Swift.min(k, base - cells.count))
      cells.insert(contentsOf: repeatElement(Cell(), count: base - newBase), at: 0)
      base = newBase
    } else if k >= base + cells.count {
      cells.append(contentsOf: repeatElement(Cell(), count: k + 1 - base - cells.count))
    }
    return k - base
  }

  /// Adds one sample: `value` over `[start, end)` (ns since the epoch, `start <= end`).
  public mutating func add(start: Int64, end: Int64, value: Double) {
    withUnsafePointer(to: start) { s in
      withUnsafePointer(to: end) { e in
        withUnsafePointer(to: value) { v in addEach(0..<1, s, e, v, work) }
      }
    }
  }

  /// Samples a block check covers at most: three columns of it stay in the L1 cache for the passes
  /// over the block that the options need.
  static let blockLength = 1024

  /// Adds samples given as columns of equal length: starts and ends in ns since the epoch
  /// (`start <= end` each), values in the unit the caller aggregates in.
  public mutating func add(
    starts: UnsafeBufferPointer<Int64>, ends: UnsafeBufferPointer<Int64>, values: UnsafeBufferPointer<Double>
  ) {
    precondition(starts.count == ends.count && starts.count == values.count, "columns of equal length")
    guard let s = starts.baseAddress, let e = ends.baseAddress, let v = values.baseAddress else { return }
    let count = starts.count
    let work = work
    if work.latest {
      // The most recent sample takes a comparison chain through every sample (end, then start, then
      // value): the sample-by-sample path is as fast on AVX2 and faster on baseline x86-64, where
      // 64-bit SIMD comparisons are emulated.
      addEach(0..<count, s, e, v, work)
      return
    }
    addRuns(count, s, e, v, work)
  }

  /// Adds samples `0..<count` of the columns a run at a time: the samples from i on that lie in the
  /// interval of sample i go through `addBlock` in blocks,
  /// the others (and blocks it refuses) sample by sample. The aggregation hot loop, inlined whole.
  @inline(__always)
  private mutating func addRuns(
    _ count: Int, _ s: UnsafePointer<Int64>, _ e: UnsafePointer<Int64>, _ v: UnsafePointer<Double>,
    _ work: Work
  ) {
    let cumulative = style == .cumulative
    // Samples per ns in the last run, for guessing where the next ends.
    var perNanosecond = 0.0
    var i = 0
    while i < count {
      // The interval of sample i, when the sample lies inside one.
      guard v[i].isFinite, let k = intervals.index(of: s[i]) else {
        addEach(i..<(i + 1), s, e, v, work)
        i += 1
        continue
      }
      let low = intervals.boundary(k).nanosecondsSinceEpoch
      let high = intervals.boundary(k + 1).nanosecondsSinceEpoch
      // Whether sample j leaves the interval; false for i.
      func leaves(_ j: Int) -> Bool { s[j] >= high || s[j] < low || (cumulative && e[j] > high) }
      if leaves(i) {
        addEach(i..<(i + 1), s, e, v, work)
        i += 1
        continue
      }
      // The end of the run: the first sample after i that leaves, found by a galloping search from a
      // guess (the sample density of the previous run times the time left in the interval), as if the
      // samples were in time order (the blocks are checked, so any order is handled correctly). Probing
      // near the run's end rather than far ahead of i saves cache misses.
      var guess = i + 1
      let expected = perNanosecond * Double(high &- s[i])
      if expected >= 1 { guess = i + Int(Swift.min(expected, Double(count - i))) }
      var inside = i
      var outside = count
      var step = 1
      if guess < count && !leaves(guess) {
        inside = guess
        while inside + step < count {
          if leaves(inside + step) {
            outside = inside + step
            break
          }
          inside += step
          step *= 2
        }
      } else {
        outside = Swift.min(guess, count)
        while outside - step > inside {
          if !leaves(outside - step) {
            inside = outside - step
            break
          }
          outside -= step
          step *= 2
        }
      }
      while outside - inside > 1 {
        let middle = inside + (outside - inside) / 2
        if leaves(middle) { outside = middle } else { inside = middle }
      }
      perNanosecond = Double(outside - i) / Double(high &- s[i])
      var position = slot(k)
      var cell = cells[position]
      var p = i
      while p < outside {
        let q = Swift.min(outside, p + Self.blockLength)
        if !Self.addBlock(
          s + p, e + p, v + p, count: q - p, low: low, high: high, cumulative: cumulative, work, to: &cell)
        {
          cells[position] = cell
          addEach(p..<q, s, e, v, work)
          position = slot(k)
          cell = cells[position]
        }
        p = q
      }
      cells[position] = cell
      i = outside
    }
  }

  /// Adds `count` samples that all lie in the interval `[low, high)` to `cell` (not the most recent
  /// sample: ``add(starts:ends:values:)`` takes the sample-by-sample path for it): returns `false`, leaving
  /// `cell` as it was, when a start is outside it, a cumulative sample ends after `high` or before its
  /// start, or a value is not finite (shown by a non-finite sum).
  ///
  /// The check is branch-free: with wrapping differences, `(start − low) | (high − 1 − start)` is
  /// negative exactly when the start is outside `[low, high)` (both differences are non-negative and
  /// add up to the interval length only inside it), and likewise `(high − end) | (end − start)` for the
  /// end; the OR of all of them is negative when any sample is outside.
  static func addBlock(
    _ s: UnsafePointer<Int64>, _ e: UnsafePointer<Int64>, _ v: UnsafePointer<Double>, count: Int,
    low: Int64, high: Int64, cumulative: Bool, _ work: Work, to cell: inout Cell
  ) -> Bool {
    typealias Times = SIMD4<Int64>
    typealias Values = SIMD4<Double>
    let lanes = Times.scalarCount
    let vectors = count / lanes * lanes
    let starts = UnsafeRawPointer(s)
    let ends = UnsafeRawPointer(e)
    let values = UnsafeRawPointer(v)
    var sums = Values()
    var outsideLanes = Times()
    let lows = Times(repeating: low)
    let lasts = Times(repeating: high - 1)
    if cumulative {
      let highs = Times(repeating: high)
      for i in stride(from: 0, to: vectors, by: lanes) {
        let start = starts.loadUnaligned(fromByteOffset: i &* 8, as: Times.self)
        let end = ends.loadUnaligned(fromByteOffset: i &* 8, as: Times.self)
        outsideLanes |= (start &- lows) | (lasts &- start) | (highs &- end) | (end &- start)
        sums += values.loadUnaligned(fromByteOffset: i &* 8, as: Values.self)
      }
    } else {
      for i in stride(from: 0, to: vectors, by: lanes) {
        let start = starts.loadUnaligned(fromByteOffset: i &* 8, as: Times.self)
        outsideLanes |= (start &- lows) | (lasts &- start)
        sums += values.loadUnaligned(fromByteOffset: i &* 8, as: Values.self)
      }
    }
    var outside = outsideLanes[0] | outsideLanes[1] | outsideLanes[2] | outsideLanes[3]
    var sum = sums.sum()
    for i in vectors..<count {
      outside |= (s[i] &- low) | (high &- 1 &- s[i])
      if cumulative { outside |= (high &- e[i]) | (e[i] &- s[i]) }
      sum += v[i]
    }
    guard outside >= 0 && sum.isFinite else { return false }
    cell.count += count
    cell.sum += sum
    if work.extremes {
      var minima = Values(repeating: cell.minimum)
      var maxima = Values(repeating: cell.maximum)
      for i in stride(from: 0, to: vectors, by: lanes) {
        let value = values.loadUnaligned(fromByteOffset: i &* 8, as: Values.self)
        minima = minima.replacing(with: value, where: value .< minima)
        maxima = maxima.replacing(with: value, where: value .> maxima)
      }
      cell.minimum = minima.min()
      cell.maximum = maxima.max()
      for i in vectors..<count {
        cell.minimum = Swift.min(cell.minimum, v[i])
        cell.maximum = Swift.max(cell.maximum, v[i])
      }
    }
    if work.duration {
      var durations = Times()
      for i in stride(from: 0, to: vectors, by: lanes) {
        durations &+=
          ends.loadUnaligned(fromByteOffset: i &* 8, as: Times.self)
          &- starts.loadUnaligned(fromByteOffset: i &* 8, as: Times.self)
      }
      cell.duration &+= durations.wrappedSum()
      for i in vectors..<count { cell.duration &+= e[i] &- s[i] }
    }
    return true
  }

  /// Adds samples `range` of the columns one by one: the path for samples out of time order, spanning
  /// boundaries, outside the collection or not finite, and the reference the block path is tested
  /// against. It keeps the current interval's statistics in registers and looks up an interval only
  /// when a sample leaves the current one.
  mutating func addEach(
    _ range: Range<Int>, _ s: UnsafePointer<Int64>, _ e: UnsafePointer<Int64>, _ v: UnsafePointer<Double>,
    _ work: Work
  ) {
    let cumulative = style == .cumulative
    // The current interval [low, high), its position in `cells` and its statistics, written back
    // when a sample leaves it.
    var current = -1
    var low = Int64.max
    var high = Int64.min
    var cell = Cell()
    for i in range {
      let start = s[i]
      let end = e[i]
      let value = v[i]
      if !value.isFinite { continue }
      if !(start >= low && start < high && (!cumulative || end <= high)) {
        if current >= 0 {
          cells[current] = cell
          current = -1
          (low, high) = (.max, .min)
        }
        let k = intervals.index(of: start)
        if cumulative && (k == nil || end > intervals.boundary(k! + 1).nanosecondsSinceEpoch) {
          addSpanning(start: start, end: end, value: value, work)
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
      if work.extremes {
        cell.minimum = Swift.min(cell.minimum, value)
        cell.maximum = Swift.max(cell.maximum, value)
      }
      if work.duration { cell.duration &+= end &- start }
      if work.latest { cell.noteLatest(start: start, end: end, value: value) }
    }
    if current >= 0 { cells[current] = cell }
  }

  /// A cumulative sample that is not inside one interval: shared by overlap.
  mutating func addSpanning(start: Int64, end: Int64, value: Double, _ work: Work) {
    if work.latest, let k = intervals.index(of: start) {
      cells[slot(k)].noteLatest(start: start, end: end, value: value)
    }
    guard end > start else { return }
    let from = Swift.max(start, intervals.start.nanosecondsSinceEpoch)
    let to = Swift.min(end, intervals.end.nanosecondsSinceEpoch)
    guard from < to, var k = intervals.index(of: from) else { return }
    let length = distance(from: start, to: end)
    while k < intervals.count {
      let low = Swift.max(from, intervals.boundary(k).nanosecondsSinceEpoch)
      let high = Swift.min(to, intervals.boundary(k + 1).nanosecondsSinceEpoch)
      guard low < high else { break }
      let j = slot(k)
      cells[j].count += 1
      cells[j].sum += value * (distance(from: low, to: high) / length)
      cells[j].duration &+= high - low
      k += 1
    }
  }

  /// Adds `other`'s samples: afterwards `self` holds the statistics of both sets of samples.
  /// Both must cover the same intervals with the same aggregation style and options. Costs time in
  /// proportion to the run of intervals `other` holds.
  public mutating func merge(_ other: IntervalAccumulator) {
    precondition(
      intervals == other.intervals && style == other.style && kept == other.kept,
      "only partials of the same intervals, style and options merge")
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

  /// These statistics over `intervals` instead: for merging partials whose samples spanned different
  /// times, each aggregated over the intervals covering its own samples. `intervals` must hold every
  /// interval this partial touched at the same boundaries (a longer run of the same length, anchor and
  /// zone); a partial over a single interval also moves onto any single interval containing it (its one
  /// cell). Nil when neither holds.
  public func rebased(onto intervals: IntervalCollection) -> IntervalAccumulator? {
    var moved = IntervalAccumulator(intervals: intervals, style: style, options: options)
    guard !cells.isEmpty else { return moved }
    let first = self.intervals.boundary(base)
    let last = self.intervals.boundary(base + cells.count)
    if self.intervals.count == 1 && intervals.count == 1 {
      guard intervals.start <= first && last <= intervals.end else { return nil }
      moved.cells = cells
      return moved
    }
    guard let index = intervals.index(of: first.nanosecondsSinceEpoch), intervals.boundary(index) == first,
      index + cells.count <= intervals.count, intervals.boundary(index + cells.count) == last
    else { return nil }
    moved.base = index
    moved.cells = cells
    return moved
  }

  /// The statistics of interval `index` (of the collection); those ``options`` leave out are `nil`.
  public func statistics(_ index: Int) -> IntervalStatistics {
    precondition(index >= 0 && index < intervals.count, "interval \(index) is not in 0..<\(intervals.count)")
    let cell = cells.indices.contains(index - base) ? cells[index - base] : Cell()
    var result = IntervalStatistics(
      start: intervals.boundary(index), end: intervals.boundary(index + 1), sampleCount: cell.count)
    guard cell.count > 0 else { return result }
    if keeps(.duration) { result.duration = Double(cell.duration) / 1e9 }
    if keeps(.mostRecent) && cell.latestEnd != .min {
      result.mostRecent = .init(
        value: cell.latestValue, start: Timestamp(nanosecondsSinceEpoch: cell.latestStart),
        end: Timestamp(nanosecondsSinceEpoch: cell.latestEnd))
    }
    if keeps(.cumulativeSum) { result.sum = cell.sum }
    if keeps(.discreteAverage) { result.average = cell.sum / Double(cell.count) }
    if keeps(.discreteMin) { result.minimum = cell.minimum }
    if keeps(.discreteMax) { result.maximum = cell.maximum }
    return result
  }

  /// The statistics of every interval, in time order (empty intervals included).
  public var allStatistics: [IntervalStatistics] { (0..<intervals.count).map(statistics) }

  /// Equal when both cover the same intervals with the same style and options and hold the same
  /// statistics.
  public static func == (a: IntervalAccumulator, b: IntervalAccumulator) -> Bool {
    a.intervals == b.intervals && a.style == b.style && a.kept == b.kept
      && a.allStatistics == b.allStatistics
  }
}

extension IntervalStatistics {
  init(start: Timestamp, end: Timestamp, sampleCount: Int) {
    self.start = start
    self.end = end
    self.sampleCount = sampleCount
  }
}
