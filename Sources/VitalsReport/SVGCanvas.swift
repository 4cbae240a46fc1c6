import VitalsSupport
import RealModule
import VitalsSupport

/// Hand-written SVG: shapes, text and plot frames with axes, in pixel coordinates (y down).
struct SVGCanvas {
  let width: Double
  let height: Double
  private(set) var elements: [String] = []

  init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  static func escape(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
      .replacing("\"", with: "&quot;")
  }

  static func f(_ value: Double) -> String { String(cFormat: "%.1f", value) }

  /// ` class="mark"` for a shape that marks something found (a pulse, a step), so that a reader or a
  /// style sheet can pick the marks out; nothing when `mark` is nil.
  static func markClass(_ mark: String?) -> String { mark.map { " class=\"\($0)\"" } ?? "" }

  mutating func rect(
    x: Double, y: Double, width: Double, height: Double, fill: String, opacity: Double = 1,
    stroke: String? = nil
  ) {
    let outline = stroke.map { " stroke=\"\($0)\"" } ?? ""
    let alpha = opacity < 1 ? " fill-opacity=\"\(opacity)\"" : ""
    elements.append(
      "<rect x=\"\(Self.f(x))\" y=\"\(Self.f(y))\" width=\"\(Self.f(max(0, width)))\" height=\"\(Self.f(max(0, height)))\" fill=\"\(fill)\"\(alpha)\(outline)/>"
    )
  }

  mutating func line(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1,
    dash: String? = nil, mark: String? = nil
  ) {
    let dashing = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
    elements.append(
      "<line x1=\"\(Self.f(x1))\" y1=\"\(Self.f(y1))\" x2=\"\(Self.f(x2))\" y2=\"\(Self.f(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(width)\"\(dashing)\(Self.markClass(mark))/>"
    )
  }

  /// A polyline; runs are broken where a point is nil or not finite (an SVG coordinate is a finite
  /// number).
  mutating func polyline(_ points: [(Double, Double)?], stroke: String, width: Double = 1) {
    var runs: [[(Double, Double)]] = [[]]
    for point in points {
      if let point, point.0.isFinite && point.1.isFinite {
        runs[runs.count - 1].append(point)
      } else if !runs[runs.count - 1].isEmpty {
        runs.append([])
      }
    }
    for run in runs where run.count > 1 {
      let list = run.map { "\(Self.f($0.0)),\(Self.f($0.1))" }.joined(separator: " ")
      elements.append(
        "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(width)\" stroke-linejoin=\"round\"/>"
      )
    }
  }

  mutating func circle(
    _ x: Double, _ y: Double, radius: Double, fill: String, opacity: Double = 1, mark: String? = nil
  ) {
    let alpha = opacity < 1 ? " fill-opacity=\"\(opacity)\"" : ""
    elements.append(
      "<circle cx=\"\(Self.f(x))\" cy=\"\(Self.f(y))\" r=\"\(radius)\" fill=\"\(fill)\"\(alpha)\(Self.markClass(mark))/>"
    )
  }

  mutating func text(
    _ x: Double, _ y: Double, _ string: String, size: Double = 13, anchor: String = "start",
    weight: String = "normal",
    fill: String = "#222", rotate: Double? = nil
  ) {
    let rotation = rotate.map { " transform=\"rotate(\($0) \(Self.f(x)) \(Self.f(y)))\"" } ?? ""
    elements.append(
      "<text x=\"\(Self.f(x))\" y=\"\(Self.f(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor)\" font-weight=\"\(weight)\" fill=\"\(fill)\"\(rotation)>\(Self.escape(string))</text>"
    )
  }

  mutating func raw(_ element: String) { elements.append(element) }

  /// The document.
  func document(title: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.f(width))" height="\(Self.f(height))" viewBox="0 0 \(Self.f(width)) \(Self.f(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
    <title>\(Self.escape(title))</title>
    <rect width="100%" height="100%" fill="#ffffff"/>
    \(elements.joined(separator: "\n"))
    </svg>

    """
  }
}

/// A plot's area on the canvas and the data ranges it shows.
struct PlotFrame {
  /// Left, top, width and height of the plotting area, px.
  let x: Double, y: Double, width: Double, height: Double
  let xRange: ClosedRange<Double>
  let yRange: ClosedRange<Double>

  func px(_ value: Double) -> Double {
    x + (value - xRange.lowerBound) / (xRange.upperBound - xRange.lowerBound) * width
  }

  func py(_ value: Double) -> Double {
    y + height - (value - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound) * height
  }

  /// Round tick values (1, 2 or 5 × 10ⁿ apart) within `range`, about `count` of them.
  static func ticks(_ range: ClosedRange<Double>, count: Int) -> (values: [Double], step: Double) {
    let span = range.upperBound - range.lowerBound
    guard span > 0, span.isFinite else { return ([range.lowerBound], 1) }
    let rough = span / Double(max(1, count))
    let magnitude = Double.pow(10, Double.log10(rough).rounded(.down))
    let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
    var values: [Double] = []
    var value = (range.lowerBound / step - 1e-9).rounded(.up) * step
    while value <= range.upperBound + step * 1e-9 {
      values.append(abs(value) < step * 1e-9 ? 0 : value)
      value += step
    }
    return (values, step)
  }

  /// `value` with as many decimals as `step` needs.
  static func label(_ value: Double, step: Double) -> String {
    let decimals = max(0, min(6, Int((-Double.log10(step) - 1e-9).rounded(.up))))
    return String(cFormat: "%.\(decimals)f", value)
  }

  /// A range padded by `fraction` of its span on both sides (one unit when it is empty).
  static func padded(_ low: Double, _ high: Double, fraction: Double = 0.05) -> ClosedRange<Double> {
    guard low.isFinite, high.isFinite else { return 0...1 }
    let span = high - low
    let pad = span > 0 ? span * fraction : max(1, abs(low) * 0.1)
    return (low - pad)...(high + pad)
  }

  /// Draws the frame, grid, ticks, tick labels, axis labels and the title.
  func drawAxes(
    on canvas: inout SVGCanvas, title: String, xLabel: String, yLabel: String, xTicks: Int = 10,
    yTicks: Int = 5
  ) {
    canvas.rect(x: x, y: y, width: width, height: height, fill: "#fcfcfc", stroke: "#999")
    let xt = Self.ticks(xRange, count: xTicks)
    for value in xt.values {
      let p = px(value)
      canvas.line(p, y, p, y + height, stroke: "#e4e4e4")
      canvas.line(p, y + height, p, y + height + 5, stroke: "#555")
      canvas.text(
        p, y + height + 19, Self.label(value, step: xt.step), size: 12, anchor: "middle", fill: "#444")
    }
    let yt = Self.ticks(yRange, count: yTicks)
    var widest = 1
    for value in yt.values {
      let p = py(value)
      let label = Self.label(value, step: yt.step)
      widest = max(widest, label.count)
      canvas.line(x, p, x + width, p, stroke: "#e4e4e4")
      canvas.line(x - 5, p, x, p, stroke: "#555")
      canvas.text(x - 8, p + 4, label, size: 12, anchor: "end", fill: "#444")
    }
    canvas.text(x, y - 10, title, size: 15, weight: "bold")
    canvas.text(x + width / 2, y + height + 38, xLabel, size: 13, anchor: "middle", fill: "#333")
    // Clear of the widest tick label (about 7 px per character at 12 px).
    canvas.text(
      x - 18 - 7 * Double(widest), y + height / 2, yLabel, size: 13, anchor: "middle", fill: "#333",
      rotate: -90)
  }

  /// A clip path id for this frame, registered on the canvas.
  func clip(on canvas: inout SVGCanvas, id: String) -> String {
    canvas.raw(
      "<clipPath id=\"\(id)\"><rect x=\"\(SVGCanvas.f(x))\" y=\"\(SVGCanvas.f(y))\" width=\"\(SVGCanvas.f(width))\" height=\"\(SVGCanvas.f(height))\"/></clipPath>"
    )
    return id
  }
}
