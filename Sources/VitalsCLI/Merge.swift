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
    for (path, part) in zip(partials, parts).dropFirst() where !part.hasSameQuery(as: parts[0]) {
      throw InputError(
        path: path,
        "made by another query than \(partials[0]): \(Self.describe(part)) against \(Self.describe(parts[0]))"
      )
    }
    let query = parts[0]
    let arguments = partials + Self.options(of: query) + ["--format", format.rawValue]
    let stats: Stats
    do { stats = try Stats.parse(arguments) } catch {
      throw InputError(path: partials[0], "its query is not one vitals stats takes: \(Self.describe(query))")
    }
    let zone = try Self.zone(named: query.timeZone, path: partials[0])
    let merged = try StatisticsPartial.merged(parts) { span throws(InputError) in
      try stats.intervals(covering: span, zone: zone)
    }
    if merged.result == nil { note("no \(query.type) samples in \(partials.joined(separator: ", "))") }
    return stats.table(merged, zone: zone)
  }

  /// The query of a partial as `vitals stats` options, but for its time zone (which names the system's
  /// zone as it found it, see ``zone(named:path:)``).
  static func options(of partial: StatisticsPartial) -> [String] {
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
