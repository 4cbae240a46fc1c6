import Foundation
import Testing
import VitalsAnalysis
import VitalsTestSupport

@Suite("Beat class scoring (bxb)")
struct BeatClassComparisonTests {
  /// Scores at 1000 Hz (window 150 samples) with no learning period unless `start` is given.
  private func score(
    _ reference: [(Int64, BeatClass?)], _ test: [(Int64, BeatClass?)], start: Double = 0,
    flutter: FlutterEpisodes = FlutterEpisodes()
  ) -> BeatClassMatrix {
    BeatClassComparison.score(
      reference: reference.map(\.0), referenceClasses: reference.map(\.1), test: test.map(\.0),
      testClasses: test.map(\.1), sampleRate: 1000, from: start, excluding: flutter)
  }

  @Test("a V called N, an S called V, an extra beat, a missed V")
  func mistakes() {
    // Reference N V S N V N at 1, 2, …, 6 s. Test: N (1.010), N for the V (2.005), V for the S (2.990),
    // an extra N at 3.5, N (4.000), nothing for the V at 5, N (6.020).
    // Matrix: Nn = 3, Vn = 1, Sv = 1, Vo = 1 (missed), On = 1 (extra).
    // QRS: TP 5, FN 1, FP 1. V: TP Vv = 0, FN Vn + Vo = 2, FP Nv + Sv + Ov = 1,
    // TN (rows N S F Q O × columns n s f q) = Nn + On = 4, FPR 1/5. S: TP 0, FN Sv = 1, FP 0.
    let matrix = score(
      [
        (1000, .normal), (2000, .ventricular), (3000, .supraventricular), (4000, .normal),
        (5000, .ventricular),
        (6000, .normal),
      ],
      [
        (1010, .normal), (2005, .normal), (2990, .ventricular), (3500, .normal), (4000, .normal),
        (6020, .normal),
      ])
    #expect(matrix[.normal, .normal] == 3 && matrix[.ventricular, .normal] == 1)
    #expect(matrix[.supraventricular, .ventricular] == 1 && matrix[.ventricular, nil] == 1)
    #expect(matrix[nil, .normal] == 1 && matrix.counts.joined().reduce(0, +) == 7)
    #expect(matrix.qrs == BeatScore(truePositives: 5, falseNegatives: 1, falsePositives: 1))
    #expect(matrix.ventricular == BeatScore(truePositives: 0, falseNegatives: 2, falsePositives: 1))
    #expect(matrix.ventricularTrueNegatives == 4 && matrix.ventricularFalsePositiveRate == 0.2)
    #expect(matrix.supraventricular == BeatScore(truePositives: 0, falseNegatives: 1, falsePositives: 0))
    let statistics = BeatClassStatistics(matrix)
    #expect(statistics.ventricularSensitivity == 0 && statistics.supraventricularPositivePredictivity.isNaN)
    #expect(statistics.qrsSensitivity == 5.0 / 6 && statistics.qrsPositivePredictivity == 5.0 / 6)
  }

  @Test("F and Q beats labelled V count neither way; Q labelled S is no S false positive; nil is Q")
  func fusionAndUnclassified() {
    // Reference F, Q, unclassified (nil → Q), F, S; test V, V, S, S, S at the same times.
    // Matrix: Fv = 1, Qv = 1, Qs = 1, Fs = 1, Ss = 1. V: FP = Nv + Sv + Ov = 0 (+P undefined), TN = Fs + Qs
    // + Ss = 3, FPR 0. S: TP Ss = 1, FP = Ns + Vs + Fs + Os = 1 (Qs left out), +P 1/2.
    let matrix = score(
      [(1000, .fusion), (2000, .unclassifiable), (3000, nil), (4000, .fusion), (5000, .supraventricular)],
      [
        (1000, .ventricular), (2000, .ventricular), (3000, .supraventricular), (4000, .supraventricular),
        (5000, .supraventricular),
      ])
    #expect(matrix[.fusion, .ventricular] == 1 && matrix[.unclassifiable, .ventricular] == 1)
    #expect(matrix[.unclassifiable, .supraventricular] == 1 && matrix[.fusion, .supraventricular] == 1)
    #expect(matrix.ventricular == BeatScore() && matrix.ventricular.positivePredictivity.isNaN)
    #expect(matrix.ventricularTrueNegatives == 3 && matrix.ventricularFalsePositiveRate == 0)
    #expect(matrix.supraventricular == BeatScore(truePositives: 1, falseNegatives: 0, falsePositives: 1))
  }

  @Test("beats inside the reference's ventricular flutter are left out, reference and test alike")
  func flutter() {
    // Flutter from 10 to 12 s. Reference N (1 s), V (10.5 s, inside), V (13 s); test N (1 s), V at 10.2 and
    // 11 s (inside), V (13.010). Left out: Nn = 1, Vv = 1. Kept in: the V at 10.5 is 300 ms from both
    // detections, so Vo = 1 and Ov = 2 as well.
    let reference: [(Int64, BeatClass?)] = [(1000, .normal), (10_500, .ventricular), (13_000, .ventricular)]
    let test: [(Int64, BeatClass?)] = [
      (1000, .normal), (10_200, .ventricular), (11_000, .ventricular), (13_010, .ventricular),
    ]
    let excluded = score(reference, test, flutter: FlutterEpisodes(episodes: [10_000...12_000]))
    #expect(excluded[.normal, .normal] == 1 && excluded[.ventricular, .ventricular] == 1)
    #expect(excluded.counts.joined().reduce(0, +) == 2)
    let included = score(reference, test)
    #expect(included[.ventricular, nil] == 1 && included[nil, .ventricular] == 2)
    #expect(included.counts.joined().reduce(0, +) == 5)
  }

  @Test("the learning period: pairs count by their reference beat, as bxb -f")
  func learningPeriod() {
    // Reference V 3.000, N 4.950, V 6.000, S 8.040, N 9.000; test N 3.000, N 5.050, V 6.000, S 7.990,
    // N 9.000 and an extra V at 9.500. Pairs: 3000/3000, 4950/5050, 6000/6000, 8040/7990, 9000/9000.
    let reference: [(Int64, BeatClass?)] = [
      (3000, .ventricular), (4950, .normal), (6000, .ventricular), (8040, .supraventricular), (9000, .normal),
    ]
    let test: [(Int64, BeatClass?)] = [
      (3000, .normal), (5050, .normal), (6000, .ventricular), (7990, .supraventricular), (9000, .normal),
      (9500, .ventricular),
    ]
    // From 0: Vn 1, Nn 2, Vv 1, Ss 1, Ov 1.
    let whole = score(reference, test)
    #expect(
      whole[.ventricular, .normal] == 1 && whole[.normal, .normal] == 2 && whole[nil, .ventricular] == 1)
    // From 5 s: the pair 4950/5050 has its reference beat before the start and is not counted at all
    // (nor its detection as extra): Vv 1, Ss 1, Nn 1, Ov 1.
    let fromFive = score(reference, test, start: 5)
    #expect(fromFive[.ventricular, .ventricular] == 1 && fromFive[.supraventricular, .supraventricular] == 1)
    #expect(fromFive[.normal, .normal] == 1 && fromFive[nil, .ventricular] == 1)
    #expect(fromFive.counts.joined().reduce(0, +) == 4)
    // From 8 s: the pair 8040/7990 counts (its reference beat is after the start) though its detection is
    // before: Ss 1, Nn 1, Ov 1.
    let fromEight = score(reference, test, start: 8)
    #expect(
      fromEight[.supraventricular, .supraventricular] == 1 && fromEight.counts.joined().reduce(0, +) == 3)
  }

  @Test("gross statistics sum the matrices; the average is the mean of the defined per-record values")
  func grossAndAverage() {
    var first = BeatClassMatrix()
    first[.ventricular, .ventricular] = 1  // V Se 1/1
    first[.normal, .normal] = 3
    first[.normal, .ventricular] = 1  // V FPR 1/4 (TN Nn = 3, FP Nv = 1)
    var second = BeatClassMatrix()
    second[.ventricular, .ventricular] = 1
    second[.ventricular, .normal] = 3  // V Se 1/4
    let gross = BeatClassMatrix.gross([first, second])
    #expect(gross[.ventricular, .ventricular] == 2 && gross[.ventricular, .normal] == 3)
    #expect(BeatClassStatistics(gross).ventricularSensitivity == 0.4)  // 2/5, not the mean
    let average = BeatClassStatistics(averageOf: [first, second])
    #expect(average.ventricularSensitivity == 0.625)  // (1 + 0.25) / 2
    #expect(average.supraventricularSensitivity.isNaN)  // no S beat in either record
    // Defined in the first only (no TN or FP in the second).
    #expect(average.ventricularFalsePositiveRate == 0.25)
  }

  @Test("the QRS counts of the matrix are those of BeatComparison, on jittered beats with misses and extras")
  func qrsAgrees() {
    var random = SplitMix64(state: 20)
    var reference: [Int64] = []
    var test: [Int64] = []
    var sample: Int64 = 100
    for _ in 0..<2000 {
      sample += 250 + Int64(random.next() % 400)
      reference.append(sample)
      let roll = random.next() % 20
      if roll != 0 { test.append(sample + Int64(random.next() % 301) - 150) }  // 1 in 20 missed
      if roll == 1 { test.append(sample + 170) }  // an extra, just outside the window
    }
    test.sort()
    let classes = [BeatClass?](repeating: .normal, count: reference.count)
    let matrix = BeatClassComparison.score(
      reference: reference, referenceClasses: classes, test: test,
      testClasses: [BeatClass?](repeating: .ventricular, count: test.count), sampleRate: 1000, from: 300)
    #expect(matrix.qrs == BeatComparison.score(reference: reference, test: test, sampleRate: 1000, from: 300))
    #expect(matrix.qrs.truePositives == matrix[.normal, .ventricular])
  }

  @Test("Codable: counts round-trip; another shape is refused")
  func codable() throws {
    var matrix = BeatClassMatrix()
    matrix[.supraventricular, .normal] = 4
    matrix[nil, .fusion] = 2
    let data = try JSONEncoder().encode(matrix)
    #expect(try JSONDecoder().decode(BeatClassMatrix.self, from: data) == matrix)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(BeatClassMatrix.self, from: Data(#"{"counts": [[1, 2]]}"#.utf8))
    }
  }
}
