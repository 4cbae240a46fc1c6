import Foundation
import Testing
import VitalsCore
import VitalsIO
import VitalsTestSupport

@testable import VitalsPipeline

/// The summary of the recording at `path` without its timing fields, and its events in the order they
/// came, as text; analysed on `threads` threads with `options`.
private func analysis(_ path: String, threads: Int, options: AnalysisOptions = AnalysisOptions()) throws
  -> (summary: String, events: [String])
{
  var events: [String] = []
  let analysis = try RecordingAnalyzer.analyze(
    path: path, options: options, threads: threads,
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
    var ecg = SimulatedECG(seconds: 150, seed: 3)
    for i in Int(60 * ecg.rate)..<Int(70 * ecg.rate) { ecg.samples[i] = .nan }
    let withGap = try ecg.writeWFDB(in: directory, name: "gap")
    let activity = try SimulatedActivityRecording(
      segments: [
        .init(duration: 40, heartRate: 70, activity: .still),
        .init(duration: 80, heartRate: 100, activity: .walking, fibrillation: true),
      ], rate: 250, startTime: Timestamp(secondsSinceEpoch: 1_772_352_005)
    ).writeWFDB(in: directory, name: "activity")
    for path in [withGap, activity] {
      for chunkSize in [1000, SignalChunk.defaultSampleCount] {
        let one = try analysis(path, threads: 1, options: AnalysisOptions(chunkSize: chunkSize))
        let two = try analysis(path, threads: 2, options: AnalysisOptions(chunkSize: chunkSize))
        #expect(one.events.count > 200)
        #expect(two.summary == one.summary, "\(path), chunks of \(chunkSize)")
        #expect(two.events == one.events, "\(path), chunks of \(chunkSize)")
      }
    }
    #expect(try analysis(withGap, threads: 1).summary.contains("\"gap_s\":10"))
  }

  @Test(
    "a CSV with a bad value past its first 65 536 rows: the error of one thread, naming the file and line")
  func badValue() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let ecg = SimulatedECG(seconds: 320, seed: 5)
    var lines = ["ecg"] + ecg.samples.map { "\($0)" }
    lines[72_000] = "not a number"
    let path = directory + "/bad.csv"
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    let options = AnalysisOptions(
      recording: RecordingOptions(csv: CSVOptions(sampleRate: ecg.rate)), chunkSize: 4096)
    func failure(threads: Int) -> InputError? {
      do {
        _ = try analysis(path, threads: threads, options: options)
        return nil
      } catch let error as InputError {
        return error
      } catch {
        return nil
      }
    }
    let one = try #require(failure(threads: 1))
    #expect(failure(threads: 2) == one)
    #expect(one.description.hasPrefix(path + ":72001:"), "\(one)")
  }
}
