import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

@Suite("vitals info: Apple's ECG classification")
struct InfoAppleClassificationTests {
  @Test("the text and JSON show Apple's wording and HealthKit's case")
  func besideTheText() throws {
    let summary = try RecordingOpener.describe(path: TestData.fixture("io/apple/ecg_english.csv").path)
    let text = Info.text(summary)
    #expect(text.contains("  classification: Sinus Rhythm\n  classification_healthkit: sinusRhythm"))
    #expect(
      Info.json(summary).contains(
        #""classification":"Sinus Rhythm","classification_healthkit":"sinusRhythm""#))
  }
}
