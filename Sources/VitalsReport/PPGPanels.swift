import VitalsPipeline

extension RecordingReport {
  /// The PPG's lines of the heading: pulses, heart rate over the reliable windows, and the main
  /// pulse-rate variability numbers.
  func ppgFacts(_ ppg: PPGSection) -> [String] {
    let rate =
      ppg.heartRate.map {
        "heart rate mean \(Self.number($0.mean)) (min \(Self.number($0.min)), max \(Self.number($0.max))) bpm"
      } ?? "no heart rate"
    let prv = ppg.variability
    return [
      "\(ppg.beatCount) pulses · \(rate) over the reliable windows · \(ppg.reliableWindows) of \(ppg.windows) windows reliable",
      "pulse-rate variability: SDNN \(Self.number(prv.time.sdnn)) ms · RMSSD \(Self.number(prv.time.rmssd)) ms · LF/HF \(Self.number(prv.frequency.lfhf))",
    ]
  }

  /// The PPG panels: the whole first PPG channel, its excerpts with the detected pulses marked, the
  /// heart rate of the estimator's windows (the readings not reliable circled) and their quality.
  func drawPPG(_ ppg: PPGSection, trace: SignalTrace, on layout: inout ReportLayout) {
    let rate = ppg.sampleRate
    let name = ppg.channels[0]
    let yLabel = "PPG (\(unit(ofChannel: analysis.roles.ppg.first)))"
    layout.wholeRecordPanel(
      trace, rate: rate, shading: nil, yLabel: yLabel,
      title: "PPG (\(name)), whole record (min/max per pixel column)")
    layout.excerptPanels(
      trace, rate: rate, yLabel: yLabel,
      title: { from, to in
        "PPG (\(name)), \(Self.number(from)) – \(Self.number(to)) s, detected pulses marked"
      },
      marks: { excerpt, c in excerpt.markSamples(ppg.beats, on: &c, fill: "#d6336c", mark: "pulse") })
    let readings = heartRate[.ppg] ?? []
    let unit = layout.scale.unit
    layout.heartRatePanel(
      readings, shading: nil,
      title:
        "Heart rate from the PPG (one reading per window; circled: not reliable; 0.5–99.5th percentile range)"
    ) { frame, c in
      for reading in readings where !reading.isReliable {
        c.circle(
          frame.px(reading.seconds / unit), frame.py(reading.bpm), radius: 3, fill: "#868e96", opacity: 0.8,
          mark: "unreliable")
      }
    }
    layout.qualityPanel(readings)
  }
}

extension ReportLayout {
  /// The quality (0–1) of each heart-rate reading over time.
  mutating func qualityPanel(_ readings: [HeartRateReading]) {
    let unit = scale.unit
    panel(
      title: "Heart-rate quality per window (0–1)",
      yLabel: "quality", yRange: PlotFrame.padded(0, 1)
    ) { frame, c in
      c.polyline(
        frame.columnTrace(
          times: readings.map(\.seconds), values: readings.map { $0.quality ?? .nan }, unit: unit),
        stroke: "#7048e8", width: 1.2)
    }
  }
}
