import VitalsAnalysis
import VitalsPipeline

extension ReportLayout {
  /// The RR tachogram: the NN intervals over time, the line broken where an interval does not follow the
  /// previous one (around artifact beats), over `shading`.
  mutating func tachogramPanel(_ nn: NNSeries, shading: Shading?) {
    let unit = scale.unit
    panel(
      title: "RR tachogram (NN intervals; the intervals around artifact beats left out)",
      yLabel: "NN interval (ms)",
      yRange: PlotFrame.padded(nn.intervals.min() ?? 500, nn.intervals.max() ?? 1200),
      shading: shading
    ) { frame, c in
      var times: [Double] = []
      var values: [Double] = []
      for k in nn.intervals.indices {
        if k > 0 && !nn.followsPrevious[k] {
          times.append(.nan)
          values.append(.nan)
        }
        times.append(nn.endTimes[k])
        values.append(nn.intervals[k])
      }
      c.polyline(frame.columnTrace(times: times, values: values, unit: unit), stroke: "#2b8a3e", width: 1)
    }
  }

  /// The Poincaré plot (400 px square) and, beside it, the HRV spectrum, at ``y``; moves ``y`` below them.
  mutating func variabilityRow(_ hrv: VariabilitySummary) {
    let side = 400.0
    poincarePlot(hrv, side: side)
    spectrumPlot(hrv, left: Self.left + side + 130, height: side)
    y += side + 80
  }

  /// The Poincaré plot: each NN interval against the next (at most about 4000 points), the identity line,
  /// and the SD1/SD2 ellipse around the mean NN interval.
  mutating func poincarePlot(_ hrv: VariabilitySummary, side: Double) {
    let nn = hrv.intervals
    var pairs: [(Double, Double)] = []
    for k in nn.intervals.indices.dropFirst() where nn.followsPrevious[k] {
      pairs.append((nn.intervals[k - 1], nn.intervals[k]))
    }
    let range = PlotFrame.padded(nn.intervals.min() ?? 500, nn.intervals.max() ?? 1200)
    let frame = PlotFrame(x: Self.left, y: y, width: side, height: side, xRange: range, yRange: range)
    let (sd1, sd2, mean) = (hrv.poincare.sd1, hrv.poincare.sd2, hrv.time.meanNN)
    axes(
      frame,
      title: "Poincaré plot (SD1 \(RecordingReport.number(sd1)) ms, SD2 \(RecordingReport.number(sd2)) ms)",
      xLabel: "NN(k) (ms)", yLabel: "NN(k+1) (ms)", xTicks: 6, yTicks: 6)
    clipped(frame) { c in
      c.line(
        frame.px(range.lowerBound), frame.py(range.lowerBound), frame.px(range.upperBound),
        frame.py(range.upperBound), stroke: "#868e96", dash: "4 4")
      let stride = max(1, pairs.count / 4000)
      for k in Swift.stride(from: 0, to: pairs.count, by: stride) {
        c.circle(frame.px(pairs[k].0), frame.py(pairs[k].1), radius: 2, fill: "#1971c2", opacity: 0.45)
      }
      if sd1.isFinite && sd2.isFinite && mean.isFinite {
        let pixels = frame.width / (range.upperBound - range.lowerBound)
        let (cx, cy) = (SVGCanvas.f(frame.px(mean)), SVGCanvas.f(frame.py(mean)))
        c.raw(
          "<ellipse cx=\"\(cx)\" cy=\"\(cy)\" rx=\"\(SVGCanvas.f(sd2 * pixels))\" ry=\"\(SVGCanvas.f(sd1 * pixels))\" transform=\"rotate(-45 \(cx) \(cy))\" fill=\"none\" stroke=\"#e8590c\" stroke-width=\"2\"/>"
        )
      }
    }
  }

  /// The HRV spectrum (Welch, `HRVFrequencyDomain/spectrum(of:options:)`) from 0 to 0.5 Hz with the
  /// VLF, LF and HF bands shaded and their powers written in them.
  mutating func spectrumPlot(_ hrv: VariabilitySummary, left: Double, height: Double) {
    let spectrum = HRVFrequencyDomain.spectrum(of: hrv.intervals)
    let bands = HRVFrequencyOptions()
    let powers = spectrum?.power.filter(\.isFinite) ?? []
    let frame = PlotFrame(
      x: left, y: y, width: Self.width - left - 40, height: height, xRange: 0...0.5,
      yRange: 0...max(1e-9, (powers.max() ?? 1) * 1.1))
    axes(
      frame,
      title: "HRV spectrum (Welch, 4 Hz tachogram): LF/HF \(RecordingReport.number(hrv.frequency.lfhf))",
      xLabel: "frequency (Hz)", yLabel: "power (ms²/Hz)", xTicks: 10, yTicks: 6)
    let domain = hrv.frequency
    clipped(frame) { c in
      for (band, color, label, power) in [
        (bands.vlf, "#adb5bd", "VLF", domain.vlf), (bands.lf, "#4dabf7", "LF", domain.lf),
        (bands.hf, "#69db7c", "HF", domain.hf),
      ] {
        let (x0, x1) = (frame.px(band.lower), frame.px(band.upper))
        c.rect(x: x0, y: frame.y, width: x1 - x0, height: frame.height, fill: color, opacity: 0.25)
        c.text((x0 + x1) / 2, frame.y + 20, label, size: 13, anchor: "middle", weight: "bold", fill: "#333")
        c.text(
          (x0 + x1) / 2, frame.y + 37, "\(RecordingReport.number(power)) ms²", size: 12, anchor: "middle",
          fill: "#333")
      }
      if let spectrum {
        c.polyline(
          zip(spectrum.frequencies, spectrum.power).map { (frame.px($0.0), frame.py($0.1)) },
          stroke: "#343a40",
          width: 1.6)
      } else {
        c.text(
          frame.x + frame.width / 2, frame.y + frame.height / 2, "too few NN intervals for a spectrum",
          size: 14, anchor: "middle", fill: "#868e96")
      }
    }
  }
}
