import ArgumentParser
import Vitals

extension Stats {
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
      let nearest = QuantityType.nearestName(
        to: type.rawValue, among: known.map(\.rawValue) + found.map(\.rawValue))
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
}

/// The statistics of `vitals stats` as CSV or JSON text.
struct StatsTable {
  var result: StatisticsQuery.Result?
  var option: StatisticsOption
  /// The unit of the values.
  var unit: HealthUnit
  /// The sources, highest priority first.
  var sources: [String]
  var zone: TimeZoneRules

  /// `start,end,value,unit` rows (an empty value for an empty interval); with `perSource`, a `source`
  /// column and each source's own rows.
  func csv(perSource: Bool) -> String {
    var text = perSource ? "start,end,value,unit,source\n" : "start,end,value,unit\n"
    func rows(_ accumulator: IntervalAccumulator, source: String?) {
      for statistics in accumulator.allStatistics {
        let value = statistics.value(option).map { "\($0)" } ?? ""
        text += "\(statistics.start.iso8601(in: zone)),\(statistics.end.iso8601(in: zone)),\(value),\(unit)"
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

  /// One JSON object (see ``StatsJSON``) and a line break.
  func json(type: QuantityType, perSource: Bool) -> String {
    func intervals(_ accumulator: IntervalAccumulator?) -> [StatsJSON.Interval] {
      (accumulator?.allStatistics ?? []).map {
        StatsJSON.Interval(
          start: $0.start.iso8601(in: zone), end: $0.end.iso8601(in: zone),
          value: $0.value(option).map(JSONNumber.init),
          count: $0.sampleCount)
      }
    }
    let report = StatsJSON(
      type: type.rawValue, option: option.rawValue, unit: unit.symbol,
      intervals: intervals(result?.merged),
      sources: perSource
        ? Dictionary(uniqueKeysWithValues: sources.map { ($0, intervals(result?.bySource[$0])) }) : nil)
    return encodeJSON(report) + "\n"
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
