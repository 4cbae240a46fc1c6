import ArgumentParser
import Foundation
import Vitals

/// `vitals info INPUT… [--json]`: what each recording holds.
public struct Info: ParsableCommand {
  public static let configuration = CommandConfiguration(
    abstract: "Print the signals, rates, lengths, units, start time and annotations of recordings.",
    discussion: "Exits 1 when some input could not be read (the others are still described).")

  @Argument(help: "Recordings: WFDB records (dir/100 or dir/100.hea), EDF/EDF+, CSV/TSV, Apple Health ECG CSV, or - for CSV on stdin.")
  public var inputs: [String]

  @Flag(help: "One JSON object per input, one per line.")
  public var json = false

  @OptionGroup public var input: InputOptions

  public init() {}

  public func run() throws {
    var failed = false
    for path in inputs {
      do {
        let summary = try RecordingOpener.summarize(path: path, options: input.recordingOptions)
        print(json ? Self.json(summary) : Self.text(summary))
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
    lines.append("  start: \(isoString(summary.startTime))")
    if let d = duration(summary) { lines.append("  duration_s: \(d)") }
    lines.append("  signals:")
    for (i, s) in summary.signals.enumerated() {
      let count = s.sampleCount.map { "\($0) samples" } ?? "length unknown"
      let unit = s.unit.isEmpty ? "-" : s.unit
      lines.append("    \(i)  \(s.name)  \(unit)  \(s.sampleRate) Hz  \(count)")
    }
    if let a = summary.annotationCount { lines.append("  annotations: \(a)") }
    if let g = summary.gapCount { lines.append("  gaps: \(g)") }
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
    }
    var path: String
    var format: String
    var start_time: String
    var duration_s: Double?
    var signals: [Signal]
    var annotations: Int?
    var gaps: Int?
    var metadata: [String: String]
  }

  static func json(_ summary: RecordingSummary) -> String {
    let value = JSONSummary(
      path: summary.path, format: summary.format, start_time: isoString(summary.startTime),
      duration_s: duration(summary),
      signals: summary.signals.enumerated().map {
        .init(
          index: $0, name: $1.name, unit: $1.unit, sample_rate: $1.sampleRate, sample_count: $1.sampleCount)
      },
      annotations: summary.annotationCount, gaps: summary.gapCount, metadata: summary.metadata)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
  }
}

/// `2011-01-01T00:00:00Z`, with a fraction when the time has one (UTC).
func isoString(_ time: Timestamp) -> String {
  let ns = time.nanosecondsSinceEpoch
  var seconds = ns / 1_000_000_000
  var fraction = ns % 1_000_000_000
  if fraction < 0 {
    fraction += 1_000_000_000
    seconds -= 1
  }
  var days = seconds / 86_400
  var secondOfDay = seconds % 86_400
  if secondOfDay < 0 {
    secondOfDay += 86_400
    days -= 1
  }
  // Hinnant's civil_from_days.
  let z = days + 719_468
  let era = (z >= 0 ? z : z - 146_096) / 146_097
  let doe = z - era * 146_097
  let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
  let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
  let mp = (5 * doy + 2) / 153
  let day = doy - (153 * mp + 2) / 5 + 1
  let month = mp < 10 ? mp + 3 : mp - 9
  let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
  func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
  var text =
    "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
  if fraction > 0 {
    var digits = String(fraction)
    digits = String(repeating: "0", count: 9 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    text += "." + digits
  }
  return text + "Z"
}
