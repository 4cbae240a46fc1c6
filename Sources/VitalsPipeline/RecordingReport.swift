import VitalsAnalysis
import VitalsCore
import VitalsFFT
import VitalsIO
import VitalsSupport

/// What a report shows of one recording, gathered in one streaming pass
/// (``collect(path:options:excerptSeconds:)``): the summary, the ECG lead at screen resolution, two
/// excerpts at full resolution, and the heart-rate readings.
public struct RecordingReport: Sendable {
  /// The recording's summary (its ``ECGSection`` carries the beats and NN intervals).
  public var analysis: RecordingAnalysis
  /// The whole ECG lead as a min/max envelope.
  public var envelope: MinMaxEnvelope
  /// Full-resolution excerpts of the ECG lead: the first and the last `excerptSeconds` seconds
  /// (one when the record is that short), as (record index of the first sample, samples).
  public var excerpts: [(start: Int64, samples: [Float])]
  /// Heart-rate readings: seconds from the start and beats per minute.
  public var heartRate: [(seconds: Double, bpm: Double)]
  /// Step times, seconds from the start of the record, for the steps-per-minute panel (none: no panel):
  /// the ``StepsSection``'s steps when the recording has accelerometer axes.
  public var steps: [Double]

  /// Analyses the recording at `path` (as ``RecordingAnalyzer/analyze(path:options:onOpen:onChunk:onEvent:)``)
  /// and keeps what the report draws. Throws ``InputError`` for unreadable input, and when the recording
  /// has no ECG lead the pipeline could analyse.
  public static func collect(
    path: String, options: AnalysisOptions = AnalysisOptions(), excerptSeconds: Double = 10
  ) throws(InputError) -> RecordingReport {
    var lead: Int?
    var envelope = MinMaxEnvelope(columns: 1200)
    var first: [Float] = []
    var excerptLength = 0
    var last: SampleRingBuffer?
    var heartRate: [(seconds: Double, bpm: Double)] = []
    let analysis = try RecordingAnalyzer.analyze(
      path: path, options: options,
      onOpen: { signals in
        lead = try? ChannelRoles(signals: signals, overrides: options.overrides, path: path).ecg
      },
      onChunk: { chunk in
        guard let lead else { return }
        if last == nil {
          excerptLength = max(1, Int(excerptSeconds * chunk.sampleRate))
          last = SampleRingBuffer(
            channelCount: 1, minimumCapacity: excerptLength, sampleRate: chunk.sampleRate,
            startTime: chunk.startTime,
            firstSampleIndex: chunk.firstSampleIndex)
        }
        let samples = chunk.channels[lead]
        envelope.append(samples)
        if first.count < excerptLength { first += samples.prefix(excerptLength - first.count) }
        last!.appendOverwritingOldest(
          SignalChunk(
            channels: [samples], sampleRate: chunk.sampleRate, startTime: chunk.startTime,
            firstSampleIndex: chunk.firstSampleIndex))
      },
      onEvent: { event in
        if event.kind == .heartRate, let bpm = event.values["bpm"] { heartRate.append((event.seconds, bpm)) }
      })
    guard analysis.section(ECGSection.self) != nil else {
      let reason =
        analysis.notAnalysed.first { $0.kind == .ecg }?.reason ?? "no ECG lead recognised (use --ecg)"
      throw InputError(path: path, "nothing to report: \(reason)")
    }
    var excerpts: [(start: Int64, samples: [Float])] = [(0, first)]
    if let ring = last, analysis.samples > Int64(excerptLength) {
      let count = min(ring.count, excerptLength)
      var tail = [Float](repeating: 0, count: count)
      tail.withUnsafeMutableBufferPointer {
        ring.copySamples(ofChannel: 0, from: ring.count - count, into: $0)
      }
      excerpts.append((ring.endSampleIndex - Int64(count), tail))
    }
    let steps = analysis.section(StepsSection.self).map { section in
      section.steps.map { Double($0.sampleIndex) / section.sampleRate }
    }
    return RecordingReport(
      analysis: analysis, envelope: envelope, excerpts: excerpts, heartRate: heartRate, steps: steps ?? [])
  }

  /// The report as a self-contained SVG document, 1400 px wide: a heading with the main numbers, the whole
  /// ECG lead (min/max per pixel column, irregular-rhythm episodes shaded), the excerpts with detected beats
  /// marked (and steps, as ticks along the bottom), heart rate over time, the RR tachogram (NN intervals), the Poincaré plot with its SD1/SD2
  /// ellipse, the HRV spectrum (Welch, ``HRVFrequencyDomain/spectrum(of:options:)``) with the VLF, LF and HF
  /// bands shaded, and steps per minute when ``steps`` is not empty.
  public func svg() -> String {
    let ecg = analysis.section(ECGSection.self)!
    let rate = ecg.sampleRate
    let duration = max(Double(analysis.samples) / rate, 1 / rate)
    let scale = TimeScale(duration: duration)
    let panelHeight = 170.0
    let left = 90.0
    let plotWidth = 1400 - left - 40
    var canvas = SVGCanvas(width: 1400, height: 0)
    var y = 30.0
    var clips = 0
    func clipped(_ frame: PlotFrame, _ draw: (inout SVGCanvas) -> Void) {
      clips += 1
      let id = frame.clip(on: &canvas, id: "clip\(clips)")
      canvas.raw("<g clip-path=\"url(#\(id))\">")
      draw(&canvas)
      canvas.raw("</g>")
    }
    func shadeEpisodes(_ frame: PlotFrame, _ c: inout SVGCanvas, unit: Double) {
      for episode in ecg.episodes {
        c.rect(
          x: frame.px(episode.start / unit), y: frame.y,
          width: frame.px(episode.end / unit) - frame.px(episode.start / unit),
          height: frame.height, fill: "#e8590c", opacity: 0.15)
      }
    }
    /// A full-width panel at `y` (time on x unless `xRange` is given): axes, then `draw` clipped to
    /// the plot, over the irregular-rhythm shading when `shaded`.
    func panel(
      title: String, yLabel: String, yRange: ClosedRange<Double>, xRange: ClosedRange<Double>? = nil,
      xLabel: String? = nil, shaded: Bool = true, _ draw: (PlotFrame, inout SVGCanvas) -> Void
    ) {
      let frame = PlotFrame(
        x: left, y: y, width: plotWidth, height: panelHeight, xRange: xRange ?? 0...(duration / scale.unit),
        yRange: yRange)
      frame.drawAxes(on: &canvas, title: title, xLabel: xLabel ?? "time (\(scale.name))", yLabel: yLabel)
      clipped(frame) { c in
        if shaded { shadeEpisodes(frame, &c, unit: scale.unit) }
        draw(frame, &c)
      }
      y += panelHeight + 75
    }

    // Heading.
    let name = FileSystem.lastPathComponent(analysis.path)
    canvas.text(left, y, "Vitals report — \(name)", size: 22, weight: "bold")
    y += 26
    let hrv = ecg.variability
    let t = hrv.time
    let facts = [
      "\(analysis.format), lead \(ecg.channel), \(Self.number(rate)) Hz, \(scale.describe(duration))",
      "\(ecg.beatCount) beats · heart rate mean \(Self.number(t.meanHR)) (min \(Self.number(t.minHR)), max \(Self.number(t.maxHR))) bpm",
      "SDNN \(Self.number(t.sdnn)) ms · RMSSD \(Self.number(t.rmssd)) ms · LF/HF \(Self.number(hrv.frequency.lfhf)) · SD1 \(Self.number(hrv.poincare.sd1)) ms · SD2 \(Self.number(hrv.poincare.sd2)) ms",
      "irregular rhythm \(Self.number(ecg.irregularSeconds)) s in \(ecg.episodes.count) episode(s) · signal quality \(Self.number(100 * ecg.signalQuality)) %",
    ]
    for fact in facts {
      canvas.text(left, y, fact, size: 14, fill: "#333")
      y += 19
    }
    y += 30

    // The whole lead.
    let bins = envelope.bins.filter { !$0.min.isNaN }
    panel(
      title: "ECG (lead \(ecg.channel)), whole record (min/max per pixel column; irregular rhythm shaded)",
      yLabel: "ECG (\(unit))",
      yRange: PlotFrame.padded(Double(bins.map(\.min).min() ?? 0), Double(bins.map(\.max).max() ?? 1))
    ) { frame, c in
      c.polyline(
        Self.envelopeTrace(envelope, frame: frame, from: 0, rate: rate, unit: scale.unit), stroke: "#1c4f8a",
        width: 0.8)
    }

    // Excerpts with beats.
    for (start, samples) in excerpts where !samples.isEmpty {
      let from = Double(start) / rate
      let to = from + Double(samples.count) / rate
      let finite = samples.filter(\.isFinite)
      let excerptSteps = steps.filter { $0 >= from && $0 < to }
      let marks = excerptSteps.isEmpty ? "detected beats marked" : "detected beats and steps (ticks) marked"
      panel(
        title: "ECG (lead \(ecg.channel)), \(Self.number(from)) – \(Self.number(to)) s, \(marks)",
        yLabel: "ECG (\(unit))",
        yRange: PlotFrame.padded(Double(finite.min() ?? 0), Double(finite.max() ?? 1)),
        xRange: from...to, xLabel: "time (s)", shaded: false
      ) { frame, c in
        var excerpt = MinMaxEnvelope(columns: Int(plotWidth))
        excerpt.append(samples)
        c.polyline(
          Self.envelopeTrace(excerpt, frame: frame, from: from, rate: rate, unit: 1), stroke: "#1c4f8a",
          width: 1.2)
        for beat in ecg.beats where beat >= start && beat < start + Int64(samples.count) {
          let value = samples[Int(beat - start)]
          guard value.isFinite else { continue }
          c.circle(
            frame.px(Double(beat) / rate), frame.py(Double(value)), radius: 4.5, fill: "#d6336c",
            opacity: 0.85)
        }
        for step in excerptSteps {
          let bottom = frame.y + frame.height
          c.line(frame.px(step), bottom, frame.px(step), bottom - 16, stroke: "#2b8a3e", width: 2)
        }
      }
    }

    // Heart rate over time, on the 0.5th to 99.5th percentile, so that a few start-up or artefact
    // readings do not flatten the trace.
    let rates = heartRate.map(\.bpm)
    let sortedRates = rates.sorted()
    panel(
      title: "Heart rate (median of the last 8 RR intervals, every second; 0.5–99.5th percentile range)",
      yLabel: "heart rate (bpm)",
      yRange: PlotFrame.padded(
        sortedRates.isEmpty ? 40 : sortedRates[sortedRates.count / 200],
        sortedRates.isEmpty ? 120 : sortedRates[sortedRates.count - 1 - sortedRates.count / 200])
    ) { frame, c in
      c.polyline(
        Self.columnTrace(times: heartRate.map(\.seconds), values: rates, frame: frame, unit: scale.unit),
        stroke: "#c92a2a", width: 1.2)
    }

    // RR tachogram.
    let nn = hrv.intervals
    panel(
      title: "RR tachogram (NN intervals; the intervals around artefact beats left out)",
      yLabel: "NN interval (ms)",
      yRange: PlotFrame.padded(nn.intervals.min() ?? 500, nn.intervals.max() ?? 1200)
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
      c.polyline(
        Self.columnTrace(times: times, values: values, frame: frame, unit: scale.unit), stroke: "#2b8a3e",
        width: 1)
    }
    y += 5

    // Poincaré plot and spectrum side by side.
    let side = 400.0
    var pairs: [(Double, Double)] = []
    for k in nn.intervals.indices.dropFirst() where nn.followsPrevious[k] {
      pairs.append((nn.intervals[k - 1], nn.intervals[k]))
    }
    let poincareRange = PlotFrame.padded(nn.intervals.min() ?? 500, nn.intervals.max() ?? 1200)
    let poincare = PlotFrame(
      x: left, y: y, width: side, height: side, xRange: poincareRange, yRange: poincareRange)
    poincare.drawAxes(
      on: &canvas,
      title:
        "Poincaré plot (SD1 \(Self.number(hrv.poincare.sd1)) ms, SD2 \(Self.number(hrv.poincare.sd2)) ms)",
      xLabel: "NN(k) (ms)", yLabel: "NN(k+1) (ms)", xTicks: 6, yTicks: 6)
    clipped(poincare) { c in
      c.line(
        poincare.px(poincareRange.lowerBound), poincare.py(poincareRange.lowerBound),
        poincare.px(poincareRange.upperBound),
        poincare.py(poincareRange.upperBound), stroke: "#868e96", dash: "4 4")
      let stride = max(1, pairs.count / 4000)
      for k in Swift.stride(from: 0, to: pairs.count, by: stride) {
        c.circle(poincare.px(pairs[k].0), poincare.py(pairs[k].1), radius: 2, fill: "#1971c2", opacity: 0.45)
      }
      let mean = t.meanNN
      if hrv.poincare.sd1.isFinite && hrv.poincare.sd2.isFinite && mean.isFinite {
        let pixels = poincare.width / (poincareRange.upperBound - poincareRange.lowerBound)
        let cx = poincare.px(mean)
        let cy = poincare.py(mean)
        c.raw(
          "<ellipse cx=\"\(SVGCanvas.f(cx))\" cy=\"\(SVGCanvas.f(cy))\" rx=\"\(SVGCanvas.f(hrv.poincare.sd2 * pixels))\" ry=\"\(SVGCanvas.f(hrv.poincare.sd1 * pixels))\" transform=\"rotate(-45 \(SVGCanvas.f(cx)) \(SVGCanvas.f(cy)))\" fill=\"none\" stroke=\"#e8590c\" stroke-width=\"2\"/>"
        )
      }
    }

    let spectrumLeft = left + side + 130
    let spectrum = HRVFrequencyDomain.spectrum(of: nn)
    let bands = HRVFrequencyOptions()
    let powers = spectrum?.power.filter(\.isFinite) ?? []
    let spectrumFrame = PlotFrame(
      x: spectrumLeft, y: y, width: 1400 - spectrumLeft - 40, height: side, xRange: 0...0.5,
      yRange: 0...max(1e-9, (powers.max() ?? 1) * 1.1))
    spectrumFrame.drawAxes(
      on: &canvas, title: "HRV spectrum (Welch, 4 Hz tachogram): LF/HF \(Self.number(hrv.frequency.lfhf))",
      xLabel: "frequency (Hz)", yLabel: "power (ms²/Hz)", xTicks: 10, yTicks: 6)
    clipped(spectrumFrame) { c in
      for (band, color, label, power) in [
        (bands.vlf, "#adb5bd", "VLF", hrv.frequency.vlf), (bands.lf, "#4dabf7", "LF", hrv.frequency.lf),
        (bands.hf, "#69db7c", "HF", hrv.frequency.hf),
      ] {
        let x0 = spectrumFrame.px(band.lower)
        let x1 = spectrumFrame.px(band.upper)
        c.rect(
          x: x0, y: spectrumFrame.y, width: x1 - x0, height: spectrumFrame.height, fill: color, opacity: 0.25)
        c.text(
          (x0 + x1) / 2, spectrumFrame.y + 20, label, size: 13, anchor: "middle", weight: "bold", fill: "#333"
        )
        c.text(
          (x0 + x1) / 2, spectrumFrame.y + 37, "\(Self.number(power)) ms²", size: 12, anchor: "middle",
          fill: "#333")
      }
      if let spectrum {
        c.polyline(
          zip(spectrum.frequencies, spectrum.power).map { (spectrumFrame.px($0.0), spectrumFrame.py($0.1)) },
          stroke: "#343a40", width: 1.6)
      } else {
        c.text(
          spectrumFrame.x + spectrumFrame.width / 2, spectrumFrame.y + spectrumFrame.height / 2,
          "too few NN intervals for a spectrum", size: 14, anchor: "middle", fill: "#868e96")
      }
    }
    y += side + 80

    // Steps per minute.
    if !steps.isEmpty {
      let minutes = Int((duration / 60).rounded(.up))
      var counts = [Int](repeating: 0, count: max(1, minutes))
      for step in steps where step >= 0 && step < duration {
        counts[min(counts.count - 1, Int(step / 60))] += 1
      }
      panel(
        title: "Steps per minute (\(steps.count) steps)", yLabel: "steps/min",
        yRange: 0...Double(max(10, (counts.max() ?? 0) + 10)), xRange: 0...Double(counts.count),
        xLabel: "time (min)", shaded: false
      ) { frame, c in
        for (minute, count) in counts.enumerated() where count > 0 {
          let x0 = frame.px(Double(minute))
          c.rect(
            x: x0 + 0.5, y: frame.py(Double(count)), width: max(1, frame.px(Double(minute + 1)) - x0 - 1),
            height: frame.py(0) - frame.py(Double(count)), fill: "#7048e8", opacity: 0.8)
        }
      }
    }

    canvas.text(
      left, y - 20, "Vitals · beats: Pan & Tompkins 1985 QRS detector · HRV: NeuroKit2 definitions",
      size: 11, fill: "#868e96")
    var document = SVGCanvas(width: 1400, height: y)
    for element in canvas.elements { document.raw(element) }
    return document.document(title: "Vitals report — \(name)")
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

  /// The ECG lead's unit, for axis labels.
  private var unit: String {
    guard let lead = analysis.roles.ecg else { return "" }
    let text = analysis.signals[lead].unit
    return text.isEmpty ? "a.u." : text
  }

  /// A number for display: 3 significant digits at most, "–" when undefined.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    if abs(value) >= 100 || value == value.rounded() { return String(Int(value.rounded())) }
    return String(cFormat: abs(value) >= 10 ? "%.1f" : "%.2f", value)
  }

  /// The polyline of an envelope of samples at `rate` Hz whose first sample is at `from` seconds: per bin
  /// its maximum then its minimum (one point per sample while bins hold one); NaN bins break the line.
  static func envelopeTrace(
    _ envelope: MinMaxEnvelope, frame: PlotFrame, from: Double, rate: Double, unit: Double
  )
    -> [(Double, Double)?]
  {
    var points: [(Double, Double)?] = []
    for bin in envelope.bins {
      guard !bin.min.isNaN else {
        points.append(nil)
        continue
      }
      let x = frame.px((from + Double(bin.start) / rate) / unit)
      points.append((x, frame.py(Double(bin.max))))
      if envelope.samplesPerBin > 1 { points.append((x, frame.py(Double(bin.min)))) }
    }
    return points
  }

  /// A trace of irregularly timed values at screen resolution: per pixel column of `frame`, the values'
  /// minimum and maximum (a plain polyline where columns hold one value); NaN breaks the line.
  static func columnTrace(times: [Double], values: [Double], frame: PlotFrame, unit: Double) -> [(
    Double, Double
  )?] {
    var points: [(Double, Double)?] = []
    var column = Int.min
    var low = Double.nan
    var high = Double.nan
    var count = 0
    func flush() {
      guard count > 0 else { return }
      let x = Double(column) + 0.5
      if count == 1 || low == high {
        points.append((x, frame.py(low)))
      } else {
        points.append((x, frame.py(high)))
        points.append((x, frame.py(low)))
      }
    }
    for (time, value) in zip(times, values) {
      guard time.isFinite, value.isFinite else {
        flush()
        count = 0
        column = Int.min
        points.append(nil)
        continue
      }
      let c = Int(frame.px(time / unit).rounded(.down))
      if c != column {
        flush()
        (column, low, high, count) = (c, value, value, 0)
      }
      low = min(low, value)
      high = max(high, value)
      count += 1
    }
    flush()
    return points
  }
}

/// The unit a time axis is labelled in: seconds up to 5 minutes, minutes up to 3 hours, hours beyond.
struct TimeScale {
  let unit: Double
  let name: String

  init(duration: Double) {
    if duration <= 300 {
      (unit, name) = (1, "s")
    } else if duration <= 3 * 3600 {
      (unit, name) = (60, "min")
    } else {
      (unit, name) = (3600, "h")
    }
  }

  func describe(_ duration: Double) -> String {
    duration >= 3600
      ? String(cFormat: "%.1f h", duration / 3600)
      : duration >= 60 ? String(cFormat: "%.1f min", duration / 60) : String(cFormat: "%.1f s", duration)
  }
}
