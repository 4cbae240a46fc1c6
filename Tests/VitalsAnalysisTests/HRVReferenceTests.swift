import Foundation
import Testing
import VitalsAnalysis
import VitalsTestSupport

/// `Fixtures/hrv/hrv_reference.json`, written by `Fixtures/generate/hrv.py` with NeuroKit2 0.2.13.
struct HRVReference: Decodable {
  struct Series: Decodable {
    var name: String
    var samplingRate: Double
    var peaks: [Int64]
    var time: [String: Double?]
    var nonlinear: [String: Double?]
    var dfaPeng: [String: Double?]
    var artifacts: [String: [Int]]
  }
  struct Gaps: Decodable {
    var rri: [Double]
    var rriTime: [Double]
    var time: [String: Double?]
  }
  var series: [Series]
  var gaps: Gaps

  static let shared: HRVReference = try! TestData.decodeFixture(HRVReference.self, "hrv/hrv_reference.json")
  static var names: [String] { shared.series.map(\.name) }
  static func series(_ name: String) -> Series { shared.series.first { $0.name == name }! }
}

/// Approximately equal (`isApproximatelyEqual`, `relative` and `absolute` tolerances) to a NeuroKit2
/// value; where NeuroKit2 has none (null), `actual` must be NaN, or also infinite when `allowsInfinity`.
func expectClose(
  _ actual: Double, _ expected: Double?, relative: Double, absolute: Double = 1e-12,
  allowsInfinity: Bool = true,
  _ label: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let expected else {
    #expect(
      actual.isNaN || (allowsInfinity && actual.isInfinite), "\(label): expected no value, got \(actual)",
      sourceLocation: sourceLocation)
    return
  }
  #expect(
    actual.isApproximatelyEqual(to: expected, absoluteTolerance: absolute, relativeTolerance: relative),
    "\(label): \(actual) vs NeuroKit2 \(expected)", sourceLocation: sourceLocation)
}

func timeMetrics(_ h: HRVTimeDomain) -> [String: Double] {
  [
    "MeanNN": h.meanNN, "SDNN": h.sdnn, "SDANN1": h.sdann1, "SDNNI1": h.sdnni1, "SDANN2": h.sdann2,
    "SDNNI2": h.sdnni2, "SDANN5": h.sdann5, "SDNNI5": h.sdnni5, "RMSSD": h.rmssd, "SDSD": h.sdsd,
    "CVNN": h.cvnn, "CVSD": h.cvsd, "MedianNN": h.medianNN, "MadNN": h.madNN, "MCVNN": h.mcvnn,
    "IQRNN": h.iqrnn, "SDRMSSD": h.sdrmssd, "Prc20NN": h.prc20NN, "Prc80NN": h.prc80NN, "pNN50": h.pnn50,
    "pNN20": h.pnn20, "MinNN": h.minNN, "MaxNN": h.maxNN, "HTI": h.hti, "TINN": h.tinn,
  ]
}

@Suite("HRV against NeuroKit2")
struct HRVReferenceTests {
  @Test("Time domain equals hrv_time to 1e-6 relative", arguments: HRVReference.names)
  func timeDomain(name: String) {
    let reference = HRVReference.series(name)
    let hrv = HRVTimeDomain(NNSeries(beats: reference.peaks, sampleRate: reference.samplingRate))
    let metrics = timeMetrics(hrv)
    #expect(Set(metrics.keys) == Set(reference.time.keys))
    for (key, expected) in reference.time {
      expectClose(metrics[key]!, expected, relative: 1e-6, "\(name) \(key)")
    }
    #expect(abs(hrv.meanHR - 60000 / hrv.meanNN) < 1e-12)
    #expect(hrv.maxHR >= hrv.meanHR && hrv.meanHR >= hrv.minHR)
  }

  @Test("Time domain with gaps equals hrv_time given RRI and RRI_Time")
  func gaps() {
    let gaps = HRVReference.shared.gaps
    var follows = [false]
    for k in gaps.rri.indices.dropFirst() {
      follows.append(abs((gaps.rriTime[k] - gaps.rriTime[k - 1]) * 1000 - gaps.rri[k]) <= 1e-6)
    }
    #expect(follows.count { !$0 } == 4)  // the first interval and three gaps
    let series = NNSeries(intervals: gaps.rri, endTimes: gaps.rriTime, followsPrevious: follows)
    let metrics = timeMetrics(HRVTimeDomain(series))
    for (key, expected) in gaps.time { expectClose(metrics[key]!, expected, relative: 1e-6, "gaps \(key)") }
  }

  @Test("Nonlinear indices match hrv_nonlinear", arguments: HRVReference.names)
  func nonlinear(name: String) {
    let reference = HRVReference.series(name)
    let series = NNSeries(beats: reference.peaks, sampleRate: reference.samplingRate)
    let hrv = HRVNonlinear(series)
    let metrics: [String: Double] = [
      "SD1": hrv.sd1, "SD2": hrv.sd2, "SD1SD2": hrv.sd1sd2, "S": hrv.s, "CSI": hrv.csi, "CVI": hrv.cvi,
      "ApEn": hrv.apEn, "SampEn": hrv.sampEn, "DFA_alpha1": hrv.dfaAlpha1, "DFA_alpha2": hrv.dfaAlpha2,
    ]
    for (key, expected) in reference.nonlinear {
      expectClose(metrics[key]!, expected, relative: 1e-9, "\(name) \(key)")
    }
    if series.count > 16 {
      let alpha1 = DetrendedFluctuation.alpha(series.intervals, scales: Array(4...16))
      expectClose(alpha1, reference.dfaPeng["alpha1"]!, relative: 1e-9, "\(name) Peng α1")
    }
    if series.count > 64 {
      let alpha2 = DetrendedFluctuation.alpha(series.intervals, scales: Array(16...64))
      expectClose(alpha2, reference.dfaPeng["alpha2"]!, relative: 1e-9, "\(name) Peng α2")
    }
  }

  @Test(
    "Artefact classes equal one pass of signal_fixpeaks(method=\"Kubios\")", arguments: HRVReference.names)
  func artefacts(name: String) {
    let reference = HRVReference.series(name)
    let artefacts = RRArtifacts.detect(beats: reference.peaks, sampleRate: reference.samplingRate)
    #expect(artefacts.ectopic == reference.artifacts["ectopic"])
    #expect(artefacts.missed == reference.artifacts["missed"])
    #expect(artefacts.extra == reference.artifacts["extra"])
    #expect(artefacts.longShort == reference.artifacts["longshort"])
  }
}
