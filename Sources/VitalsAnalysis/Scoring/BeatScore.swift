/// Beat-detection counts and the statistics of ANSI/AAMI EC57: one record, or several summed (gross).
///
/// Mergeable: ``add(_:)`` sums counts, so gross statistics over records are those of the summed
/// counts (not averages of per-record percentages). Encodes the counts and the three statistics.
public struct BeatScore: Sendable, Equatable, Codable {
  /// Reference beats matched by a detection.
  public var truePositives: Int
  /// Reference beats no detection matched.
  public var falseNegatives: Int
  /// Detections that matched no reference beat.
  public var falsePositives: Int

  public init(truePositives: Int = 0, falseNegatives: Int = 0, falsePositives: Int = 0) {
    self.truePositives = truePositives
    self.falseNegatives = falseNegatives
    self.falsePositives = falsePositives
  }

  /// Se = TP / (TP + FN), as a fraction in [0, 1]; NaN without reference beats.
  public var sensitivity: Double { Self.ratio(truePositives, truePositives + falseNegatives) }
  /// +P = TP / (TP + FP), as a fraction in [0, 1]; NaN without detections.
  public var positivePredictivity: Double { Self.ratio(truePositives, truePositives + falsePositives) }
  /// F1 = 2TP / (2TP + FN + FP), as a fraction in [0, 1]; NaN when both lists are empty.
  public var f1: Double {
    Self.ratio(2 * truePositives, 2 * truePositives + falseNegatives + falsePositives)
  }

  /// Adds the counts of `other` (gross statistics over records).
  public mutating func add(_ other: BeatScore) {
    truePositives += other.truePositives
    falseNegatives += other.falseNegatives
    falsePositives += other.falsePositives
  }

  /// The sum of `scores` (gross statistics).
  public static func gross(_ scores: some Sequence<BeatScore>) -> BeatScore {
    scores.reduce(into: BeatScore()) { $0.add($1) }
  }

  private static func ratio(_ numerator: Int, _ denominator: Int) -> Double {
    denominator == 0 ? .nan : Double(numerator) / Double(denominator)
  }

  private enum CodingKeys: String, CodingKey {
    case truePositives, falseNegatives, falsePositives, sensitivity, positivePredictivity, f1
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      truePositives: try container.decode(Int.self, forKey: .truePositives),
      falseNegatives: try container.decode(Int.self, forKey: .falseNegatives),
      falsePositives: try container.decode(Int.self, forKey: .falsePositives))
  }

  /// Writes the counts and, when defined, Se, +P and F1 (omitted when NaN, so plain JSON encoders work).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(truePositives, forKey: .truePositives)
    try container.encode(falseNegatives, forKey: .falseNegatives)
    try container.encode(falsePositives, forKey: .falsePositives)
    for (key, value) in [
      (CodingKeys.sensitivity, sensitivity), (.positivePredictivity, positivePredictivity), (.f1, f1),
    ]
    where !value.isNaN {
      try container.encode(value, forKey: key)
    }
  }
}

/// The beat-by-beat comparison of one record, as WFDB `bxb` reports it: the whole record and the
/// ANSI/AAMI EC57 variant that leaves out a learning period at the start.
public struct RecordBeatScore: Sendable, Equatable, Codable {
  /// The record's name (e.g. `100`).
  public var record: String
  /// Every beat of the record.
  public var wholeRecord: BeatScore
  /// Beats from ``learningPeriod`` seconds on (see ``BeatComparison/score(reference:test:sampleRate:matchWindow:from:)``).
  public var afterLearningPeriod: BeatScore
  /// The learning period left out of ``afterLearningPeriod``, in seconds (300 for EC57).
  public var learningPeriod: Double

  public init(record: String, wholeRecord: BeatScore, afterLearningPeriod: BeatScore, learningPeriod: Double)
  {
    self.record = record
    self.wholeRecord = wholeRecord
    self.afterLearningPeriod = afterLearningPeriod
    self.learningPeriod = learningPeriod
  }
}

/// Beat-by-beat comparison of detected beats against reference beats (ANSI/AAMI EC57, WFDB `bxb`).
public enum BeatComparison {
  /// The EC57 match window: 150 ms.
  public static let standardMatchWindow = 0.150
  /// The EC57 learning period left out of the second set of statistics: 5 minutes.
  public static let standardLearningPeriod = 300.0

  /// Scores `test` against `reference` from `start` seconds on.
  ///
  /// Beats are matched over the whole record with ``BeatMatching`` (window `matchWindow` seconds,
  /// rounded to whole samples as `bxb` does, inclusive). Then, as `bxb -f` does:
  /// - reference beats before `start` are not counted, matched or not;
  /// - a pair counts as a true positive when its reference beat is at or after `start`, even if the
  ///   detection lies just before `start` (bxb pairs the last test beat of the learning period with
  ///   the first reference beat after it);
  /// - a detection at or after `start` that is paired with a reference beat before `start` is not
  ///   counted at all (bxb discards such a test beat in the first match window);
  /// - unmatched detections count as false positives when at or after `start`.
  ///
  /// - Parameters:
  ///   - reference: reference beat positions in samples, sorted (beats only, see ``MITAnnotationCode``).
  ///   - test: detected beat positions in samples, sorted.
  ///   - sampleRate: samples per second of both position lists.
  ///   - matchWindow: the match window in seconds (EC57: 0.150).
  ///   - start: the first second scored (0 for the whole record, 300 for EC57's variant).
  public static func score(
    reference: [Int64], test: [Int64], sampleRate: Double, matchWindow: Double = standardMatchWindow,
    from start: Double = 0
  ) -> BeatScore {
    let matching = BeatMatching(
      reference: reference, test: test, window: windowSamples(matchWindow, sampleRate: sampleRate))
    return tally(matching, reference: reference, test: test, startSample: startSample(start, sampleRate))
  }

  /// Scores one record both ways with a single matching: the whole record and from `learningPeriod` on.
  public static func scoreRecord(
    _ record: String, reference: [Int64], test: [Int64], sampleRate: Double,
    matchWindow: Double = standardMatchWindow, learningPeriod: Double = standardLearningPeriod
  ) -> RecordBeatScore {
    let matching = BeatMatching(
      reference: reference, test: test, window: windowSamples(matchWindow, sampleRate: sampleRate))
    return RecordBeatScore(
      record: record,
      wholeRecord: tally(matching, reference: reference, test: test, startSample: .min),
      afterLearningPeriod: tally(
        matching, reference: reference, test: test, startSample: startSample(learningPeriod, sampleRate)),
      learningPeriod: learningPeriod)
  }

  /// The match window in whole samples: `seconds · rate` rounded to nearest (bxb's `strtim`).
  public static func windowSamples(_ seconds: Double, sampleRate: Double) -> Int64 {
    precondition(seconds >= 0 && seconds.isFinite, "match window must be a finite non-negative time")
    precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive and finite")
    return Int64((seconds * sampleRate).rounded())
  }

  static func startSample(_ seconds: Double, _ sampleRate: Double) -> Int64 {
    seconds <= 0 ? .min : windowSamples(seconds, sampleRate: sampleRate)
  }

  /// One event of a matching that counts from a start on: a pair, a missed reference beat, an extra
  /// detection (indices into the matched arrays).
  enum CountedEvent {
    case pair(reference: Int, test: Int)
    case missed(reference: Int)
    case extra(test: Int)
  }

  /// Calls `body` with every event of `matching` that counts from `startSample` on, by the rules of
  /// ``score(reference:test:sampleRate:matchWindow:from:)`` (`bxb -f`).
  static func forEachCountedEvent(
    _ matching: BeatMatching, reference: [Int64], test: [Int64], startSample: Int64,
    _ body: (CountedEvent) -> Void
  ) {
    for pair in matching.pairs where reference[pair.reference] >= startSample {
      body(.pair(reference: pair.reference, test: pair.test))
    }
    for index in matching.unmatchedReference where reference[index] >= startSample {
      body(.missed(reference: index))
    }
    for index in matching.unmatchedTest where test[index] >= startSample { body(.extra(test: index)) }
  }

  private static func tally(
    _ matching: BeatMatching, reference: [Int64], test: [Int64], startSample: Int64
  ) -> BeatScore {
    var score = BeatScore()
    forEachCountedEvent(matching, reference: reference, test: test, startSample: startSample) { event in
      switch event {
      case .pair: score.truePositives += 1
      case .missed: score.falseNegatives += 1
      case .extra: score.falsePositives += 1
      }
    }
    return score
  }
}
