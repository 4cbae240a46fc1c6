import ArgumentParser
import Vitals

/// `vitals merge PARTIAL… [--format csv|json]`: the statistics table of the shards whose partials
/// `vitals stats --partial` wrote, as `vitals stats` prints it for all their samples.
public struct Merge: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "merge",
    abstract: "Combine the partial statistics of shards (vitals stats --partial) into one table.",
    discussion: """
      Each PARTIAL is the file `vitals stats … --partial FILE` wrote for one shard of the samples (a task of \
      a Slurm job array, a worker of a cluster), all with the same --type, --option, --interval, --anchor, \
      --timezone, --unit, --source-priority and --per-source; a partial of another query is an input error \
      naming both files. The output is the table `vitals stats` prints over all the shards' samples: the \
      intervals from the one holding the first sample of any shard to the one holding the last; counts, \
      minima, maxima, durations and most recent samples exactly, sums to rounding. For cumulative types, \
      sources are ranked within each shard: shards that split the recordings (each with one source) merge \
      exactly, but overlapping samples of different sources in different shards are both counted.
      """)

  @Argument(help: "Partial statistics files written by vitals stats --partial.")
  public var partials: [String] = []

  @Option(help: "csv or json.")
  public var format: Stats.OutputFormat = .csv

  public init() {}

  public func validate() throws {
    if partials.isEmpty { throw ValidationError("give at least one PARTIAL file (vitals stats --partial)") }
    if let twice = partials.first(where: { path in partials.filter { $0 == path }.count > 1 }) {
      throw ValidationError("\(twice) is given twice: its samples would be counted twice")
    }
  }

  public func run() throws {
    try exitingOneOnFileErrors {
      let text = try report()
      try writeOutput(Array(text.utf8), to: "-")
    }
  }

  /// The merged table as CSV or JSON text.
  ///
  /// - Throws: ``InputError`` for a partial that cannot be read or comes from another query.
  func report(note: (String) -> Void = printError) throws -> String {
    let parts = try partials.map { path throws(InputError) in try StatisticsPartial(path: path) }
    let merged = try Self.merged(parts, names: partials)
    if merged.result == nil { note("no \(merged.type) samples in \(partials.joined(separator: ", "))") }
    return try Self.table(merged, format: format, name: partials[0])
  }

  /// The partial of all the samples of `parts` (at least one, of one query), as `vitals merge` combines
  /// them; `names` (one per part) name them in errors.
  ///
  /// - Throws: ``InputError`` naming the part made by another query than the first, or the first when its
  ///   query is not one `vitals stats` takes or its time zone is unknown here.
  public static func merged(_ parts: [StatisticsPartial], names: [String]) throws
    -> StatisticsPartial
  {
    try merged(parts, names: names) { partial, inputs throws(InputError) in
      try query(of: partial, format: .csv, inputs: inputs)
    }
  }

  /// ``merged(_:names:)`` with the `vitals stats` command and zone of the first part's query over
  /// `names` from `query` (``query(of:format:inputs:)``, or a cache of it for a process that merges often).
  package static func merged(
    _ parts: [StatisticsPartial], names: [String],
    query: (StatisticsPartial, [String]) throws(InputError) -> (Stats, TimeZoneRules)
  ) throws -> StatisticsPartial {
    precondition(!parts.isEmpty && parts.count == names.count, "one name per partial, at least one")
    for (name, part) in zip(names, parts).dropFirst() where !part.hasSameQuery(as: parts[0]) {
      throw InputError(
        path: name, "made by another query than \(names[0]): \(describe(part)) against \(describe(parts[0]))")
    }
    let (stats, zone) = try query(parts[0], names)
    return try StatisticsPartial.merged(parts, names: names) { span throws(InputError) in
      try stats.intervals(covering: span, zone: zone)
    }
  }

  /// The statistics table of `partial` in `format`, as `vitals stats` prints it for the partial's samples;
  /// `name` names the partial in errors.
  ///
  /// - Throws: ``InputError`` when the partial's query is not one `vitals stats` takes or its time zone
  ///   is unknown here.
  public static func table(_ partial: StatisticsPartial, format: Stats.OutputFormat, name: String)
    throws(InputError) -> String
  {
    let (stats, zone) = try query(of: partial, format: format, inputs: [name])
    return stats.table(partial, zone: zone)
  }

  /// The `vitals stats` command of the query of `partial` over `inputs` (the first named in errors), and
  /// the partial's zone.
  package static func query(of partial: StatisticsPartial, format: Stats.OutputFormat, inputs: [String])
    throws(InputError) -> (Stats, TimeZoneRules)
  {
    let name = inputs[0]
    let arguments = inputs + options(of: partial) + ["--format", format.rawValue]
    do {
      return (try Stats.parse(arguments), try zone(named: partial.timeZone, path: name))
    } catch let error as InputError {
      throw error
    } catch {
      throw InputError(path: name, "its query is not one vitals stats takes: \(describe(partial))")
    }
  }

  /// The query of a partial as `vitals stats` options, but for its time zone (which names the system's
  /// zone as it found it, see ``zone(named:path:)``).
  package static func options(of partial: StatisticsPartial) -> [String] {
    var options = [
      "--type", partial.type, "--option", partial.option.rawValue, "--interval", partial.interval,
    ]
    if let unit = partial.unit { options += ["--unit", unit] }
    if let anchor = partial.anchor { options += ["--anchor", anchor] }
    if !partial.sourcePriority.isEmpty {
      options += ["--source-priority", partial.sourcePriority.joined(separator: ",")]
    }
    if partial.perSource { options.append("--per-source") }
    return options
  }

  /// The query of a partial, as `vitals stats` options with its time zone.
  static func describe(_ partial: StatisticsPartial) -> String {
    (options(of: partial) + ["--timezone", partial.timeZone]).joined(separator: " ")
  }

  /// The zone a partial names: UTC, the system's zone when it has that identifier, else the database's.
  static func zone(named identifier: String, path: String) throws(InputError) -> TimeZoneRules {
    if identifier == TimeZoneRules.utc.identifier { return .utc }
    let current = TimeZoneRules.current
    if identifier == current.identifier { return current }
    do { return try TimeZoneRules(named: identifier) } catch {
      throw InputError(path: path, "its time zone \(identifier) is not known here: \(error)")
    }
  }
}
