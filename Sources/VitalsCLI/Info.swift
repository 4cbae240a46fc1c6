import ArgumentParser
import Vitals

/// `vitals info INPUT… [--json]`: what each recording holds.
public struct Info: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "info",
    abstract: "Print the signals, rates, lengths, units, start time and annotations of recordings.",
    discussion: "Exits 1 when some input could not be read (the others are still described).")

  @Argument(
    help:
      "Recordings: WFDB records (dir/100 or dir/100.hea), EDF/EDF+, CSV/TSV, Apple Health ECG CSV, or - for CSV on stdin."
  )
  public var inputs: [String]

  @Flag(help: "One JSON object per input, one per line.")
  public var json = false

  @Flag(
    help:
      "Read every sample: per signal the number of invalid (NaN or infinite) samples, minimum, maximum and mean."
  )
  public var scan = false

  @OptionGroup public var input: InputOptions

  public init() {}

  public func run() throws {
    var failed = false
    for path in inputs {
      do {
        let summary = try RecordingOpener.describe(
          path: path, options: input.recordingOptions, scanning: scan)
        print(json ? Self.json(summary) : Self.text(summary))
        summary.problems.forEach(printError)
        if json && summary.startTime == nil {
          printError("\(path): the recording states no start time: start_time is null (--start supplies one)")
        }
      } catch {
        printError(error.description)
        failed = true
      }
    }
    if failed { throw ExitCode(1) }
  }

  /// Seconds covered by the longest signal.
  static func duration(_ summary: RecordingSummary) -> Double? {
    summary.signals.compactMap { s in s.sampleCount.map { Double($0) / s.sampleRate } }.max()
  }

  static func text(_ summary: RecordingSummary) -> String {
    var lines = [summary.path]
    lines.append("  format: \(summary.format)")
    lines.append("  start: \(summary.startTime?.iso8601 ?? "unknown (the recording states none)")")
    if let d = duration(summary) { lines.append("  duration_s: \(d)") }
    lines.append("  signals:")
    for (i, s) in summary.signals.enumerated() {
      let count = s.sampleCount.map { "\($0) samples" } ?? "length unknown"
      let unit = s.unit.isEmpty ? "-" : s.unit
      lines.append("    \(i)  \(s.name)  \(unit)  \(s.sampleRate) Hz  \(count)")
    }
    if let scans = summary.scans {
      lines.append("  scan:")
      for (i, scan) in scans.enumerated() {
        let range =
          scan.minimum.map { "min \($0)  max \(scan.maximum!)  mean \(scan.mean!)" } ?? "no valid samples"
        lines.append("    \(i)  \(scan.count) samples  \(scan.invalidCount) invalid  \(range)")
      }
    }
    if let a = summary.annotationCount { lines.append("  annotations: \(a)") }
    if let stamps = summary.timeStamps {
      lines.append(
        "  gaps: \(stamps.gapCount) (missing \(stamps.missingSeconds) s, longest \(stamps.longestGapSeconds) s)"
      )
      lines.append("  jitter_s: \(stamps.jitterSeconds)")
    } else if let g = summary.gapCount {
      lines.append("  gaps: \(g)")
    }
    for key in summary.metadata.keys.sorted() { lines.append("  \(key): \(summary.metadata[key]!)") }
    return lines.joined(separator: "\n")
  }

  private struct JSONSummary: Encodable {
    struct Signal: Encodable {
      var index: Int
      var name: String
      var unit: String
      var sample_rate: Double
      var sample_count: Int64?
      var scan: Scan?
    }
    struct Scan: Encodable {
      var count: Int64
      var invalid: Int64
      var minimum: Float?
      var maximum: Float?
      var mean: Double?
    }
    var path: String
    var format: String
    var start_time: NullableJSON<String>
    var duration_s: Double?
    var signals: [Signal]
    var annotations: Int?
    var gaps: Int?
    var missing_s: Double?
    var longest_gap_s: Double?
    var jitter_s: Double?
    var metadata: [String: String]
  }

  static func json(_ summary: RecordingSummary) -> String {
    let value = JSONSummary(
      path: summary.path, format: summary.format, start_time: NullableJSON(summary.startTime?.iso8601),
      duration_s: duration(summary),
      signals: summary.signals.enumerated().map { index, signal in
        .init(
          index: index, name: signal.name, unit: signal.unit, sample_rate: signal.sampleRate,
          sample_count: signal.sampleCount,
          scan: summary.scans.map { scans in
            let scan = scans[index]
            return .init(
              count: scan.count, invalid: scan.invalidCount, minimum: scan.minimum, maximum: scan.maximum,
              mean: scan.mean)
          })
      },
      annotations: summary.annotationCount, gaps: summary.gapCount,
      missing_s: summary.timeStamps?.missingSeconds, longest_gap_s: summary.timeStamps?.longestGapSeconds,
      jitter_s: summary.timeStamps?.jitterSeconds, metadata: summary.metadata)
    return compactJSON(value)
  }
}

/// A value written as JSON `null` when absent (synthesized encoding leaves absent optionals out).
struct NullableJSON<Value: Encodable>: Encodable {
  var value: Value?

  init(_ value: Value?) { self.value = value }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let value { try container.encode(value) } else { try container.encodeNil() }
  }
}
