// The starts of short recordings: stretches of 10 s cut at seeded random places from the MIT-BIH
// records, as a 30-s watch ECG or a challenge excerpt starts anywhere in the cardiac cycle (on a T wave,
// just after an R peak). The detector runs on each stretch alone; its false and missed beats (150 ms
// window) are counted per second of the stretch beside those of the whole record's detection over the
// same stretch, which had the record before it to learn from.
import Foundation
import Vitals

struct StartOfRecordErrors {
  static let stretchSeconds = 10
  static let stretchesPerRecord = 40
  /// Per second of the stretches: false and missed beats of the stretch's own detection, and of the
  /// whole record's.
  var falseOnStretch = [Int](repeating: 0, count: stretchSeconds)
  var falseInWhole = [Int](repeating: 0, count: stretchSeconds)
  var missedOnStretch = [Int](repeating: 0, count: stretchSeconds)
  var missedInWhole = [Int](repeating: 0, count: stretchSeconds)
  var stretches = 0

  /// Cuts the stretches of one record (`beats`: the whole record's detection), from 2 s on, with a
  /// generator seeded by the record's number so that a subset of records gives the same stretches.
  mutating func add(
    record: String, signal: [Float], reference: [Int64], beats: [Int64], rate: Double,
    detect: ([Float]) throws -> [Int64]
  ) rethrows {
    let length = Self.stretchSeconds * Int(rate)
    let first = 2 * Int(rate)
    guard signal.count > first + length else { return }
    var random = SplitMix64(state: UInt64(record) ?? 0)
    for _ in 0..<Self.stretchesPerRecord {
      let start = Int.random(in: first..<(signal.count - length), using: &random)
      let span = Int64(start)..<Int64(start + length)
      let truth = reference.filter { span.contains($0) }.map { $0 - Int64(start) }
      let whole = beats.filter { span.contains($0) }.map { $0 - Int64(start) }
      tally(truth, try detect(Array(signal[start..<start + length])), rate, &falseOnStretch, &missedOnStretch)
      tally(truth, whole, rate, &falseInWhole, &missedInWhole)
      stretches += 1
    }
  }

  private func tally(
    _ truth: [Int64], _ test: [Int64], _ rate: Double, _ false: inout [Int], _ missed: inout [Int]
  ) {
    let matching = BeatMatching(
      reference: truth, test: test,
      window: BeatComparison.windowSamples(BeatComparison.standardMatchWindow, sampleRate: rate))
    let second = { (sample: Int64) in min(Self.stretchSeconds - 1, Int(Double(sample) / rate)) }
    for index in matching.unmatchedTest { `false`[second(test[index])] += 1 }
    for index in matching.unmatchedReference { missed[second(truth[index])] += 1 }
  }

  func report() {
    print(
      "\nStarts of records: \(stretches) stretches of \(Self.stretchSeconds) s cut at random from the MIT-BIH"
        + " records (\(Self.stretchesPerRecord) per record), detected alone and read from the whole record's"
        + " detection; false and missed beats per second of the stretch")
    print("second          " + (0..<Self.stretchSeconds).map { String(format: "%5d", $0) }.joined())
    for (name, counts) in [
      ("false, alone", falseOnStretch), ("false, whole", falseInWhole), ("missed, alone", missedOnStretch),
      ("missed, whole", missedInWhole),
    ] {
      print(
        name.padding(toLength: 16, withPad: " ", startingAt: 0)
          + counts.map { String(format: "%5d", $0) }.joined())
    }
  }
}
