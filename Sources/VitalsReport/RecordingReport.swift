import VitalsSupport
import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsPipeline
import VitalsSupport

/// What a report shows of one recording, gathered in one streaming pass
/// (``collect(path:options:excerptSeconds:)``): the summary, each analyzed signal at screen resolution
/// with two excerpts at full resolution, the heart-rate readings and the steps.
public struct RecordingReport: Sendable {
  /// The recording's summary (its sections carry the beats, pulses, steps and variability drawn).
  public var analysis: RecordingAnalysis
  /// The signals drawn, for each kind whose pipeline ran: the ECG lead (`SignalKind/ecg`), the first
  /// PPG channel (`SignalKind/ppg`) and the acceleration magnitude √(x² + y² + z²) of the three axes
  /// (`SignalKind/accelerometer`).
  public var traces: [SignalKind: SignalTrace]
  /// Heart-rate readings, by the kind of signal they come from: ECG (every second, no quality) and PPG
  /// (one per window, with its quality).
  public var heartRate: [SignalKind: [HeartRateReading]]
  /// Step times, seconds from the start of the record: the `StepsSection`'s steps (empty without one).
  public var steps: [Double]

  /// Analyzes the recording at `path` (as `RecordingAnalyzer/analyze(path:options:onOpen:onChunk:onEvent:)`)
  /// and keeps what the report draws. Throws `InputError` for unreadable input and when no ECG, PPG or
  /// accelerometer pipeline could analyze the recording.
  public static func collect(
    path: String, options: AnalysisOptions = AnalysisOptions(), excerptSeconds: Double = 10
  ) throws(InputError) -> RecordingReport {
    var recorders: [TraceRecorder] = []
    var heartRate: [SignalKind: [HeartRateReading]] = [:]
    let analysis = try RecordingAnalyzer.analyze(
      path: path, options: options,
      onOpen: { signals in
        guard let roles = try? ChannelRoles(signals: signals, overrides: options.overrides, path: path)
        else { return }
        recorders = TraceRecorder.recorders(for: roles, excerptSeconds: excerptSeconds)
      },
      onChunk: { chunk in recorders.forEach { $0.append(chunk) } },
      onEvent: { event in
        if let reading = HeartRateReading(event) { heartRate[event.signal, default: []].append(reading) }
      })
    let drawn = analysis.sections.filter {
      $0.section is ECGSection || $0.section is PPGSection || $0.section is StepsSection
    }.map(\.kind)
    var traces: [SignalKind: SignalTrace] = [:]
    for recorder in recorders where drawn.contains(recorder.kind) {
      traces[recorder.kind] = recorder.trace(sampleCount: analysis.samples)
    }
    guard !traces.isEmpty else {
      let reasons = analysis.notAnalyzed.map { "\($0.kind.sectionName): \($0.reason)" }
      throw InputError(
        path: path,
        "nothing to report: "
          + (reasons.isEmpty ? "no ECG, PPG or accelerometer analysis" : reasons.joined(separator: "; ")))
    }
    let steps = analysis.section(StepsSection.self).map { section in
      section.steps.map { Double($0.sampleIndex) / section.sampleRate }
    }
    return RecordingReport(analysis: analysis, traces: traces, heartRate: heartRate, steps: steps ?? [])
  }

  /// The report as a self-contained SVG document, 1400 px wide: a heading with the main numbers, then the
  /// panels of each analyzed kind, stacked — ECG, then PPG, then accelerometer (the module's
  /// documentation lists them) — and a footnote naming the methods.
  public func svg() -> String {
    let rate = analysis.sampleRate
    let duration = max(Double(analysis.samples) / rate, 1 / rate)
    var layout = ReportLayout(duration: duration)
    let title = "Vitals report — \(FileSystem.lastPathComponent(analysis.path))"
    layout.heading(title, facts: facts(scale: layout.scale, duration: duration))
    var methods: [String] = []
    if let ecg = analysis.section(ECGSection.self), let trace = traces[.ecg] {
      drawECG(ecg, trace: trace, on: &layout)
      methods.append("beats: Pan & Tompkins 1985 QRS detector · HRV: NeuroKit2 definitions")
    }
    if let ppg = analysis.section(PPGSection.self), let trace = traces[.ppg] {
      drawPPG(ppg, trace: trace, on: &layout)
      methods.append("pulses: Elgendi et al. 2013 · PPG heart rate: spectral tracking (TROIKA)")
    }
    if let motion = analysis.section(StepsSection.self), let trace = traces[.accelerometer] {
      drawAccelerometer(motion, trace: trace, on: &layout)
      methods.append("steps: acceleration-magnitude peaks in a regular rhythm (Zhao 2010)")
    }
    layout.footnote("Vitals · " + methods.joined(separator: " · "))
    return layout.document(title: title)
  }

  /// The report as a self-contained HTML page that embeds the SVG.
  public func html() -> String {
    let name = SVGCanvas.escape(FileSystem.lastPathComponent(analysis.path))
    let svg = svg().split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>Vitals report — \(name)</title>
      <style>body{margin:0;background:#f1f3f5}svg{display:block;margin:16px auto;background:#fff;box-shadow:0 1px 4px #0003}</style>
      </head><body>
      \(svg)
      </body></html>

      """
  }

  /// The heading's lines: the recording (format, the channels drawn, rate, length), the main numbers of
  /// each analyzed kind, and the kinds recognized but not analyzed.
  func facts(scale: TimeScale, duration: Double) -> [String] {
    let ecg = analysis.section(ECGSection.self)
    let ppg = analysis.section(PPGSection.self)
    let motion = analysis.section(StepsSection.self)
    let channels =
      [
        ecg.map { "lead \($0.channel)" }, ppg.map { "PPG " + $0.channels.joined(separator: "/") },
        motion.map { "accelerometer " + $0.channels.joined(separator: "/") },
      ].compactMap { $0 }
    let recording =
      ([analysis.format] + channels + ["\(Self.number(analysis.sampleRate)) Hz", scale.describe(duration)])
      .joined(separator: ", ")
    let notAnalyzed = analysis.notAnalyzed.map { "not analyzed: \($0.kind.sectionName) (\($0.reason))" }
    return [recording] + (ecg.map(ecgFacts) ?? []) + (ppg.map(ppgFacts) ?? [])
      + (motion.map { stepsFacts($0, scale: scale) } ?? []) + notAnalyzed
  }

  /// The unit of channel `channel` for axis labels ("a.u." when the recording states none).
  func unit(ofChannel channel: Int?) -> String {
    guard let channel else { return "" }
    let text = analysis.signals[channel].unit
    return text.isEmpty ? "a.u." : text
  }

  /// A number for display: 3 significant digits at most, "–" when undefined.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    if abs(value) >= 100 || value == value.rounded() { return String(Int(value.rounded())) }
    return String(cFormat: abs(value) >= 10 ? "%.1f" : "%.2f", value)
  }
}

/// A heart-rate reading a report draws.
public struct HeartRateReading: Sendable, Equatable {
  /// Seconds from the first sample of the record.
  public var seconds: Double
  /// Beats per minute.
  public var bpm: Double
  /// The reading's quality, 0–1 (PPG windows); nil when the analysis gives none (ECG).
  public var quality: Double?
  /// Whether the analysis counts the reading as reliable (always true for ECG readings).
  public var isReliable: Bool

  /// A reading.
  public init(seconds: Double, bpm: Double, quality: Double? = nil, isReliable: Bool = true) {
    self.seconds = seconds
    self.bpm = bpm
    self.quality = quality
    self.isReliable = isReliable
  }

  /// The reading a heart-rate event carries (its rate, and for PPG its window's quality); nil for other
  /// events. The one place the report reads event values.
  init?(_ event: PipelineEvent) {
    guard case .heartRate(let bpm, let quality) = event.value else { return nil }
    self.init(
      seconds: event.seconds, bpm: bpm, quality: quality?.score, isReliable: quality?.isReliable ?? true)
  }
}
