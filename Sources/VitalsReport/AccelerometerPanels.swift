import VitalsAnalysis
import VitalsPipeline

extension RecordingReport {
  /// The accelerometer's line of the heading: steps, walking time and bouts, cadence, motion level.
  func stepsFacts(_ motion: StepsSection, scale: TimeScale) -> [String] {
    let walking = motion.walking
    return [
      "\(walking.stepCount) steps · walking \(scale.describe(walking.walkingSeconds)) in \(walking.bouts?.count ?? 0) bout(s) · cadence \(Self.number(walking.cadence)) steps/min · motion mean \(Self.number(motion.motionMean)) g, max \(Self.number(motion.motionMaximum)) g"
    ]
  }

  /// The accelerometer panels: the whole acceleration magnitude (walking bouts shaded), its excerpts
  /// with the detected steps marked, and steps per minute with each walking bout's cadence.
  func drawAccelerometer(_ motion: StepsSection, trace: SignalTrace, on layout: inout ReportLayout) {
    let rate = motion.sampleRate
    let yLabel = "magnitude (\(motion.unit?.rawValue ?? "a.u."))"
    let bouts = motion.walking.bouts ?? []
    let walking = Shading(
      spans: bouts.map { (Double($0.start.sampleIndex) / rate, Double($0.end.sampleIndex) / rate) },
      fill: "#2b8a3e")
    layout.wholeRecordPanel(
      trace, rate: rate, shading: walking, yLabel: yLabel,
      title: "Acceleration magnitude, whole record (min/max per pixel column; walking bouts shaded)")
    let stepIndices = motion.steps.map(\.sampleIndex)
    layout.excerptPanels(
      trace, rate: rate, yLabel: yLabel,
      title: { from, to in
        "Acceleration magnitude, \(Self.number(from)) – \(Self.number(to)) s, detected steps marked"
      },
      marks: { excerpt, c in excerpt.markSamples(stepIndices, on: &c, fill: "#2b8a3e", mark: "step") })
    layout.stepsPerMinutePanel(steps, bouts: bouts, sampleRate: rate)
  }
}

extension ReportLayout {
  /// Steps counted in each minute of the record (bars), and a line at each walking bout's cadence from
  /// its first to its last step; `steps` in seconds from the start of the record.
  mutating func stepsPerMinutePanel(_ steps: [Double], bouts: [WalkingBout], sampleRate: Double) {
    let minutes = Int((duration / 60).rounded(.up))
    var counts = [Int](repeating: 0, count: max(1, minutes))
    for step in steps where step >= 0 && step < duration {
      counts[min(counts.count - 1, Int(step / 60))] += 1
    }
    let top = max(Double(max(10, (counts.max() ?? 0) + 10)), (bouts.map(\.cadence).max() ?? 0) + 10)
    panel(
      title: "Steps per minute (\(steps.count) steps; lines: the cadence of each walking bout)",
      yLabel: "steps/min", yRange: 0...top, xRange: 0...Double(counts.count), xLabel: "time (min)"
    ) { frame, c in
      for (minute, count) in counts.enumerated() where count > 0 {
        let x0 = frame.px(Double(minute))
        c.rect(
          x: x0 + 0.5, y: frame.py(Double(count)), width: max(1, frame.px(Double(minute + 1)) - x0 - 1),
          height: frame.py(0) - frame.py(Double(count)), fill: "#7048e8", opacity: 0.8)
      }
      for bout in bouts {
        let (start, end) = (
          Double(bout.start.sampleIndex) / sampleRate, Double(bout.end.sampleIndex) / sampleRate
        )
        let y = frame.py(bout.cadence)
        c.line(frame.px(start / 60), y, frame.px(end / 60), y, stroke: "#e8590c", width: 2, mark: "cadence")
      }
    }
  }
}
