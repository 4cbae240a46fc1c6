import Foundation
import Testing
import VitalsCore
import VitalsIO
import VitalsSimulation

@testable import VitalsPipeline

/// The library example of the Whole-recordings guide ("As a library"), on simulated records with atrial
/// fibrillation.
@Suite("library example of the Whole-recordings guide")
struct GuideExampleTests {
  @Test func exampleRuns() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let record = try SimulatedECG(seconds: 240, fibrillation: [RhythmEpisode(start: 60, end: 180)])
      .writeWFDB(in: directory, name: "201")
    try FileManager.default.createDirectory(atPath: directory + "/mitdb", withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: record + ".hea", toPath: directory + "/mitdb/201.hea")
    try FileManager.default.moveItem(atPath: record + ".dat", toPath: directory + "/mitdb/201.dat")
    // The guide's code, with its output collected and the paths made absolute.
    var starts: [Double] = []
    let start = Timestamp(dateTime: "2024-03-10T08:00:00Z")
    let options = AnalysisOptions(recording: RecordingOptions(startTime: start))
    let analysis = try RecordingAnalyzer.analyze(
      path: directory + "/mitdb/201", options: options,
      onEvent: { event in
        if event.kind == .irregularRhythmStart { starts.append(event.seconds) }
      })
    let ecg = try #require(analysis.section(ECGSection.self))
    #expect(
      ecg.beatCount > 250 && ecg.variability.time.sdnn.isFinite && ecg.variability.poincare.sd1.isFinite)
    #expect(ecg.episodes.count == 1 && starts.count == 1)
    #expect(abs(starts[0] - 60) < 5 && abs(ecg.episodes[0].end - 180) < 5)
    #expect(analysis.jsonLine().hasPrefix("{\"duration_s\":240,\"ecg\":{"))
    let samples = try #require(analysis.derivedSamples())
    let categories = samples.compactMap { if case .category(let c) = $0 { c.type } else { nil } }
    #expect(samples.count > 8 && categories == [.irregularHeartRhythmEvent])

    var lines: [String] = []
    let batch = BatchAnalysis(
      inputs: InputExpansion.expand([directory + "/mitdb"]),
      output: BatchOutputLayout(directory: directory + "/study"), jobs: 2)
    let items = batch.run(
      progress: { lines.append($0.line()) }, deliver: { item in _ = (item.path, item.outcome) })
    #expect(items.map(\.path) == [directory + "/mitdb/201"] && lines.last?.contains("1/1 recordings") == true)
    #expect(FileManager.default.fileExists(atPath: directory + "/study/201.json"))
  }
}
