import VitalsAnalysis
import VitalsSupport

extension RecordingHRV {
  /// The indices of ``analysis`` by domain, in NeuroKit2's order (`HRVMetric/all`).
  private var domains: [(domain: HRVMetric.Domain, metrics: [(metric: HRVMetric, value: Double)])] {
    HRVMetric.Domain.allCases.map { domain in
      (domain, HRVMetric.all.filter { $0.domain == domain }.map { ($0, analysis.value(of: $0)) })
    }
  }

  /// The report as text: a heading (input, beats, lead and rate, NN intervals, artifact beats, spectral
  /// estimate), then per domain its name and one `  NAME value unit` line per index, values to six
  /// significant digits (`nan` when undefined).
  public func text() -> String {
    let source = lead.map { "lead \($0), " } ?? ""
    var lines = [
      "\(input): \(analysis.beatCount) beats (\(source)\(sampleRate) Hz), \(analysis.intervals.count) NN "
        + "intervals, \(analysis.artifacts.allBeats.count) artifact beats; frequency domain by "
        + frequencyMethod.rawValue
    ]
    for (domain, metrics) in domains {
      lines.append(domain.rawValue)
      for (metric, value) in metrics {
        let number = value.isFinite ? String(cFormat: "%.6g", value) : "nan"
        let padded = metric.name + String(repeating: " ", count: max(1, 12 - metric.name.count))
        lines.append("  " + padded + number + (metric.unit.isEmpty ? "" : " " + metric.unit))
      }
    }
    return lines.joined(separator: "\n")
  }

  private struct Document: Encodable {
    var input: String
    var lead: String?
    var sample_rate: Double
    var beats: Int
    var nn_intervals: Int
    var artifact_beats: Int
    var frequency_method: String
    var time: [String: Double?]
    var frequency: [String: Double?]
    var nonlinear: [String: Double?]
  }

  /// The report as one line of JSON (no line break), keys sorted: `input`, `lead` (absent for a beat
  /// file), `sample_rate`, `beats`, `nn_intervals`, `artifact_beats`, `frequency_method`, and `time`,
  /// `frequency`, `nonlinear` objects of the indices by NeuroKit2 name, null when undefined.
  public func jsonLine() -> String {
    var byDomain: [HRVMetric.Domain: [String: Double?]] = [:]
    for (domain, metrics) in domains {
      byDomain[domain] = Dictionary(
        uniqueKeysWithValues: metrics.map { ($0.metric.name, $0.value.isFinite ? $0.value : nil) })
    }
    let document = Document(
      input: input, lead: lead, sample_rate: sampleRate, beats: analysis.beatCount,
      nn_intervals: analysis.intervals.count, artifact_beats: analysis.artifacts.allBeats.count,
      frequency_method: frequencyMethod.rawValue, time: byDomain[.time]!, frequency: byDomain[.frequency]!,
      nonlinear: byDomain[.nonlinear]!)
    return compactJSON(document)
  }
}
