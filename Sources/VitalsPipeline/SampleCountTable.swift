import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsStatistics

/// Heartbeat series or electrocardiogram counts per interval (`SampleCounts`) as `vitals stats` writes
/// them: CSV (``csv()``) or one JSON object (``json()``), times in ISO 8601 with the offset of a time zone.
///
/// Electrocardiograms are counted per HealthKit classification in the order of
/// `ElectrocardiogramClassification.allCases`; a name that is not one of its cases counts as
/// `unrecognized`.
public struct SampleCountTable: Sendable {
  /// The kind counted.
  public var kind: SampleCounts.Kind
  /// The counts, one per interval, in order.
  public var intervals: [SampleCounts.Interval]
  /// The zone of the times written.
  public var timeZone: TimeZoneRules

  /// The table of `intervals`.
  public init(kind: SampleCounts.Kind, intervals: [SampleCounts.Interval], timeZone: TimeZoneRules) {
    self.kind = kind
    self.intervals = intervals
    self.timeZone = timeZone
  }

  /// The classification counts of `interval`, one per case of `ElectrocardiogramClassification`.
  private func classifications(_ interval: SampleCounts.Interval) -> [Int] {
    var counts = [Int](repeating: 0, count: ElectrocardiogramClassification.allCases.count)
    for (name, count) in interval.classifications {
      let known = ElectrocardiogramClassification(rawValue: name) ?? .unrecognized
      counts[ElectrocardiogramClassification.allCases.firstIndex(of: known)!] += count
    }
    return counts
  }

  /// `start,end,count,beats` rows (heartbeat series: samples starting in the interval and their beats)
  /// or `start,end,count,notSet,sinusRhythm,…` rows (electrocardiograms: samples and samples per
  /// classification), one per interval.
  public func csv() -> String {
    let names = ElectrocardiogramClassification.allCases.map(\.rawValue)
    var text = "start,end,count," + (kind == .heartbeatSeries ? "beats" : names.joined(separator: ",")) + "\n"
    for interval in intervals {
      let counts = kind == .heartbeatSeries ? [interval.beats] : classifications(interval)
      let fields = [interval.start.iso8601(in: timeZone), interval.end.iso8601(in: timeZone)]
      text += (fields + ([interval.count] + counts).map(String.init)).joined(separator: ",") + "\n"
    }
    return text
  }

  private struct Row: Encodable {
    var start: String
    var end: String
    var count: Int
    var beats: Int?
    var classifications: [String: Int]?
  }

  private struct Document: Encodable {
    var type: String
    var intervals: [Row]
  }

  /// One JSON object, keys sorted, and a line break: `type` and `intervals` as
  /// `[{start, end, count, beats}]` (heartbeat series) or `[{start, end, count, classifications}]`
  /// (electrocardiograms: every HealthKit case and its count).
  public func json() -> String {
    let names = ElectrocardiogramClassification.allCases.map(\.rawValue)
    let rows = intervals.map { interval in
      Row(
        start: interval.start.iso8601(in: timeZone), end: interval.end.iso8601(in: timeZone),
        count: interval.count, beats: kind == .heartbeatSeries ? interval.beats : nil,
        classifications: kind == .electrocardiogram
          ? Dictionary(uniqueKeysWithValues: zip(names, classifications(interval))) : nil)
    }
    return compactJSON(Document(type: kind.rawValue, intervals: rows)) + "\n"
  }
}
