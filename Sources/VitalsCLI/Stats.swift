import ArgumentParser
import Vitals

extension StatisticsOption: ExpressibleByArgument {}

/// `vitals stats INPUT… --type T [--option O] [--interval I] …`: HealthKit-style statistics of the
/// samples in Apple Health exports and samples files.
public struct Stats: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract:
      "HealthKit-style statistics (sums, averages, …) per interval, from Apple Health exports and samples files.",
    discussion: """
      INPUTs are Apple Health exports (export.xml, read as a stream) and samples files (*.samples.jsonl, as \
      `vitals analyze` writes them). The samples of --type (a HealthKit name, stepCount or \
      HKQuantityTypeIdentifierStepCount) are aggregated per interval from the interval holding the first \
      sample to the one holding the last. A type neither known (the list is in the error) nor found in the \
      INPUTs is a usage error; a known type without samples gives an empty table and a note on stderr naming \
      the types found.

      --option: cumulativeSum (cumulative types: steps, distances, energies; a sample spanning intervals is \
      shared in proportion to its overlap), discreteAverage / discreteMin / discreteMax (discrete types: heart \
      rate, HRV, …; the plain mean, minimum or maximum of the samples starting in the interval), mostRecent \
      (the value of the sample ending last), duration (seconds covered, unit s). Default: cumulativeSum for cumulative \
      types, discreteAverage for discrete ones.

      --interval: day, week, month (calendar intervals in --timezone: a day across a daylight-saving change \
      lasts 23 or 25 hours; also 2day, 2week, 3month, …), or a fixed length: 30s, 15min, hour (1h), 2h, 24h, \
      or `all` for one interval holding every sample (from the first start to the last end, or 1 ns past the \
      last start when an instantaneous sample lies there: intervals hold their start, not their end). \
      Intervals are aligned to --anchor (default: midnight of Monday 2000-01-03 in --timezone, so weeks start \
      on Monday): a date (2024-03-10, local midnight), a local \
      date-time (2024-03-10T06:00) or one with an offset (2024-03-10T06:00:00-05:00).

      Sources: where samples of several sources overlap (an iPhone and an Apple Watch both counting steps), \
      cumulative types count each moment once, from the highest-ranked source (an instantaneous sample counts \
      only when no higher-ranked source has a sample over its instant or at it): --source-priority lists \
      source names, highest first; unlisted sources follow by name. Discrete types use every sample.

      Output: CSV `start,end,value,unit`, times ISO 8601 with the offset of --timezone, one row per interval \
      (an empty value for an interval without samples); --per-source adds a `source` column and gives each \
      source's own statistics instead. --format json writes one object: type, option, unit, intervals \
      ([{start, end, value, count}], value null when empty) and, with --per-source, sources.

      --partial FILE writes the statistics as a partial (JSON: the query, the span and the per-interval \
      state) instead of the table; `vitals merge` combines the partials of shards into this table.

      --type heartbeatSeries or electrocardiogram (as `vitals analyze` writes them) counts the samples starting \
      in each interval: CSV `start,end,count,beats` or `start,end,count,` and one column per HealthKit \
      classification (notSet, sinusRhythm, …); JSON intervals [{start, end, count, beats or classifications}].
      """)

  @Argument(help: "Apple Health export.xml files and *.samples.jsonl files.")
  public var inputs: [String] = []

  @Option(
    help: "A quantity type (stepCount, … or HKQuantityTypeIdentifier…), heartbeatSeries or electrocardiogram."
  )
  public var type: String

  @Option(help: "The statistic (default: cumulativeSum or discreteAverage, by the type).")
  public var option: StatisticsOption?

  @Option(
    help:
      "The interval: day, week, month, hour, 15min, 30s, 24h, all, … (up to \(OptionRange.calendarDays.upperBound) days, \(OptionRange.calendarWeeks.upperBound) weeks, \(OptionRange.calendarMonths.upperBound) months, or \(optionRange(OptionRange.fixedInterval)) s)."
  )
  public var interval: String = "day"

  @Option(help: "An interval boundary: 2024-03-10, 2024-03-10T06:00, or with an offset.")
  public var anchor: String?

  @Option(
    help: "The IANA time zone of calendar intervals and output times (default: the system's).",
    transform: { name throws(TimeZoneError) in try TimeZoneRules(named: name) })
  public var timezone: TimeZoneRules?

  @Option(
    name: .customLong("source-priority"), help: "Source names, highest priority first, separated by commas.")
  public var sourcePriority: String?

  @Option(help: "The unit of the results (default: the type's HealthKit unit).")
  public var unit: String?

  @Option(help: "csv or json.")
  public var format: OutputFormat = .csv

  @Flag(name: .customLong("per-source"), help: "Each source's own statistics, with a source column.")
  public var perSource = false

  @Option(
    help:
      "Write the partial statistics to FILE (JSON) instead of the table, for `vitals merge` (quantity types only)."
  )
  public var partial: String?

  /// Output formats of `vitals stats`.
  public enum OutputFormat: String, ExpressibleByArgument, Sendable {
    case csv, json
  }

  public init() {}

  var quantityType: QuantityType? { QuantityType(identifier: type) }

  public func validate() throws {
    if inputs.isEmpty { throw ValidationError("give at least one INPUT (export.xml or *.samples.jsonl)") }
    if countedKind != nil {
      if partial != nil { throw ValidationError("--partial works with quantity types, not \(type)") }
      return try validateCounted()
    }
    guard let quantityType else { throw ValidationError("--type must name a quantity type, got '\(type)'") }
    if let option, !option.isValid(for: quantityType.aggregationStyle) {
      throw ValidationError(
        "--option \(option.rawValue) does not apply to \(quantityType) (a \(quantityType.aggregationStyle.rawValue) type)"
      )
    }
    try checkIntervalOptions()
  }

  public func run() throws {
    try exitingOneOnFileErrors {
      if let partial {
        try refuseOverwritingInputs(outputs: [partial], inputs: inputs)
        try writeOutput(try partialStatistics(note: printError).encoded(), to: partial)
        return
      }
      let text = try report()
      try writeOutput(Array(text.utf8), to: "-")
    }
  }
}
