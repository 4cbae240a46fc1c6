/// An absolute instant: whole nanoseconds since the Unix epoch (1970-01-01T00:00:00Z).
///
/// This is the time in which samples meet the statistics aggregator. Inside a record, positions stay
/// exact integer sample indices; ``Timestamp/advanced(bySamples:rate:)`` converts between the two.
/// `Int64` nanoseconds cover the years 1677–2262.
public struct Timestamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// Nanoseconds since the Unix epoch, UTC.
  public var nanosecondsSinceEpoch: Int64

  @inlinable
  public init(nanosecondsSinceEpoch: Int64) {
    self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
  }

  /// The instant `seconds` after the epoch, rounded to the nearest nanosecond.
  @inlinable
  public init(secondsSinceEpoch seconds: Double) {
    self.nanosecondsSinceEpoch = Int64((seconds * 1e9).rounded())
  }

  /// The Unix epoch; the start time of a recording whose real start is unknown.
  public static let epoch = Timestamp(nanosecondsSinceEpoch: 0)

  /// Seconds since the epoch (loses sub-microsecond precision for present-day dates).
  @inlinable
  public var secondsSinceEpoch: Double { Double(nanosecondsSinceEpoch) * 1e-9 }

  /// The instant `nanoseconds` later (earlier when negative).
  @inlinable
  public func advanced(byNanoseconds nanoseconds: Int64) -> Timestamp {
    Timestamp(nanosecondsSinceEpoch: nanosecondsSinceEpoch + nanoseconds)
  }

  /// The instant of sample `index` of a uniform series whose sample 0 is at `self`, sampled at
  /// `rate` Hz, rounded to the nearest nanosecond. Exact for any rate that divides 1e9.
  @inlinable
  public func advanced(bySamples index: Int64, rate: Double) -> Timestamp {
    precondition(rate > 0 && rate.isFinite, "sample rate must be positive and finite, got \(rate)")
    let nanos = (Double(index) * 1e9 / rate).rounded()
    return Timestamp(nanosecondsSinceEpoch: nanosecondsSinceEpoch + Int64(nanos))
  }

  /// Seconds from `self` to `other` (positive when `other` is later).
  @inlinable
  public func seconds(to other: Timestamp) -> Double {
    Double(other.nanosecondsSinceEpoch - nanosecondsSinceEpoch) * 1e-9
  }

  @inlinable
  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
  }

  public var description: String { "\(nanosecondsSinceEpoch) ns since epoch" }
}

/// `a / b` rounded towards −∞ (`b > 0`): the index of the length-`b` interval holding `a` on a grid
/// that starts at 0 (nanoseconds before the epoch included).
package func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
  let q = a / b
  return (a % b != 0 && a < 0) ? q - 1 : q
}
