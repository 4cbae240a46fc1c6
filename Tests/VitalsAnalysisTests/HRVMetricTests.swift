import Foundation
import Testing
import VitalsAnalysis

@Suite("HRV metric table")
struct HRVMetricTests {
  /// Ten minutes of beats at 1000 Hz whose intervals swing with a 20-beat and a 3-beat period.
  let analysis: HRVAnalysis = {
    var beats: [Int64] = [0]
    for k in 1..<720 {
      let rr = 820 + 60 * sin(Double(k) * 2 * .pi / 20) + 15 * sin(Double(k) * 2 * .pi / 3)
      beats.append(beats[k - 1] + Int64(rr.rounded()))
    }
    return HRVAnalysis(beats: beats, sampleRate: 1000)
  }()

  /// Every `Double` field of `value`, keyed by its name lower-cased without underscores.
  func fields(_ value: Any) -> [String: Double] {
    var result: [String: Double] = [:]
    for child in Mirror(reflecting: value).children {
      if let label = child.label, let number = child.value as? Double { result[label.lowercased()] = number }
    }
    return result
  }

  @Test("NeuroKit2's 28 time, 15 frequency and 10 nonlinear indices, each named once")
  func table() {
    let counts = HRVMetric.Domain.allCases.map { domain in HRVMetric.all.count { $0.domain == domain } }
    #expect(counts == [28, 15, 10])
    #expect(Set(HRVMetric.all.map(\.name)).count == HRVMetric.all.count)
    #expect(HRVMetric.all.first?.name == "MeanNN" && HRVMetric.all.last?.name == "DFA_alpha2")
    #expect(HRVMetric.named("LF")?.unit == "ms2" && HRVMetric.named("pNN50")?.unit == "%")
    #expect(HRVMetric.named("sdnn") == nil)
  }

  @Test("each index reads the field of its name, and every field has an index")
  func valuesReadTheirFields() {
    let n = analysis.nonlinear
    var byName = fields(analysis.time)
    byName.merge(fields(analysis.frequency)) { a, _ in a }
    byName.merge(fields(n.poincare)) { a, _ in a }
    byName.merge(fields(n)) { a, _ in a }
    #expect(byName.count == HRVMetric.all.count)
    for metric in HRVMetric.all {
      let key = metric.name.lowercased().replacingOccurrences(of: "_", with: "")
      let expected = byName[key]
      let value = analysis.value(of: metric)
      #expect(expected.map { $0 == value || ($0.isNaN && value.isNaN) } == true, "\(metric.name)")
    }
    #expect(analysis.value(of: HRVMetric.named("SDNN")!) > 0)
  }

  @Test("without nonlinear results, only the Poincaré indices of that domain are defined")
  func withoutNonlinear() {
    let n = analysis.nonlinear
    let read = { (name: String) in
      HRVMetric.named(name)!.value(time: analysis.time, frequency: analysis.frequency, poincare: n.poincare)
    }
    #expect(read("SD1") == n.poincare.sd1 && read("SampEn").isNaN && read("RMSSD") == analysis.time.rmssd)
  }
}
