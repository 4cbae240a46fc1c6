import Foundation
import VitalsAnalysis
import VitalsCore
import VitalsIO

/// A single-lead ECG recording of 5–60 s classified as a watch's ECG app does
/// (`ElectrocardiogramClassifier`), with Apple's own classification beside it when the file is an Apple
/// Health ECG export.
///
/// The lead is the first channel `RecordingOptions/channels` gives, else
/// `RecordingBeats/ecgLeadRule`'s. Encoded as `{"input", "lead", "sample_rate", "duration_s",
/// "classification", "average_heart_rate", "beats", "rule", "scores": {"sinus_rhythm",
/// "atrial_fibrillation", "other_rhythm", "poor_reading"}, "features": [{"name", "value", "unit"}],
/// "apple": {"text", "classification"}}` (`apple` only for Apple exports; absent values null).
public struct RecordingClassification: Sendable, Encodable {
  /// Apple's classification of an Apple Health ECG export: the header's text and its HealthKit case.
  public struct AppleClassification: Sendable, Equatable, Encodable {
    public var text: String
    public var classification: ElectrocardiogramClassification
  }

  /// The recording's path.
  public var path: String
  /// The lead's name as the file gives it.
  public var lead: String
  /// Samples per second of the lead.
  public var sampleRate: Double
  /// Samples read from the lead.
  public var sampleCount: Int
  /// The classifier's result and its reasons.
  public var report: ElectrocardiogramReport
  /// Apple's classification; nil when the file is not an Apple Health ECG export.
  public var apple: AppleClassification?

  /// Reads the ECG lead of the recording at `path` and classifies it. Throws `InputError` naming the file
  /// for unreadable input, a recording without a signal, a lead longer than 60 s (reading stops there),
  /// shorter than 5 s, or at a rate outside 125–1000 Hz.
  public init(path: String, options: RecordingOptions) throws(InputError) {
    var reader = try RecordingOpener.open(path: path, options: options)
    let names = reader.signals.map(\.name)
    guard !names.isEmpty else { throw InputError(path: path, "no ECG lead: the recording has no signal") }
    let lead = options.channels != nil ? 0 : ChannelRoles.ecgLead(named: names) ?? 0
    let rate = reader.chunkSampleRate
    let longest = Int((ElectrocardiogramClassifier.supportedDurations.upperBound * rate).rounded(.down))
    var samples: [Float] = []
    while let chunk = try reader.nextChunk(maxSamples: SignalChunk.defaultSampleCount) {
      samples += chunk.channels[lead]
      guard samples.count <= longest else {
        throw InputError(
          path: path,
          "the lead '\(names[lead])' is longer than \(Int(ElectrocardiogramClassifier.supportedDurations.upperBound)) s:"
            + " classification takes a recording of 5–60 s, as a watch records")
      }
    }
    do {
      report = try ElectrocardiogramClassifier.classify(samples, sampleRate: rate)
    } catch {
      throw InputError(path: path, "lead '\(names[lead])': \(error.description)")
    }
    self.path = path
    self.lead = names[lead]
    sampleRate = rate
    sampleCount = samples.count
    if let export = reader as? AppleHealthECGReader {
      let text = export.metadata.classification ?? ""
      apple = AppleClassification(
        text: text, classification: ElectrocardiogramClassification(appleWording: text))
    }
  }

  /// The result as `vitals classify` prints it: the path, then indented `key: value` lines (lead, rate
  /// and duration; classification; average heart rate and beats; the rule and the probabilities; Apple's
  /// classification; every feature with its unit).
  public var text: String {
    let duration = Double(sampleCount) / sampleRate
    var lines = [path]
    lines.append("  lead: \(lead)  \(sampleRate) Hz  \(String(format: "%.1f", duration)) s")
    lines.append("  classification: \(report.classification.rawValue)")
    let rate = report.averageHeartRate.map { String(format: "%.1f bpm", $0) } ?? "unknown"
    lines.append("  average_heart_rate: \(rate)  (\(report.beatCount) beats)")
    var rule = "  rule: \(report.decidingRule.rawValue)"
    if let s = report.scores {
      rule += String(
        format: "  (sinus %.3f, AF %.3f, other %.3f, poor reading %.3f)", s.sinusRhythm, s.atrialFibrillation,
        s.otherRhythm, s.poorReading)
    }
    lines.append(rule)
    if let apple = apple {
      lines.append("  apple: \(apple.text.isEmpty ? "none" : apple.text) (\(apple.classification.rawValue))")
    }
    lines.append("  features:")
    for feature in report.features {
      let value = feature.value.map { String(format: "%.4g", $0) } ?? "n/a"
      lines.append("    \(feature.name)  \(value)  \(feature.unit)")
    }
    return lines.joined(separator: "\n")
  }

  private enum CodingKeys: String, CodingKey {
    case input, lead, sample_rate, duration_s, apple
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(path, forKey: .input)
    try container.encode(lead, forKey: .lead)
    try container.encode(sampleRate, forKey: .sample_rate)
    try container.encode(Double(sampleCount) / sampleRate, forKey: .duration_s)
    try ElectrocardiogramReportFields(report).encode(to: encoder)
    try container.encodeIfPresent(apple, forKey: .apple)
  }
}

/// The JSON fields of an `ElectrocardiogramReport`, as `vitals classify` and the `electrocardiogram`
/// object of `vitals analyze` write them: `classification`, `average_heart_rate`, `beats`, `rule`,
/// `scores` (`sinus_rhythm`, `atrial_fibrillation`, `other_rhythm`, `poor_reading`; null with too few
/// beats) and `features` (`name`, `value`, `unit`; null values where not measured).
struct ElectrocardiogramReportFields: Encodable {
  var report: ElectrocardiogramReport

  init(_ report: ElectrocardiogramReport) { self.report = report }

  private struct Scores: Encodable {
    var sinus_rhythm: Double
    var atrial_fibrillation: Double
    var other_rhythm: Double
    var poor_reading: Double
  }

  private enum CodingKeys: String, CodingKey {
    case classification, average_heart_rate, beats, rule, scores, features
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(report.classification, forKey: .classification)
    try container.encode(report.averageHeartRate, forKey: .average_heart_rate)
    try container.encode(report.beatCount, forKey: .beats)
    try container.encode(report.decidingRule, forKey: .rule)
    try container.encode(
      report.scores.map {
        Scores(
          sinus_rhythm: $0.sinusRhythm, atrial_fibrillation: $0.atrialFibrillation,
          other_rhythm: $0.otherRhythm,
          poor_reading: $0.poorReading)
      }, forKey: .scores)
    try container.encode(report.features, forKey: .features)
  }
}
