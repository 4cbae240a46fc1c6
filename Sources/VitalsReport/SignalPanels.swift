/// An excerpt being drawn: its samples, at full resolution, and the plot they are drawn on.
struct ExcerptPlot {
  /// Record index of the first sample.
  let start: Int64
  let samples: [Float]
  /// Samples per second.
  let rate: Double
  /// The plot, time in seconds on x.
  let frame: PlotFrame

  /// Seconds from the start of the record to the first sample.
  var from: Double { Double(start) / rate }
  /// Seconds from the start of the record to the end of the last sample.
  var to: Double { from + Double(samples.count) / rate }

  /// A circle on the signal at each of the record sample indices `indices` inside the excerpt whose sample
  /// is finite; `mark` names them (see `SVGCanvas/markClass(_:)`).
  func markSamples(_ indices: [Int64], on c: inout SVGCanvas, fill: String, mark: String? = nil) {
    for index in indices where index >= start && index < start + Int64(samples.count) {
      let value = samples[Int(index - start)]
      guard value.isFinite else { continue }
      c.circle(
        frame.px(Double(index) / rate), frame.py(Double(value)), radius: 4.5, fill: fill, opacity: 0.85,
        mark: mark)
    }
  }
}

extension ReportLayout {
  /// The whole of `trace` (samples at `rate` Hz), min/max per pixel column, over `shading`.
  mutating func wholeRecordPanel(
    _ trace: SignalTrace, rate: Double, shading: Shading?, yLabel: String, title: String
  ) {
    let bins = trace.envelope.bins.filter { !$0.min.isNaN }
    let unit = scale.unit
    panel(
      title: title, yLabel: yLabel,
      yRange: PlotFrame.padded(Double(bins.map(\.min).min() ?? 0), Double(bins.map(\.max).max() ?? 1)),
      shading: shading
    ) { frame, c in
      c.polyline(
        frame.envelopeTrace(trace.envelope, from: 0, rate: rate, unit: unit), stroke: "#1c4f8a", width: 0.8)
    }
  }

  /// One panel per non-empty excerpt of `trace` (samples at `rate` Hz), time in seconds, titled by
  /// `title(from, to)`, with `marks` drawn over the signal.
  mutating func excerptPanels(
    _ trace: SignalTrace, rate: Double, yLabel: String, title: (Double, Double) -> String,
    marks: (ExcerptPlot, inout SVGCanvas) -> Void
  ) {
    for (start, samples) in trace.excerpts where !samples.isEmpty {
      let from = Double(start) / rate
      let to = from + Double(samples.count) / rate
      let finite = samples.filter(\.isFinite)
      panel(
        title: title(from, to), yLabel: yLabel,
        yRange: PlotFrame.padded(Double(finite.min() ?? 0), Double(finite.max() ?? 1)),
        xRange: from...to, xLabel: "time (s)"
      ) { frame, c in
        var excerpt = MinMaxEnvelope(columns: Int(Self.plotWidth))
        excerpt.append(samples)
        c.polyline(
          frame.envelopeTrace(excerpt, from: from, rate: rate, unit: 1), stroke: "#1c4f8a", width: 1.2)
        marks(ExcerptPlot(start: start, samples: samples, rate: rate, frame: frame), &c)
      }
    }
  }

  /// Heart rate over time, on the 0.5th to 99.5th percentile of the readings (so that a few start-up or
  /// artifact readings do not flatten the trace), over `shading`, with `marks` drawn over the trace.
  mutating func heartRatePanel(
    _ readings: [HeartRateReading], shading: Shading?, title: String,
    marks: (PlotFrame, inout SVGCanvas) -> Void = { _, _ in }
  ) {
    let rates = readings.map(\.bpm)
    let sortedRates = rates.sorted()
    let unit = scale.unit
    panel(
      title: title, yLabel: "heart rate (bpm)",
      yRange: PlotFrame.padded(
        sortedRates.isEmpty ? 40 : sortedRates[sortedRates.count / 200],
        sortedRates.isEmpty ? 120 : sortedRates[sortedRates.count - 1 - sortedRates.count / 200]),
      shading: shading
    ) { frame, c in
      c.polyline(
        frame.columnTrace(times: readings.map(\.seconds), values: rates, unit: unit), stroke: "#c92a2a",
        width: 1.2)
      marks(frame, &c)
    }
  }
}
