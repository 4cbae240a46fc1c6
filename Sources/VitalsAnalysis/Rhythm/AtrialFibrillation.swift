import VitalsCore

import VitalsSupport

/// A stretch of irregular rhythm (possible atrial fibrillation), like HealthKit's irregular-rhythm
/// events: where it starts and ends, in samples of the record and in seconds from its start.
public struct IrregularRhythmEpisode: Sendable, Equatable, Codable {
  /// First sample of the episode (the beat opening its first irregular interval).
  public var startSample: Int64
  /// Last sample of the episode (the beat closing its last irregular interval).
  public var endSample: Int64
  /// ``startSample`` in seconds.
  public var start: Double
  /// ``endSample`` in seconds.
  public var end: Double

  public init(startSample: Int64, endSample: Int64, sampleRate: Double) {
    self.startSample = startSample
    self.endSample = endSample
    self.start = Double(startSample) / sampleRate
    self.end = Double(endSample) / sampleRate
  }

  /// Length in seconds.
  public var duration: Double { end - start }
}

/// Atrial-fibrillation detection from RR intervals, with the coefficient of sample entropy (COSEn) of
/// Lake & Moorman (2011, Am J Physiol Heart Circ Physiol 300:H319–H325), and optionally the ECG lead.
///
/// Steps: ectopic and artifact beats (``RRArtifacts``) and the intervals around them are dropped; each
/// remaining interval is irregular when the COSEn of the ``Parameters/windowBeats`` intervals around it
/// exceeds ``Parameters/threshold`` and the window's normalized RMSSD exceeds
/// ``Parameters/minimumNormalizedRMSSD`` (after Dash et al. 2009), unless a second-order linear predictor
/// follows the window (``Parameters/maximumPredictionGain``: sinus arrhythmia), the rhythm repeats a
/// bigeminy or trigeminy pattern (after Petrėnas et al. 2015), or, with the ECG, P waves of one shape
/// precede its beats (``Parameters/organizedAtrialConsistency``, after Babaeizadeh et al. 2009).
/// Irregular intervals cover their span; episodes join covered spans across gaps shorter than
/// ``Parameters/bridgedGap`` and last at least ``Parameters/minimumEpisodeDuration``.
/// <doc:AtrialFibrillation> gives every rule, where each setting comes from, and the scores on the
/// shared records (which flatter the rules chosen on them).
///
/// Cost: O(N · W) for N intervals and W beats per window (COSEn's template matches slide from window
/// to window; a lone window costs O(W²)), plus, with the ECG, a zero-phase filter of
/// the lead and O(N · W · L log W) for L samples per atrial window.
///
/// Accuracy: `make eval-rhythm` on the shared MIT-BIH and CPSC 2021 records, per 30-s segment against the
/// rhythm annotations, with leave-one-record-out cross-validation; method, choices, protocol and figures in
/// <doc:AtrialFibrillation>.
public struct AtrialFibrillationDetector: Sendable {
  /// Detector settings.
  public struct Parameters: Sendable, Equatable, Codable {
    /// Intervals per COSEn window.
    public var windowBeats = 16
    /// SampEn tolerance r, in seconds.
    public var tolerance = 0.030
    /// COSEn above which a window is irregular (Lake & Moorman 2011 use −1.4; −1.2 is the choice of
    /// leave-one-record-out cross-validation, <doc:AtrialFibrillation#Choices-and-how-they-were-made>).
    public var threshold = -1.2
    /// Normalized RMSSD (RMSSD / mean RR of the window) a window must also exceed to be irregular; 0
    /// turns the condition off. 0.1 is the order of the nRMSSD threshold of Dash et al. (2009).
    public var minimumNormalizedRMSSD = 0.1
    /// Prediction gain (``AtrialFibrillationDetector/linearPredictionGain(_:)``) at or above which a
    /// window is a smooth oscillation (sinus arrhythmia), not AF; `.infinity` turns the check off
    /// (even for a window predicted exactly, whose gain is +∞).
    public var maximumPredictionGain = 3.0
    /// Intervals per window of the repeating-pattern check (bigeminy, trigeminy).
    public var patternWindowBeats = 24
    /// Pattern periods checked: a window whose sums of `p` consecutive intervals are regular is not AF.
    public var patternPeriods = [2, 3]
    /// The beat classes left out, with the intervals around them, when beat classes are given: by
    /// default the ectopic ones, S, V and F. Q beats (paced or unclassifiable) are judged like normal ones:
    /// a paced rhythm is regular, and paced beats among conducted ones in AF keep its irregularity
    /// (cross-validation chose to keep them; unclassifiable noise beats still meet the artifact rule).
    public var excludedClasses: Set<BeatClass> = [.supraventricular, .ventricular, .fusion]
    /// Whether to drop the intervals around Lipponen–Tarvainen artifact beats first.
    public var excludeArtifacts = true
    /// Regular stretches shorter than this between irregular ones are bridged, in seconds.
    public var bridgedGap = 10.0
    /// Shortest episode reported, in seconds.
    public var minimumEpisodeDuration = 30.0
    /// With the ECG given to ``AtrialFibrillationDetector/analyze(beats:sampleRate:beatClasses:signal:gaps:judging:)``: the
    /// atrial window before each R peak, seconds before it (from `upperBound` to `lowerBound`: the PR
    /// interval).
    public var atrialWindow: ClosedRange<Double> = 0.07...0.25
    /// Pass band of the atrial windows, Hz (P waves and fibrillatory waves).
    public var atrialBand: ClosedRange<Double> = 1...20
    /// A window of ``windowBeats`` beats whose median atrial consistency (correlation of each beat's
    /// atrial window with its neighbors' median window) reaches this value has P waves of one shape,
    /// so it is not AF whatever its RR intervals do; above 1 turns the check off (0.7: the choice of
    /// leave-one-record-out cross-validation).
    public var organizedAtrialConsistency = 0.7

    public init() {}
  }

  public var parameters: Parameters

  public init(parameters: Parameters = Parameters()) {
    precondition(parameters.windowBeats >= 3, "a COSEn window needs at least 3 intervals")
    precondition(parameters.tolerance > 0, "the COSEn tolerance must be positive")
    self.parameters = parameters
  }

  /// COSEn of RR intervals `rr` (seconds) with tolerance `r` (seconds); +∞ when no pair of successive
  /// intervals repeats within r, NaN for fewer than 3 intervals.
  public static func coefficientOfSampleEntropy(_ rr: ArraySlice<Double>, tolerance r: Double) -> Double {
    guard rr.count >= 3 else { return .nan }
    return rr.withUnsafeBufferPointer { x in
      var matches = TemplateMatches(tolerance: r)
      matches.slide(to: x.indices, in: x)
      return coefficientOfSampleEntropy(matches, of: x[...])
    }
  }

  /// COSEn of the window `x` whose template matches are `matches` (tolerance included).
  private static func coefficientOfSampleEntropy(
    _ matches: TemplateMatches, of x: Slice<UnsafeBufferPointer<Double>>
  ) -> Double {
    guard matches.a > 0 && matches.b > 0 else { return .infinity }
    let mean = x.reduce(0, +) / Double(x.count)
    return -log(Double(matches.a) / Double(matches.b)) + log(2 * matches.tolerance) - log(mean)
  }

  /// The indices of the intervals of `series` that overlap `span` (a sample range) and of one more on each
  /// side; every index when `span` is nil. The covered stretch of an irregular interval reaches back to the
  /// end of the previous one when that is irregular too, so the intervals beside the span decide whether
  /// the time between intervals at its edges is covered.
  private func judgedIntervals(_ series: NNSeries, sampleRate: Double, overlapping span: Range<Int64>?)
    -> Range<Int>
  {
    let n = series.intervals.count
    guard let span else { return 0..<n }
    let lower = Double(span.lowerBound)
    let upper = Double(span.upperBound)
    let first = series.endTimes.firstIndex { $0 * sampleRate > lower } ?? n
    var end = first
    while end < n && series.endTimes[end] * sampleRate - series.intervals[end] / 1000 * sampleRate < upper {
      end += 1
    }
    return Swift.max(0, first - 1)..<Swift.min(n, end + 1)
  }

  /// Index in the full RR series of the interval that ends at `time` seconds.
  private func intervalIndex(closingAt time: Double, _ beats: [Int64], _ sampleRate: Double) -> Int {
    let sample = Int64(saturating: time * sampleRate)
    var low = 0
    var high = beats.count - 1
    while low < high {
      let mid = (low + high) / 2
      if beats[mid] < sample { low = mid + 1 } else { high = mid }
    }
    return low - 1
  }

  /// Indices of the beats left out with their intervals, into `workspace.excluded` (unordered, possibly
  /// repeated): the artifact beats (when ``Parameters/excludeArtifacts``) and the beats of
  /// ``Parameters/excludedClasses``.
  private func collectExcludedBeats(
    _ beats: [Int64], sampleRate: Double, beatClasses: [BeatClass]?, into workspace: inout Workspace
  ) {
    workspace.excluded.removeAll(keepingCapacity: true)
    if parameters.excludeArtifacts {
      // The paper's four classes only: in fibrillation a stretch of short intervals after a flagged beat
      // is the irregularity itself, not a run of ectopic beats.
      var artifactParameters = RRArtifacts.Parameters()
      artifactParameters.maximumRunBeats = 0
      RRArtifacts.detect(
        beats: beats, sampleRate: sampleRate, parameters: artifactParameters, into: &workspace.artifacts)
      workspace.artifacts.artifacts.appendFlaggedBeats(to: &workspace.excluded)
    }
    for (index, beatClass) in (beatClasses ?? []).enumerated()
    where parameters.excludedClasses.contains(beatClass) {
      workspace.excluded.append(index)
    }
  }

  /// Whether the intervals around `k` sum, over some pattern period, to a regular cycle (`sums`: scratch).
  private func isRepeatingPattern(_ rr: [Double], around k: Int, sums: inout [Double]) -> Bool {
    let width = Swift.min(parameters.patternWindowBeats, rr.count)
    let low = Swift.max(0, Swift.min(k - width / 2, rr.count - width))
    sums.reserveCapacity(width)
    for period in parameters.patternPeriods {
      let limit = parameters.minimumNormalizedRMSSD / Double(period).squareRoot()
      for phase in 0..<period {
        sums.removeAll(keepingCapacity: true)
        var start = low + phase
        while start + period <= low + width {
          sums.append(rr[start..<(start + period)].reduce(0, +))
          start += period
        }
        if sums.count >= 2 && Self.normalizedRMSSD(sums[...]) <= limit { return true }
      }
    }
    return false
  }

  /// Whether the median atrial consistency of the beats closing the intervals `window` (indices into
  /// the judged intervals, whose closing beats `closingBeats` gives) reaches
  /// ``Parameters/organizedAtrialConsistency``; false without consistencies or with fewer than half of
  /// them defined.
  private func hasOrganizedAtrialActivity(
    _ consistency: [Double], closingBeats: [Int], window: Range<Int>
  ) -> Bool {
    guard !consistency.isEmpty else { return false }
    let values = window.map { consistency[closingBeats[$0]] }.filter { !$0.isNaN }.sorted()
    guard !values.isEmpty && 2 * values.count >= window.count else { return false }
    return DescriptiveStatistics.median(sorted: values) >= parameters.organizedAtrialConsistency
  }

  /// Variance of `rr` about its mean divided by the mean squared error of its least-squares
  /// second-order linear predictor, x[n] ≈ a₁·x[n−1] + a₂·x[n−2] on the deviations from the mean
  /// (unitless; the variance over all n intervals, the error over the n − 2 predicted, so the gain is
  /// at least (n − 2)/n and about 1 for white noise); NaN for fewer than 4 intervals or a window
  /// without variation (or holding NaN), +∞ when the predictor is exact.
  /// A sampled oscillation satisfies such a recursion (x[n] = 2 cos ω · x[n−1] − x[n−2]), so respiratory
  /// sinus arrhythmia predicts well however large its swings; the ventricular response to atrial
  /// fibrillation is close to white noise beat to beat (Hayano et al. 1997, "Spectral characteristics
  /// of ventricular response to atrial fibrillation", Am J Physiol 273:H2811), its gain near 1.
  public static func linearPredictionGain(_ rr: ArraySlice<Double>) -> Double {
    guard rr.count >= 4 else { return .nan }
    let mean = rr.reduce(0, +) / Double(rr.count)
    let first = rr.startIndex
    var variance = 0.0
    for value in rr { variance += (value - mean) * (value - mean) }
    variance /= Double(rr.count)
    // Normal equations of y = x[n] on u = x[n−1] and v = x[n−2], x the deviations from the mean.
    var (uu, uv, vv, uy, vy, yy) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for n in (first + 2)..<rr.endIndex {
      let (u, v, y) = (rr[n - 1] - mean, rr[n - 2] - mean, rr[n] - mean)
      uu += u * u
      uv += u * v
      vv += v * v
      uy += u * y
      vy += v * y
      yy += y * y
    }
    let determinant = uu * vv - uv * uv
    guard determinant > 0 else { return .nan }
    let a1 = (uy * vv - vy * uv) / determinant
    let a2 = (vy * uu - uy * uv) / determinant
    let error = Swift.max(0, yy - a1 * uy - a2 * vy) / Double(rr.count - 2)
    return variance / error
  }

  /// RMSSD / mean of `rr` (unitless); NaN for fewer than 2 intervals.
  public static func normalizedRMSSD(_ rr: ArraySlice<Double>) -> Double {
    guard rr.count >= 2 else { return .nan }
    var squares = 0.0
    for k in rr.indices.dropFirst() {
      let d = rr[k] - rr[k - 1]
      squares += d * d
    }
    let mean = rr.reduce(0, +) / Double(rr.count)
    return (squares / Double(rr.count - 1)).squareRoot() / mean
  }

  /// The result of ``analyze(beats:sampleRate:beatClasses:signal:gaps:judging:)``.
  public struct Analysis: Sendable, Equatable {
    /// The intervals the detector judged (artifact intervals dropped).
    public var intervals: NNSeries
    /// Whether each of ``intervals`` lies in an irregular window.
    public var irregular: [Bool]
    /// Per beat, the correlation (−1…1) of its atrial window with the median window of its
    /// ``Parameters/windowBeats`` neighbors; NaN where the window does not fit; empty without the ECG.
    public var atrialConsistency: [Double]
    /// Covered time, as increasing, disjoint sample ranges (before gap bridging and the minimum
    /// duration of episodes).
    public var coveredSamples: [Range<Int64>]
    /// Episodes of at least the minimum duration.
    public var episodes: [IrregularRhythmEpisode]
    /// Samples per second of the positions.
    public var sampleRate: Double

    /// One decision per `segmentDuration`-second segment from sample 0 (the last, partial segment
    /// left out) of a record `sampleCount` samples long: irregular when covered for more than half of
    /// the segment.
    public func segments(sampleCount: Int64, segmentDuration: Double = 30) -> [Bool] {
      RhythmSegments.majority(
        of: coveredSamples, sampleCount: sampleCount, sampleRate: sampleRate, segmentDuration: segmentDuration
      )
    }
  }

  /// Detects irregular rhythm in the beats `beats` (samples, strictly increasing) at `sampleRate`;
  /// with `beatClasses` (one ``BeatClass`` per beat), every beat of ``Parameters/excludedClasses`` (by
  /// default S, V, F, Q: ectopic, paced or unclassifiable) and the intervals into and out of it are left
  /// out of the irregularity measures and the P-wave check, in addition to the artifact beats; with `signal`, the ECG lead the beats were found in (sample 0 = beat position 0, same rate), also
  /// from the consistency of the P waves (atrial windows that do not fit in it, and the whole check when
  /// the lead is shorter than the filter's padding or ``Parameters/atrialBand`` does not fit below the
  /// Nyquist frequency, are left out). With `gaps`, the signal's gaps (missing samples, as sample ranges on
  /// the beats' scale, increasing and disjoint: e.g. ``QRSDetector/gaps``), no interval across a gap is
  /// judged and no gap sample is covered; an episode may still bridge a gap shorter than
  /// ``Parameters/bridgedGap``, as it bridges any stretch not judged irregular. With `judging`, a sample
  /// range, only the intervals that overlap it and one interval on each side of those are judged (the
  /// others are reported regular): ``Analysis/coveredSamples`` within the range are those of the whole
  /// analysis, at a fraction of the cost when the beats reach far beyond the range (as the context a
  /// streaming caller keeps around the stretch it decides).
  public func analyze(
    beats: [Int64], sampleRate: Double, beatClasses: [BeatClass]? = nil, signal: [Float]? = nil,
    gaps: [Range<Int64>] = [], judging: Range<Int64>? = nil
  ) -> Analysis {
    let consistency =
      signal.flatMap {
        AtrialActivity.consistency(
          signal: $0, beats: beats, sampleRate: sampleRate, window: parameters.atrialWindow,
          band: parameters.atrialBand, neighbors: parameters.windowBeats)
      } ?? []
    var workspace = Workspace()
    analyze(
      beats: beats, sampleRate: sampleRate, beatClasses: beatClasses, atrialConsistency: consistency,
      gaps: gaps, judging: judging, into: &workspace)
    let bridge = Int64((parameters.bridgedGap * sampleRate).rounded())
    var joined: [Range<Int64>] = []
    for span in workspace.covered {
      if let last = joined.last, last.upperBound + bridge >= span.lowerBound {
        joined[joined.count - 1] = last.lowerBound..<span.upperBound
      } else {
        joined.append(span)
      }
    }
    let episodes = joined.map {
      IrregularRhythmEpisode(startSample: $0.lowerBound, endSample: $0.upperBound, sampleRate: sampleRate)
    }
    .filter { $0.duration >= parameters.minimumEpisodeDuration }
    return Analysis(
      intervals: workspace.series, irregular: workspace.irregular, atrialConsistency: consistency,
      coveredSamples: workspace.covered, episodes: episodes, sampleRate: sampleRate)
  }

  /// Reusable storage of ``analyze(beats:sampleRate:beatClasses:atrialConsistency:gaps:judging:into:)``, for
  /// a caller that analyzes window after window (the streaming tracker of `vitals analyze`): once its arrays
  /// have grown to the longest window, an analysis without atrial consistencies allocates nothing.
  package struct Workspace: Sendable {
    /// The intervals the last analysis judged (``Analysis/intervals``).
    package var series = NNSeries(intervals: [], endTimes: [], followsPrevious: [])
    /// Whether each of ``series`` lies in an irregular window (``Analysis/irregular``).
    package var irregular: [Bool] = []
    /// The last analysis's covered time (``Analysis/coveredSamples``).
    package var covered: [Range<Int64>] = []
    var artifacts = RRArtifacts.Workspace()
    /// Indices of the beats left out, unordered, possibly repeated; one flag per beat for `NNSeries`.
    var excluded: [Int] = []
    var isExcluded: [Bool] = []
    /// The judged intervals, and every interval (artifacts included), in seconds.
    var rr: [Double] = []
    var allIntervals: [Double] = []
    /// Index in the beats of the beat closing each judged interval.
    var closingBeats: [Int] = []
    /// Scratch: the pattern check's sums; the covered spans before the gaps are taken out.
    var sums: [Double] = []
    var spans: [Range<Int64>] = []

    package init() {}
  }

  /// The analysis of ``analyze(beats:sampleRate:beatClasses:signal:gaps:judging:)`` up to its covered
  /// samples (the same values, bit for bit), into `workspace`: its ``Workspace/series``,
  /// ``Workspace/irregular`` and ``Workspace/covered``. `consistency`: the atrial consistency of each beat
  /// (``Analysis/atrialConsistency``), empty without the ECG.
  package func analyze(
    beats: [Int64], sampleRate: Double, beatClasses: [BeatClass]?,
    atrialConsistency consistency: [Double] = [],
    gaps: [Range<Int64>], judging: Range<Int64>?, into workspace: inout Workspace
  ) {
    precondition(beatClasses.map { $0.count == beats.count } ?? true, "one beat class per beat")
    collectExcludedBeats(beats, sampleRate: sampleRate, beatClasses: beatClasses, into: &workspace)
    workspace.series.assign(
      beats: beats, sampleRate: sampleRate, excludingBeats: workspace.excluded, gaps: gaps,
      scratch: &workspace.isExcluded)
    let n = workspace.series.count
    workspace.rr.removeAll(keepingCapacity: true)
    workspace.closingBeats.removeAll(keepingCapacity: true)
    for k in 0..<n {
      workspace.rr.append(workspace.series.intervals[k] / 1000)
      workspace.closingBeats.append(
        intervalIndex(closingAt: workspace.series.endTimes[k], beats, sampleRate) + 1)
    }
    // The pattern check looks at every interval, artifacts included: dropping beats breaks patterns.
    workspace.allIntervals.removeAll(keepingCapacity: true)
    for k in beats.indices.dropFirst() {
      workspace.allIntervals.append(distance(from: beats[k - 1], to: beats[k]) / sampleRate)
    }
    workspace.irregular.removeAll(keepingCapacity: true)
    workspace.irregular.append(contentsOf: repeatElement(false, count: n))
    let width = parameters.windowBeats
    if n >= width {
      var matches = TemplateMatches(tolerance: parameters.tolerance)
      for k in judgedIntervals(workspace.series, sampleRate: sampleRate, overlapping: judging) {
        let low = Swift.max(0, Swift.min(k - width / 2, n - width))
        let window = workspace.rr[low..<(low + width)]
        let entropy = workspace.rr.withUnsafeBufferPointer { rr in
          matches.slide(to: low..<(low + width), in: rr)
          return Self.coefficientOfSampleEntropy(matches, of: rr[low..<(low + width)])
        }
        let isIrregular =
          entropy > parameters.threshold
          && Self.normalizedRMSSD(window) > parameters.minimumNormalizedRMSSD
          && !(parameters.maximumPredictionGain < .infinity
            && Self.linearPredictionGain(window) >= parameters.maximumPredictionGain)
          && !isRepeatingPattern(
            workspace.allIntervals, around: workspace.closingBeats[k] - 1, sums: &workspace.sums)
          && !hasOrganizedAtrialActivity(
            consistency, closingBeats: workspace.closingBeats, window: window.indices)
        workspace.irregular[k] = isIrregular
      }
    }
    Self.cover(sampleRate: sampleRate, gaps: gaps, &workspace)
  }

  /// The time covered by the irregular intervals of `workspace.series`, outside `gaps`, into
  /// `workspace.covered` (increasing, disjoint sample ranges).
  private static func cover(sampleRate: Double, gaps: [Range<Int64>], _ workspace: inout Workspace) {
    workspace.spans.removeAll(keepingCapacity: true)
    var previousIrregularEnd: Int64? = nil
    let n = workspace.irregular.count
    for k in 0..<n where workspace.irregular[k] {
      // Saturating: beats may lie anywhere in Int64, and their times are rounded through Double.
      let end = Int64(saturating: workspace.series.endTimes[k] * sampleRate)
      let (difference, overflow) = end.subtractingReportingOverflow(
        Int64(saturating: workspace.series.intervals[k] / 1000 * sampleRate))
      let start = overflow ? Int64.min : difference
      let from = previousIrregularEnd.map { Swift.min($0, start) } ?? start
      if let last = workspace.spans.last, last.upperBound >= from {
        workspace.spans[workspace.spans.count - 1] = last.lowerBound..<end
      } else {
        workspace.spans.append(from..<end)
      }
      previousIrregularEnd = end
      if k + 1 < n && !workspace.irregular[k + 1] { previousIrregularEnd = nil }
    }
    workspace.covered.removeAll(keepingCapacity: true)
    for span in workspace.spans { gaps.complement(within: span, appendingTo: &workspace.covered) }
  }
}

/// Per-segment rhythm decisions and their scoring against a reference.
public enum RhythmSegments {
  /// Segments of `segmentDuration` seconds from sample 0 (partial last segment left out), each `true`
  /// when `ranges` (increasing, disjoint sample ranges) cover more than half of it.
  public static func majority(
    of ranges: [Range<Int64>], sampleCount: Int64, sampleRate: Double, segmentDuration: Double = 30
  ) -> [Bool] {
    let length = Int64((segmentDuration * sampleRate).rounded())
    precondition(length > 0, "segments must be at least one sample long")
    let count = Int(sampleCount / length)
    var covered = [Int64](repeating: 0, count: count)
    for range in ranges {
      var position = Swift.max(range.lowerBound, 0)
      while position < range.upperBound {
        let segment = Int(position / length)
        guard segment < count else { break }
        let segmentEnd = Int64(segment + 1) * length
        let next = Swift.min(range.upperBound, segmentEnd)
        covered[segment] += next - position
        position = next
      }
    }
    return covered.map { 2 * $0 > length }
  }

  /// Sample ranges where the reference rhythm is `label` (default `(AFIB`), from rhythm-change
  /// annotations: each label holds from its sample to the next change or the end of the record.
  ///
  /// - Parameters:
  ///   - changes: rhythm-change annotations (`+` with aux text such as `(N`, `(AFIB`), sorted by sample.
  ///   - sampleCount: samples in the record.
  public static func reference(
    rhythmChanges changes: [(sample: Int64, rhythm: String)], sampleCount: Int64, label: String = "(AFIB"
  ) -> [Range<Int64>] {
    var ranges: [Range<Int64>] = []
    for (index, change) in changes.enumerated() where change.rhythm == label {
      let end = index + 1 < changes.count ? changes[index + 1].sample : sampleCount
      guard end > change.sample else { continue }
      if let last = ranges.last, last.upperBound >= change.sample {
        ranges[ranges.count - 1] = last.lowerBound..<end
      } else {
        ranges.append(change.sample..<end)
      }
    }
    return ranges
  }

  /// Counts of segment decisions against reference decisions (equal lengths).
  public struct Score: Sendable, Equatable, Codable {
    public var truePositives = 0
    public var falseNegatives = 0
    public var falsePositives = 0
    public var trueNegatives = 0

    public init(reference: [Bool], detected: [Bool]) {
      precondition(reference.count == detected.count, "one detection per reference segment")
      for (r, d) in zip(reference, detected) {
        switch (r, d) {
        case (true, true): truePositives += 1
        case (true, false): falseNegatives += 1
        case (false, true): falsePositives += 1
        case (false, false): trueNegatives += 1
        }
      }
    }

    /// Adds another record's counts.
    public mutating func add(_ other: Score) {
      truePositives += other.truePositives
      falseNegatives += other.falseNegatives
      falsePositives += other.falsePositives
      trueNegatives += other.trueNegatives
    }

    /// TP / (TP + FN); NaN without reference AF segments.
    public var sensitivity: Double { Double(truePositives) / Double(truePositives + falseNegatives) }
    /// TN / (TN + FP); NaN without reference non-AF segments.
    public var specificity: Double { Double(trueNegatives) / Double(trueNegatives + falsePositives) }
  }
}

/// The template matches of sample entropy with templates of one and two intervals (COSEn's m = 1) in a
/// window of a series: ``b``, the pairs of templates (two successive intervals) whose first intervals lie
/// within the tolerance of each other, and ``a``, those whose second intervals do too.
///
/// Sliding the window on by one interval takes out the pairs of the template that leaves and adds those
/// of the one that enters: O(W) instead of a recount's O(W²). The counts are integers, so they equal a
/// recount exactly.
package struct TemplateMatches {
  /// The tolerance r, in the series' unit.
  package let tolerance: Double
  /// The window counted (indices of the series).
  package private(set) var window = 0..<0
  package private(set) var a = 0
  package private(set) var b = 0

  package init(tolerance: Double) { self.tolerance = tolerance }

  /// Counts the matches of `window` (at least 2 intervals) of `series`, sliding from the last window when
  /// that is one interval before it: `series` must be the one the last call counted in.
  package mutating func slide(to window: Range<Int>, in series: UnsafeBufferPointer<Double>) {
    let templates = window.lowerBound..<(window.upperBound - 2)  // those of both windows
    if window.lowerBound == self.window.lowerBound + 1 && window.count == self.window.count {
      let (leavingA, leavingB) = pairs(of: self.window.lowerBound, with: templates, series)
      let (enteringA, enteringB) = pairs(of: window.upperBound - 2, with: templates, series)
      a += enteringA - leavingA
      b += enteringB - leavingB
    } else if window != self.window {
      (a, b) = (0, 0)
      for i in window.lowerBound..<(window.upperBound - 1) {
        let (pairA, pairB) = pairs(of: i, with: (i + 1)..<(window.upperBound - 1), series)
        a += pairA
        b += pairB
      }
    }
    self.window = window
  }

  /// The matches of template `i` with each template of `others`.
  private func pairs(of i: Int, with others: Range<Int>, _ x: UnsafeBufferPointer<Double>) -> (a: Int, b: Int)
  {
    var (a, b) = (0, 0)
    for j in others {
      let first = abs(x[i] - x[j]) <= tolerance ? 1 : 0
      let second = abs(x[i + 1] - x[j + 1]) <= tolerance ? 1 : 0
      b += first
      a += first & second
    }
    return (a, b)
  }
}
