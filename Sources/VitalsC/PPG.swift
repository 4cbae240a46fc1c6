import Vitals
import VitalsCLI

/// Heart rate per window of `ppg_count` PPG channels and `axis_count` (0 or 3) accelerometer axes of
/// `count` samples at `sample_rate` Hz, by the estimator `vitals hr --signal ppg` runs
/// (`HeartRate.ppgEstimator`), windows of `window_s` seconds every `step_s` seconds. `*json` (the
/// caller's): `{"windows": [{"start_s","end_s","bpm","quality","reliable","periodic_motion"}...]}`.
@_cdecl("vitals_ppg_rate")
public func vitals_ppg_rate(
  _ ppg: UnsafePointer<UnsafePointer<Float>?>?, _ ppgCount: Int32,
  _ axes: UnsafePointer<UnsafePointer<Float>?>?,
  _ axisCount: Int32, _ count: Int64, _ sampleRate: Double, _ window: Double, _ step: Double,
  _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let result = try out(json, "json")
    guard axisCount == 0 || axisCount == 3 else {
      throw CallFailure.argument("axis_count must be 0 or 3, got \(axisCount)")
    }
    let ppgSamples = try channels(ppg, channels: ppgCount, minimum: 1, count: count, "ppg")
    let axisSamples = try channels(axes, channels: axisCount, minimum: 0, count: count, "axes")
    try SupportedRates.ppgAnalysis.check("sample_rate", sampleRate)
    var estimator: PPGHeartRateEstimator
    do {
      estimator = try HeartRate.ppgEstimator(
        sampleRate: sampleRate, ppgChannelCount: ppgSamples.count, axisCount: axisSamples.count,
        window: window,
        step: step)
    } catch {
      throw CallFailure.argument("window_s and step_s: \(error)")
    }
    let windows = estimator.process(ppg: ppgSamples, acceleration: axisSamples)
    result.pointee = mallocString(compactJSON(RateWindows(windows: windows.map(RateWindow.init))))
  }
}

/// Windows as ``vitals_ppg_rate(_:_:_:_:_:_:_:_:_:_:)`` encodes them.
private struct RateWindows: Encodable {
  var windows: [RateWindow]
}

/// One window: times in seconds from the first sample, the rate (null when undefined), its quality.
private struct RateWindow: Encodable {
  var window: HeartRateWindow

  init(_ window: HeartRateWindow) { self.window = window }

  private enum CodingKeys: CodingKey { case start_s, end_s, bpm, quality, reliable, periodic_motion }

  func encode(to encoder: any Encoder) throws {
    func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(window.startTime, forKey: .start_s)
    try c.encode(window.endTime, forKey: .end_s)
    try c.encode(finite(window.beatsPerMinute), forKey: .bpm)
    try c.encode(finite(window.quality), forKey: .quality)
    try c.encode(window.isReliable, forKey: .reliable)
    try c.encode(finite(window.periodicMotion), forKey: .periodic_motion)
  }
}
