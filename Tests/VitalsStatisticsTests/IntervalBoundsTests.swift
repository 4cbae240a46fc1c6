import Foundation
import Testing
import VitalsCore

@testable import VitalsStatistics

/// Interval collections whose range and anchor lie more than `Int64.max` ns (292 years) apart.
@Suite("Interval collection bounds")
struct IntervalBoundsTests {
  static let early = Timestamp(nanosecondsSinceEpoch: -9_000_000_000_000_000_000)  // 1684
  static let late = Timestamp(nanosecondsSinceEpoch: 9_000_000_000_000_000_000)  // 2255

  @Test("fixed intervals anchored 570 years from the samples: aligned, no overflow")
  func farAnchor() throws {
    let day: Int64 = 86_400_000_000_000
    let range = Self.early..<Self.early.advanced(byNanoseconds: 3 * day)
    let intervals = IntervalCollection(
      length: .fixed(nanoseconds: day), anchor: Self.late, timeZone: .utc, covering: range)
    // The anchor is a whole number of days from the start of the first interval.
    let start = intervals.start.nanosecondsSinceEpoch
    #expect(start <= Self.early.nanosecondsSinceEpoch && Self.early.nanosecondsSinceEpoch - start < day)
    #expect((Int128(Self.late.nanosecondsSinceEpoch) - Int128(start)) % Int128(day) == 0)
    #expect(intervals.count == 3 || intervals.count == 4)
    #expect(intervals.index(of: Self.early.nanosecondsSinceEpoch) == 0)
  }

  @Test("a single range over 570 years: two intervals of Int64.max ns; instants far from the start")
  func wideRange() throws {
    let intervals = IntervalCollection(single: Self.early..<Self.late)
    #expect(intervals.count == 2 && intervals.start == Self.early)
    #expect(intervals.boundary(1) == Self.early.advanced(byNanoseconds: .max))
    #expect(intervals.index(of: Self.early.nanosecondsSinceEpoch) == 0)
    #expect(intervals.index(of: Self.late.nanosecondsSinceEpoch - 1) == 1)
    let short = IntervalCollection(single: Self.early..<Self.early.advanced(byNanoseconds: 10))
    #expect(short.count == 1 && short.end == Self.early.advanced(byNanoseconds: 10))
    let fixed = IntervalCollection(
      length: .fixed(nanoseconds: 1_000_000_000), anchor: Self.early, timeZone: .utc,
      covering: Self.early..<Self.late)
    #expect(fixed.index(of: Self.late.nanosecondsSinceEpoch - 1) == 17_999_999_999)
  }

  @Test("calendar days over 570 years: the cell table spans more than Int64.max ns")
  func wideCalendar() throws {
    let intervals = IntervalCollection(
      length: .days(30), anchor: Self.late, timeZone: .utc, covering: Self.early..<Self.late)
    #expect(intervals.count > 6_900)
    #expect(intervals.index(of: Self.early.nanosecondsSinceEpoch) == 0)
    #expect(intervals.index(of: Self.late.nanosecondsSinceEpoch - 1) == intervals.count - 1)
  }

  @Test("a cumulative sample over 570 years is shared by its overlap, not an overflow")
  func wideSample() throws {
    let day: Int64 = 86_400_000_000_000
    let intervals = IntervalCollection(
      length: .fixed(nanoseconds: day), anchor: Self.early, timeZone: .utc,
      covering: Self.early..<Self.early.advanced(byNanoseconds: 2 * day))
    var accumulator = IntervalAccumulator(intervals: intervals, style: .cumulative)
    accumulator.add(
      start: Self.early.nanosecondsSinceEpoch, end: Self.late.nanosecondsSinceEpoch, value: 1.8e19)
    // One day's share of 1.8e19 over 1.8e19 ns.
    let sum = try #require(accumulator.statistics(0).sum)
    #expect(abs(sum - Double(day)) < 1e-6 * Double(day))
  }
}
