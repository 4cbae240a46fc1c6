import Foundation
import Testing
import VitalsCore
import VitalsIO
import VitalsTestSupport

@testable import VitalsPipeline

/// The summary of the recording at `path` without its timing fields, and its events in the order they
/// came, as text; analysed on `threads` threads in chunks of `chunkSize` samples.
private func analysis(_ path: String, threads: Int, chunkSize: Int = SignalChunk.defaultSampleCount) throws
  -> (summary: String, events: [String])
{
  var events: [String] = []
  let analysis = try RecordingAnalyzer.analyze(
    path: path, options: AnalysisOptions(chunkSize: chunkSize), threads: threads,
    onEvent: { event in
      events.append(
        "\(event.signal) \(event.kind) \(event.sampleIndex) \(event.value.outputFields.map { "\($0.key)=\($0.value)" })"
      )
    })
  var object = try #require(
    JSONSerialization.jsonObject(with: Data(analysis.jsonLine().utf8)) as? [String: Any])
  object["processing_s"] = nil
  object["samples_per_s"] = nil
  let summary = String(
    decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
  return (summary, events)
}

@Suite("A recording analysed on two threads")
struct AnalyzerThreadsTests {
  @Test(
    "an ECG with a gap, and an ECG with accelerometer axes: the events, their order and the summary of one thread"
  )
  func sameAsOneThread() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var ecg = SimulatedECG(seconds: 300, seed: 3)
    for i in Int(100 * ecg.rate)..<Int(110 * ecg.rate) { ecg.samples[i] = .nan }
    let withGap = try ecg.writeWFDB(in: directory, name: "gap")
    let activity = try SimulatedActivityRecording(
      segments: [
        .init(duration: 60, heartRate: 70, activity: .still),
        .init(duration: 120, heartRate: 100, activity: .walking, fibrillation: true),
      ], rate: 250, startTime: Timestamp(secondsSinceEpoch: 1_772_352_005)
    ).writeWFDB(in: directory, name: "activity")
    for path in [withGap, activity] {
      for chunkSize in [1000, SignalChunk.defaultSampleCount] {
        let one = try analysis(path, threads: 1, chunkSize: chunkSize)
        let two = try analysis(path, threads: 2, chunkSize: chunkSize)
        #expect(one.events.count > 300)
        #expect(two.summary == one.summary, "\(path), chunks of \(chunkSize)")
        #expect(two.events == one.events, "\(path), chunks of \(chunkSize)")
      }
    }
    #expect(try analysis(withGap, threads: 1).summary.contains("\"gap_s\":10"))
  }

  @Test(
    "MIT-BIH 208 (many ventricular beats): the same as one thread",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func mitbih() throws {
    let path = TestData.sharedData("mitdb/208").path
    let one = try analysis(path, threads: 1)
    let two = try analysis(path, threads: 2)
    #expect(one.events.count > 2000)
    #expect(two.summary == one.summary)
    #expect(two.events == one.events)
  }

  @Test("a signal file that breaks off: the error of one thread, naming the file")
  func truncated() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = try SimulatedECG(seconds: 200, seed: 5).writeWFDB(in: directory, name: "cut")
    let signal = URL(fileURLWithPath: path + ".dat")
    let bytes = try Data(contentsOf: signal)
    try bytes.prefix(bytes.count * 3 / 4 + 1).write(to: signal)
    func failure(threads: Int) -> InputError? {
      do {
        _ = try analysis(path, threads: threads, chunkSize: 4096)
        return nil
      } catch let error as InputError {
        return error
      } catch {
        return nil
      }
    }
    let one = try #require(failure(threads: 1))
    #expect(failure(threads: 2) == one)
    #expect(one.description.contains("cut.dat"), "\(one)")
  }
}
