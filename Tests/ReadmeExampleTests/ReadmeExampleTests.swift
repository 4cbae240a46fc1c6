import Foundation
import Testing
import Vitals
import VitalsTestSupport

/// The README's library example is `LibraryExample.swift`, included verbatim: the README must hold that
/// file's text, and the example must find the bundled recording's beats.
@Suite struct ReadmeExampleTests {
  @Test func readmeHoldsTheExampleVerbatim() throws {
    let root = TestData.packageRoot
    let example = try String(
      contentsOf: root.appendingPathComponent("Tests/ReadmeExampleTests/LibraryExample.swift"),
      encoding: .utf8)
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains("```swift\n" + example + "```\n"))
  }

  @Test func exampleFindsEveryBeatOfTheBundledRecording() throws {
    let (beats, variability) = try beatsAndVariability(
      path: TestData.fixture("examples/simulated-ecg.csv").path)
    let truth = try String(contentsOf: TestData.fixture("examples/simulated-ecg.truth.csv"), encoding: .utf8)
      .split(separator: "\n").dropFirst().compactMap { Int64($0.split(separator: ",")[0]) }
    let score = BeatComparison.score(reference: truth, test: beats, sampleRate: 250)
    #expect(score.falseNegatives == 0)
    #expect(score.positivePredictivity >= 0.99)
    #expect(variability.time.sdnn > 20 && variability.time.sdnn < 120)  // simulated SDNN 50 ms plus ectopy
    #expect(variability.time.rmssd.isFinite && variability.frequency.lfhf.isFinite)
  }
}
