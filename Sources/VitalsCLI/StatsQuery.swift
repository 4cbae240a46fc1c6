import ArgumentParser
import Vitals

/// The statistics `vitals stats` computes, and their table.
extension Stats {
  /// The query these options ask for with its result over the samples of the inputs read by
  /// `QuantitySampleFiles` (none when they hold none of the type, see ``explainAbsence(of:found:note:)``).
  ///
  /// - Throws: ``InputError`` for unreadable inputs, `ValidationError` for a type neither known nor found.
  func statistics(zone: TimeZoneRules, note: (String) -> Void) throws -> StatisticsPartial {
    let type = quantityType!
    let option = option ?? .defaultOption(for: type.aggregationStyle)
    let priority = sourcePriority.map(SourcePriority.init(commaSeparated:)) ?? SourcePriority()
    let files = try QuantitySampleFiles(
      inputs: inputs, type: type, unit: unit.map(HealthUnit.init) ?? type.canonicalUnit)
    var result: StatisticsQuery.Result?
    if let span = files.span {
      result = try files.statistics(
        intervals: intervals(covering: span, zone: zone), option: option, sourcePriority: priority,
        separateBySource: perSource)
    } else {
      try explainAbsence(of: type, found: files.typesFound, note: note)
    }
    return StatisticsPartial(
      type: type.rawValue, option: option, unit: files.unit?.symbol, interval: interval, anchor: anchor,
      timeZone: zone.identifier, sourcePriority: priority.order, perSource: perSource, span: files.span,
      result: result)
  }

  /// The partial `--partial FILE` writes (a quantity type's query with its result, in --timezone, else
  /// the system's zone), `note` told when the inputs hold no sample of the type.
  ///
  /// - Throws: ``InputError`` for unreadable inputs, `ValidationError` for a type neither known nor found
  ///   or one that is counted (heartbeatSeries, electrocardiogram) rather than aggregated.
  public func partialStatistics(note: (String) -> Void) throws -> StatisticsPartial {
    if countedKind != nil { throw ValidationError("--partial works with quantity types, not \(type)") }
    return try statistics(zone: timezone ?? .current, note: note)
  }

  /// The statistics as CSV or JSON text (``table(_:zone:)``).
  func report(note: (String) -> Void = printError) throws -> String {
    // Without --timezone, the system's zone (read from its file once, here).
    let zone = timezone ?? .current
    if let kind = countedKind { return try countReport(kind, zone: zone, note: note) }
    return table(try statistics(zone: zone, note: note), zone: zone)
  }

  /// The table of a query's result in --format.
  func table(_ content: StatisticsPartial, zone: TimeZoneRules) -> String {
    let type = QuantityType(rawValue: content.type)
    let table = StatisticsTable(
      result: content.result, type: type, option: content.option,
      unit: content.option == .duration ? .seconds : content.unit.map(HealthUnit.init) ?? .count,
      sources: content.result.map { SourcePriority(content.sourcePriority).ranked(sources: $0.bySource.keys) }
        ?? [], perSource: content.perSource, timeZone: zone)
    switch format {
    case .csv: return table.csv()
    case .json: return table.json()
    }
  }
}
