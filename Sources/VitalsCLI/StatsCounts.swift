import ArgumentParser
import Vitals

extension Stats {
  /// The kind of sample --type names when it is counted rather than aggregated (heartbeatSeries,
  /// electrocardiogram); nil for a quantity type.
  var countedKind: SampleCounts.Kind? { SampleCounts.Kind(rawValue: type) }

  /// Throws a `ValidationError` when an option that applies to quantity types only is given, or the
  /// interval options do not parse.
  func validateCounted() throws(ValidationError) {
    if option != nil || unit != nil || sourcePriority != nil || perSource {
      throw ValidationError(
        "--option, --unit, --source-priority and --per-source do not apply to \(type) (counted per interval)")
    }
    try checkIntervalOptions()
  }

  /// The intervals of --interval and --anchor in `zone` covering `span`, held to the limit by
  /// ``checkIntervalCount(_:covering:)``; `all` gives one interval.
  func intervals(covering span: Range<Timestamp>, zone: TimeZoneRules) throws(InputError)
    -> IntervalCollection
  {
    guard let length = Self.intervalLength(interval) else { return IntervalCollection(single: span) }
    try checkIntervalCount(length, covering: span)
    let anchor =
      anchor.flatMap { IntervalCollection.anchor($0, in: zone) } ?? IntervalCollection.defaultAnchor(in: zone)
    return IntervalCollection(length: length, anchor: anchor, timeZone: zone, covering: span)
  }

  /// The counts per interval of the `kind` samples in the inputs (`SampleCounts`) as CSV or JSON text
  /// (`SampleCountTable`); without any, an empty table and `note` is told so.
  func countReport(_ kind: SampleCounts.Kind, zone: TimeZoneRules, note: (String) -> Void) throws -> String {
    let counts = try SampleCounts(inputs: inputs, kind: kind)
    var rows: [SampleCounts.Interval] = []
    if let span = counts.span {
      rows = counts.counts(in: try intervals(covering: span, zone: zone))
    } else {
      note("no \(kind.rawValue) samples in \(inputs.joined(separator: ", "))")
    }
    let table = SampleCountTable(kind: kind, intervals: rows, timeZone: zone)
    return format == .csv ? table.csv() : table.json()
  }
}
