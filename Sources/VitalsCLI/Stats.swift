import ArgumentParser
import FoundationEssentials
import Vitals
import VitalsIO
import VitalsSupport

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
      or `all` for one interval over everything. Intervals are aligned to --anchor (default: midnight of \
      Monday 2000-01-03 in --timezone, so weeks start on Monday): a date (2024-03-10, local midnight), a local \
      date-time (2024-03-10T06:00) or one with an offset (2024-03-10T06:00:00-05:00).

      Sources: where samples of several sources overlap (an iPhone and an Apple Watch both counting steps), \
      cumulative types count each moment once, from the highest-ranked source (an instantaneous sample counts \
      only when no higher-ranked source has a sample over its instant or at it): --source-priority lists \
      source names, highest first; unlisted sources follow by name. Discrete types use every sample.

      Output: CSV `start,end,value,unit`, times ISO 8601 with the offset of --timezone, one row per interval \
      (an empty value for an interval without samples); --per-source adds a `source` column and gives each \
      source's own statistics instead. --format json writes one object: type, option, unit, intervals \
      ([{start, end, value, count}], value null when empty) and, with --per-source, sources.
      """)

  @Argument(help: "Apple Health export.xml files and *.samples.jsonl files.")
  public var inputs: [String] = []

  @Option(help: "The quantity type (stepCount, heartRate, … or HKQuantityTypeIdentifier…).")
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

  /// Output formats of `vitals stats`.
  public enum OutputFormat: String, ExpressibleByArgument, Sendable {
    case csv, json
  }

  public init() {}

  var quantityType: QuantityType? { QuantityType(identifier: type) }

  public func validate() throws {
    if inputs.isEmpty { throw ValidationError("give at least one INPUT (export.xml or *.samples.jsonl)") }
    guard let quantityType else { throw ValidationError("--type must name a quantity type, got '\(type)'") }
    if let option, !option.isValid(for: quantityType.aggregationStyle) {
      throw ValidationError(
        "--option \(option.rawValue) does not apply to \(quantityType) (a \(quantityType.aggregationStyle.rawValue) type)"
      )
    }
    if Self.intervalLength(interval) == nil && interval != "all" {
      throw ValidationError(
        "--interval must be like day, week, month, hour, 15min, 30s, 24h or all, of at most "
          + "\(OptionRange.calendarDays.upperBound) days, \(OptionRange.calendarWeeks.upperBound) weeks, "
          + "\(OptionRange.calendarMonths.upperBound) months or a fixed "
          + "\(optionRange(OptionRange.fixedInterval)) s; got '\(interval)'")
    }
    // Whether an anchor parses does not depend on the zone: checked in UTC, so that the system's zone
    // is read once, by report().
    if let anchor, Self.anchorInstant(anchor, in: .utc) == nil {
      throw ValidationError(
        "--anchor must be a date like 2024-03-10 or 2024-03-10T06:00[±hh:mm]; got '\(anchor)'")
    }
  }

  /// The interval length of `text`: `day`, `2day`, `week`, `month`, or a number with `s`, `min`, `h`
  /// (`hour`), `ms` for a fixed length; `nil` when it is none of these or its count is outside
  /// ``OptionRange``'s `calendarDays`, `calendarWeeks`, `calendarMonths` or `fixedInterval`.
  static func intervalLength(_ text: String) -> IntervalLength? {
    let digits = text.prefix { $0.isNumber || $0 == "." }
    let unit = text.dropFirst(digits.count).lowercased()
    guard let count = digits.isEmpty ? 1 : Double(digits) else { return nil }
    func calendar(_ range: ClosedRange<Int>) -> Int? {
      Int(exactly: count).flatMap { range.contains($0) ? $0 : nil }
    }
    func fixed(_ seconds: Double) -> IntervalLength? {
      OptionRange.fixedInterval.contains(seconds) ? .seconds(seconds) : nil
    }
    switch unit {
    case "day", "days", "d": return calendar(OptionRange.calendarDays).map { .days($0) }
    case "week", "weeks", "w": return calendar(OptionRange.calendarWeeks).map { .weeks($0) }
    case "month", "months": return calendar(OptionRange.calendarMonths).map { .months($0) }
    case "h", "hour", "hours": return fixed(count * 3600)
    case "min", "minute", "minutes", "m": return fixed(count * 60)
    case "s", "second", "seconds": return fixed(count)
    case "ms": return fixed(count / 1000)
    default: return nil
    }
  }

  /// The instant of an anchor: a date or date-time with an offset, or local in `zone` without one.
  static func anchorInstant(_ text: String, in zone: TimeZoneRules) -> Timestamp? {
    guard let nanoseconds = Array(text.utf8).withUnsafeBufferPointer({ parseDateTime($0) }) else {
      return nil
    }
    let time = text.dropFirst(10)
    if time.contains("Z") || time.contains("+") || time.contains("-") {
      return Timestamp(nanosecondsSinceEpoch: nanoseconds)
    }
    // Wall-clock time in `zone`: a skipped time read with the offset before the change, a repeated
    // time as its first occurrence (as Foundation's Calendar reads them).
    return zone.instant(atLocal: nanoseconds)
  }

  public func run() throws {
    try exitingOneOnFileErrors {
      let text = try report()
      try writeOutput(Data(text.utf8), to: "-")
    }
  }

  /// Calls `body` with each sample of the type in every input, in the order read, each checked to
  /// convert to `unit` (the first sample's unit when `nil`); returns the quantity types of all samples
  /// in the inputs.
  @discardableResult
  func forEachSample(
    unit: inout HealthUnit?, _ body: (QuantitySample) throws(InputError) -> Void
  ) throws(InputError) -> Set<QuantityType> {
    let type = quantityType!
    var found: Set<QuantityType> = []
    // Exports keep each type's records together: the set is updated only when the type changes.
    var previous: QuantityType?
    for path in inputs {
      let next: () throws(InputError) -> HealthSample?
      if path.hasSuffix(SamplesFile.fileExtension) {
        let reader = try SamplesFileReader(path: path)
        next = reader.next
      } else if path.hasSuffix(".xml") {
        let reader = try HealthExportReader(path: path)
        next = reader.next
      } else {
        throw InputError(
          path: path, "expected an Apple Health export (.xml) or a samples file (*.samples.jsonl)")
      }
      while let sample = try next() {
        guard case .quantity(let q) = sample else { continue }
        if q.type != previous {
          found.insert(q.type)
          previous = q.type
        }
        guard q.type == type else { continue }
        if unit == nil { unit = q.unit }
        guard q.unit.isConvertible(to: unit!) else {
          throw InputError(path: path, "a \(type) sample in \(q.unit) cannot be expressed in \(unit!)")
        }
        try body(q)
      }
    }
    return found
  }

  /// What to say when the inputs hold no sample of `type`, whose types are `found`: a known type gives
  /// an empty table and `note` is told so; a type neither known nor found is a usage error listing the
  /// types found and known, with the nearest name when one is close.
  func explainAbsence(
    of type: QuantityType, found: Set<QuantityType>, note: (String) -> Void
  ) throws(ValidationError) {
    let inInputs =
      found.isEmpty
      ? "the inputs hold no quantity samples"
      : "types in the inputs: \(found.map(\.rawValue).sorted().joined(separator: ", "))"
    guard type.isKnown else {
      let known = QuantityType.knownTypes
      let nearest = Self.nearestName(to: type.rawValue, among: known.map(\.rawValue) + found.map(\.rawValue))
      let suggestion = nearest.map { "; did you mean \($0)?" } ?? ""
      throw ValidationError(
        """
        --type '\(self.type)' is neither in the inputs nor a known quantity type\(suggestion)
        \(inInputs)
        types known: \(known.map(\.rawValue).joined(separator: ", "))
        or as HealthKit identifiers: \(known.map(\.identifier).joined(separator: ", "))
        """)
    }
    note("no \(type) samples in \(inputs.joined(separator: ", ")); \(inInputs)")
  }

  /// The name among `candidates` nearest to `name`, case ignored: one that differs only in case, else the
  /// one fewest single-letter edits away when at most a third of `name`'s letters (1 to 3) differ; ties
  /// go to the first by name. `nil` when none is that close.
  static func nearestName(to name: String, among candidates: [String]) -> String? {
    let target = Array(name.lowercased())
    let limit = min(3, max(1, target.count / 3))
    var nearest: (edits: Int, name: String)?
    for candidate in candidates {
      let edits = editDistance(target, Array(candidate.lowercased()))
      if edits <= limit, nearest.map({ (edits, candidate) < $0 }) ?? true { nearest = (edits, candidate) }
    }
    return nearest?.name
  }

  /// The Levenshtein distance of `a` and `b`: the fewest insertions, deletions and substitutions of
  /// single characters that turn one into the other.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    // previous[j]: the distance of the letters of `a` so far to the first j letters of `b`.
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }

  /// The statistics as CSV or JSON text.
  ///
  /// Discrete types are read twice, keeping no sample (memory does not grow with the inputs): once for
  /// the span of the samples, which sets the intervals, once to aggregate them. Cumulative types keep
  /// the samples of the type in memory: merging sources needs them together. When the inputs hold no
  /// sample of the type, see ``explainAbsence(of:found:note:)``.
  ///
  /// - Throws: ``InputError`` for unreadable inputs, `ValidationError` for a type neither known nor found.
  func report(note: (String) -> Void = printError) throws -> String {
    let type = quantityType!
    // Without --timezone, the system's zone (read from its file once, here).
    let zone = timezone ?? .current
    let option = option ?? .defaultOption(for: type.aggregationStyle)
    var unit = self.unit.map(HealthUnit.init) ?? type.canonicalUnit
    let priority = SourcePriority(
      sourcePriority?.split(separator: ",").map { $0.trimmingBlanks() } ?? [])
    let streams = type.aggregationStyle == .discrete
    var samples: [QuantitySample] = []
    var first: Timestamp?
    var last: Timestamp?
    let found = try forEachSample(unit: &unit) { sample throws(InputError) in
      first = min(first ?? sample.start, sample.start)
      last = max(last ?? sample.end, sample.end)
      if !streams { samples.append(sample) }
    }
    if first == nil { try explainAbsence(of: type, found: found, note: note) }
    let resultUnit = unit ?? .count
    let valueUnit = option == .duration ? HealthUnit.seconds : resultUnit
    var result: StatisticsQuery.Result?
    if let first, let last {
      let range = first..<max(last, first.advanced(byNanoseconds: 1))
      let intervals: IntervalCollection
      if let length = Self.intervalLength(interval) {
        let anchor =
          anchor.flatMap { Self.anchorInstant($0, in: zone) } ?? Self.anchorInstant("2000-01-03", in: zone)!
        try checkIntervalCount(length, covering: range)
        intervals = IntervalCollection(length: length, anchor: anchor, timeZone: zone, covering: range)
      } else {
        intervals = IntervalCollection(single: range)
      }
      let query = StatisticsQuery(
        type: type, unit: resultUnit, intervals: intervals, sourcePriority: priority, options: [option])
      let failure = { (error: StatisticsError) in
        InputError(path: inputs.joined(separator: ", "), error.description)
      }
      if streams {
        var stream = query.stream(separateBySource: perSource)
        var again = unit
        try forEachSample(unit: &again) { sample throws(InputError) in
          do throws(StatisticsError) { try stream.add(sample) } catch { throw failure(error) }
        }
        result = stream.result
      } else {
        do { result = try query.run(samples, separateBySource: perSource) } catch { throw failure(error) }
      }
    }
    let sources = result.map { priority.ranked(sources: $0.bySource.keys) } ?? []
    switch format {
    case .csv:
      var text = perSource ? "start,end,value,unit,source\n" : "start,end,value,unit\n"
      func rows(_ accumulator: IntervalAccumulator, source: String?) {
        for statistics in accumulator.allStatistics {
          let value = statistics.value(option).map { "\($0)" } ?? ""
          text +=
            "\(statistics.start.iso8601(in: zone)),\(statistics.end.iso8601(in: zone)),\(value),\(valueUnit)"
          if let source { text += "," + csvQuoted(source) }
          text += "\n"
        }
      }
      if let result {
        if perSource {
          for source in sources { rows(result.bySource[source]!, source: source) }
        } else {
          rows(result.merged, source: nil)
        }
      }
      return text
    case .json:
      func intervals(_ accumulator: IntervalAccumulator?) -> [StatsJSON.Interval] {
        (accumulator?.allStatistics ?? []).map {
          StatsJSON.Interval(
            start: $0.start.iso8601(in: zone), end: $0.end.iso8601(in: zone),
            value: $0.value(option).map(JSONNumber.init),
            count: $0.sampleCount)
        }
      }
      let report = StatsJSON(
        type: type.rawValue, option: option.rawValue, unit: valueUnit.symbol,
        intervals: intervals(result?.merged),
        sources: perSource
          ? Dictionary(uniqueKeysWithValues: sources.map { ($0, intervals(result?.bySource[$0])) }) : nil)
      return encodeJSON(report) + "\n"
    }
  }
}

/// `vitals stats --format json`.
struct StatsJSON: Encodable {
  struct Interval: Encodable {
    var start: String
    var end: String
    var value: JSONNumber?
    var count: Int

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(start, forKey: .start)
      try container.encode(end, forKey: .end)
      try container.encode(value, forKey: .value)
      try container.encode(count, forKey: .count)
    }

    enum CodingKeys: CodingKey { case start, end, value, count }
  }

  var type: String
  var option: String
  var unit: String
  var intervals: [Interval]
  var sources: [String: [Interval]]?
}
