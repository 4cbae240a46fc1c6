/// The report's page: a canvas 1400 px wide on which the heading, the panels and the footnote stack from
/// the top, each placed at ``y`` and moving it down. Panels share one time axis (``scale``) and a
/// numbered clip path each.
struct ReportLayout {
  /// Width of the page, px.
  static let width = 1400.0
  /// Left edge of every plot, px (the y-axis labels lie left of it).
  static let left = 90.0
  /// Height of a full-width panel's plot, px.
  static let panelHeight = 170.0
  /// Width of a full-width panel's plot, px.
  static let plotWidth = width - left - 40

  /// Seconds of the recording.
  let duration: Double
  /// The unit of the time axes.
  let scale: TimeScale
  private(set) var canvas = SVGCanvas(width: width, height: 0)
  /// Top of what is placed next, px.
  var y = 30.0
  private var clips = 0

  /// A page for a recording of `duration` seconds.
  init(duration: Double) {
    self.duration = duration
    scale = TimeScale(duration: duration)
  }

  /// The title (22 px, bold) and one line per fact under it.
  mutating func heading(_ title: String, facts: [String]) {
    canvas.text(Self.left, y, title, size: 22, weight: "bold")
    y += 26
    for fact in facts {
      canvas.text(Self.left, y, fact, size: 14, fill: "#333")
      y += 19
    }
    y += 30
  }

  /// Leaves `pixels` of space.
  mutating func skip(_ pixels: Double) { y += pixels }

  /// Draws `draw` clipped to `frame`.
  mutating func clipped(_ frame: PlotFrame, _ draw: (inout SVGCanvas) -> Void) {
    clips += 1
    let id = frame.clip(on: &canvas, id: "clip\(clips)")
    canvas.raw("<g clip-path=\"url(#\(id))\">")
    draw(&canvas)
    canvas.raw("</g>")
  }

  /// Draws axes on `frame` (the caller places it and moves ``y``).
  mutating func axes(
    _ frame: PlotFrame, title: String, xLabel: String, yLabel: String, xTicks: Int, yTicks: Int
  ) {
    frame.drawAxes(on: &canvas, title: title, xLabel: xLabel, yLabel: yLabel, xTicks: xTicks, yTicks: yTicks)
  }

  /// A full-width panel at ``y`` (time in ``scale`` units on x unless `xRange` is given): axes, then
  /// `shading`'s spans, then `draw`, clipped to the plot. Moves ``y`` below it.
  mutating func panel(
    title: String, yLabel: String, yRange: ClosedRange<Double>, xRange: ClosedRange<Double>? = nil,
    xLabel: String? = nil, shading: Shading? = nil, _ draw: (PlotFrame, inout SVGCanvas) -> Void
  ) {
    let frame = PlotFrame(
      x: Self.left, y: y, width: Self.plotWidth, height: Self.panelHeight,
      xRange: xRange ?? 0...(duration / scale.unit), yRange: yRange)
    frame.drawAxes(on: &canvas, title: title, xLabel: xLabel ?? "time (\(scale.name))", yLabel: yLabel)
    let unit = scale.unit
    clipped(frame) { c in
      if let shading {
        for span in shading.spans {
          c.rect(
            x: frame.px(span.start / unit), y: frame.y,
            width: frame.px(span.end / unit) - frame.px(span.start / unit),
            height: frame.height, fill: shading.fill, opacity: 0.15)
        }
      }
      draw(frame, &c)
    }
    y += Self.panelHeight + 75
  }

  /// A small gray line of text 20 px above ``y`` (under the last panel's axis label).
  mutating func footnote(_ text: String) {
    canvas.text(Self.left, y - 20, text, size: 11, fill: "#868e96")
  }

  /// The page as an SVG document, as tall as what was placed.
  func document(title: String) -> String {
    var document = SVGCanvas(width: Self.width, height: y)
    for element in canvas.elements { document.raw(element) }
    return document.document(title: title)
  }
}

/// Time spans shaded behind a panel's plot (irregular-rhythm episodes, walking bouts).
struct Shading {
  /// The spans, seconds from the start of the record.
  var spans: [(start: Double, end: Double)]
  /// Their color (drawn at 15 % opacity).
  var fill: String
}

/// The unit a time axis is labeled in: seconds up to 5 minutes, minutes up to 3 hours, hours beyond.
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
