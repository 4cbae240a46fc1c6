import VitalsAnalysis
import VitalsCore
import VitalsStatistics

extension ECGSection {
  /// The lead's beats as HealthKit heartbeat series (`HKHeartbeatSeriesSample`), one per span of
  /// `windows` (absolute, in time order, not overlapping): each holds the beats in its span, in seconds
  /// since the span's start, the record's beat `k` lying at `recordStart` plus `beats[k] / sampleRate`.
  ///
  /// Beats in ``excludedStretches`` (the lead's gaps, the windows pSQI marks unusable) are left out. A
  /// beat is `precededByGap` when beats may have been missed since the series' previous beat: an excluded
  /// stretch lies between them, or the interval between them is outside `DerivedMetrics.beatInterval`
  /// (0.3–2 s, the rule by which the heart-rate and HRV samples drop intervals). The first beat of a series
  /// is not.
  ///
  /// Cost: O(beats · log(stretches)); one array per series.
  public func heartbeatSeries(
    in windows: [Range<Timestamp>], recordStart: Timestamp, source: String, device: String?
  ) -> [HeartbeatSeriesSample] {
    func time(_ k: Int) -> Timestamp { recordStart.advanced(bySamples: beats[k], rate: sampleRate) }
    var next = 0
    return windows.map { window in
      while next < beats.count && time(next) < window.lowerBound { next += 1 }
      var series: [Heartbeat] = []
      var previous: Int64?
      while next < beats.count, case let t = time(next), t < window.upperBound {
        let beat = beats[next]
        next += 1
        if excludedStretches.overlapCount(with: beat..<beat + 1) > 0 { continue }
        let gap = previous.map { previous in
          !DerivedMetrics.beatInterval.contains(Double(beat - previous) / sampleRate)
            || excludedStretches.overlapCount(with: previous..<beat) > 0
        }
        // Divided, not multiplied by 1e-9: whole milliseconds stay short (1.424, not 1.4240000000000002).
        let seconds = Double(t.nanosecondsSinceEpoch - window.lowerBound.nanosecondsSinceEpoch) / 1e9
        series.append(Heartbeat(timeSinceSeriesStart: seconds, precededByGap: gap ?? false))
        previous = beat
      }
      return HeartbeatSeriesSample(
        start: window.lowerBound, end: window.upperBound, beats: series, source: source, device: device)
    }
  }
}
