import EvalSupport
import Foundation
import Vitals

// The Vitals side of scripts/peers/compare_aggregation.py, timed inside the process (release, one core):
//   stats-eval aggregate FILE ZONE   FILE: little-endian Int64 n, then n Int64 starts (ns since the epoch),
//                                    n Int64 ends, n Float64 values; aggregated as a discrete type (mean)
//                                    and as a cumulative type (sum) into fixed hours and calendar days in
//                                    ZONE, each timed alone (best of 3). Each keeps only the statistic
//                                    the peer computes (options [discreteAverage] or [cumulativeSum]:
//                                    count and sum per interval), as pandas' resample().mean() / .sum().
//   stats-eval export FILE           reads an Apple Health export.xml with HealthExportReader (best of 3).
// Prints one JSON object: seconds per task, and the results for the peer's accuracy check.

func aggregate(path: String, zone: TimeZoneRules) throws -> [String: Any] {
  let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
  let n = data.withUnsafeBytes { Int($0.loadUnaligned(as: Int64.self)) }
  var starts = [Int64](repeating: 0, count: n)
  var ends = [Int64](repeating: 0, count: n)
  var values = [Double](repeating: 0, count: n)
  data.withUnsafeBytes { raw in
    starts.withUnsafeMutableBytes {
      $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[8..<(8 + 8 * n)]))
    }
    ends.withUnsafeMutableBytes {
      $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[(8 + 8 * n)..<(8 + 16 * n)]))
    }
    values.withUnsafeMutableBytes {
      $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[(8 + 16 * n)..<(8 + 24 * n)]))
    }
  }
  let range =
    Timestamp(nanosecondsSinceEpoch: starts.min()!)..<Timestamp(nanosecondsSinceEpoch: ends.max()! + 1)
  let anchor = Timestamp(nanosecondsSinceEpoch: 0)
  var result: [String: Any] = ["samples": n]
  for (name, length) in [("hourly", IntervalLength.seconds(3600)), ("daily", .days(1))] {
    // The day anchor: local midnight of 1970-01-01 in the zone.
    let dayAnchor = anchor.advanced(
      byNanoseconds: -Int64(zone.offset(atSecond: 0)) * 1_000_000_000)
    let intervals = IntervalCollection(
      length: length, anchor: length.isCalendar ? dayAnchor : anchor, timeZone: zone, covering: range)
    for (style, option) in [
      (AggregationStyle.discrete, StatisticsOption.discreteAverage), (.cumulative, .cumulativeSum),
    ] {
      var accumulator = IntervalAccumulator(intervals: intervals, style: style, options: [option])
      let seconds = best {
        accumulator = IntervalAccumulator(intervals: intervals, style: style, options: [option])
        starts.withUnsafeBufferPointer { s in
          ends.withUnsafeBufferPointer { e in
            values.withUnsafeBufferPointer { v in accumulator.add(starts: s, ends: e, values: v) }
          }
        }
      }
      let statistics = accumulator.allStatistics
      let key = "\(name)_\(style == .discrete ? "mean" : "sum")"
      result[key + "_seconds"] = seconds
      result[key + "_starts"] = statistics.map { $0.start.nanosecondsSinceEpoch }
      result[key] = statistics.map { $0.value(option) ?? .nan }
    }
  }
  return result
}

func readExport(path: String) throws -> [String: Any] {
  var records = 0
  let seconds = try best {
    records = 0
    let reader = try HealthExportReader(path: path)
    while try reader.next() != nil { records += 1 }
  }
  let bytes = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
  return ["seconds": seconds, "bytes": bytes, "records": records]
}

let arguments = CommandLine.arguments
do {
  let result: [String: Any]
  switch arguments.count > 2 ? arguments[1] : "" {
  case "aggregate" where arguments.count == 4:
    result = try aggregate(path: arguments[2], zone: TimeZoneRules(named: arguments[3]))
  case "export":
    result = try readExport(path: arguments[2])
  default:
    FileHandle.standardError.write(
      Data("usage: stats-eval aggregate FILE ZONE | stats-eval export FILE\n".utf8))
    exit(2)
  }
  let json = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
  FileHandle.standardOutput.write(json + Data("\n".utf8))
} catch {
  FileHandle.standardError.write(Data("stats-eval: \(error)\n".utf8))
  exit(1)
}
