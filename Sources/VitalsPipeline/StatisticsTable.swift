import VitalsCore
import VitalsIO
import VitalsStatistics
import VitalsSupport

/// Statistics per interval as `vitals stats` writes them: CSV (``csv()``) or one JSON object
/// (``json()``), times in ISO 8601 with the offset of a time zone.
public struct StatisticsTable: Sendable {
  /// The statistics; nil when there were no samples (the table is then empty).
  public var result: StatisticsQuery.Result?
  /// The quantity type.
  public var type: QuantityType
  /// The statistic written.
  public var option: StatisticsOption
  /// The unit of the values.
  public var unit: HealthUnit
  /// The sources, highest priority first: with ``perSource``, each one's own statistics are written.
  public var sources: [String]
  /// Whether each source's statistics are written instead of the merged ones (CSV) or beside them (JSON).
  public var perSource: Bool
  /// The zone of the times written.
  public var timeZone: TimeZoneRules

  /// The table of `result`; see the properties.
  public init(
    result: StatisticsQuery.Result?, type: QuantityType, option: StatisticsOption, unit: HealthUnit,
    sources: [String], perSource: Bool, timeZone: TimeZoneRules
  ) {
    self.result = result
    self.type = type
    self.option = option
    self.unit = unit
    self.sources = sources
    self.perSource = perSource
    self.timeZone = timeZone
  }

  /// `start,end,value,unit` rows, one per interval (an empty value for an interval without samples);
  /// with ``perSource``, a `source` column and each source's own rows, by priority.
  public func csv() -> String {
    var text = perSource ? "start,end,value,unit,source\n" : "start,end,value,unit\n"
    func rows(_ accumulator: IntervalAccumulator, source: String?) {
      for statistics in accumulator.allStatistics {
        let value = statistics.value(option).map { "\($0)" } ?? ""
        text +=
          "\(statistics.start.iso8601(in: timeZone)),\(statistics.end.iso8601(in: timeZone)),\(value),\(unit)"
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
  }

  private struct Interval: Encodable {
    var start: String
    var end: String
    var value: Double?
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

  private struct Document: Encodable {
    var type: String
    var option: String
    var unit: String
    var intervals: [Interval]
    var sources: [String: [Interval]]?
  }

  /// One JSON object, keys sorted, and a line break: `type`, `option`, `unit`, `intervals` as
  /// `[{start, end, value, count}]` (value null when the interval is empty) and, with ``perSource``,
  /// `sources`: each source's intervals by name.
  public func json() -> String {
    func intervals(_ accumulator: IntervalAccumulator?) -> [Interval] {
      (accumulator?.allStatistics ?? []).map {
        Interval(
          start: $0.start.iso8601(in: timeZone), end: $0.end.iso8601(in: timeZone),
          value: $0.value(option).flatMap { $0.isFinite ? $0 : nil }, count: $0.sampleCount)
      }
    }
    let document = Document(
      type: type.rawValue, option: option.rawValue, unit: unit.symbol, intervals: intervals(result?.merged),
      sources: perSource
        ? Dictionary(uniqueKeysWithValues: sources.map { ($0, intervals(result?.bySource[$0])) }) : nil)
    return compactJSON(document) + "\n"
  }
}

extension SourcePriority {
  /// The ranking a list of source names separated by commas gives (`Anna's Apple Watch, iPhone`),
  /// highest priority first, blanks around each name trimmed.
  public init(commaSeparated list: String) {
    self.init(list.split(separator: ",").map { $0.trimmingBlanks() })
  }
}
