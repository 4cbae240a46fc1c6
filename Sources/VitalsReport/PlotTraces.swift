extension PlotFrame {
  /// The polyline of an envelope of samples at `rate` Hz whose first sample is at `from` seconds, with
  /// time in units of `unit` seconds on x: per bin its maximum then its minimum (one point per sample while
  /// bins hold one); NaN bins break the line.
  func envelopeTrace(_ envelope: MinMaxEnvelope, from: Double, rate: Double, unit: Double)
    -> [(Double, Double)?]
  {
    var points: [(Double, Double)?] = []
    for bin in envelope.bins {
      guard !bin.min.isNaN else {
        points.append(nil)
        continue
      }
      let x = px((from + Double(bin.start) / rate) / unit)
      points.append((x, py(Double(bin.max))))
      if envelope.samplesPerBin > 1 { points.append((x, py(Double(bin.min)))) }
    }
    return points
  }

  /// A trace of irregularly timed values (times in seconds, drawn in units of `unit` seconds) at screen
  /// resolution: per pixel column, the values' minimum and maximum (a plain polyline where columns hold
  /// one value); a NaN time or value breaks the line.
  func columnTrace(times: [Double], values: [Double], unit: Double) -> [(Double, Double)?] {
    var points: [(Double, Double)?] = []
    var column = Int.min
    var low = Double.nan
    var high = Double.nan
    var count = 0
    func flush() {
      guard count > 0 else { return }
      let x = Double(column) + 0.5
      if count == 1 || low == high {
        points.append((x, py(low)))
      } else {
        points.append((x, py(high)))
        points.append((x, py(low)))
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
      let c = Int(px(time / unit).rounded(.down))
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
