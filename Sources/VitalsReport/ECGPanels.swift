import VitalsPipeline

extension RecordingReport {
  /// The ECG's lines of the heading: beats and heart rate, the main HRV numbers, irregular rhythm and
  /// signal quality.
  func ecgFacts(_ ecg: ECGSection) -> [String] {
    let hrv = ecg.variability
    let t = hrv.time
    return [
      "\(ecg.beatCount) beats · heart rate mean \(Self.number(t.meanHR)) (min \(Self.number(t.minHR)), max \(Self.number(t.maxHR))) bpm",
      "SDNN \(Self.number(t.sdnn)) ms · RMSSD \(Self.number(t.rmssd)) ms · LF/HF \(Self.number(hrv.frequency.lfhf)) · SD1 \(Self.number(hrv.poincare.sd1)) ms · SD2 \(Self.number(hrv.poincare.sd2)) ms",
      "irregular rhythm \(Self.number(ecg.irregularSeconds)) s in \(ecg.episodes.count) episode(s) · signal quality \(Self.number(100 * ecg.signalQuality)) %",
    ]
  }

  /// The ECG panels: the whole lead (irregular-rhythm episodes shaded), its excerpts with the detected
  /// beats marked (and the steps ticked along the bottom when there are any), heart rate over time, the RR
  /// tachogram, and the Poincaré plot beside the HRV spectrum.
  func drawECG(_ ecg: ECGSection, trace: SignalTrace, on layout: inout ReportLayout) {
    let rate = ecg.sampleRate
    let yLabel = "ECG (\(unit(ofChannel: analysis.roles.ecg)))"
    let episodes = Shading(spans: ecg.episodes.map { ($0.start, $0.end) }, fill: "#e8590c")
    layout.wholeRecordPanel(
      trace, rate: rate, shading: episodes, yLabel: yLabel,
      title: "ECG (lead \(ecg.channel)), whole record (min/max per pixel column; irregular rhythm shaded)")
    let steps = steps
    layout.excerptPanels(
      trace, rate: rate, yLabel: yLabel,
      title: { from, to in
        let marks =
          steps.contains { $0 >= from && $0 < to }
          ? "detected beats and steps (ticks) marked" : "detected beats marked"
        return "ECG (lead \(ecg.channel)), \(Self.number(from)) – \(Self.number(to)) s, \(marks)"
      },
      marks: { excerpt, c in
        excerpt.markSamples(ecg.beats, on: &c, fill: "#d6336c")
        let bottom = excerpt.frame.y + excerpt.frame.height
        for step in steps where step >= excerpt.from && step < excerpt.to {
          let x = excerpt.frame.px(step)
          c.line(x, bottom, x, bottom - 16, stroke: "#2b8a3e", width: 2)
        }
      })
    layout.heartRatePanel(
      heartRate[.ecg] ?? [], shading: episodes,
      title: "Heart rate (median of the last 8 RR intervals, every second; 0.5–99.5th percentile range)")
    layout.tachogramPanel(ecg.variability.intervals, shading: episodes)
    layout.skip(5)
    layout.variabilityRow(ecg.variability)
  }
}
