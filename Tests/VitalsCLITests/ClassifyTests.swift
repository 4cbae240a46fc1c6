import Foundation
import Testing
import VitalsSimulation
import VitalsTestSupport

@Suite("vitals classify")
struct ClassifyTests {
  @Test(
    "one result per input; an input that cannot be classified is named on stderr and the exit is 1",
    .enabled(if: hasBinary, "needs the built vitals binary"))
  func inputs() throws {
    var simulator = ECGSimulator(
      configuration: ECGConfiguration(rhythm: RhythmConfiguration(heartRate: 64)), duration: 30,
      sampleRate: 250,
      seed: 3)
    let samples = simulator.generateAll().channels[0]
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-classify-\(UUID()).csv")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(("ECG\n" + samples.map { "\($0)\n" }.joined()).utf8).write(to: URL(fileURLWithPath: path))
    let missing = path + ".missing.csv"
    let text = try run(["classify", path, missing, "--rate", "250"])
    #expect(text.status == 1)
    #expect(text.out.hasPrefix(path + "\n  lead: ECG  250.0 Hz  30.0 s\n  classification: sinusRhythm\n"))
    #expect(text.out.contains("  rule: rhythmScore  (sinus "))
    #expect(text.err.contains(missing))
    let json = try run(["classify", path, "--rate", "250", "--json"])
    #expect(json.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    #expect(object["classification"] as? String == "sinusRhythm")
    #expect(abs((object["average_heart_rate"] as? Double ?? 0) - 64) < 3)
    #expect((object["features"] as? [[String: Any]])?.isEmpty == false)
    #expect(object["apple"] == nil)
    // A --rate the classifier does not take is a usage error (exit 2) naming its range, as in `beats`.
    let slow = try run(["classify", path, "--rate", "100"])
    #expect(slow.status == 2)
    #expect(slow.err.contains("125–1000"), "\(slow.err)")
  }
}
