import VitalsCore

/// A HealthKit-style statistics query (`HKStatisticsQuery` over one interval,
/// `HKStatisticsCollectionQuery` over a collection): the samples of one quantity type, in one unit,
/// aggregated over an ``IntervalCollection``, sources merged by priority, optionally per source.
public struct StatisticsQuery: Hashable, Sendable {
  /// The type aggregated; samples of other types are ignored.
  public var type: QuantityType
  /// The unit results are given in; every sample's unit must convert to it.
  public var unit: HealthUnit
  /// The intervals to aggregate into.
  public var intervals: IntervalCollection
  /// How values combine; by default the type's ``QuantityType/aggregationStyle``.
  public var style: AggregationStyle
  /// The ranking of sources for cumulative types (see ``SourcePriority``). Discrete types use every
  /// sample of every source, as HealthKit averages all sources' heart rates.
  public var sourcePriority: SourcePriority
  /// The statistics to compute, as HealthKit's `HKStatisticsOptions` (default: all that apply to
  /// ``style``; see ``IntervalAccumulator/options``). Asking for fewer is faster.
  public var options: Set<StatisticsOption>

  /// A query for `type`, in `unit` (default the type's canonical unit; required for unknown types).
  public init(
    type: QuantityType, unit: HealthUnit? = nil, intervals: IntervalCollection,
    sourcePriority: SourcePriority = SourcePriority(),
    options: Set<StatisticsOption> = Set(StatisticsOption.allCases)
  ) {
    guard let unit = unit ?? type.canonicalUnit else {
      preconditionFailure("the type \(type) has no canonical unit: give one")
    }
    self.type = type
    self.unit = unit
    self.intervals = intervals
    self.style = type.aggregationStyle
    self.sourcePriority = sourcePriority
    self.options = options
  }

  /// The result of a query.
  public struct Result: Equatable, Sendable, Codable {
    /// All sources together (cumulative types: each moment counted once, by source priority).
    public var merged: IntervalAccumulator
    /// Each source on its own (its own samples, none removed by merging), when asked for.
    public var bySource: [String: IntervalAccumulator]
  }

  /// Aggregates the samples of ``type`` among `samples` (others are ignored).
  ///
  /// - Parameter separateBySource: also aggregate each source alone (HealthKit's `separateBySource`).
  /// - Throws: ``StatisticsError/incompatibleUnit(_:_:)`` when a sample's unit does not convert to
  ///   ``unit``.
  public func run(_ samples: [QuantitySample], separateBySource: Bool = false) throws(StatisticsError)
    -> Result
  {
    var selected: [QuantitySample] = []
    for sample in samples where sample.type == type {
      guard let converted = sample.converted(to: unit) else {
        throw .incompatibleUnit(sample.unit, unit)
      }
      selected.append(converted)
    }
    let counted = style == .cumulative ? sourcePriority.merged(selected) : selected
    var result = Result(merged: aggregate(counted), bySource: [:])
    if separateBySource {
      for (source, own) in Dictionary(grouping: selected, by: \.source) {
        result.bySource[source] = aggregate(own)
      }
    }
    return result
  }

  /// Statistics built one sample at a time as the samples are read, none of them kept: for discrete
  /// types, whose statistics use every sample of every source (no source merging, which needs the
  /// samples together). Gives the statistics of ``run(_:separateBySource:)`` over the same samples,
  /// averages up to floating-point rounding (values are added in the order given, not by start).
  ///
  /// - Parameter separateBySource: also aggregate each source alone.
  public func stream(separateBySource: Bool = false) -> Stream {
    precondition(style == .discrete, "cumulative types merge sources over all samples: use run(_:)")
    return Stream(
      query: self, separateBySource: separateBySource,
      result: Result(
        merged: IntervalAccumulator(intervals: intervals, style: style, options: options), bySource: [:]))
  }

  /// A discrete query's statistics, built sample by sample (see ``stream(separateBySource:)``).
  public struct Stream: Sendable {
    /// The query.
    public let query: StatisticsQuery
    /// Whether each source is also aggregated alone.
    public let separateBySource: Bool
    /// The statistics of the samples added so far.
    public private(set) var result: Result

    /// Adds `sample` when it is of the query's type (others are ignored).
    ///
    /// - Throws: ``StatisticsError/incompatibleUnit(_:_:)`` when its unit does not convert to the
    ///   query's.
    public mutating func add(_ sample: QuantitySample) throws(StatisticsError) {
      guard sample.type == query.type else { return }
      guard let value = sample.unit.convert(sample.value, to: query.unit) else {
        throw .incompatibleUnit(sample.unit, query.unit)
      }
      let (start, end) = (sample.start.nanosecondsSinceEpoch, sample.end.nanosecondsSinceEpoch)
      result.merged.add(start: start, end: end, value: value)
      if separateBySource {
        result.bySource[
          sample.source,
          default: IntervalAccumulator(intervals: query.intervals, style: query.style, options: query.options)
        ].add(start: start, end: end, value: value)
      }
    }
  }

  /// The samples sorted by start and aggregated as columns.
  private func aggregate(_ samples: [QuantitySample]) -> IntervalAccumulator {
    let sorted = samples.sorted { $0.start < $1.start }
    let starts = sorted.map(\.start.nanosecondsSinceEpoch)
    let ends = sorted.map(\.end.nanosecondsSinceEpoch)
    let values = sorted.map(\.value)
    var accumulator = IntervalAccumulator(intervals: intervals, style: style, options: options)
    starts.withUnsafeBufferPointer { s in
      ends.withUnsafeBufferPointer { e in
        values.withUnsafeBufferPointer { v in accumulator.add(starts: s, ends: e, values: v) }
      }
    }
    return accumulator
  }
}

/// Why statistics cannot be computed as asked.
public enum StatisticsError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A sample's unit (first) does not convert to the query's unit (second).
  case incompatibleUnit(HealthUnit, HealthUnit)

  public var description: String {
    switch self {
    case .incompatibleUnit(let from, let to): "a sample in \(from) cannot be converted to \(to)"
    }
  }
}
