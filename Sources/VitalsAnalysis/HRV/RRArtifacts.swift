import VitalsCore
import VitalsSupport

/// Beats whose RR intervals look wrong, by class, after Lipponen & Tarvainen (2019).
///
/// Indices are beat indices (into the beat positions given to ``detect(beats:sampleRate:parameters:)``);
/// beat `k` is the beat that closes RR interval `k − 1 → k`. Each list is increasing.
public struct RRArtifacts: Sendable, Equatable, Codable {
  /// Ectopic beats: a large change of RR followed by an opposite one (the Kubios "ectopic" class).
  public var ectopic: [Int]
  /// Beats closing an interval that holds a missed beat (twice the local median).
  public var missed: [Int]
  /// Extra detections: an interval that, added to the next one, gives the local median.
  public var extra: [Int]
  /// Beats closing an interval that is long or short without being explained by the classes above.
  public var longShort: [Int]
  /// Beats of a run next to a beat of the four classes above whose intervals stay off the rhythm before
  /// the run (a run of premature beats such as ventricular tachycardia, whose inner intervals change
  /// little from beat to beat): a Vitals extension, see ``detect(beats:sampleRate:parameters:)``.
  public var run: [Int]

  public init(
    ectopic: [Int] = [], missed: [Int] = [], extra: [Int] = [], longShort: [Int] = [], run: [Int] = []
  ) {
    self.ectopic = ectopic
    self.missed = missed
    self.extra = extra
    self.longShort = longShort
    self.run = run
  }

  /// Every flagged beat, increasing and without repeats.
  public var allBeats: [Int] {
    var beats: [Int] = []
    beats.reserveCapacity(ectopic.count + missed.count + extra.count + longShort.count + run.count)
    appendFlaggedBeats(to: &beats)
    // Sorted, then repeats dropped: not through a `Set`, whose order (and with it the sort's work and
    // allocations) changes with each process's hash seed.
    beats.sort()
    var kept = 0
    for beat in beats where kept == 0 || beats[kept - 1] != beat {
      beats[kept] = beat
      kept += 1
    }
    beats.removeLast(beats.count - kept)
    return beats
  }

  /// Appends every flagged beat to `beats`, class by class in the order of the properties (each class
  /// increasing; a beat of two classes twice).
  package func appendFlaggedBeats(to beats: inout [Int]) {
    beats.append(contentsOf: ectopic)
    beats.append(contentsOf: missed)
    beats.append(contentsOf: extra)
    beats.append(contentsOf: longShort)
    beats.append(contentsOf: run)
  }

  /// Whether no beat was flagged.
  public var isEmpty: Bool {
    ectopic.isEmpty && missed.isEmpty && extra.isEmpty && longShort.isEmpty && run.isEmpty
  }

  /// The thresholds of Lipponen & Tarvainen (2019), with their published values as defaults.
  public struct Parameters: Sendable, Equatable, Codable {
    /// Slope `c1` of the ectopic decision boundary in the (dRR, S12) plane.
    public var c1 = 0.13
    /// Offset `c2` of the ectopic decision boundary.
    public var c2 = 0.17
    /// Threshold scale `α`: a threshold is α times the quartile deviation of the local distribution.
    public var alpha = 5.2
    /// Beats in the centered window of the quartile deviation (odd).
    public var thresholdWindow = 91
    /// Beats in the centered median filter giving the local RR (odd); also the number of accepted
    /// intervals before a run whose median is the rhythm the run is measured against.
    public var medianWindow = 11
    /// Normalized deviation |mRR| / Th2 from the rhythm before a run (mRR = RR − that rhythm's
    /// median, negative values doubled, as in the paper's mRR) above which a beat next to a flagged
    /// beat, or to a run beat, joins the run (``RRArtifacts/run``). Not a published value: the paper's
    /// long/short limit for |mRR| is 3; 2 was chosen on the MIT-BIH records of `../shared/data`, where
    /// it brings SDNN from reference beats of 205 (ventricular runs) within 0.1 % of its annotated
    /// N→N intervals' (3: +19 %, no runs: +43 %) and flags 29 V and 2 N beats there; over the other 10
    /// records with ≥ 95 % normal beats it flags 42 beats (29 V or A, 13 N).
    public var runThreshold = 2.0
    /// Most beats a run extends on each side of a flagged beat; 0 turns runs off and leaves exactly
    /// the paper's four classes.
    public var maximumRunBeats = 11

    public init() {}
  }

  /// Classifies the beats of `beats` as ``detect(beats:sampleRate:parameters:)`` does, one stretch of beats
  /// between two of the signal's `gaps` (sample ranges on the beats' scale, increasing and disjoint) at a
  /// time, so that the interval across a gap, which holds the beats unseen there, flags no beat.
  public static func detect(
    beats: [Int64], sampleRate: Double, parameters: Parameters = Parameters(), gaps: [Range<Int64>]
  ) -> RRArtifacts {
    var result = RRArtifacts()
    var first = 0
    var gap = 0
    while first < beats.count {
      // The stretch runs up to the first gap after its first beat.
      while gap < gaps.count && gaps[gap].lowerBound <= beats[first] { gap += 1 }
      let end =
        gap < gaps.count
        ? (beats[first...].firstIndex { $0 > gaps[gap].lowerBound } ?? beats.count) : beats.count
      let stretch = first == 0 && end == beats.count ? beats : Array(beats[first..<end])
      let found = detect(beats: stretch, sampleRate: sampleRate, parameters: parameters)
      if first == 0 {
        result = found
      } else {
        result.ectopic += found.ectopic.lazy.map { $0 + first }
        result.missed += found.missed.lazy.map { $0 + first }
        result.extra += found.extra.lazy.map { $0 + first }
        result.longShort += found.longShort.lazy.map { $0 + first }
        result.run += found.run.lazy.map { $0 + first }
      }
      first = end
    }
    return result
  }

  /// Classifies the beats of `beats` by their RR intervals: one pass of Lipponen & Tarvainen (2019),
  /// "A robust algorithm for heart rate variability time series artefact correction using novel beat
  /// classification", J Med Eng Technol 43(3):173–181, exactly as NeuroKit2 0.2.13 implements it
  /// (`signal_fixpeaks(method="Kubios")`, its `_find_artifacts`).
  ///
  /// The steps: RR series (first element set to the mean of the rest); dRR = successive differences
  /// (first set to the mean of the rest); thresholds Th1 = α·QD(|dRR|) and Th2 = α·QD(|mRR|) over
  /// centered 91-beat windows (QD = (Q3 − Q1)/2, linear quantiles); mRR = RR − median₁₁(RR), negative
  /// values doubled; the subspaces S11 = dRR/Th1, S12 and S22 from the neighboring dRR; then the
  /// decision flow of the paper's Figure 1 into ectopic, long/short, missed and extra beats.
  /// Vitals drops the intervals next to flagged beats (``NNSeries``) rather than moving beats as
  /// NeuroKit2's correction does; this function is only the detection.
  ///
  /// Runs (a Vitals extension, ``run``): the decision flow only looks at beats whose dRR is large, so it
  /// flags where a run of premature beats (ventricular tachycardia, atrial runs) starts or ends but not
  /// the beats inside it, and the centered 11-beat median follows any run of 6 beats or more, so mRR does
  /// not see them either. Each beat is therefore also measured against the rhythm before it: the median
  /// of the last ``Parameters/medianWindow`` intervals closed by beats not flagged, with mRR's scaling
  /// (negative deviations doubled, divided by Th2). Beats deviating by more than
  /// ``Parameters/runThreshold`` that follow a flagged beat without a break, or precede one without a
  /// break, are run beats, at most ``Parameters/maximumRunBeats`` on each side (a longer stretch is a
  /// rhythm of its own). A run beat's interval does not enter the rhythm median.
  ///
  /// - Parameters:
  ///   - beats: beat positions in samples, increasing.
  ///   - sampleRate: samples per second.
  /// - Returns: no artifacts when there are fewer than 4 beats.
  public static func detect(beats: [Int64], sampleRate: Double, parameters: Parameters = Parameters())
    -> RRArtifacts
  {
    var workspace = Workspace()
    detect(beats: beats, sampleRate: sampleRate, parameters: parameters, into: &workspace)
    return workspace.artifacts
  }

  /// Reusable storage of ``detect(beats:sampleRate:parameters:into:)``, for a caller that classifies
  /// window after window: once its arrays have grown to the longest window, a detection with runs off
  /// (``Parameters/maximumRunBeats`` 0) allocates nothing.
  package struct Workspace: Sendable {
    /// The beats found by the last detection.
    package var artifacts = RRArtifacts()
    /// The series the decision rules read, one value per beat (as in `Series`).
    var rr: [Double] = []
    var drrs: [Double] = []
    var mrrs: [Double] = []
    var medrr: [Double] = []
    var th1: [Double] = []
    var th2: [Double] = []
    var s12: [Double] = []
    var s22: [Double] = []
    /// Scratch: magnitudes and rolling quantiles of a thresholded series.
    var magnitudes: [Double] = []
    var quantiles: [Double] = []

    package init() {}
  }

  /// ``detect(beats:sampleRate:parameters:)`` into `workspace.artifacts` (the same beats, bit for bit),
  /// reusing the workspace's arrays.
  package static func detect(
    beats: [Int64], sampleRate: Double, parameters: Parameters = Parameters(), into workspace: inout Workspace
  ) {
    precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive and finite")
    workspace.artifacts.removeAll()
    let n = beats.count
    guard n >= 4 else { return }
    resize(&workspace.rr, n)
    for k in 1..<n { workspace.rr[k] = distance(from: beats[k - 1], to: beats[k]) / sampleRate }
    workspace.rr[0] = DescriptiveStatistics.mean(workspace.rr[1...])
    resize(&workspace.drrs, n)
    for k in 1..<n { workspace.drrs[k] = workspace.rr[k] - workspace.rr[k - 1] }
    workspace.drrs[0] = DescriptiveStatistics.mean(workspace.drrs[1...])

    threshold(workspace.drrs, parameters, into: &workspace.th1, &workspace.magnitudes, &workspace.quantiles)
    for k in 0..<n { workspace.drrs[k] = workspace.th1[k] != 0 ? workspace.drrs[k] / workspace.th1[k] : .nan }
    subspaces(workspace.drrs, into: &workspace.s12, &workspace.s22)

    DescriptiveStatistics.rollingQuantiles(
      workspace.rr, width: parameters.medianWindow, Self.median, into: &workspace.medrr)
    resize(&workspace.mrrs, n)
    for k in 0..<n {
      let deviation = workspace.rr[k] - workspace.medrr[k]
      workspace.mrrs[k] = deviation < 0 ? 2 * deviation : deviation
    }
    threshold(workspace.mrrs, parameters, into: &workspace.th2, &workspace.magnitudes, &workspace.quantiles)
    for k in 0..<n { workspace.mrrs[k] = workspace.th2[k] != 0 ? workspace.mrrs[k] / workspace.th2[k] : .nan }

    let series = Series(
      rr: workspace.rr, drrs: workspace.drrs, mrrs: workspace.mrrs, medrr: workspace.medrr,
      th2: workspace.th2,
      s12: workspace.s12, s22: workspace.s22)
    series.classify(c1: parameters.c1, c2: parameters.c2, into: &workspace.artifacts)
    if parameters.maximumRunBeats > 0 {
      workspace.artifacts.run = runBeats(
        workspace.rr, workspace.th2, flagged: workspace.artifacts.allBeats, parameters)
    }
  }

  /// Empties every list, keeping its capacity.
  private mutating func removeAll() {
    ectopic.removeAll(keepingCapacity: true)
    missed.removeAll(keepingCapacity: true)
    extra.removeAll(keepingCapacity: true)
    longShort.removeAll(keepingCapacity: true)
    run.removeAll(keepingCapacity: true)
  }

  /// Makes `values` hold `count` zeros, keeping its capacity.
  private static func resize(_ values: inout [Double], _ count: Int) {
    values.removeAll(keepingCapacity: true)
    values.append(contentsOf: repeatElement(0, count: count))
  }

  /// The quantiles of the rolling median and of the quartile deviation.
  private static let median = [0.5]
  private static let quartiles = [0.25, 0.75]

  /// The subspaces S12 and S22 of the normalized successive differences `drrs`: S12 the larger (for
  /// a positive difference) or smaller (negative) of the two neighbors, S22 the smaller (difference
  /// ≥ 0) or larger (negative) of the next two; neighbors reflect-padded as numpy.pad's "reflect".
  /// They replace the contents of `s12` and `s22`.
  private static func subspaces(_ drrs: [Double], into s12: inout [Double], _ s22: inout [Double]) {
    let n = drrs.count
    func padded(_ d: Int) -> Double {
      var index = d
      if index < 0 { index = -index }
      if index >= n { index = 2 * (n - 1) - index }
      return drrs[index]
    }
    resize(&s12, n)
    resize(&s22, n)
    for d in 0..<n {
      if drrs[d] > 0 {
        s12[d] = numpyMax(padded(d - 1), padded(d + 1))
      } else if drrs[d] < 0 {
        s12[d] = numpyMin(padded(d - 1), padded(d + 1))
      }
      if drrs[d] >= 0 {
        s22[d] = numpyMin(padded(d + 1), padded(d + 2))
      } else if drrs[d] < 0 {
        s22[d] = numpyMax(padded(d + 1), padded(d + 2))
      }
    }
  }

  /// The series the decision rules read, one value per beat: intervals (s), normalized successive
  /// differences, normalized deviations from the median, the median, its threshold, the subspaces.
  private struct Series {
    let rr: [Double]
    let drrs: [Double]
    let mrrs: [Double]
    let medrr: [Double]
    let th2: [Double]
    let s12: [Double]
    let s22: [Double]

    /// Appends to `result` the ectopic, long/short, missed and extra beats by Lipponen & Tarvainen's
    /// decision rules (no runs).
    func classify(c1: Double, c2: Double, into result: inout RRArtifacts) {
      let n = rr.count
      var i = 0
      while i < n - 2 {
        if abs(drrs[i]) <= 1 {
          i += 1
          continue
        }
        let eq1 = drrs[i] > 1 && s12[i] < -c1 * drrs[i] - c2
        let eq2 = drrs[i] < -1 && s12[i] > -c1 * drrs[i] + c2
        if eq1 || eq2 {
          result.ectopic.append(i)
          i += 1
          continue
        }
        if !(abs(drrs[i]) > 1 || abs(mrrs[i]) > 3) {
          i += 1
          continue
        }
        // The candidates: beat i, and beat i + 1 when its dRR is the smaller of the next two.
        let candidates = abs(drrs[i + 1]) < abs(drrs[i + 2]) ? i...(i + 1) : i...i
        for j in candidates {
          let eq3 = drrs[j] > 1 && s22[j] < -1
          let eq4 = abs(mrrs[j]) > 3
          let eq5 = drrs[j] < -1 && s22[j] > 1
          if !(eq3 || eq4 || eq5) {
            i += 1
            continue
          }
          let eq6 = abs(rr[j] / 2 - medrr[j]) < th2[j]
          let eq7 = abs(rr[j] + rr[j + 1] - medrr[j]) < th2[j]
          if eq5 && eq7 {
            result.extra.append(j)
          } else if eq3 && eq6 {
            result.missed.append(j)
          } else {
            result.longShort.append(j)
          }
          i += 1
        }
      }
    }
  }

  /// The run beats around the beats `flagged` (see ``detect(beats:sampleRate:parameters:)``), increasing.
  private static func runBeats(_ rr: [Double], _ th2: [Double], flagged: [Int], _ parameters: Parameters)
    -> [Int]
  {
    let n = rr.count
    var isFlagged = [Bool](repeating: false, count: n)
    for beat in flagged { isFlagged[beat] = true }
    var deviates = [Bool](repeating: false, count: n)
    // Beats whose intervals make the rhythm, most recent last.
    var accepted: [Int] = []
    accepted.reserveCapacity(n)
    var window = [Double](repeating: 0, count: parameters.medianWindow)
    var run: [Int] = []
    var remaining = 0
    // Beat 0 closes no interval (its rr is the mean of the others).
    for k in 1..<n {
      let count = Swift.min(parameters.medianWindow, accepted.count)
      if count > 0 && th2[k] > 0 {
        for j in 0..<count { window[j] = rr[accepted[accepted.count - count + j]] }
        // Sorted in place (sorting the array slice itself would copy it every beat).
        window.withUnsafeMutableBufferPointer {
          var first = UnsafeMutableBufferPointer(rebasing: $0[0..<count])
          first.sort()
        }
        let median = DescriptiveStatistics.median(sorted: window[0..<count])
        let deviation = rr[k] - median
        deviates[k] = abs(deviation < 0 ? 2 * deviation : deviation) > parameters.runThreshold * th2[k]
      }
      if isFlagged[k] {
        var j = k - 1
        while k - j <= parameters.maximumRunBeats, accepted.last == j, deviates[j] {
          accepted.removeLast()
          run.append(j)
          j -= 1
        }
        remaining = parameters.maximumRunBeats
      } else if remaining > 0 && deviates[k] {
        run.append(k)
        remaining -= 1
      } else {
        remaining = 0
        accepted.append(k)
      }
    }
    return run.sorted()
  }

  /// α · (Q3 − Q1) / 2 of |x| over centered windows, replacing the contents of `th` (`magnitudes` and
  /// `quantiles`: scratch).
  private static func threshold(
    _ x: [Double], _ parameters: Parameters, into th: inout [Double], _ magnitudes: inout [Double],
    _ quantiles: inout [Double]
  ) {
    let n = x.count
    magnitudes.removeAll(keepingCapacity: true)
    magnitudes.append(contentsOf: x.lazy.map(abs))
    DescriptiveStatistics.rollingQuantiles(
      magnitudes, width: parameters.thresholdWindow, Self.quartiles, into: &quantiles)
    resize(&th, n)
    for k in 0..<n { th[k] = parameters.alpha * ((quantiles[n + k] - quantiles[k]) / 2) }
  }

  /// `numpy.max` of two values: NaN when either is NaN.
  private static func numpyMax(_ a: Double, _ b: Double) -> Double {
    a.isNaN || b.isNaN ? .nan : Swift.max(a, b)
  }
  private static func numpyMin(_ a: Double, _ b: Double) -> Double {
    a.isNaN || b.isNaN ? .nan : Swift.min(a, b)
  }
}
