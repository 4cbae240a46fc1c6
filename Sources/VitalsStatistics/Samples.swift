import VitalsCore

/// One HealthKit quantity sample: a value of a type, in a unit, over a span of absolute time, from a
/// source (the app or device that recorded it), as `HKQuantitySample`.
///
/// `end` is never before `start`; a sample at a single instant has `start == end`. Statistics take
/// the sample's span as half-open, `[start, end)`.
public struct QuantitySample: Hashable, Sendable, Codable {
  /// What was measured.
  public var type: QuantityType
  /// The value in ``unit`` (NaN is kept; statistics skip NaN values).
  public var value: Double
  /// The unit of ``value``.
  public var unit: HealthUnit
  /// When the measurement starts.
  public var start: Timestamp
  /// When it ends (not before ``start``).
  public var end: Timestamp
  /// The name of the app or device that recorded the sample (`iPhone`, `Apple Watch`, `Vitals`).
  public var source: String
  /// A description of the recording device, if known (Apple writes `<<HKDevice: …>, name:…>`).
  public var device: String?
  /// Extra key–value pairs (HealthKit's `metadata`, an export's `MetadataEntry` elements).
  public var metadata: [String: String]

  /// A sample; `start` must not be after `end`.
  public init(
    type: QuantityType, value: Double, unit: HealthUnit, start: Timestamp, end: Timestamp,
    source: String, device: String? = nil, metadata: [String: String] = [:]
  ) {
    precondition(start <= end, "a sample cannot end before it starts")
    self.type = type
    self.value = value
    self.unit = unit
    self.start = start
    self.end = end
    self.source = source
    self.device = device
    self.metadata = metadata
  }

  /// The same sample with its value in `unit`, or `nil` when the units cannot be converted.
  public func converted(to unit: HealthUnit) -> QuantitySample? {
    guard let converted = self.unit.convert(value, to: unit) else { return nil }
    var sample = self
    sample.value = converted
    sample.unit = unit
    return sample
  }
}

/// One HealthKit category sample: an event or state without a numeric value over a span of time
/// (`highHeartRateEvent`, `lowHeartRateEvent`, `irregularHeartRhythmEvent`, `sleepAnalysis`), as
/// `HKCategorySample`.
public struct CategorySample: Hashable, Sendable, Codable {
  /// What happened.
  public var type: CategoryType
  /// HealthKit's category value where the type has one (`HKCategoryValueSleepAnalysisAsleepCore`),
  /// else `nil` (events such as `irregularHeartRhythmEvent` are `HKCategoryValueNotApplicable`).
  public var value: String?
  /// When the event starts.
  public var start: Timestamp
  /// When it ends (not before ``start``).
  public var end: Timestamp
  /// The app or device that recorded it.
  public var source: String
  /// A description of the recording device, if known.
  public var device: String?
  /// Extra key–value pairs.
  public var metadata: [String: String]

  /// An event; `start` must not be after `end`.
  public init(
    type: CategoryType, value: String? = nil, start: Timestamp, end: Timestamp, source: String,
    device: String? = nil, metadata: [String: String] = [:]
  ) {
    precondition(start <= end, "a sample cannot end before it starts")
    self.type = type
    self.value = value
    self.start = start
    self.end = end
    self.source = source
    self.device = device
    self.metadata = metadata
  }
}

/// A sample of any kind, as read from an Apple Health export (quantities and categories) or a samples
/// file.
public enum HealthSample: Hashable, Sendable {
  case quantity(QuantitySample)
  case category(CategorySample)
  case heartbeatSeries(HeartbeatSeriesSample)
  case electrocardiogram(ElectrocardiogramSample)

  /// When the sample starts.
  public var start: Timestamp {
    switch self {
    case .quantity(let sample): sample.start
    case .category(let sample): sample.start
    case .heartbeatSeries(let sample): sample.start
    case .electrocardiogram(let sample): sample.start
    }
  }

  /// When the sample ends.
  public var end: Timestamp {
    switch self {
    case .quantity(let sample): sample.end
    case .category(let sample): sample.end
    case .heartbeatSeries(let sample): sample.end
    case .electrocardiogram(let sample): sample.end
    }
  }

  /// The sample's type name, as samples files write it (`heartRate`, `irregularHeartRhythmEvent`,
  /// `heartbeatSeries`, `electrocardiogram`).
  public var typeName: String {
    switch self {
    case .quantity(let sample): sample.type.rawValue
    case .category(let sample): sample.type.rawValue
    case .heartbeatSeries: HeartbeatSeriesSample.typeName
    case .electrocardiogram: ElectrocardiogramSample.typeName
    }
  }
}
