import Testing
import VitalsAnalysis

@Suite("NN intervals")
struct NNSeriesTests {
  @Test("RR intervals in milliseconds from sample positions")
  func intervals() {
    let series = NNSeries(beats: [100, 460, 830, 1190], sampleRate: 360)
    let middle: Double = 370.0 / 360 * 1000
    #expect(series.intervals == [1000, middle, 1000])
    let ends: [Double] = [460.0 / 360, 830.0 / 360, 1190.0 / 360]
    #expect(series.endTimes == ends)
    #expect(series.followsPrevious == [false, true, true])
  }

  @Test("Only N→N intervals count when labels are given; both intervals around a dropped beat go")
  func labels() {
    let beats: [Int64] = [0, 100, 200, 260, 400, 500, 600]
    let series = NNSeries(beats: beats, labels: ["N", "N", "N", "V", "N", "N", "N"], sampleRate: 100)
    // Intervals 0→1, 1→2, (2→3, 3→4 dropped), 4→5, 5→6.
    #expect(series.intervals == [1000, 1000, 1000, 1000])
    #expect(series.followsPrevious == [false, true, false, true])
    let artefacts = NNSeries(
      beats: beats, labels: Array(repeating: "N", count: 7), sampleRate: 100, excludingBeats: [5])
    #expect(artefacts.intervals == [1000, 1000, 600, 1400])
    #expect(artefacts.followsPrevious == [false, true, true, true])
    let noSuccessive = HRVTimeDomain(series)
    #expect(noSuccessive.rmssd == 0)
  }

  @Test("A premature beat is flagged and its intervals leave the NN series")
  func ectopic() {
    var rr = [Double](repeating: 800, count: 120)
    for k in rr.indices { rr[k] += Double((k * 37) % 11) * 2 }
    rr[60] = 480
    rr[61] = 1120
    var beats: [Int64] = [0]
    for interval in rr { beats.append(beats.last! + Int64(interval)) }
    let artefacts = RRArtefacts.detect(beats: beats, sampleRate: 1000)
    #expect(!artefacts.isEmpty)
    #expect(artefacts.allBeats.allSatisfy { (60...62).contains($0) })
    let nn = NNSeries(beats: beats, sampleRate: 1000, excludingBeats: artefacts.allBeats)
    #expect(nn.intervals.allSatisfy { $0 >= 800 && $0 <= 820 })
  }
}
