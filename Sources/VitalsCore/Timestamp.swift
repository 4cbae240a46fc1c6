/// An absolute instant: whole nanoseconds since the Unix epoch (1970-01-01T00:00:00Z).
///
/// This is the time in which samples meet the statistics aggregator. Inside a record, positions stay
/// exact integer sample indices; ``Timestamp/advanced(bySamples:rate:)`` converts between the two.
/// `Int64` nanoseconds cover the years 1677–2262 (`distantPast` to `distantFuture`).
///
/// Conversions never trap: a result beyond that range (a time in seconds, a sample index at a rate, an
/// offset in nanoseconds) saturates at `distantPast` or `distantFuture`. Callers that must tell
/// such a time from a real one compare with those two.
public struct Timestamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// Nanoseconds since the Unix epoch, UTC.
  public var nanosecondsSinceEpoch: Int64

  @inlinable
  public init(nanosecondsSinceEpoch: Int64) {
    self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
  }

  /// The instant `seconds` after the epoch, rounded to the nearest nanosecond; saturating at
  /// `distantPast` and `distantFuture` (the infinities included).
  ///
  /// - Precondition: `seconds` is not NaN.
  @inlinable
  public init(secondsSinceEpoch seconds: Double) {
    precondition(!seconds.isNaN, "a time in seconds must not be NaN")
    self.nanosecondsSinceEpoch = Int64(saturating: seconds * 1e9)
  }

  /// The Unix epoch; the start time of a recording whose real start is unknown.
  public static let epoch = Timestamp(nanosecondsSinceEpoch: 0)

  /// The earliest instant a timestamp holds, 1677-09-21T00:12:43.145224192Z: where conversions to
  /// earlier times saturate.
  public static let distantPast = Timestamp(nanosecondsSinceEpoch: .min)

  /// The latest instant a timestamp holds, 2262-04-11T23:47:16.854775807Z: where conversions to
  /// later times saturate.
  public static let distantFuture = Timestamp(nanosecondsSinceEpoch: .max)

  /// Seconds since the epoch (loses sub-microsecond precision for present-day dates).
  @inlinable
  public var secondsSinceEpoch: Double { Double(nanosecondsSinceEpoch) * 1e-9 }

  /// The instant `nanoseconds` later (earlier when negative), saturating at `distantPast` and
  /// `distantFuture`.
  @inlinable
  public func advanced(byNanoseconds nanoseconds: Int64) -> Timestamp {
    let (sum, overflow) = nanosecondsSinceEpoch.addingReportingOverflow(nanoseconds)
    guard overflow else { return Timestamp(nanosecondsSinceEpoch: sum) }
    return nanoseconds > 0 ? .distantFuture : .distantPast
  }

  /// The instant of sample `index` of a uniform series whose sample 0 is at `self`, sampled at
  /// `rate` Hz, rounded to the nearest nanosecond; saturating at `distantPast` and `distantFuture`.
  /// Exact for any rate that divides 1e9.
  ///
  /// - Precondition: `rate` is positive and finite.
  @inlinable
  public func advanced(bySamples index: Int64, rate: Double) -> Timestamp {
    precondition(rate > 0 && rate.isFinite, "sample rate must be positive and finite, got \(rate)")
    return advanced(byNanoseconds: Int64(saturating: Double(index) * 1e9 / rate))
  }

  /// Seconds from `self` to `other` (positive when `other` is later); exact to the nanosecond while
  /// the difference fits in `Int64` nanoseconds (292 years), to a double's precision beyond.
  @inlinable
  public func seconds(to other: Timestamp) -> Double {
    let (difference, overflow) = other.nanosecondsSinceEpoch.subtractingReportingOverflow(
      nanosecondsSinceEpoch)
    if !overflow { return Double(difference) * 1e-9 }
    return (Double(other.nanosecondsSinceEpoch) - Double(nanosecondsSinceEpoch)) * 1e-9
  }

  @inlinable
  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
  }

  public var description: String { "\(nanosecondsSinceEpoch) ns since epoch" }
}

/// `a / b` rounded towards −∞ (`b > 0`): the index of the length-`b` interval holding `a` on a grid
/// that starts at 0 (nanoseconds before the epoch included).
@inlinable
package func floorDivide<Integer: BinaryInteger>(_ a: Integer, _ b: Integer) -> Integer {
  let q = a / b
  return (a % b != 0 && a < 0) ? q - 1 : q
}

/// `later − earlier` (`earlier ≤ later`) as a `Double`: exact for any two `Int64` values, where the
/// `Int64` difference would overflow beyond `Int64.max`, then rounded to the nearest `Double`.
@inlinable
package func distance(from earlier: Int64, to later: Int64) -> Double {
  // The wrapped difference read as unsigned is the exact one.
  Double(UInt64(bitPattern: later &- earlier))
}

extension Int64 {
  /// `value` rounded to the nearest whole number (halves away from zero), saturating at `Int64.min` and
  /// `Int64.max` (the infinities included), where `Int64(_:)` would trap.
  ///
  /// - Precondition: `value` is not NaN.
  @inlinable
  public init(saturating value: Double) {
    precondition(!value.isNaN, "NaN has no integer value")
    let rounded = value.rounded()
    // 2⁶³ is the first double above Int64.max; −2⁶³ is Int64.min itself.
    if rounded >= 0x1p63 {
      self = .max
    } else if rounded < -0x1p63 {
      self = .min
    } else {
      self = Int64(rounded)
    }
  }
}
