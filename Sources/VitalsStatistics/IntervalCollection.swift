import VitalsCore

/// The length of the intervals of a statistics collection: a fixed duration, or a number of calendar
/// days, weeks or months in a time zone (as the `intervalComponents` of HealthKit's
/// `HKStatisticsCollectionQuery`).
public enum IntervalLength: Hashable, Sendable, Codable {
  /// A fixed number of nanoseconds (seconds, minutes, hours, or `24 h` days that ignore daylight
  /// saving). Must be positive.
  case fixed(nanoseconds: Int64)
  /// `n` calendar days: from a local time to the same local time `n` days later, so a day across a
  /// daylight-saving change lasts 23 or 25 hours.
  case days(Int)
  /// `n` calendar weeks (7 calendar days each).
  case weeks(Int)
  /// `n` calendar months: the anchor's day of the month and local time, clamped to the month's last
  /// day (an anchor on the 31st gives Feb 28/29, Apr 30, …).
  case months(Int)

  /// A fixed length of `seconds` (rounded to the nanosecond).
  public static func seconds(_ seconds: Double) -> IntervalLength {
    .fixed(nanoseconds: Int64((seconds * 1e9).rounded()))
  }

  /// Whether the length follows the calendar (days, weeks, months) rather than the clock.
  public var isCalendar: Bool {
    if case .fixed = self { return false }
    return true
  }
}

/// A run of adjacent half-open intervals `[boundary(k), boundary(k+1))`, aligned to an anchor
/// instant, covering a range of time: the buckets a statistics collection aggregates into.
///
/// Fixed lengths are aligned to the anchor by integer arithmetic: interval `k` starts at
/// `anchor + (k₀ + k)·length` for the `k₀` that puts the range's start in the first interval.
/// Calendar lengths are computed with the calendar arithmetic of ``TimeZoneRules`` (IANA zones,
/// daylight saving included, as Foundation's Gregorian `Calendar` computes them) once, when the
/// collection is made: boundary `k` is the anchor plus `(k₀ + k)·n` days, weeks or months of local
/// time. Instants are then assigned to calendar intervals with integer operations only: a table of
/// one-hour cells from the first boundary holds, per cell, the interval its start falls in and the
/// boundary inside the cell, if any (calendar intervals are at least 23 hours long, so a cell holds
/// at most one boundary).
public struct IntervalCollection: Hashable, Sendable, Codable {
  /// The interval length.
  public let length: IntervalLength
  /// Start of the first interval.
  public let start: Timestamp
  /// Number of intervals.
  public let count: Int
  /// The `count + 1` boundaries of calendar intervals (empty for fixed lengths), in ns.
  @usableFromInline let boundaries: [Int64]
  /// Fixed lengths: the length in ns; calendar lengths: the cell length (one hour) in ns.
  @usableFromInline let step: Int64
  /// Calendar lengths: per one-hour cell from `start`, the interval holding the cell's start.
  @usableFromInline let cellInterval: [Int32]
  /// Calendar lengths: per cell, the boundary inside it (`Int64.max` when none).
  @usableFromInline let cellBoundary: [Int64]

  private static let hour: Int64 = 3_600_000_000_000

  /// The intervals of `length`, aligned to `anchor`, from the one containing `range.lowerBound` to
  /// the one containing the last instant before `range.upperBound` (at least one interval).
  ///
  /// - Parameters:
  ///   - length: interval length (positive counts and durations).
  ///   - anchor: an instant on an interval boundary: HealthKit's `anchorDate` (e.g. local midnight
  ///     of a Monday for weeks starting on Monday).
  ///   - timeZone: the zone calendar lengths are reckoned in (ignored for fixed lengths).
  ///   - range: the span of time to cover.
  public init(
    length: IntervalLength, anchor: Timestamp, timeZone: TimeZoneRules, covering range: Range<Timestamp>
  ) {
    self.length = length
    let low = range.lowerBound.nanosecondsSinceEpoch
    let high = max(range.upperBound.nanosecondsSinceEpoch, low == .max ? low : low + 1)
    switch length {
    case .fixed(let nanoseconds):
      precondition(nanoseconds > 0, "an interval length must be positive")
      // In 128 bits: the range and the anchor may lie up to 2⁶⁴ ns apart.
      let origin = Int128(anchor.nanosecondsSinceEpoch)
      let first = floorDivide(Int128(low) - origin, Int128(nanoseconds))
      let last = floorDivide(Int128(high) - 1 - origin, Int128(nanoseconds))
      start = Timestamp(nanosecondsSinceEpoch: Int64(clamping: origin + first * Int128(nanoseconds)))
      count = Int(clamping: Swift.max(1, last - first + 1))
      step = nanoseconds
      boundaries = []
      cellInterval = []
      cellBoundary = []
    case .days(let n), .weeks(let n), .months(let n):
      precondition(n > 0, "an interval length must be positive")
      let boundaries = Self.calendarBoundaries(
        length: length, anchor: anchor, timeZone: timeZone, low: low, high: high)
      self.boundaries = boundaries
      start = Timestamp(nanosecondsSinceEpoch: boundaries[0])
      count = boundaries.count - 1
      step = Self.hour
      (cellInterval, cellBoundary) = Self.cells(boundaries)
    }
  }

  /// The one-hour cell table of calendar `boundaries`: per cell from the first boundary, the interval
  /// holding the cell's start and the boundary inside the cell (`Int64.max` when none).
  private static func cells(_ boundaries: [Int64]) -> (interval: [Int32], boundary: [Int64]) {
    // The boundaries increase, so the wrapped span read as unsigned is the exact one (up to 2⁶⁴ ns).
    let span = UInt64(bitPattern: boundaries[boundaries.count - 1] &- boundaries[0])
    let cells = Int((span - 1) / UInt64(hour)) + 1
    var cellInterval = [Int32](repeating: 0, count: cells)
    var cellBoundary = [Int64](repeating: .max, count: cells)
    var interval = 0
    for cell in 0..<cells {
      // Wrapping: the offset may exceed Int64.max, the sum (at most the last boundary) does not.
      let cellStart = boundaries[0] &+ Int64(cell) &* hour
      while boundaries[interval + 1] <= cellStart { interval += 1 }
      cellInterval[cell] = Int32(interval)
      if boundaries[interval + 1] - cellStart < hour { cellBoundary[cell] = boundaries[interval + 1] }
    }
    return (cellInterval, cellBoundary)
  }

  private enum CodingKeys: CodingKey { case length, start, count, boundaries }

  /// Encodes the length, the first start, the count and calendar boundaries; the cell table is
  /// rebuilt when decoding.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(length, forKey: .length)
    try container.encode(start, forKey: .start)
    try container.encode(count, forKey: .count)
    try container.encode(boundaries, forKey: .boundaries)
  }

  /// Decodes what ``encode(to:)`` wrote, checking that the parts agree.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    length = try container.decode(IntervalLength.self, forKey: .length)
    start = try container.decode(Timestamp.self, forKey: .start)
    count = try container.decode(Int.self, forKey: .count)
    boundaries = try container.decode([Int64].self, forKey: .boundaries)
    let consistent: Bool
    switch length {
    case .fixed(let nanoseconds):
      consistent = nanoseconds > 0 && count > 0 && boundaries.isEmpty
      step = nanoseconds
      (cellInterval, cellBoundary) = ([], [])
    case .days, .weeks, .months:
      consistent =
        count > 0 && boundaries.count == count + 1 && boundaries[0] == start.nanosecondsSinceEpoch
        && zip(boundaries, boundaries.dropFirst()).allSatisfy { $0 + Self.hour <= $1 }
      step = Self.hour
      (cellInterval, cellBoundary) = consistent ? Self.cells(boundaries) : ([], [])
    }
    guard consistent else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath, debugDescription: "interval length, count and boundaries disagree"))
    }
  }

  /// One interval, `[range.lowerBound, range.upperBound)`: the scope of a single statistics query. A
  /// range longer than `Int64.max` ns (292 years) is covered by two intervals of that length.
  public init(single range: Range<Timestamp>) {
    precondition(!range.isEmpty, "the interval must not be empty")
    let length = Int64(
      clamping: Int128(range.upperBound.nanosecondsSinceEpoch)
        - Int128(range.lowerBound.nanosecondsSinceEpoch))
    self.init(
      length: .fixed(nanoseconds: length), anchor: range.lowerBound, timeZone: .utc,
      covering: range)
  }

  /// Start of interval `index` (`index == count` gives the end of the last interval).
  @inlinable
  public func boundary(_ index: Int) -> Timestamp {
    precondition(index >= 0 && index <= count, "interval \(index) is not in 0...\(count)")
    if boundaries.isEmpty {
      let (offset, overflow) = Int64(index).multipliedReportingOverflow(by: step)
      return start.advanced(byNanoseconds: overflow ? .max : offset)
    }
    return Timestamp(nanosecondsSinceEpoch: boundaries[index])
  }

  /// End of the last interval.
  @inlinable
  public var end: Timestamp { boundary(count) }

  /// The interval holding the instant `nanoseconds` (since the epoch), or `nil` outside the collection.
  @inlinable
  public func index(of nanoseconds: Int64) -> Int? {
    guard nanoseconds >= start.nanosecondsSinceEpoch else { return nil }
    // Exact as unsigned: the instant may lie up to 2⁶⁴ ns after the start.
    let offset = UInt64(bitPattern: nanoseconds &- start.nanosecondsSinceEpoch)
    let cell = Int(clamping: offset / UInt64(step))
    if boundaries.isEmpty { return cell < count ? cell : nil }
    guard cell < cellInterval.count else { return nil }
    let index = Int(cellInterval[cell]) + (nanoseconds >= cellBoundary[cell] ? 1 : 0)
    return index < count ? index : nil
  }

  /// Calendar boundaries in ns from the one at or before `low` to the first at or after `high`.
  private static func calendarBoundaries(
    length: IntervalLength, anchor: Timestamp, timeZone: TimeZoneRules, low: Int64, high: Int64
  ) -> [Int64] {
    let (months, unit, approximateDays): (Bool, Int, Double) =
      switch length {
      case .days(let n): (false, n, Double(n))
      case .weeks(let n): (false, 7 * n, Double(7 * n))
      case .months(let n): (true, n, 30.436875 * Double(n))
      case .fixed: preconditionFailure("not a calendar length")
      }
    func boundary(_ k: Int) -> Int64 {
      (months ? timeZone.adding(months: k * unit, to: anchor) : timeZone.adding(days: k * unit, to: anchor))
        .nanosecondsSinceEpoch
    }
    var k = Int(
      ((Double(low) - Double(anchor.nanosecondsSinceEpoch)) / 86_400e9 / approximateDays).rounded(.down))
    while boundary(k) > low { k -= 1 }
    while boundary(k + 1) <= low { k += 1 }
    var result = [boundary(k)]
    while result.last! < high {
      k += 1
      result.append(boundary(k))
    }
    return result
  }
}
