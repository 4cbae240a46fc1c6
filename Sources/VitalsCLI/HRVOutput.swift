import Vitals

/// One input's HRV, formatted for `vitals hrv`.
struct HRVReport {
  var input: String
  var lead: String?
  var sampleRate: Double
  var analysis: HRVAnalysis
  var method: HRVFrequencyOptions.Method

  /// Name, value and unit of every index of each domain, in NeuroKit2's order (``HRVMetric/all``).
  var domains: [(domain: String, values: [(name: String, value: Double, unit: String)])] {
    HRVMetric.Domain.allCases.map { domain in
      (
        domain.rawValue,
        HRVMetric.all.filter { $0.domain == domain }.map { ($0.name, analysis.value(of: $0), $0.unit) }
      )
    }
  }

  var heading: String {
    let source = lead.map { "lead \($0), " } ?? ""
    return
      "\(input): \(analysis.beatCount) beats (\(source)\(sampleRate) Hz), \(analysis.intervals.count) NN intervals, "
      + "\(analysis.artefacts.allBeats.count) artefact beats; frequency domain by \(method.rawValue)"
  }

  func text() -> String {
    var lines = [heading]
    for (domain, values) in domains {
      lines.append(domain)
      for (name, value, unit) in values {
        let number = value.isFinite ? String(cFormat: "%.6g", value) : "nan"
        let padded = name + String(repeating: " ", count: max(1, 12 - name.count))
        lines.append("  " + padded + number + (unit.isEmpty ? "" : " " + unit))
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
    var artefact_beats: Int
    var frequency_method: String
    var time: [String: JSONNumber]
    var frequency: [String: JSONNumber]
    var nonlinear: [String: JSONNumber]
  }

  func json() -> String {
    let byDomain = Dictionary(
      uniqueKeysWithValues: domains.map { domain in
        (
          domain.domain,
          Dictionary(uniqueKeysWithValues: domain.values.map { ($0.name, JSONNumber($0.value)) })
        )
      })
    return encodeJSON(
      Document(
        input: input, lead: lead, sample_rate: sampleRate, beats: analysis.beatCount,
        nn_intervals: analysis.intervals.count, artefact_beats: analysis.artefacts.allBeats.count,
        frequency_method: method.rawValue, time: byDomain["time"]!, frequency: byDomain["frequency"]!,
        nonlinear: byDomain["nonlinear"]!))
  }
}
