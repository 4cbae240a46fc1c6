import Foundation

/// The generalised Lomb–Scargle periodogram of an unevenly sampled series (Lomb 1976; Scargle 1982;
/// Zechmeister & Kürster 2009, "The generalised Lomb-Scargle periodogram"), equal to
/// `scipy.signal.lombscargle` of SciPy 1.17.
///
/// At each angular frequency `ω` it fits `y(t) ≈ a·cos(ωt − τ) + b·sin(ωt − τ) (+ c)` by
/// weighted least squares, `τ` chosen to decouple the two terms, and reports the power of the fit.
/// Weights are normalised to sum to 1. Cost: one sine and cosine per sample and frequency,
/// O(N·F); no FFT-based O(N log N) approximation is offered.
///
/// SciPy's deprecated `precenter=True` equals passing `values` minus their mean; `floatingMean`
/// (fitting `c` at every frequency) is the better choice when the series may have an offset.
/// Frequencies near zero (`ω·(t_max − t_min) ≪ 1`) make the fit ill-conditioned here as in SciPy.
/// NaN in `times`, `values` or `angularFrequencies` gives NaN in the affected outputs.
public enum LombScargle {
  /// How ``periodogram(times:values:angularFrequencies:weights:floatingMean:normalization:)`` scales
  /// the fitted power (SciPy's `normalize=`).
  public enum Normalization: Sendable, Hashable {
    /// `normalize=False` / `"power"`: `(N/4)·2·(a·YC + b·YS)`, which is `A²·N/4` for a sinusoid of
    /// amplitude `A` in unit-weight data (unit² of `values`).
    case power
    /// `normalize=True` / `"normalize"`: the fraction of the weighted variance about the model
    /// without the sinusoid (about 0, or about the weighted mean with `floatingMean`), in [0, 1].
    case normalize
  }

  /// The periodogram at each of `angularFrequencies` (rad per unit of `times`; `2π·f` for `f` in Hz
  /// with `times` in seconds). `weights` (default all 1) must be non-negative with a positive sum.
  /// Throws ``FFTError`` when `times`, `values` (and `weights`) are empty or of different lengths,
  /// when `angularFrequencies` is empty, or for invalid weights.
  public static func periodogram(
    times: [Double], values: [Double], angularFrequencies: [Double], weights: [Double]? = nil,
    floatingMean: Bool = false, normalization: Normalization = .power
  ) throws(FFTError) -> [Double] {
    let setup = try Setup(
      times: times, values: values, angularFrequencies: angularFrequencies, weights: weights)
    let scale: Double
    switch normalization {
    case .power:
      scale = Double(times.count) / 4
    case .normalize:
      var yy = 0.0
      for i in times.indices { yy += setup.weightedValues[i] * values[i] }
      if floatingMean { yy -= setup.weightedMean * setup.weightedMean }
      scale = 0.5 / yy
    }
    return angularFrequencies.map { omega in
      let fit = setup.fit(omega, times: times, floatingMean: floatingMean)
      return 2 * (fit.a * fit.yc + fit.b * fit.ys) * scale
    }
  }

  /// The best-fit amplitude and phase at each of `angularFrequencies` as the complex number
  /// `(a + i·b)·exp(i·τ)` (SciPy's `normalize="amplitude"`), in the unit of `values`: the fit is
  /// `y(t) ≈ Re(result)·cos(ωt) + Im(result)·sin(ωt)` (+ the offset with `floatingMean`). Below
  /// `2π / (t_max − t_min)` the amplitude grows without bound. Same arguments and errors as
  /// ``periodogram(times:values:angularFrequencies:weights:floatingMean:normalization:)``.
  public static func amplitude(
    times: [Double], values: [Double], angularFrequencies: [Double], weights: [Double]? = nil,
    floatingMean: Bool = false
  ) throws(FFTError) -> [FFTComplex<Double>] {
    let setup = try Setup(
      times: times, values: values, angularFrequencies: angularFrequencies, weights: weights)
    return angularFrequencies.map { omega in
      let fit = setup.fit(omega, times: times, floatingMean: floatingMean)
      let (c, s) = (cos(fit.tau), sin(fit.tau))
      return FFTComplex(real: fit.a * c - fit.b * s, imaginary: fit.a * s + fit.b * c)
    }
  }

  /// Validated inputs: normalised weights and their products with the values.
  private struct Setup {
    var weights: [Double]
    var weightedValues: [Double]
    /// `Y = Σ wᵢ·yᵢ` (Zechmeister & Kürster eq. 7).
    var weightedMean: Double

    init(times: [Double], values: [Double], angularFrequencies: [Double], weights: [Double]?) throws(FFTError)
    {
      guard !times.isEmpty else { throw .inputTooShort(buffer: "times", minimum: 1, actual: 0) }
      guard values.count == times.count else {
        throw .lengthMismatch(buffer: "values", expected: times.count, actual: values.count)
      }
      guard !angularFrequencies.isEmpty else {
        throw .inputTooShort(buffer: "angularFrequencies", minimum: 1, actual: 0)
      }
      var w = weights ?? [Double](repeating: 1, count: times.count)
      guard w.count == times.count else {
        throw .lengthMismatch(buffer: "weights", expected: times.count, actual: w.count)
      }
      let sum = w.reduce(0, +)
      guard w.allSatisfy({ $0 >= 0 }), sum > 0 else {
        throw .invalidParameter(
          name: "weights", requirement: "non-negative values with a positive sum", actual: "sum \(sum)")
      }
      let inverse = 1 / sum
      for i in w.indices { w[i] *= inverse }
      self.weights = w
      weightedValues = zip(w, values).map(*)
      weightedMean = weightedValues.reduce(0, +)
    }

    /// The least-squares fit at `omega`: coefficients `a`, `b`, phase `τ` and the (mean-corrected)
    /// projections `YC`, `YS` of Zechmeister & Kürster (2009) eqs. 8–19, as SciPy computes them.
    /// The sums over `cos(ωt − τ)`, `sin(ωt − τ)` are obtained from those over `cos ωt`,
    /// `sin ωt` by rotation, so each sample costs one sine and one cosine.
    func fit(_ omega: Double, times: [Double], floatingMean: Bool) -> (
      a: Double, b: Double, tau: Double, yc: Double, ys: Double
    ) {
      var cc = 0.0, cs = 0.0, c = 0.0, s = 0.0, yc = 0.0, ys = 0.0
      for i in times.indices {
        let phase = omega * times[i]
        let (cosine, sine) = (cos(phase), sin(phase))
        let w = weights[i]
        cc += w * cosine * cosine
        cs += w * cosine * sine
        c += w * cosine
        s += w * sine
        yc += weightedValues[i] * cosine
        ys += weightedValues[i] * sine
      }
      let ss = 1 - cc
      var (ccCentred, ssCentred, csCentred) = (cc, ss, cs)
      if floatingMean {
        ccCentred -= c * c
        ssCentred -= s * s
        csCentred -= c * s
      }
      let tau = 0.5 * atan2(2 * csCentred, ccCentred - ssCentred)  // eq. 19
      let (ct, st) = (cos(tau), sin(tau))
      var ycTau = ct * yc + st * ys
      var ysTau = ct * ys - st * yc
      var ccTau = ct * ct * cc + 2 * ct * st * cs + st * st * ss
      var ssTau = 1 - ccTau
      if floatingMean {
        let cTau = ct * c + st * s
        let sTau = ct * s - st * c
        ycTau -= weightedMean * cTau
        ysTau -= weightedMean * sTau
        ccTau -= cTau * cTau
        ssTau -= sTau * sTau
      }
      // SciPy clamps both at float64's epsneg (2⁻⁵³) against division by zero and rounding below 0.
      let floor = Double.ulpOfOne / 2
      if ccTau < floor { ccTau = floor }
      if ssTau < floor { ssTau = floor }
      return (ycTau / ccTau, ysTau / ssTau, tau, ycTau, ysTau)
    }
  }
}
