/// How values of a quantity type combine over time, as HealthKit's `HKQuantityAggregationStyle`.
public enum AggregationStyle: String, Sendable, Codable, Hashable {
  /// Values add up over time (steps, distance, energy): statistics sum them, a sample spanning
  /// several intervals is shared between them in proportion to its overlap, and overlapping sources
  /// are counted once (see ``SourcePriority``).
  case cumulative
  /// Each value is a level at a moment or over a span (heart rate, HRV, resting heart rate):
  /// statistics average, take the minimum, maximum or most recent value.
  case discrete
}

/// A HealthKit quantity type, named as HealthKit names it without its prefix: `heartRate` for
/// `HKQuantityTypeIdentifierHeartRate`.
///
/// The set is open: any name read from an Apple Health export is kept (`bodyMass`, `vo2Max`, …).
/// Types known here have an ``aggregationStyle`` and a ``canonicalUnit``; unknown types are discrete
/// and have no canonical unit.
public struct QuantityType: HealthKitTypeName {
  /// The HealthKit name without its prefix (`stepCount`).
  public var rawValue: String

  /// The type named `rawValue` (as is: no prefix is removed).
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Heart rate, `count/min`, discrete.
  public static let heartRate = QuantityType(rawValue: "heartRate")
  /// The day's resting heart rate, `count/min`, discrete.
  public static let restingHeartRate = QuantityType(rawValue: "restingHeartRate")
  /// The day's average heart rate while walking, `count/min`, discrete.
  public static let walkingHeartRateAverage = QuantityType(rawValue: "walkingHeartRateAverage")
  /// SDNN of about one minute of NN intervals, `ms`, discrete.
  public static let heartRateVariabilitySDNN = QuantityType(rawValue: "heartRateVariabilitySDNN")
  /// Respiratory rate, `count/min`, discrete.
  public static let respiratoryRate = QuantityType(rawValue: "respiratoryRate")
  /// Blood oxygen saturation, `%`, discrete.
  public static let oxygenSaturation = QuantityType(rawValue: "oxygenSaturation")
  /// Body mass, `kg`, discrete.
  public static let bodyMass = QuantityType(rawValue: "bodyMass")
  /// Steps, `count`, cumulative.
  public static let stepCount = QuantityType(rawValue: "stepCount")
  /// Walking and running distance, `m`, cumulative.
  public static let distanceWalkingRunning = QuantityType(rawValue: "distanceWalkingRunning")
  /// Length of a walking step, `m`, discrete.
  public static let walkingStepLength = QuantityType(rawValue: "walkingStepLength")
  /// Walking speed, `m/s`, discrete.
  public static let walkingSpeed = QuantityType(rawValue: "walkingSpeed")
  /// Share of walking strides whose two steps differ in time, `%`, discrete.
  public static let walkingAsymmetryPercentage = QuantityType(rawValue: "walkingAsymmetryPercentage")
  /// Active energy, `kcal`, cumulative.
  public static let activeEnergyBurned = QuantityType(rawValue: "activeEnergyBurned")
  /// Resting (basal) energy, `kcal`, cumulative.
  public static let basalEnergyBurned = QuantityType(rawValue: "basalEnergyBurned")
  /// Flights of stairs climbed, `count`, cumulative.
  public static let flightsClimbed = QuantityType(rawValue: "flightsClimbed")
  /// Exercise minutes, `min`, cumulative.
  public static let appleExerciseTime = QuantityType(rawValue: "appleExerciseTime")
  /// Stand minutes, `min`, cumulative.
  public static let appleStandTime = QuantityType(rawValue: "appleStandTime")

  private static let known: [String: (AggregationStyle, HealthUnit)] = [
    "heartRate": (.discrete, .countPerMinute), "restingHeartRate": (.discrete, .countPerMinute),
    "walkingHeartRateAverage": (.discrete, .countPerMinute),
    "heartRateVariabilitySDNN": (.discrete, .milliseconds), "respiratoryRate": (.discrete, .countPerMinute),
    "oxygenSaturation": (.discrete, .percent), "bodyMass": (.discrete, .kilograms),
    "stepCount": (.cumulative, .count), "distanceWalkingRunning": (.cumulative, .meters),
    "distanceCycling": (.cumulative, .meters), "activeEnergyBurned": (.cumulative, .kilocalories),
    "basalEnergyBurned": (.cumulative, .kilocalories), "flightsClimbed": (.cumulative, .count),
    "appleExerciseTime": (.cumulative, .minutes), "appleStandTime": (.cumulative, .minutes),
    "walkingStepLength": (.discrete, .meters), "walkingSpeed": (.discrete, .metersPerSecond),
    "walkingAsymmetryPercentage": (.discrete, .percent),
  ]

  /// The types known here (those with an ``aggregationStyle`` and a ``canonicalUnit`` of their own),
  /// ordered by name.
  public static let knownTypes: [QuantityType] = known.keys.sorted().map(QuantityType.init(rawValue:))

  /// Whether the type is one of ``knownTypes``.
  public var isKnown: Bool { Self.known[rawValue] != nil }

  /// Cumulative for the known summed types (steps, distances, energies, flights, exercise and stand
  /// time), discrete for every other type.
  public var aggregationStyle: AggregationStyle { Self.known[rawValue]?.0 ?? .discrete }

  /// The unit HealthKit reports the type in, or `nil` for a type not known here.
  public var canonicalUnit: HealthUnit? { Self.known[rawValue]?.1 }

  /// The HealthKit identifier prefix of quantity types.
  public static let identifierPrefix = "HKQuantityTypeIdentifier"
}

/// A HealthKit category type (events and states without a numeric value), named without its prefix:
/// `irregularHeartRhythmEvent` for `HKCategoryTypeIdentifierIrregularHeartRhythmEvent`.
public struct CategoryType: HealthKitTypeName {
  /// The HealthKit name without its prefix (`irregularHeartRhythmEvent`).
  public var rawValue: String

  /// The type named `rawValue` (as is: no prefix is removed).
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Heart rate above a threshold for a sustained time while inactive.
  public static let highHeartRateEvent = CategoryType(rawValue: "highHeartRateEvent")
  /// Heart rate below a threshold for a sustained time while inactive.
  public static let lowHeartRateEvent = CategoryType(rawValue: "lowHeartRateEvent")
  /// A stretch of irregular rhythm suggestive of atrial fibrillation.
  public static let irregularHeartRhythmEvent = CategoryType(rawValue: "irregularHeartRhythmEvent")
  /// Sleep stages (value: the stage).
  public static let sleepAnalysis = CategoryType(rawValue: "sleepAnalysis")

  /// The HealthKit identifier prefix of category types.
  public static let identifierPrefix = "HKCategoryTypeIdentifier"
}

/// A kind of HealthKit type named by its identifier without the kind's prefix.
public protocol HealthKitTypeName: RawRepresentable<String>, Hashable, Sendable, Codable,
  CustomStringConvertible
{
  /// The prefix of the kind's identifiers (`HKQuantityTypeIdentifier`).
  static var identifierPrefix: String { get }
  init(rawValue: String)
}

extension HealthKitTypeName {
  /// The type of a HealthKit identifier (`HKQuantityTypeIdentifierStepCount` → `stepCount`) or of a
  /// bare name (`stepCount`, `StepCount`); `nil` for an empty name or another kind's identifier
  /// (`HKCategoryTypeIdentifier…` for a quantity type, `HKDataType…`).
  public init?(identifier: String) {
    var name = Substring(identifier)
    if name.hasPrefix(Self.identifierPrefix) {
      name = name.dropFirst(Self.identifierPrefix.count)
    } else if name.hasPrefix("HK") {
      return nil
    }
    guard let first = name.first else { return nil }
    self.init(rawValue: first.lowercased() + name.dropFirst())
  }

  /// The HealthKit identifier: the prefix, then the name with its first letter in upper case
  /// (`stepCount` → `HKQuantityTypeIdentifierStepCount`).
  public var identifier: String {
    Self.identifierPrefix + rawValue.prefix(1).uppercased() + rawValue.dropFirst()
  }

  /// The name.
  public var description: String { rawValue }
}
