import VitalsSupport

/// One windowed heart-rate estimate: the rate over `[startTime, endTime)` seconds from the record's first
/// sample, how much it can be trusted, and whether it clears the estimator's bar.
public struct HeartRateWindow: Sendable, Hashable, Codable {
  /// Start of the window, seconds from the first sample of the record.
  public var startTime: Double
  /// End of the window (exclusive), seconds from the first sample; the estimate used no later signal.
  public var endTime: Double
  /// Heart rate in beats per minute, within the estimator's plausible range; NaN when the window held no
  /// usable signal (flat samples, fewer than two beats, more than a quarter of its samples missing).
  public var beatsPerMinute: Double
  /// Confidence in `0…1`: 0 for no usable signal, 1 for a single clean periodicity (see each estimator
  /// for its definition).
  public var quality: Double
  /// Whether `quality` reaches the estimator's threshold; windows that are not reliable still carry the
  /// best estimate (the tracked rate), flagged rather than hidden.
  public var isReliable: Bool
  /// Periodic motion in the window, `0…1`: the largest periodicity weight of the accelerometer axes
  /// (``PPGHeartRateEstimator/periodicAxisShare``); 1 is locomotion (walking, running: an axis with a
  /// single strong line), below 1 aperiodic movement or sensor noise at rest (white noise reaches about
  /// 0.7 in some windows); nil without an accelerometer, when every axis is flat in the window (nothing
  /// to weigh: no motion), and for windows from beat times.
  public var periodicMotion: Double?

  public init(
    startTime: Double, endTime: Double, beatsPerMinute: Double, quality: Double, isReliable: Bool,
    periodicMotion: Double? = nil
  ) {
    self.startTime = startTime
    self.endTime = endTime
    self.beatsPerMinute = beatsPerMinute
    self.quality = quality
    self.isReliable = isReliable
    self.periodicMotion = periodicMotion
  }
}

/// Windowed heart rate from beat times (ECG R peaks or PPG systolic peaks), the same windows as
/// ``PPGHeartRateEstimator``: 60 / the mean of the regular beat-to-beat intervals inside the window.
public enum BeatRateWindows {
  /// Largest relative distance from the window's median interval of a regular interval (0.2: ±20 %).
  public static let regularTolerance = 0.2
  /// The median beat-to-beat intervals that are a heart rate, seconds: 60/220 to 2 (220 to 30 BPM).
  public static let plausibleInterval: ClosedRange<Double> = 60.0 / 220...2

  /// The windows `[j·step, j·step + window)` seconds, `j = 0, 1, …`, that end within `duration` seconds.
  ///
  /// - Parameters:
  ///   - beats: beat sample indices, increasing, at `sampleRate` Hz (sample 0 is the record's first).
  ///   - duration: length of the record, seconds.
  /// - Returns: per window, from the intervals between consecutive beats both inside it: the rate from
  ///   the regular intervals (within ``regularTolerance`` of the window's median interval, so that a
  ///   missed or an extra beat does not bias it) and, as quality, the share of intervals that are regular;
  ///   reliable when the quality is at least 0.8 with at least two regular intervals and a median
  ///   within ``plausibleInterval``. A window with fewer than two beats, or whose median interval lies
  ///   outside ``plausibleInterval`` (no heart rate), has a NaN rate and quality 0. An irregular rhythm
  ///   (atrial fibrillation) gives low quality, too.
  ///   - gaps: the signal's gaps (missing samples), as sample ranges on the beats' scale, increasing and
  ///     disjoint (e.g. ``QRSDetector/gaps``): an interval across a gap is no interval; a window more than
  ///     ``PPGHeartRateEstimator/maximumMissingShare`` missing has a NaN rate and quality 0, and one with
  ///     fewer missing samples is never reliable.
  public static func windows(
    beats: [Int64], sampleRate: Double, duration: Double, window: Double = 8, step: Double = 2,
    gaps: [Range<Int64>] = []
  ) -> [HeartRateWindow] {
    precondition(sampleRate > 0 && window > 0 && step > 0, "rate, window and step must be positive")
    var result: [HeartRateWindow] = []
    var intervals: [Double] = []
    var first = 0
    var j = 0
    while true {
      let start = Double(j) * step
      let end = start + window
      guard end <= duration + 1e-9 else { break }
      j += 1
      while first < beats.count && Double(beats[first]) / sampleRate < start { first += 1 }
      let span = Int64((start * sampleRate).rounded(.up))..<Int64((end * sampleRate).rounded(.up))
      let missing = gaps.overlapCount(with: span)
      intervals.removeAll(keepingCapacity: true)
      var k = first
      while k + 1 < beats.count && Double(beats[k + 1]) / sampleRate < end {
        if missing == 0 || gaps.overlapCount(with: beats[k]..<beats[k + 1]) == 0 {
          intervals.append(Double(beats[k + 1] - beats[k]) / sampleRate)
        }
        k += 1
      }
      intervals.sort()
      let median = intervals.isEmpty ? .nan : DescriptiveStatistics.median(sorted: intervals)
      guard
        plausibleInterval.contains(median)
          && Double(missing) <= PPGHeartRateEstimator.maximumMissingShare * Double(span.count)
      else {
        result.append(
          HeartRateWindow(startTime: start, endTime: end, beatsPerMinute: .nan, quality: 0, isReliable: false)
        )
        continue
      }
      let regular = intervals.filter { abs($0 - median) <= regularTolerance * median }
      let quality = Double(regular.count) / Double(intervals.count)
      result.append(
        HeartRateWindow(
          startTime: start, endTime: end, beatsPerMinute: 60 * Double(regular.count) / regular.reduce(0, +),
          quality: quality,
          isReliable: quality >= 0.8 && regular.count >= 2 && missing == 0))
    }
    return result
  }
}
