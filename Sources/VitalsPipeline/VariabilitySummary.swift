import VitalsAnalysis

/// The variability of a series of beats as the ECG (heart-rate variability) and PPG (pulse-rate
/// variability) sections report it, computed and encoded in one place.
///
/// The beats' intervals lose those around Lipponen & Tarvainen (2019) artifact beats (`RRArtifacts`);
/// of the remaining NN intervals come `HRVTimeDomain`, `HRVFrequencyDomain` (Welch, NeuroKit2's
/// defaults) and the Poincaré plot (Brennan et al. 2001; successive pairs across a gap left out,
/// ddof = 1). Encoded as one JSON object with NeuroKit2's names and units: `MeanNN`, `SDNN`, `RMSSD`,
/// `SDSD`, `MedianNN` (ms), `pNN50`, `pNN20` (%), `CVNN`; `VLF`, `LF`, `HF`, `TP` (ms²), `LFHF`, `LFn`,
/// `HFn`; `SD1`, `SD2` (ms). A value that is undefined for the series (too short, too few intervals:
/// NaN) is JSON null.
public struct VariabilitySummary: Sendable, Equatable, Encodable {
  /// The NN intervals the metrics come from.
  public var intervals: NNSeries
  /// Beats flagged as artifacts.
  public var artifactBeats: Int
  /// Time-domain variability of ``intervals``.
  public var time: HRVTimeDomain
  /// Frequency-domain variability of ``intervals`` (Welch).
  public var frequency: HRVFrequencyDomain
  /// Poincaré indices of ``intervals``; `PoincarePlot/sd1` and `PoincarePlot/sd2` are encoded.
  public var poincare: PoincarePlot

  /// The variability of `intervals`, of which `artifactBeats` beats were flagged as artifacts.
  public init(intervals: NNSeries, artifactBeats: Int) {
    self.intervals = intervals
    self.artifactBeats = artifactBeats
    time = HRVTimeDomain(intervals)
    frequency = HRVFrequencyDomain(intervals)
    poincare = PoincarePlot(intervals)
  }

  /// The variability of `beats` (increasing record sample indices at `sampleRate` Hz, positive and
  /// finite), artifacts and intervals across the signal's `gaps` (record sample ranges, increasing and
  /// disjoint) left out; with `classes` (one per beat), only N→N intervals count.
  public init(beats: [Int64], sampleRate: Double, gaps: [Range<Int64>] = [], classes: [BeatClass]? = nil) {
    let (series, artifacts) = NNSeries.withoutArtifacts(
      beats: beats, sampleRate: sampleRate, gaps: gaps, classes: classes)
    self.init(intervals: series, artifactBeats: artifacts)
  }

  /// Keeps the beats a live section's variability covers: drops from `beats` (increasing record sample
  /// indices at `sampleRate` Hz) those before the last `window` seconds of the signal fed so far, which
  /// ends before record sample `end`.
  static func trim(_ beats: inout [Int64], toLast window: Double, before end: Int64, sampleRate: Double) {
    let oldest = end - Int64((window * sampleRate).rounded())
    beats.removeFirst(beats.prefix { $0 < oldest }.count)
  }

  /// A value for JSON: nil (null) when not finite.
  static func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

  /// Encodes, into the keyed container of `encoder` (a section's, which it shares), the keys the ECG and
  /// PPG sections have in common: the extent of `samples` samples at `sampleRate` Hz (`sample_rate`,
  /// `samples`, `duration_s`), `beats` (`beatCount`), `nn_intervals` (the NN intervals kept),
  /// `artifact_beats`, and the metrics under `metricsKey` (``encode(to:)``).
  func encodeSectionFields(
    to encoder: any Encoder, samples: Int64, sampleRate: Double, beatCount: Int, metricsKey: String
  ) throws {
    var c = encoder.container(keyedBy: StringKey.self)
    try c.encodeExtent(samples: samples, sampleRate: sampleRate)
    try c.encode(beatCount, forKey: StringKey("beats"))
    try c.encode(intervals.count, forKey: StringKey("nn_intervals"))
    try c.encode(artifactBeats, forKey: StringKey("artifact_beats"))
    try c.encode(self, forKey: StringKey(metricsKey))
  }

  /// The indices a section reports (see the type's documentation), from the table every output uses.
  static let metrics = [
    "MeanNN", "SDNN", "RMSSD", "SDSD", "MedianNN", "pNN50", "pNN20", "CVNN", "VLF", "LF", "HF", "TP", "LFHF",
    "LFn", "HFn", "SD1", "SD2",
  ].compactMap(HRVMetric.named)

  /// Encodes `metrics` by NeuroKit2 name, null when not finite.
  public func encode(to encoder: any Encoder) throws {
    let values = Dictionary(
      uniqueKeysWithValues: Self.metrics.map {
        ($0.name, Self.finite($0.value(time: time, frequency: frequency, poincare: poincare)))
      })
    var container = encoder.singleValueContainer()
    try container.encode(values)
  }
}

extension NNSeries {
  /// The NN intervals of `beats` (record sample indices at `sampleRate` Hz) without the intervals around
  /// Lipponen & Tarvainen (2019) artifact beats (`RRArtifacts`) and those across `gaps` (record sample
  /// ranges, increasing and disjoint), and the number of artifact beats. Artifacts are looked for between
  /// gaps, one stretch at a time, so that the long interval across a gap flags no beat. With `classes`
  /// (``BeatClassifier``'s, one per beat), the intervals into and out of every beat that is not normal are
  /// left out too: only N→N intervals count (the PhysioNet HRV Toolkit's rule), the artifact rule stays
  /// as a second line of defense.
  static func withoutArtifacts(
    beats: [Int64], sampleRate: Double, gaps: [Range<Int64>] = [], classes: [BeatClass]? = nil
  ) -> (series: NNSeries, artifacts: Int) {
    let artifacts = RRArtifacts.detect(beats: beats, sampleRate: sampleRate, gaps: gaps).allBeats
    var excluded = artifacts
    if let classes {
      precondition(classes.count == beats.count, "one class per beat")
      excluded += classes.indices.filter { classes[$0] != .normal }
    }
    return (
      NNSeries(beats: beats, sampleRate: sampleRate, excludingBeats: excluded, gaps: gaps), artifacts.count
    )
  }
}
