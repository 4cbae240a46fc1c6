import VitalsAnalysis
import VitalsSupport

extension HeartRateWindow {
  /// `windows` as CSV: the header `window_start_s,window_end_s,bpm,quality`, then a row per window,
  /// times in seconds to the millisecond without trailing zeros, bpm to 0.01 (`nan` when undefined),
  /// quality to 0.001.
  public static func csv(_ windows: [HeartRateWindow]) -> String {
    var text = "window_start_s,window_end_s,bpm,quality\n"
    for w in windows {
      let bpm = w.beatsPerMinute.isFinite ? String(cFormat: "%.2f", w.beatsPerMinute) : "nan"
      text += "\(seconds(w.startTime)),\(seconds(w.endTime)),\(bpm),\(String(cFormat: "%.3f", w.quality))\n"
    }
    return text
  }

  /// Window times to the millisecond, without trailing zeros.
  private static func seconds(_ value: Double) -> String {
    var text = String(cFormat: "%.3f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }
}
