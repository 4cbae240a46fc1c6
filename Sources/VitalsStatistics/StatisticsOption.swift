import VitalsCore

/// A statistic of the samples in an interval, as HealthKit's `HKStatisticsOptions`.
public enum StatisticsOption: String, CaseIterable, Sendable, Codable {
  /// The plain mean of the values of the samples assigned to the interval (each sample weighs the
  /// same, whatever its duration), as HealthKit's `averageQuantity()`. Discrete types only.
  case discreteAverage
  /// The smallest value assigned to the interval. Discrete types only.
  case discreteMin
  /// The largest value assigned to the interval. Discrete types only.
  case discreteMax
  /// The value of the sample with the latest end (ties: the later start, then the larger value).
  case mostRecent
  /// The sum of the values in the interval, a sample spanning boundaries counted in proportion to its
  /// overlap. Cumulative types only.
  case cumulativeSum
  /// The total time, in seconds, covered by the samples counted in the interval (summed, so
  /// overlapping samples of one source each count).
  case duration

  /// Whether HealthKit allows the option for a type of `style`: averages, minima and maxima need
  /// discrete types, sums cumulative ones; `mostRecent` and `duration` go with both.
  public func isValid(for style: AggregationStyle) -> Bool {
    switch self {
    case .discreteAverage, .discreteMin, .discreteMax: style == .discrete
    case .cumulativeSum: style == .cumulative
    case .mostRecent, .duration: true
    }
  }

  /// A distinct bit per option, for sets of options kept in a byte.
  var bit: UInt8 {
    switch self {
    case .discreteAverage: 1
    case .discreteMin: 2
    case .discreteMax: 4
    case .mostRecent: 8
    case .cumulativeSum: 16
    case .duration: 32
    }
  }

  /// The option HealthKit's Health app shows for a type: the sum for cumulative types, the average
  /// for discrete ones.
  public static func defaultOption(for style: AggregationStyle) -> StatisticsOption {
    style == .cumulative ? .cumulativeSum : .discreteAverage
  }
}

/// The statistics of one interval.
///
/// Every statistic is `nil` for an interval no sample counts in (HealthKit returns no quantity for
/// empty intervals); ``minimum`` and ``maximum`` are also `nil` for cumulative types.
public struct IntervalStatistics: Hashable, Sendable, Codable {
  /// Start of the interval.
  public var start: Timestamp
  /// End of the interval (exclusive).
  public var end: Timestamp
  /// Samples counted in the interval (a cumulative sample spanning several intervals counts in each).
  public var sampleCount: Int
  /// Mean of the values (discrete types).
  public var average: Double?
  /// Smallest value (discrete types).
  public var minimum: Double?
  /// Largest value (discrete types).
  public var maximum: Double?
  /// Sum of the values (cumulative types; the proportional shares of boundary-spanning samples).
  public var sum: Double?
  /// The most recent sample's value, start and end.
  public var mostRecent: MostRecent?
  /// Seconds covered by the counted samples (see ``StatisticsOption/duration``).
  public var duration: Double?

  /// The most recent sample of an interval.
  public struct MostRecent: Hashable, Sendable, Codable {
    /// Its value.
    public var value: Double
    /// Its start.
    public var start: Timestamp
    /// Its end.
    public var end: Timestamp
  }

  /// The statistic `option` selects, or `nil` when the interval has none.
  public func value(_ option: StatisticsOption) -> Double? {
    switch option {
    case .discreteAverage: average
    case .discreteMin: minimum
    case .discreteMax: maximum
    case .mostRecent: mostRecent?.value
    case .cumulativeSum: sum
    case .duration: duration
    }
  }
}
