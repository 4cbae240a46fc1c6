import Foundation
import Testing
import VitalsAnalysis

/// HRV of any beat positions: no overflow, and spectra whose grids would exceed their bound are NaN
/// instead of unbounded allocations.
@Suite("HRV bounds")
struct HRVBoundsTests {
  @Test("intervals between beats Int64 apart are exact, not an overflow")
  func extremeBeats() {
    let beats: [Int64] = [-9_000_000_000_000_000_000, 9_000_000_000_000_000_000]
    let series = NNSeries(beats: beats, sampleRate: 1)
    #expect(series.intervals == [18e18 * 1000])
    #expect(series.endTimes == [9e18])
    let widest = NNSeries(beats: [.min, .max], sampleRate: 1)
    #expect(widest.intervals == [Double(UInt64.max) * 1000])
  }

  @Test("time domain of beats 0, 1000 and 9e18 at 1 Hz: HTI, TINN and SDANN are NaN, the rest computed")
  func farBeatsTimeDomain() {
    let series = NNSeries(beats: [0, 1000, 1800, 2600, 3500, 9_000_000_000_000_000_000], sampleRate: 1)
    let started = ContinuousClock.now
    let time = HRVTimeDomain(series)
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(time.hti.isNaN && time.tinn.isNaN && time.sdann5.isNaN && time.sdnni1.isNaN)
    #expect(time.minNN == 800_000 && time.maxNN > 8.9e21)
    // An interval of 2.3 hours still has its histogram.
    let long = HRVTimeDomain(NNSeries(beats: [0, 1000, 1800, 2600, 8_000_000], sampleRate: 1000))
    #expect(long.hti.isFinite)
  }

  @Test("artefacts and atrial fibrillation of beats spread over all of Int64: no overflow")
  func extremeBeatsRhythm() {
    // The third interval, 1.8e19 samples, exceeds Int64.max.
    let beats: [Int64] = [
      -9_000_000_000_000_000_000, -8_999_999_999_999_999_000, -8_999_999_999_999_998_000,
      9_000_000_000_000_000_000, 9_000_000_000_000_001_000,
    ]
    let artefacts = RRArtifacts.detect(beats: beats, sampleRate: 1)
    #expect(artefacts.allBeats.allSatisfy { beats.indices.contains($0) })
    let analysis = AtrialFibrillationDetector().analyze(beats: beats, sampleRate: 1)
    #expect(analysis.episodes.allSatisfy { $0.startSample <= $0.endSample })
  }

  @Test("a tachogram grid beyond 2^25 points is refused")
  func gridLimit() throws {
    #expect(TachogramInterpolation.gridTimes(from: 0, to: 9e18, rate: 4)?.count == nil)
    #expect(TachogramInterpolation.gridTimes(from: 0, to: .infinity, rate: 4)?.count == nil)
    // 0, 1, …, limit: one point more than the limit.
    let limit = Double(TachogramInterpolation.maximumGridCount)
    #expect(TachogramInterpolation.gridTimes(from: 0, to: limit, rate: 1)?.count == nil)
    #expect(TachogramInterpolation.gridTimes(from: 0, to: 99, rate: 1)?.count == 100)
  }

  @Test(
    "beats at 0, 1000 and 9e18 samples at 1 Hz: frequency indices are NaN at once",
    arguments: HRVFrequencyOptions.Method.allCases)
  func farBeatsSpectrum(method: HRVFrequencyOptions.Method) {
    let beats: [Int64] = [0, 1000, 1800, 2600, 3500, 9_000_000_000_000_000_000]
    var options = HRVFrequencyOptions()
    options.method = method
    let started = ContinuousClock.now
    let frequency = HRVFrequencyDomain(NNSeries(beats: beats, sampleRate: 1), options: options)
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(frequency.lf.isNaN && frequency.hf.isNaN && frequency.tp.isNaN)
  }
}
