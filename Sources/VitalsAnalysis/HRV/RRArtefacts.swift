/// Beats whose RR intervals look wrong, by class, after Lipponen & Tarvainen (2019).
///
/// Indices are beat indices (into the beat positions given to ``detect(beats:sampleRate:parameters:)``);
/// beat `k` is the beat that closes RR interval `k − 1 → k`. Each list is increasing.
public struct RRArtefacts: Sendable, Equatable, Codable {
  /// Ectopic beats: a large change of RR followed by an opposite one (the Kubios "ectopic" class).
  public var ectopic: [Int]
  /// Beats closing an interval that holds a missed beat (twice the local median).
  public var missed: [Int]
  /// Extra detections: an interval that, added to the next one, gives the local median.
  public var extra: [Int]
  /// Beats closing an interval that is long or short without being explained by the classes above.
  public var longShort: [Int]

  public init(ectopic: [Int] = [], missed: [Int] = [], extra: [Int] = [], longShort: [Int] = []) {
    self.ectopic = ectopic
    self.missed = missed
    self.extra = extra
    self.longShort = longShort
  }

  /// Every flagged beat, increasing and without repeats.
  public var allBeats: [Int] { Array(Set(ectopic + missed + extra + longShort)).sorted() }

  /// Whether no beat was flagged.
  public var isEmpty: Bool { ectopic.isEmpty && missed.isEmpty && extra.isEmpty && longShort.isEmpty }

  /// The thresholds of Lipponen & Tarvainen (2019), with their published values as defaults.
  public struct Parameters: Sendable, Equatable, Codable {
    /// Slope `c1` of the ectopic decision boundary in the (dRR, S12) plane.
    public var c1 = 0.13
    /// Offset `c2` of the ectopic decision boundary.
    public var c2 = 0.17
    /// Threshold scale `α`: a threshold is α times the quartile deviation of the local distribution.
    public var alpha = 5.2
    /// Beats in the centred window of the quartile deviation (odd).
    public var thresholdWindow = 91
    /// Beats in the centred median filter giving the local RR (odd).
    public var medianWindow = 11

    public init() {}
  }

  /// Classifies the beats of `beats` by their RR intervals: one pass of Lipponen & Tarvainen (2019),
  /// "A robust algorithm for heart rate variability time series artefact correction using novel beat
  /// classification", J Med Eng Technol 43(3):173–181, exactly as NeuroKit2 0.2.13 implements it
  /// (`signal_fixpeaks(method="Kubios")`, its `_find_artifacts`).
  ///
  /// The steps: RR series (first element set to the mean of the rest); dRR = successive differences
  /// (first set to the mean of the rest); thresholds Th1 = α·QD(|dRR|) and Th2 = α·QD(|mRR|) over
  /// centred 91-beat windows (QD = (Q3 − Q1)/2, linear quantiles); mRR = RR − median₁₁(RR), negative
  /// values doubled; the subspaces S11 = dRR/Th1, S12 and S22 from the neighbouring dRR; then the
  /// decision flow of the paper's Figure 1 into ectopic, long/short, missed and extra beats.
  /// Vitals drops the intervals next to flagged beats (``NNSeries``) rather than moving beats as
  /// NeuroKit2's correction does; this function is only the detection.
  ///
  /// - Parameters:
  ///   - beats: beat positions in samples, increasing.
  ///   - sampleRate: samples per second.
  /// - Returns: no artefacts when there are fewer than 4 beats.
  public static func detect(beats: [Int64], sampleRate: Double, parameters: Parameters = Parameters())
    -> RRArtefacts
  {
    precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive and finite")
    let n = beats.count
    guard n >= 4 else { return RRArtefacts() }
    var rr = [Double](repeating: 0, count: n)
    for k in 1..<n { rr[k] = Double(beats[k] - beats[k - 1]) / sampleRate }
    rr[0] = Statistics.mean(rr[1...])
    var drrs = [Double](repeating: 0, count: n)
    for k in 1..<n { drrs[k] = rr[k] - rr[k - 1] }
    drrs[0] = Statistics.mean(drrs[1...])

    let th1 = threshold(drrs, parameters)
    for k in 0..<n { drrs[k] = th1[k] != 0 ? drrs[k] / th1[k] : .nan }

    // Reflect-padded neighbours (numpy.pad mode "reflect", two elements).
    func padded(_ d: Int) -> Double {
      var index = d
      if index < 0 { index = -index }
      if index >= n { index = 2 * (n - 1) - index }
      return drrs[index]
    }
    var s12 = [Double](repeating: 0, count: n)
    var s22 = [Double](repeating: 0, count: n)
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

    let medrr = Statistics.rollingQuantiles(rr, width: parameters.medianWindow, [0.5])[0]
    var mrrs = [Double](repeating: 0, count: n)
    for k in 0..<n {
      let deviation = rr[k] - medrr[k]
      mrrs[k] = deviation < 0 ? 2 * deviation : deviation
    }
    let th2 = threshold(mrrs, parameters)
    for k in 0..<n { mrrs[k] = th2[k] != 0 ? mrrs[k] / th2[k] : .nan }

    var result = RRArtefacts()
    let c1 = parameters.c1
    let c2 = parameters.c2
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
      var candidates = [i]
      if abs(drrs[i + 1]) < abs(drrs[i + 2]) { candidates.append(i + 1) }
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
    return result
  }

  /// α · (Q3 − Q1) / 2 of |x| over centred windows.
  private static func threshold(_ x: [Double], _ parameters: Parameters) -> [Double] {
    let quartiles = Statistics.rollingQuantiles(x.map(abs), width: parameters.thresholdWindow, [0.25, 0.75])
    return zip(quartiles[0], quartiles[1]).map { parameters.alpha * (($1 - $0) / 2) }
  }

  /// `numpy.max` of two values: NaN when either is NaN.
  private static func numpyMax(_ a: Double, _ b: Double) -> Double {
    a.isNaN || b.isNaN ? .nan : Swift.max(a, b)
  }
  private static func numpyMin(_ a: Double, _ b: Double) -> Double {
    a.isNaN || b.isNaN ? .nan : Swift.min(a, b)
  }
}
