import Testing
import VitalsAnalysis

@Suite("Ventricular flutter episodes (EC57 exclusion)")
struct FlutterEpisodesTests {
  @Test("episodes run from [ to ], an unclosed [ to the end, a stray ] is ignored")
  func episodes() {
    let flutter = FlutterEpisodes(
      samples: [10, 100, 150, 200, 300, 400, 500, 900], symbols: ["N", "]", "[", "!", "]", "N", "[", "!"])
    #expect(flutter.episodes == [150...300, 500...Int64.max])
    #expect(
      !flutter.contains(149) && flutter.contains(150) && flutter.contains(300) && !flutter.contains(301))
    #expect(flutter.contains(10_000))
    #expect(flutter.removing(from: [10, 160, 301, 499, 500]) == [10, 301, 499])
    // Out of time order: overlapping episodes merge instead of trapping.
    #expect(FlutterEpisodes(samples: [50, 80, 10, 60], symbols: ["[", "]", "[", "]"]).episodes == [10...80])
  }

  @Test("beats inside an episode are scored neither as missed nor as false detections")
  func scoring() {
    let reference: [Int64] = [100, 400, 700, 1000, 1300]
    let test: [Int64] = [100, 550, 620, 1000, 1300]  // 400 and 700 missed, two false beats, all in flutter
    let flutter = FlutterEpisodes(episodes: [350...750])
    let all = BeatComparison.scoreRecord(
      "x", reference: reference, test: test, sampleRate: 360, learningPeriod: 0)
    #expect(all.wholeRecord == BeatScore(truePositives: 3, falseNegatives: 2, falsePositives: 2))
    let ec57 = BeatComparison.scoreRecord(
      "x", reference: reference, test: test, sampleRate: 360, learningPeriod: 0, excluding: flutter)
    #expect(ec57.wholeRecord == BeatScore(truePositives: 3, falseNegatives: 0, falsePositives: 0))
  }
}
