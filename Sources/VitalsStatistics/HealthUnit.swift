/// A unit as HealthKit writes it (`count`, `count/min`, `ms`, `km`, `kcal`, …), with conversion
/// between units of one dimension.
///
/// A unit is its symbol plus, for the symbols known here, a dimension and the factor to that
/// dimension's base unit (count, count per second, second, meter, joule, kilogram, fraction).
/// Unknown symbols are kept (an export may hold any unit) and convert only to themselves.
public struct HealthUnit: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The symbol, exactly as HealthKit writes it.
  public var symbol: String

  /// The unit written `symbol`.
  public init(_ symbol: String) { self.symbol = symbol }

  /// A count (steps, beats, flights).
  public static let count = HealthUnit("count")
  /// Counts per minute (heart rate in beats per minute).
  public static let countPerMinute = HealthUnit("count/min")
  /// Counts per second (Hz).
  public static let countPerSecond = HealthUnit("count/s")
  /// Milliseconds.
  public static let milliseconds = HealthUnit("ms")
  /// Seconds.
  public static let seconds = HealthUnit("s")
  /// Minutes.
  public static let minutes = HealthUnit("min")
  /// Hours.
  public static let hours = HealthUnit("hr")
  /// Meters.
  public static let meters = HealthUnit("m")
  /// Centimetres.
  public static let centimeters = HealthUnit("cm")
  /// Kilometres.
  public static let kilometers = HealthUnit("km")
  /// International miles (1609.344 m).
  public static let miles = HealthUnit("mi")
  /// Feet (0.3048 m).
  public static let feet = HealthUnit("ft")
  /// Kilocalories (4184 J).
  public static let kilocalories = HealthUnit("kcal")
  /// Kilojoules.
  public static let kilojoules = HealthUnit("kJ")
  /// Kilograms.
  public static let kilograms = HealthUnit("kg")
  /// Pounds (0.45359237 kg).
  public static let pounds = HealthUnit("lb")
  /// Percent (0.01).
  public static let percent = HealthUnit("%")
  /// Meters per second.
  public static let metersPerSecond = HealthUnit("m/s")

  /// (dimension, factor to the dimension's base unit) of each known symbol. `Cal` (food calorie) is
  /// the kilocalorie; 1 kcal = 4184 J; 1 mi = 1609.344 m; 1 lb = 0.45359237 kg; `%` is 0.01; speeds in
  /// m/s, km/hr (Apple Health's unit for walking speed) and mi/hr.
  private static let scales: [String: (dimension: String, factor: Double)] = [
    "count": ("count", 1), "count/s": ("rate", 1), "count/min": ("rate", 1.0 / 60),
    "Hz": ("rate", 1), "ms": ("time", 1e-3), "s": ("time", 1), "min": ("time", 60), "hr": ("time", 3600),
    "d": ("time", 86_400), "m": ("length", 1), "cm": ("length", 0.01), "mm": ("length", 0.001),
    "km": ("length", 1000), "mi": ("length", 1609.344), "ft": ("length", 0.3048), "yd": ("length", 0.9144),
    "J": ("energy", 1), "kJ": ("energy", 1000), "cal": ("energy", 4.184), "kcal": ("energy", 4184),
    "Cal": ("energy", 4184), "kg": ("mass", 1), "g": ("mass", 1e-3), "lb": ("mass", 0.45359237),
    "%": ("fraction", 0.01), "m/s": ("speed", 1), "km/hr": ("speed", 1000.0 / 3600),
    "mi/hr": ("speed", 1609.344 / 3600),
  ]

  /// Whether values in this unit can be converted to `other` (same dimension, or the same symbol).
  public func isConvertible(to other: HealthUnit) -> Bool {
    if symbol == other.symbol { return true }
    guard let a = Self.scales[symbol], let b = Self.scales[other.symbol] else { return false }
    return a.dimension == b.dimension
  }

  /// `value` in this unit expressed in `other` (linear scale; NaN stays NaN), or `nil` when the
  /// dimensions differ or either symbol is unknown (and they differ).
  public func convert(_ value: Double, to other: HealthUnit) -> Double? {
    if symbol == other.symbol { return value }
    guard let a = Self.scales[symbol], let b = Self.scales[other.symbol], a.dimension == b.dimension
    else { return nil }
    return value * (a.factor / b.factor)
  }

  public var description: String { symbol }
}
