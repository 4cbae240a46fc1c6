/// Heart-rate variability of a beat series in one call: artifact detection, NN intervals, time-domain,
/// frequency-domain and nonlinear indices (what `vitals hrv` reports).
///
/// Pipeline: Lipponen & Tarvainen (2019) artifact classes and the runs of premature beats next to
/// them (``RRArtifacts``) → ``NNSeries`` without the intervals around flagged beats (and, with labels,
/// only N→N intervals) → ``HRVTimeDomain``, ``HRVFrequencyDomain`` and ``HRVNonlinear``. Floating-point
/// fields are NaN where undefined; encode with a `nonConformingFloatEncodingStrategy` that writes them
/// (e.g. `.convertToString`).
///
/// Accuracy: `make eval-ecg` on the shared MIT-BIH records, from detected against reference beats
/// (docs/accuracy.md); method, choices and protocol in <doc:HeartRateVariability>.
public struct HRVAnalysis: Sendable, Equatable, Codable {
  /// Beats given.
  public var beatCount: Int
  /// Beats flagged by the RR-based artifact detection (empty when it was switched off).
  public var artifacts: RRArtifacts
  /// The NN intervals the indices were computed from.
  public var intervals: NNSeries
  public var time: HRVTimeDomain
  public var frequency: HRVFrequencyDomain
  public var nonlinear: HRVNonlinear

  /// Analyses `beats` (sample positions, strictly increasing) at `sampleRate` samples per second.
  ///
  /// - Parameters:
  ///   - labels: MIT beat mnemonics, one per beat, when known: only intervals between two beats
  ///     labeled `N` count (PhysioNet HRV Toolkit rule).
  ///   - detectArtifacts: whether to drop the intervals around Lipponen–Tarvainen artifact beats.
  ///   - frequencyOptions: the spectral estimate of the frequency-domain indices.
  ///   - gaps: the signal's gaps (missing samples, as sample ranges on the beats' scale, increasing and
  ///     disjoint, e.g. ``QRSDetector/gaps``): no interval across one counts, and artifacts are looked for
  ///     between gaps (``RRArtifacts/detect(beats:sampleRate:parameters:gaps:)``).
  public init(
    beats: [Int64], sampleRate: Double, labels: [String]? = nil, detectArtifacts: Bool = true,
    frequencyOptions: HRVFrequencyOptions = HRVFrequencyOptions(), gaps: [Range<Int64>] = []
  ) {
    beatCount = beats.count
    artifacts =
      detectArtifacts ? RRArtifacts.detect(beats: beats, sampleRate: sampleRate, gaps: gaps) : RRArtifacts()
    if let labels {
      intervals = NNSeries(
        beats: beats, labels: labels, sampleRate: sampleRate, excludingBeats: artifacts.allBeats, gaps: gaps)
    } else {
      intervals = NNSeries(
        beats: beats, sampleRate: sampleRate, excludingBeats: artifacts.allBeats, gaps: gaps)
    }
    time = HRVTimeDomain(intervals)
    frequency = HRVFrequencyDomain(intervals, options: frequencyOptions)
    nonlinear = HRVNonlinear(intervals)
  }
}
