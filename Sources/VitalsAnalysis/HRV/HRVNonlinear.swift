import VitalsSupport

/// The Poincaré plot indices of an NN series (Brennan et al. 2001; Toichi et al. 1997 for CSI and CVI),
/// with NeuroKit2 0.2.13's `hrv_nonlinear` names: SD1, SD2 = standard deviations (ddof = 1) of
/// (NNₖ − NNₖ₊₁)/√2 and (NNₖ + NNₖ₊₁)/√2 over successive pairs (pairs across a gap are left out), in ms;
/// SD1/SD2; S = π·SD1·SD2 (ms²); CSI = SD2/SD1; CVI = log₁₀(16·SD1·SD2). All NaN below two pairs.
///
/// O(N): the cheap part of ``HRVNonlinear``, for callers that want no entropy or DFA.
public struct PoincarePlot: Sendable, Equatable, Codable {
  /// Short-term variability (the plot's width across the identity line), ms.
  public var sd1: Double
  /// Long-term variability (the plot's length along the identity line), ms.
  public var sd2: Double
  /// SD1 / SD2.
  public var sd1sd2: Double
  /// Area of the fitted ellipse, π·SD1·SD2, ms².
  public var s: Double
  /// Cardiac sympathetic index, SD2 / SD1 (computed as NeuroKit2 does, from 4·SD2 / 4·SD1).
  public var csi: Double
  /// Cardiac vagal index, log₁₀(4·SD1 · 4·SD2).
  public var cvi: Double

  /// The indices of `series`.
  public init(_ series: NNSeries) {
    let rri = series.intervals
    var minus: [Double] = []
    var plus: [Double] = []
    minus.reserveCapacity(rri.count)
    plus.reserveCapacity(rri.count)
    for k in rri.indices.dropFirst() where series.followsPrevious[k] {
      minus.append((rri[k - 1] - rri[k]) / 2.0.squareRoot())
      plus.append((rri[k - 1] + rri[k]) / 2.0.squareRoot())
    }
    sd1 = DescriptiveStatistics.standardDeviation(minus, ddof: 1)
    sd2 = DescriptiveStatistics.standardDeviation(plus, ddof: 1)
    sd1sd2 = sd1 / sd2
    s = Double.pi * sd1 * sd2
    csi = (4 * sd2) / (4 * sd1)
    cvi = log10((4 * sd2) * (4 * sd1))
  }
}

/// Nonlinear heart-rate variability of an NN series, with NeuroKit2 0.2.13's `hrv_nonlinear` names and
/// definitions for the indices Vitals computes.
///
/// - Poincaré plot: ``PoincarePlot`` (alone, it costs O(N)); its indices read as this type's own
///   (`nonlinear.sd1`).
/// - ApEn and SampEn of the NN values with m = 2, delay 1, r = 0.2 · SDNN (ddof = 1): ``Entropies``.
/// - DFA α1 and α2 (``DetrendedFluctuation``) on NeuroKit2's default scales: α1 on 4 … 11 beats, α2 on
///   12 … ⌊(N + 1)/10⌋ beats (`numpy.linspace(…).astype(int)`); NaN below 12 intervals, α2 NaN when
///   (N + 1)/10 < 13. (Peng's classic 4–16 / 16–64 beats are available through
///   ``DetrendedFluctuation/alpha(_:scales:)``.)
///
/// Entropy and DFA use the NN values in order, across gaps, as NeuroKit2 does.
@dynamicMemberLookup
public struct HRVNonlinear: Sendable, Equatable, Codable {
  /// SD1, SD2, SD1/SD2, S, CSI and CVI.
  public var poincare: PoincarePlot
  /// Approximate entropy (unitless).
  public var apEn: Double
  /// Sample entropy (unitless; +∞ or −∞ where NeuroKit2 gives them).
  public var sampEn: Double
  /// Short-term DFA exponent (unitless).
  public var dfaAlpha1: Double
  /// Long-term DFA exponent (unitless).
  public var dfaAlpha2: Double

  /// A Poincaré index (``PoincarePlot``) as if it were this type's own.
  public subscript(dynamicMember index: KeyPath<PoincarePlot, Double>) -> Double { poincare[keyPath: index] }

  /// Computes every index of `series`: O(N) for the Poincaré indices; the entropies' exact match counts
  /// by range counting (``Entropies``), close to O(N log N) on heart-rate series; DFA on N/10 scales in
  /// O(N log² N) (``DetrendedFluctuation``): about 0.3 s for 24 hours (100 000 beats) on one core.
  public init(_ series: NNSeries) {
    let rri = series.intervals
    poincare = PoincarePlot(series)

    let tolerance = 0.2 * DescriptiveStatistics.standardDeviation(rri, ddof: 1)
    let entropies =
      tolerance.isNaN
      ? Entropies(approximate: .nan, sample: .nan) : Entropies(rri, dimension: 2, tolerance: tolerance)
    apEn = entropies.approximate
    sampEn = entropies.sample

    (dfaAlpha1, dfaAlpha2) = Self.defaultDFA(rri)
  }

  /// α1 and α2 on NeuroKit2's default scales (see the type's documentation).
  private static func defaultDFA(_ rri: [Double]) -> (Double, Double) {
    guard rri.count >= 12 else { return (.nan, .nan) }
    let alpha1 = DetrendedFluctuation.alpha(rri, scales: Array(4...11))
    let maxBeats = Double(rri.count + 1) / 10
    guard maxBeats >= 13 else { return (alpha1, .nan) }
    let count = Int(maxBeats - 12 + 1)
    let last = Double(Int(maxBeats))
    let step = (last - 12) / Double(Swift.max(count - 1, 1))
    let scales = (0..<count).map { k in k == count - 1 ? Int(last) : Int(Double(k) * step + 12) }
    return (alpha1, DetrendedFluctuation.alpha(rri, scales: scales))
  }
}
