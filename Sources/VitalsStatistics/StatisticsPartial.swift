import FoundationEssentials
import VitalsCore
import VitalsIO

/// One shard's statistics of a query, kept as a file so that the shards of a study (the tasks of a Slurm
/// job array, the workers of a cluster) combine into the statistics of all their samples
/// (``merged(_:names:intervals:)``): `vitals stats --partial FILE` writes one, `vitals merge` reads them.
///
/// The file is JSON: the format's name and version, the query (type, statistic, unit, interval, anchor
/// and time zone as given, source priority, whether sources are kept apart), the span of the shard's
/// samples and its result (``StatisticsQuery/Result``: sparse ``IntervalAccumulator``s over the intervals
/// covering that span).
///
/// Exactness: merged counts, extrema, durations and most recent samples equal those of one query over all
/// the samples; sums equal them to rounding (``IntervalAccumulator/merge(_:)``). For cumulative types,
/// sources are ranked within each shard only: where two shards hold overlapping samples of different
/// sources (an iPhone's steps in one, the Watch's in the other), both are counted. Shards that split the
/// recordings, each recording with one source, merge exactly.
public struct StatisticsPartial: Codable, Sendable, Equatable {
  /// The value of ``format`` in every partial.
  public static let formatName = "vitals-statistics-partial"
  /// The version of the format this library writes and reads.
  public static let currentVersion = 1

  /// ``formatName``.
  public var format = Self.formatName
  /// ``currentVersion`` when written by this library.
  public var version = Self.currentVersion
  /// The quantity type's name (`stepCount`).
  public var type: String
  /// The statistic.
  public var option: StatisticsOption
  /// The unit every sample was converted to; nil when none was asked for and the shard had no sample.
  public var unit: String?
  /// The interval as given (`day`, `15min`, `all`, …).
  public var interval: String
  /// The anchor as given, if any.
  public var anchor: String?
  /// The identifier of the time zone of calendar intervals and times.
  public var timeZone: String
  /// Source names, highest priority first.
  public var sourcePriority: [String]
  /// Whether each source's statistics are kept too.
  public var perSource: Bool
  /// The shortest range holding every sample of the shard (from its earliest start to its latest end, or
  /// 1 ns past its latest start when that is later); nil without samples.
  public var span: Range<Timestamp>?
  /// The shard's statistics over the intervals covering ``span``; nil without samples.
  public var result: StatisticsQuery.Result?

  /// A partial of the query described by the arguments.
  public init(
    type: String, option: StatisticsOption, unit: String?, interval: String, anchor: String?,
    timeZone: String,
    sourcePriority: [String], perSource: Bool, span: Range<Timestamp>?, result: StatisticsQuery.Result?
  ) {
    self.type = type
    self.option = option
    self.unit = unit
    self.interval = interval
    self.anchor = anchor
    self.timeZone = timeZone
    self.sourcePriority = sourcePriority
    self.perSource = perSource
    self.span = span
    self.result = result
  }

  /// The partial as JSON bytes.
  public func encoded() -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do { return Array(try encoder.encode(self)) + [0x0A] } catch {
      preconditionFailure("a partial holds finite numbers only, so it encodes: \(error)")
    }
  }

  /// Reads the partial in the file at `path`.
  ///
  /// - Throws: `InputError` naming the file when it cannot be read, is not JSON of this format, or is
  ///   of another version.
  public init(path: String) throws(InputError) {
    try self.init(bytes: try ByteInput(path: path).readAll(), name: path)
  }

  /// Reads the partial `bytes` hold (as ``encoded()`` wrote them); `name` names them in errors.
  ///
  /// - Throws: `InputError` naming `name` when the bytes are not JSON of this format or are of another
  ///   version.
  public init(bytes: [UInt8], name: String) throws(InputError) {
    do {
      self = try JSONDecoder().decode(Self.self, from: Data(bytes))
    } catch {
      let location = Self.structuralError(bytes)
      throw InputError(
        path: name, location: location.map { .byteOffset($0.offset) } ?? .file,
        "not a statistics partial (\(Self.formatName) JSON): \(location?.problem ?? Self.reason(error))")
    }
    guard format == Self.formatName, version == Self.currentVersion else {
      throw InputError(
        path: name,
        "a partial of format \(format) version \(version); this version reads \(Self.formatName) version "
          + "\(Self.currentVersion)")
    }
  }

  /// Where the brackets of `bytes` fail as JSON's do (strings skipped): data after the value's closing
  /// bracket, a closing bracket without an opening one or of another kind, or the end of the bytes inside
  /// an open object, array or string (a file cut short); nil when they balance.
  static func structuralError(_ bytes: [UInt8]) -> (offset: Int64, problem: String)? {
    var open: [UInt8] = []
    var inString = false
    var escaped = false
    var closed = false
    for (offset, byte) in bytes.enumerated() {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      let isSpace = byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
      if closed && !isSpace { return (Int64(offset), "data after the end of the JSON value") }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["): open.append(byte)
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        guard let last = open.popLast() else {
          return (Int64(offset), "a closing bracket without an opening one")
        }
        // `{` + 2 is `}` and `[` + 2 is `]` in ASCII.
        guard last + 2 == byte else {
          return (Int64(offset), "a closing bracket of another kind than the open one")
        }
        closed = open.isEmpty
      default: break
      }
    }
    guard !open.isEmpty || inString else { return nil }
    return (Int64(bytes.count), "the file ends inside the JSON value (cut short?)")
  }

  /// What a decoding `error` found wrong: the field's path and the problem, or the decoder's own message
  /// for text that is not JSON.
  private static func reason(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func field(_ context: DecodingError.Context, _ key: CodingKey? = nil) -> String {
      let path = (context.codingPath + (key.map { [$0] } ?? [])).map {
        $0.intValue.map(String.init) ?? $0.stringValue
      }
      return path.isEmpty ? "the top level" : "field \"\(path.joined(separator: "."))\""
    }
    switch error {
    case .keyNotFound(let key, let context): return "\(field(context, key)) is missing"
    case .valueNotFound(let type, let context): return "\(field(context)) is null, expected \(type)"
    case .typeMismatch(let type, let context): return "\(field(context)): expected \(type)"
    case .dataCorrupted(let context):
      let cause = (context.underlyingError.map { "\($0)" }).map { " (\($0))" } ?? ""
      return "\(field(context)): \(context.debugDescription)\(cause)"
    @unknown default: return "\(error)"
    }
  }

  /// Whether `other` was made by the same query: everything but the span and the result agrees (the unit
  /// too, unless one of them has none).
  public func hasSameQuery(as other: StatisticsPartial) -> Bool {
    var a = self
    var b = other
    (a.span, a.result, b.span, b.result) = (nil, nil, nil, nil)
    if a.unit == nil || b.unit == nil { (a.unit, b.unit) = (nil, nil) }
    return a == b
  }

  /// The partial of all of `partials`' samples: the first one's query, the union of their spans, and
  /// their results moved onto `intervals(union)` (``IntervalAccumulator/rebased(onto:)``) and merged.
  /// The partials must come from the same query (``hasSameQuery(as:)``) and `intervals` must build the
  /// query's intervals covering a span, as each shard did for its own; `names` (one per partial) name
  /// them in errors.
  ///
  /// - Throws: `InputError` naming a partial whose statistics do not lie on the query's intervals or
  ///   are kept for another aggregation (a damaged or hand-made file), and what `intervals` throws.
  public static func merged(
    _ partials: [StatisticsPartial], names: [String],
    intervals: (Range<Timestamp>) throws(InputError) -> IntervalCollection
  ) throws(InputError) -> StatisticsPartial {
    precondition(!partials.isEmpty && partials.count == names.count, "one name per partial, at least one")
    precondition(partials.allSatisfy { $0.hasSameQuery(as: partials[0]) })
    var merged = partials[0]
    merged.unit = partials.lazy.compactMap(\.unit).first
    let spans = partials.compactMap(\.span)
    guard let low = spans.map(\.lowerBound).min(), let high = spans.map(\.upperBound).max() else {
      return merged
    }
    merged.span = low..<high
    let collection = try intervals(low..<high)
    let results = partials.indices.compactMap { k in partials[k].result.map { (names[k], $0) } }
    func combined(_ parts: [(name: String, statistics: IntervalAccumulator)]) throws(InputError)
      -> IntervalAccumulator
    {
      let first = parts[0].statistics
      var total = IntervalAccumulator(intervals: collection, style: first.style, options: first.options)
      for (name, part) in parts {
        guard part.style == total.style, part.options == total.options,
          let moved = part.rebased(onto: collection)
        else {
          throw InputError(
            path: name, "its statistics do not lie on the intervals of its query or of the other partials")
        }
        total.merge(moved)
      }
      return total
    }
    var bySource: [String: IntervalAccumulator] = [:]
    for source in Set(results.flatMap(\.1.bySource.keys)) {
      bySource[source] = try combined(
        results.compactMap { name, result in result.bySource[source].map { (name, $0) } })
    }
    merged.result = StatisticsQuery.Result(
      merged: try combined(results.map { ($0.0, $0.1.merged) }), bySource: bySource)
    return merged
  }
}
