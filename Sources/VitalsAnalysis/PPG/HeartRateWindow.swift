/// One windowed heart-rate estimate: the rate over `[startTime, endTime)` seconds from the record's first
/// sample, how much it can be trusted, and whether it clears the estimator's bar.
public struct HeartRateWindow: Sendable, Hashable, Codable {
  /// Start of the window, seconds from the first sample of the record.
  public var startTime: Double
  /// End of the window (exclusive), seconds from the first sample; the estimate used no later signal.
  public var endTime: Double
  /// Heart rate in beats per minute, within the estimator's plausible range; NaN when the window held no
  /// usable signal (non-finite or flat samples, fewer than two beats).
  public var beatsPerMinute: Double
  /// Confidence in `0…1`: 0 for no usable signal, 1 for a single clean periodicity (see each estimator
  /// for its definition).
  public var quality: Double
  /// Whether `quality` reaches the estimator's threshold; windows that are not reliable still carry the
  /// best estimate (the tracked rate), flagged rather than hidden.
  public var isReliable: Bool

  public init(startTime: Double, endTime: Double, beatsPerMinute: Double, quality: Double, isReliable: Bool) {
    self.startTime = startTime
    self.endTime = endTime
    self.beatsPerMinute = beatsPerMinute
    self.quality = quality
    self.isReliable = isReliable
  }
}

/// Windowed heart rate from beat times (ECG R peaks or PPG systolic peaks), the same windows as
/// ``PPGHeartRateEstimator``: 60 / the mean of the beat-to-beat intervals that lie wholly inside the window.
public enum BeatRateWindows {
  /// Shortest and longest plausible beat-to-beat interval, seconds (220 and 30 beats per minute).
  public static let plausibleInterval: ClosedRange<Double> = 60.0 / 220...60.0 / 30

  /// The windows `[j·step, j·step + window)` seconds, `j = 0, 1, …`, that end within `duration` seconds.
  ///
  /// - Parameters:
  ///   - beats: beat sample indices, increasing, at `sampleRate` Hz (sample 0 is the record's first).
  ///   - duration: length of the record, seconds.
  /// - Returns: per window, the rate from the intervals between consecutive beats both inside it, using
  ///   only plausible intervals (``plausibleInterval``); quality is the fraction of the window's intervals
  ///   that are plausible, reliable when at least 0.8 with at least two plausible intervals. A window with
  ///   no plausible interval has a NaN rate and quality 0.
  public static func windows(
    beats: [Int64], sampleRate: Double, duration: Double, window: Double = 8, step: Double = 2
  ) -> [HeartRateWindow] {
    precondition(sampleRate > 0 && window > 0 && step > 0, "rate, window and step must be positive")
    var result: [HeartRateWindow] = []
    var first = 0
    var j = 0
    while true {
      let start = Double(j) * step
      let end = start + window
      guard end <= duration + 1e-9 else { break }
      while first < beats.count && Double(beats[first]) / sampleRate < start { first += 1 }
      var sum = 0.0
      var plausible = 0
      var total = 0
      var k = first
      while k + 1 < beats.count && Double(beats[k + 1]) / sampleRate < end {
        let interval = Double(beats[k + 1] - beats[k]) / sampleRate
        total += 1
        if plausibleInterval.contains(interval) {
          sum += interval
          plausible += 1
        }
        k += 1
      }
      let quality = total == 0 ? 0 : Double(plausible) / Double(total)
      result.append(
        HeartRateWindow(
          startTime: start, endTime: end, beatsPerMinute: plausible == 0 ? .nan : 60 * Double(plausible) / sum,
          quality: quality, isReliable: plausible >= 2 && quality >= 0.8))
      j += 1
    }
    return result
  }
}
