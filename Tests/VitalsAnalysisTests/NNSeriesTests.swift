import Foundation
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
    let artefacts = RRArtifacts.detect(beats: beats, sampleRate: 1000)
    #expect(!artefacts.isEmpty)
    #expect(artefacts.allBeats.allSatisfy { (60...62).contains($0) })
    let nn = NNSeries(beats: beats, sampleRate: 1000, excludingBeats: artefacts.allBeats)
    #expect(nn.intervals.allSatisfy { $0 >= 800 && $0 <= 820 })
  }

  /// Beat positions (ms at 1 kHz) from intervals in milliseconds, first beat at 0.
  static func beats(_ rr: [Double]) -> [Int64] {
    var beats: [Int64] = [0]
    for interval in rr { beats.append(beats.last! + Int64(interval.rounded())) }
    return beats
  }

  @Test("A run of premature beats leaves the NN series whole; without runs its inner intervals stay")
  func prematureRun() {
    // Sinus at 800 ms with respiratory modulation; a 9-beat run at 380–420 ms, entered through a
    // 600-ms interval (its first beat), left without a pause.
    var rr = (0..<160).map { 800 + 30 * sin(2 * Double.pi * Double($0) / 5.5) + Double(($0 * 37) % 11) }
    rr.replaceSubrange(70..<79, with: [600, 380, 410, 395, 420, 385, 400, 415, 390])
    let beats = Self.beats(rr)
    let artefacts = RRArtifacts.detect(beats: beats, sampleRate: 1000)
    #expect(!artefacts.run.isEmpty)
    #expect(artefacts.allBeats.allSatisfy { (70...80).contains($0) })
    let nn = NNSeries(beats: beats, sampleRate: 1000, excludingBeats: artefacts.allBeats)
    #expect(nn.intervals.allSatisfy { $0 >= 760 })
    // The paper's four classes alone flag only where the run starts or ends.
    var classesOnly = RRArtifacts.Parameters()
    classesOnly.maximumRunBeats = 0
    let paper = RRArtifacts.detect(beats: beats, sampleRate: 1000, parameters: classesOnly)
    #expect(paper.run.isEmpty)
    #expect(paper.ectopic == artefacts.ectopic && paper.longShort == artefacts.longShort)
    let kept = NNSeries(beats: beats, sampleRate: 1000, excludingBeats: paper.allBeats)
    #expect(kept.intervals.contains { $0 < 450 })
  }

  @Test("Strong sinus arrhythmia around an ectopic beat adds no run beats", arguments: [40.0, 80.0, 120.0])
  func sinusArrhythmia(amplitude: Double) {
    var rr = (0..<200).map { 850 + amplitude * sin(2 * Double.pi * Double($0) / 4.5) }
    rr[100] = 0.6 * rr[100]
    rr[101] = 2 * 850 - rr[100]
    let artefacts = RRArtifacts.detect(beats: Self.beats(rr), sampleRate: 1000)
    #expect(artefacts.run.isEmpty)
    #expect(artefacts.allBeats.allSatisfy { (100...102).contains($0) })
  }

  @Test("One workspace reused for series of other lengths detects and keeps what fresh arrays do")
  func reusedWorkspace() {
    // Sinus at 800 ms with ectopic beats, a premature run and a missed beat, cut into windows that
    // shrink and grow (down to fewer than 4 beats, which flag nothing).
    var rr = (0..<400).map { 800 + 30 * sin(2 * Double.pi * Double($0) / 5.5) + Double(($0 * 37) % 11) }
    for k in stride(from: 25, to: 380, by: 61) { (rr[k], rr[k + 1]) = (480, 1120) }
    rr.replaceSubrange(150..<159, with: [600, 380, 410, 395, 420, 385, 400, 415, 390])
    rr[300] = 1600
    let beats = Self.beats(rr)
    var classesOnly = RRArtifacts.Parameters()
    classesOnly.maximumRunBeats = 0
    var workspace = RRArtifacts.Workspace()
    var series = NNSeries(intervals: [], endTimes: [], followsPrevious: [])
    var scratch: [Bool] = []
    let windows = [0..<401, 140..<268, 2..<5, 260..<330, 0..<128, 100..<103, 5..<400]
    for parameters in [RRArtifacts.Parameters(), classesOnly] {
      for window in windows {
        let part = Array(beats[window])
        let expected = RRArtifacts.detect(beats: part, sampleRate: 1000, parameters: parameters)
        RRArtifacts.detect(beats: part, sampleRate: 1000, parameters: parameters, into: &workspace)
        #expect(workspace.artifacts == expected)
        let gaps = [part[part.count / 2]..<part[part.count / 2] + 1]
        series.assign(
          beats: part, sampleRate: 1000, excludingBeats: expected.allBeats, gaps: gaps, scratch: &scratch)
        #expect(
          series == NNSeries(beats: part, sampleRate: 1000, excludingBeats: expected.allBeats, gaps: gaps))
      }
    }
  }
}

@Suite("HRV analysis pipeline")
struct HRVAnalysisTests {
  @Test("Artefacts leave the NN series before the indices are computed")
  func pipeline() throws {
    let reference = HRVReference.series("ectopic-16min-360Hz")
    let analysis = HRVAnalysis(beats: reference.peaks, sampleRate: reference.samplingRate)
    #expect(analysis.beatCount == reference.peaks.count)
    #expect(analysis.artifacts.ectopic == reference.artifacts["ectopic"])
    let expected = NNSeries(
      beats: reference.peaks, sampleRate: reference.samplingRate, excludingBeats: analysis.artifacts.allBeats)
    #expect(analysis.intervals == expected)
    #expect(analysis.time == HRVTimeDomain(expected))
    // Dropping the ectopic intervals lowers RMSSD below that of the raw RR series.
    let raw = HRVAnalysis(beats: reference.peaks, sampleRate: reference.samplingRate, detectArtifacts: false)
    #expect(raw.artifacts.isEmpty)
    #expect(analysis.time.rmssd < raw.time.rmssd)
    let encoder = JSONEncoder()
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    let data = try encoder.encode(analysis)
    #expect(try JSONDecoder.lenient.decode(HRVAnalysis.self, from: data).time.sdnn == analysis.time.sdnn)
  }
}

extension JSONDecoder {
  static var lenient: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }
}

@Suite("HRV edge cases")
struct HRVEdgeCaseTests {
  @Test("Too few intervals give NaN, never a trap", arguments: [0, 1, 2, 3])
  func tooFew(beatCount: Int) {
    let beats = (0..<beatCount).map { Int64($0) * 800 }
    let analysis = HRVAnalysis(beats: beats, sampleRate: 1000)
    #expect(analysis.time.sdnn.isNaN == (beatCount < 3))
    #expect(analysis.time.sdann1.isNaN)
    #expect(analysis.nonlinear.sd1.isNaN)
    #expect(analysis.nonlinear.sampEn.isNaN)
    #expect(analysis.nonlinear.dfaAlpha1.isNaN)
    #expect(analysis.time.meanNN.isNaN == (beatCount < 2))
  }

  @Test("Entropies of a constant and of a strictly increasing series")
  func entropies() {
    let constant = Entropies([Double](repeating: 5, count: 50), dimension: 2, tolerance: 0.1)
    #expect(constant.sample == 0)
    #expect(abs(constant.approximate) < 1e-12)
    let ramp = Entropies((0..<50).map(Double.init), dimension: 2, tolerance: 0.1)
    #expect(ramp.sample == -.infinity)  // no m-matches: NeuroKit2 returns −inf
  }
}
