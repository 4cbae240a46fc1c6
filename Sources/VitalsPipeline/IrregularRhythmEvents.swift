import VitalsAnalysis
import VitalsCore
import VitalsStatistics

extension DerivedMetrics {
  /// `irregularHeartRhythmEvent` samples of the episodes of a record starting at `recordStart`: one per
  /// episode of `AtrialFibrillationDetector`, spanning it (times rounded to the nanosecond).
  public static func irregularRhythmEvents(
    _ episodes: [IrregularRhythmEpisode], recordStart: Timestamp, source: String = "Vitals",
    device: String? = nil
  ) -> [CategorySample] {
    episodes.map {
      CategorySample(
        type: .irregularHeartRhythmEvent,
        start: recordStart.advanced(byNanoseconds: Int64(($0.start * 1e9).rounded())),
        end: recordStart.advanced(byNanoseconds: Int64(($0.end * 1e9).rounded())), source: source,
        device: device)
    }
  }
}
