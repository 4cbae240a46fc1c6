import Testing
import VitalsAnalysis
import VitalsTestSupport

@Suite("Beat-by-beat comparison")
struct BeatComparisonTests {
  /// Brute force: every one-to-one matching within the window, best (count, −total distance).
  static func bruteForce(_ reference: [Int64], _ test: [Int64], _ window: Int64) -> (count: Int, cost: Int64)
  {
    func search(_ i: Int, _ used: Set<Int>) -> (Int, Int64) {
      guard i < reference.count else { return (0, 0) }
      var best = search(i + 1, used)
      for j in test.indices where !used.contains(j) && abs(test[j] - reference[i]) <= window {
        let rest = search(i + 1, used.union([j]))
        let candidate = (rest.0 + 1, rest.1 + abs(test[j] - reference[i]))
        if candidate.0 > best.0 || (candidate.0 == best.0 && candidate.1 < best.1) { best = candidate }
      }
      return best
    }
    return search(0, [])
  }

  static func check(_ matching: BeatMatching, _ reference: [Int64], _ test: [Int64], _ window: Int64) {
    #expect(matching.pairs.count + matching.unmatchedReference.count == reference.count)
    #expect(matching.pairs.count + matching.unmatchedTest.count == test.count)
    #expect(Set(matching.pairs.map(\.reference)).isDisjoint(with: matching.unmatchedReference))
    #expect(Set(matching.pairs.map(\.test)).isDisjoint(with: matching.unmatchedTest))
    for pair in matching.pairs { #expect(abs(reference[pair.reference] - test[pair.test]) <= window) }
  }

  @Test("A detection goes to the nearer reference beat, not the first one scanned")
  func nearestWins() {
    // Reference 0 and 260; one detection at 140: 120 from the second, 140 from the first.
    let matching = BeatMatching(reference: [0, 260], test: [140], window: 150)
    #expect(matching.pairs == [BeatMatching.Pair(reference: 1, test: 0)])
    #expect(matching.unmatchedReference == [0])
  }

  @Test("A greedy scan would steal: the maximum number of pairs wins over nearest-first")
  func noStealing() {
    // Detection 100 is nearest to reference 90, but taking it leaves reference 0 without a match;
    // detection -40 can only match reference 0. The optimum pairs (0, −40) and (90, 100).
    let reference: [Int64] = [0, 90, 300]
    let test: [Int64] = [-40, 100, 420]
    let matching = BeatMatching(reference: reference, test: test, window: 150)
    #expect(matching.pairs.count == 3)
    // bxb's own example (match window 37): ref 96, 160; test 128, 185 → both pairs.
    let bxb = BeatMatching(reference: [96, 160], test: [128, 185], window: 37)
    #expect(
      bxb.pairs == [BeatMatching.Pair(reference: 0, test: 0), BeatMatching.Pair(reference: 1, test: 1)])
    // A chain where the nearest-first choice for the middle reference would cost a pair.
    let chain = BeatMatching(reference: [0, 200, 400], test: [140, 260, 550], window: 150)
    #expect(chain.pairs.count == 3)
  }

  @Test("Among maximum matchings the smallest total distance is chosen")
  func smallestDistance() {
    let matching = BeatMatching(reference: [100, 300], test: [210, 320], window: 150)
    #expect(
      matching.pairs == [BeatMatching.Pair(reference: 0, test: 0), BeatMatching.Pair(reference: 1, test: 1)])
    let double = BeatMatching(reference: [1000], test: [900, 990, 1100], window: 150)
    #expect(double.pairs == [BeatMatching.Pair(reference: 0, test: 1)])
    #expect(double.unmatchedTest == [0, 2])
  }

  @Test("Window edges are inclusive; empty inputs")
  func edges() {
    #expect(BeatMatching(reference: [0], test: [150], window: 150).pairs.count == 1)
    #expect(BeatMatching(reference: [0], test: [151], window: 150).pairs.isEmpty)
    let none = BeatMatching(reference: [], test: [1, 2], window: 5)
    #expect(none.unmatchedTest == [0, 1])
    let noTest = BeatMatching(reference: [1, 2], test: [], window: 5)
    #expect(noTest.unmatchedReference == [0, 1])
  }

  @Test("Equals an exhaustive search on random small cases", arguments: 0..<4)
  func randomAgainstBruteForce(seed: UInt64) {
    var generator = SplitMix64(state: seed)
    for _ in 0..<150 {
      let reference = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
        Int64.random(in: 0...1200, using: &generator)
      }.sorted()
      let test = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
        Int64.random(in: 0...1200, using: &generator)
      }.sorted()
      let window = Int64.random(in: 0...200, using: &generator)
      let matching = BeatMatching(reference: reference, test: test, window: window)
      Self.check(matching, reference, test, window)
      let best = Self.bruteForce(reference, test, window)
      let cost = matching.pairs.reduce(Int64(0)) { $0 + abs(reference[$1.reference] - test[$1.test]) }
      #expect(matching.pairs.count == best.count)
      #expect(cost == best.cost)
    }
  }

  @Test("Se, +P and F1 by hand; gross sums counts")
  func statistics() {
    // 360 Hz, window 54 samples. Reference 5 beats; detections: 3 hits, 1 miss, 2 extras.
    let reference: [Int64] = [100, 400, 700, 1000, 1300]
    let test: [Int64] = [110, 395, 520, 740, 1450, 1500]
    let score = BeatComparison.score(reference: reference, test: test, sampleRate: 360)
    #expect(score == BeatScore(truePositives: 3, falseNegatives: 2, falsePositives: 3))
    #expect(abs(score.sensitivity - 0.6) < 1e-15)
    #expect(abs(score.positivePredictivity - 0.5) < 1e-15)
    #expect(abs(score.f1 - 6.0 / 11.0) < 1e-15)
    let gross = BeatScore.gross([score, BeatScore(truePositives: 7, falseNegatives: 0, falsePositives: 1)])
    #expect(gross == BeatScore(truePositives: 10, falseNegatives: 2, falsePositives: 4))
    #expect(BeatScore().sensitivity.isNaN)
  }

  @Test("The learning period: pairs count by their reference beat, as bxb -f")
  func learningPeriod() {
    // 100 Hz, start at 10 s = sample 1000, window 15 samples.
    let reference: [Int64] = [900, 995, 1100, 1300]
    let test: [Int64] = [900, 990, 1005, 1200, 1301]
    // 995 (before start) pairs with 990: not counted, and 1005 stays unmatched → FP after start.
    // 1100 missed → FN. 1200 → FP. 1300 ↔ 1301 → TP.
    let score = BeatComparison.score(
      reference: reference, test: test, sampleRate: 100, matchWindow: 0.15, from: 10)
    #expect(score == BeatScore(truePositives: 1, falseNegatives: 1, falsePositives: 2))
    // A detection just before the start paired with the first reference beat after it counts as TP.
    let straddle = BeatComparison.score(reference: [1005], test: [995], sampleRate: 100, from: 10)
    #expect(straddle == BeatScore(truePositives: 1))
    // A detection after the start taken by a reference beat before it counts nowhere.
    let taken = BeatComparison.score(reference: [995], test: [1005], sampleRate: 100, from: 10)
    #expect(taken == BeatScore())
    let record = BeatComparison.scoreRecord(
      "x", reference: reference, test: test, sampleRate: 100, learningPeriod: 10)
    #expect(record.wholeRecord == BeatScore(truePositives: 3, falseNegatives: 1, falsePositives: 2))
    #expect(record.afterLearningPeriod == score)
  }

  @Test("Beat codes")
  func codes() {
    for symbol in ["N", "V", "/", "Q", "?", "f", "E"] { #expect(MITAnnotationCode.isBeat(symbol)) }
    for symbol in ["+", "~", "|", "x", "\"", "p", "t"] { #expect(!MITAnnotationCode.isBeat(symbol)) }
  }
}

/// `Fixtures/scoring/compare_annotations.json`, written by `Fixtures/generate/scoring.py`.
struct CompareAnnotationsReference: Decodable {
  struct Case: Decodable {
    var name: String
    var reference: [Int64]
    var test: [Int64]
    var truePositives: Int
    var falseNegatives: Int
    var falsePositives: Int
  }
  var sampleRate: Double
  var window: Int64
  var cases: [Case]

  static let shared: CompareAnnotationsReference = try! TestData.decodeFixture(
    CompareAnnotationsReference.self, "scoring/compare_annotations.json")
}

@Suite("Beat comparison against wfdb-python")
struct CompareAnnotationsTests {
  @Test(
    "Counts equal wfdb.processing.compare_annotations on synthetic records",
    arguments: CompareAnnotationsReference.shared.cases.map(\.name))
  func counts(name: String) {
    let reference = CompareAnnotationsReference.shared
    let entry = reference.cases.first { $0.name == name }!
    #expect(BeatComparison.windowSamples(0.150, sampleRate: reference.sampleRate) == reference.window)
    let score = BeatComparison.score(
      reference: entry.reference, test: entry.test, sampleRate: reference.sampleRate)
    #expect(
      score
        == BeatScore(
          truePositives: entry.truePositives, falseNegatives: entry.falseNegatives,
          falsePositives: entry.falsePositives))
  }
}
