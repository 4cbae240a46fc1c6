import Foundation
import Testing
import Vitals
import VitalsTestSupport

/// The library example of docs/guide/analysis.md, on the bundled simulated ECG written as a WFDB record.
@Suite struct ReadmeExampleTests {
  @Test func libraryExampleFindsTheSimulatedBeats() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-readme-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var source = try RecordingOpener.open(path: TestData.fixture("examples/simulated-ecg.csv").path)
    let path = directory.appendingPathComponent("example").path
    let writer = try WFDBRecordWriter(path: path, signals: source.signals, frameRate: source.chunkSampleRate)
    while let chunk = try source.nextChunk(maxSamples: 4096) { try writer.append(chunk) }
    try writer.finish()

    // The guide's code.
    let record = try WFDBRecordReader(path: path)
    var detector = try QRSDetector(sampleRate: record.chunkSampleRate)
    var beats: [Int64] = []
    while let chunk = try record.nextChunk(maxSamples: 65_536) {
      beats += detector.process(chunk.channels[0])
    }
    let hrv = HRVAnalysis(beats: beats, sampleRate: record.chunkSampleRate)

    let truth = try String(contentsOf: TestData.fixture("examples/simulated-ecg.truth.csv"), encoding: .utf8)
      .split(separator: "\n").dropFirst().compactMap { Int64($0.split(separator: ",")[0]) }
    let score = BeatComparison.score(reference: truth, test: beats, sampleRate: record.chunkSampleRate)
    #expect(score.sensitivity >= 0.98 && score.positivePredictivity >= 0.98)
    #expect(hrv.time.sdnn > 20 && hrv.time.sdnn < 120)  // simulated with SDNN 50 ms plus ectopic beats
    #expect(hrv.time.rmssd.isFinite && hrv.frequency.lfhf.isFinite && hrv.nonlinear.sd1.isFinite)

    let bandPass = try SecondOrderSections.butterworth(
      order: 4, band: .bandpass(low: 0.5, high: 40), sampleRate: 360)
    var filter = SOSFilter(bandPass)
    var samples: [Float] = try WFDBRecordReader(path: path).nextChunk(maxSamples: 3600)!.channels[0]
    let before = samples
    filter.process(&samples)
    #expect(samples.count == before.count && samples != before)
  }
}
