/// The class scoring of one record: its ``BeatClassMatrix`` from a learning period on.
public struct RecordBeatClassScore: Sendable, Equatable, Codable {
  /// The record's name (e.g. `100`).
  public var record: String
  /// The bxb matrix of the beats from ``learningPeriod`` seconds on.
  public var matrix: BeatClassMatrix
  /// The learning period left out, in seconds (300 for EC57 and bxb's default).
  public var learningPeriod: Double

  public init(record: String, matrix: BeatClassMatrix, learningPeriod: Double) {
    self.record = record
    self.matrix = matrix
    self.learningPeriod = learningPeriod
  }
}

/// Beat-by-beat class comparison of labelled detections against labelled reference beats, as WFDB `bxb`
/// (ANSI/AAMI EC57) tallies it into its confusion matrix.
///
/// Rules implemented, from `bxb.c` and `sumstats.c` of the WFDB Software Package 10.5.24 (G. B. Moody):
/// - beats are matched as QRS detection is (``BeatMatching``, ±`matchWindow` rounded to whole samples,
///   EC57's 150 ms by default), so the QRS counts equal ``BeatComparison``'s;
/// - the learning period (`bxb -f`, default 5 minutes) is left out as ``BeatComparison`` leaves it out:
///   reference beats before it do not count, nor detections before it or paired with a reference beat
///   before it;
/// - reference beats and detections inside the reference's ventricular flutter or fibrillation episodes
///   (`[` to `]`) are left out before matching (bxb skips the reference's beats there and does not
///   count unmatched detections there);
/// - classes are ``BeatClass`` (EC57: N = N L R e j, S = A a J S, V = V E, F = F, Q = / f Q); beats
///   without a class (`nil`: MIT `?`, or codes ``BeatClass`` does not map) count as Q, as bxb counts
///   its `LEARN` and unknown beats;
/// - the statistics and their gross and per-record-average forms: ``BeatClassMatrix``,
///   ``BeatClassStatistics``.
///
/// Not implemented: bxb's shutdown rows and columns (`X`, from `~` annotations with subtype bits 4 and 5
/// set): their beats count as O here, which changes no statistic but bxb's "missed in shutdown" lines;
/// VF episodes marked in the test file; the RMS RR-interval error. bxb itself maps `e` and `j` to S; here
/// ``BeatClass`` decides (`e` and `j` are N, as in EC57's table).
public enum BeatClassComparison {
  /// The bxb matrix of `test` against `reference`.
  ///
  /// - Parameters:
  ///   - reference: reference beat positions in samples, sorted (beats only).
  ///   - referenceClasses: the class of each reference beat (`nil`: unclassified, counted as Q).
  ///   - test: detected beat positions in samples, sorted.
  ///   - testClasses: the class of each detected beat (`nil`: unclassified, counted as Q).
  ///   - sampleRate: samples per second of both position lists.
  ///   - matchWindow: the match window in seconds (EC57: 0.150).
  ///   - start: the learning period in seconds left out (bxb's default and EC57: 300; 0 for none).
  ///   - flutter: the reference's ventricular flutter episodes, left out.
  public static func score(
    reference: [Int64], referenceClasses: [BeatClass?], test: [Int64], testClasses: [BeatClass?],
    sampleRate: Double, matchWindow: Double = BeatComparison.standardMatchWindow,
    from start: Double = BeatComparison.standardLearningPeriod,
    excluding flutter: FlutterEpisodes = FlutterEpisodes()
  ) -> BeatClassMatrix {
    precondition(reference.count == referenceClasses.count, "one class per reference beat")
    precondition(test.count == testClasses.count, "one class per detected beat")
    let keptReference = reference.indices.filter { !flutter.contains(reference[$0]) }
    let keptTest = test.indices.filter { !flutter.contains(test[$0]) }
    let referenceBeats = keptReference.map { reference[$0] }
    let testBeats = keptTest.map { test[$0] }
    let matching = BeatMatching(
      reference: referenceBeats, test: testBeats,
      window: BeatComparison.windowSamples(matchWindow, sampleRate: sampleRate))
    func referenceClass(_ index: Int) -> BeatClass {
      referenceClasses[keptReference[index]] ?? .unclassifiable
    }
    func testClass(_ index: Int) -> BeatClass { testClasses[keptTest[index]] ?? .unclassifiable }
    var matrix = BeatClassMatrix()
    BeatComparison.forEachCountedEvent(
      matching, reference: referenceBeats, test: testBeats,
      startSample: BeatComparison.startSample(start, sampleRate)
    ) { event in
      switch event {
      case .pair(let r, let t): matrix[referenceClass(r), testClass(t)] += 1
      case .missed(let r): matrix[referenceClass(r), nil] += 1
      case .extra(let t): matrix[nil, testClass(t)] += 1
      }
    }
    return matrix
  }
}
