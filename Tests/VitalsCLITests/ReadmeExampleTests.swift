import Testing
import Vitals
import VitalsTestSupport

/// The README's library example, on a committed fixture instead of an MIT-BIH record.
@Suite struct ReadmeExampleTests {
  @Test func libraryExampleRuns() throws {
    let path = TestData.fixture("wfdb/records/fmt212").path
    var record = try WFDBRecordReader(path: path)
    var detector = try QRSDetector(sampleRate: record.chunkSampleRate)
    var beats: [Int64] = []
    while let chunk = try record.nextChunk(maxSamples: 65_536) {
      beats += detector.process(chunk.channels[0])
    }
    let hrv = HRVAnalysis(beats: beats, sampleRate: record.chunkSampleRate)
    #expect(hrv.beatCount == beats.count)

    let bandPass = try SecondOrderSections.butterworth(
      order: 4, band: .bandpass(low: 0.5, high: 40), sampleRate: 360)
    var filter = SOSFilter(bandPass)
    var samples: [Float] = try WFDBRecordReader(path: path).nextChunk(maxSamples: 3600)!.channels[0]
    let before = samples
    filter.process(&samples)
    #expect(samples.count == before.count && samples != before)
  }
}
