/// A quantity that changes over a recording: piecewise linear between breakpoints, constant before the
/// first and after the last. Heart rate (bpm) and cadence (steps/min) use it, e.g. an exercise ramp
/// `Profile([(0, 70), (300, 150)])`.
public struct Profile: Sendable, Hashable, Codable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
  /// Breakpoint times, seconds from the record's start, strictly increasing.
  public private(set) var times: [Double]
  /// Values at the breakpoints.
  public private(set) var values: [Double]

  /// Linear interpolation through `points` (time in seconds, value), given in increasing time.
  public init(_ points: [(time: Double, value: Double)]) {
    precondition(!points.isEmpty, "a profile needs at least one point")
    for index in points.indices.dropFirst() {
      precondition(points[index].time > points[index - 1].time, "profile times must increase")
    }
    precondition(points.allSatisfy { $0.value.isFinite && $0.time.isFinite }, "profile points are finite")
    times = points.map(\.time)
    values = points.map(\.value)
  }

  /// A constant value.
  public init(constant value: Double) { self.init([(0, value)]) }

  /// A constant profile: `let rate: Profile = 72.5`.
  public init(floatLiteral value: Double) { self.init(constant: value) }

  /// A constant profile: `let rate: Profile = 72`.
  public init(integerLiteral value: Int) { self.init(constant: Double(value)) }

  /// The value at `time` seconds.
  @inlinable
  public func value(at time: Double) -> Double {
    if time <= times[0] || times.count == 1 { return values[0] }
    if time >= times[times.count - 1] { return values[values.count - 1] }
    var low = 0
    var high = times.count - 1
    while high - low > 1 {
      let middle = (low + high) / 2
      if times[middle] <= time { low = middle } else { high = middle }
    }
    let fraction = (time - times[low]) / (times[high] - times[low])
    return values[low] + fraction * (values[high] - values[low])
  }

  /// The smallest value the profile takes.
  public var minimum: Double { values.min()! }
}
