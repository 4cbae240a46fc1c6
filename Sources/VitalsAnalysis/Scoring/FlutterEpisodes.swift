/// Episodes of ventricular flutter or fibrillation, which ANSI/AAMI EC57 leaves out of QRS detection
/// statistics (a detector is not expected to find beats in them): each runs from a `[` annotation
/// (start of flutter/fibrillation, MIT code 32) to the next `]` (end, code 33), both inclusive; a `[`
/// without its `]` runs to the end of the record. `]` without a `[` before it is ignored.
public struct FlutterEpisodes: Sendable, Equatable {
  /// The episodes in sample indices, sorted and disjoint.
  public var episodes: [ClosedRange<Int64>]

  /// Episodes given directly (sorted, disjoint).
  public init(episodes: [ClosedRange<Int64>] = []) {
    precondition(
      episodes.indices.dropFirst().allSatisfy { episodes[$0 - 1].upperBound < episodes[$0].lowerBound },
      "flutter episodes must be sorted and disjoint")
    self.episodes = episodes
  }

  /// The episodes marked in an annotation list, taken in the order given: `samples` and `symbols` (the
  /// MIT mnemonics of every annotation, not only beats). Episodes that overlap (annotations out of
  /// time order) are merged.
  public init(samples: [Int64], symbols: [String]) {
    precondition(samples.count == symbols.count, "one symbol per annotation")
    var episodes: [ClosedRange<Int64>] = []
    var start: Int64?
    for (sample, symbol) in zip(samples, symbols) {
      if symbol == "[" && start == nil {
        start = sample
      } else if symbol == "]", let begun = start {
        episodes.append(begun...sample)
        start = nil
      }
    }
    if let start { episodes.append(start...Int64.max) }
    episodes.sort { $0.lowerBound < $1.lowerBound }
    var merged: [ClosedRange<Int64>] = []
    for episode in episodes {
      if let last = merged.last, episode.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound...Swift.max(last.upperBound, episode.upperBound)
      } else {
        merged.append(episode)
      }
    }
    self.episodes = merged
  }

  /// Whether `sample` lies in an episode (binary search, O(log episodes)).
  public func contains(_ sample: Int64) -> Bool {
    var low = 0
    var high = episodes.count
    while low < high {
      let middle = (low + high) / 2
      if episodes[middle].upperBound < sample { low = middle + 1 } else { high = middle }
    }
    return low < episodes.count && episodes[low].contains(sample)
  }

  /// `beats` without those inside an episode, order kept.
  public func removing(from beats: [Int64]) -> [Int64] {
    episodes.isEmpty ? beats : beats.filter { !contains($0) }
  }
}

extension BeatComparison {
  /// ``scoreRecord(_:reference:test:sampleRate:matchWindow:learningPeriod:)`` with the reference beats
  /// and the detections inside `flutter` left out before matching (ANSI/AAMI EC57: QRS detection is
  /// not scored during ventricular flutter or fibrillation).
  public static func scoreRecord(
    _ record: String, reference: [Int64], test: [Int64], sampleRate: Double,
    matchWindow: Double = standardMatchWindow, learningPeriod: Double = standardLearningPeriod,
    excluding flutter: FlutterEpisodes
  ) -> RecordBeatScore {
    scoreRecord(
      record, reference: flutter.removing(from: reference), test: flutter.removing(from: test),
      sampleRate: sampleRate, matchWindow: matchWindow, learningPeriod: learningPeriod)
  }
}
