import VitalsSupport

/// A tapering window, with the definitions and names of `scipy.signal.get_window` (SciPy 1.17).
///
/// ``coefficients(count:periodic:)`` returns the periodic ("DFT-even", `fftbins=True`) form by
/// default, the one spectral estimators use: the symmetric window of `count + 1` points without its
/// last point. A window of one point is `[1]`.
public enum Window: Sendable, Hashable {
  /// Rectangular: all ones (`boxcar`).
  case boxcar
  /// Triangle without zero end points (`triang`).
  case triangle
  /// Triangle with zero end points (`bartlett`).
  case bartlett
  /// Hann, raised cosine `0.5 − 0.5·cos(2πk/(M−1))` (`hann`).
  case hann
  /// Hamming, `0.54 − 0.46·cos(2πk/(M−1))` (`hamming`).
  case hamming
  /// Blackman, three-term cosine 0.42 / 0.50 / 0.08 (`blackman`).
  case blackman
  /// Minimum 4-term Blackman–Harris (Harris 1978) (`blackmanharris`).
  case blackmanHarris
  /// Nuttall's minimum 4-term Blackman–Harris (Nuttall 1981) (`nuttall`).
  case nuttall
  /// Flat top, five-term cosine (D'Antona & Ferrero 2006) (`flattop`).
  case flatTop
  /// Sine window `sin(π(k + ½)/M)` (`cosine`).
  case cosine
  /// Bohman (`bohman`).
  case bohman
  /// Parzen, piecewise cubic (`parzen`).
  case parzen
  /// Modified Bartlett–Hann (`barthann`).
  case bartlettHann
  /// Tukey, cosine-tapered over a fraction `alpha` of the window (0: boxcar, 1: Hann) (`tukey`).
  case tukey(alpha: Double)
  /// Kaiser, `I₀(β·√(1 − (2k/(M−1) − 1)²)) / I₀(β)` (Kaiser 1974) (`kaiser`).
  case kaiser(beta: Double)
  /// Gaussian `exp(−½·((k − (M−1)/2)/σ)²)` with `σ` in samples (`gaussian`).
  case gaussian(standardDeviation: Double)

  /// The window a SciPy name selects: `"hann"`, `"hamming"`, `"blackman"`, `"boxcar"`, … with
  /// SciPy's aliases (`"rect"`, `"ones"`, `"han"`, `"blk"`, …). Windows that need a parameter
  /// (Tukey, Kaiser, Gaussian) are written as the enum cases instead. The `"_periodic"` suffix
  /// is accepted (it is the form spectral estimators use anyway).
  public init(scipyName name: String) throws(FFTError) {
    let base = name.hasSuffix("_periodic") ? String(name.dropLast("_periodic".count)) : name
    switch base {
    case "boxcar", "box", "ones", "rect", "rectangular": self = .boxcar
    case "triang", "triangle", "tri": self = .triangle
    case "bartlett", "bart", "brt": self = .bartlett
    case "hann", "han": self = .hann
    case "hamming", "hamm", "ham": self = .hamming
    case "blackman", "black", "blk": self = .blackman
    case "blackmanharris", "blackharr", "bkh": self = .blackmanHarris
    case "nuttall", "nutl", "nut": self = .nuttall
    case "flattop", "flat", "flt": self = .flatTop
    case "cosine", "halfcosine": self = .cosine
    case "bohman", "bman", "bmn": self = .bohman
    case "parzen", "parz", "par": self = .parzen
    case "barthann", "brthan", "bth": self = .bartlettHann
    default:
      throw .invalidParameter(
        name: "window", requirement: "a SciPy window name without parameters, such as \"hann\"", actual: name)
    }
  }

  /// The `count` window coefficients, periodic (`scipy.signal.get_window(name, count, fftbins=True)`)
  /// unless `periodic` is false (`sym=True`). `count` must be ≥ 1; parameters out of their range
  /// (negative `alpha`, `standardDeviation` ≤ 0) give the limiting or NaN values SciPy gives.
  public func coefficients(count: Int, periodic: Bool = true) -> [Double] {
    precondition(count >= 1, "a window has at least one point, got \(count)")
    if count == 1 { return [1] }
    let m = periodic ? count + 1 : count
    var w = symmetric(m)
    if periodic { w.removeLast() }
    return w
  }

  /// The symmetric window of `m ≥ 2` points.
  private func symmetric(_ m: Int) -> [Double] {
    let last = Double(m - 1)
    switch self {
    case .boxcar:
      return [Double](repeating: 1, count: m)
    case .triangle:
      return (0..<m).map { k in
        let n = Double(min(k, m - 1 - k) + 1)
        return m % 2 == 0 ? (2 * n - 1) / Double(m) : 2 * n / Double(m + 1)
      }
    case .bartlett:
      return (0..<m).map { k in
        let n = Double(k)
        return n <= last / 2 ? 2 * n / last : 2 - 2 * n / last
      }
    case .hann: return Self.generalCosine(m, [0.5, 0.5])
    case .hamming: return Self.generalCosine(m, [0.54, 0.46])
    case .blackman: return Self.generalCosine(m, [0.42, 0.50, 0.08])
    case .blackmanHarris: return Self.generalCosine(m, [0.35875, 0.48829, 0.14128, 0.01168])
    case .nuttall: return Self.generalCosine(m, [0.3635819, 0.4891775, 0.1365995, 0.0106411])
    case .flatTop:
      return Self.generalCosine(m, [0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368])
    case .cosine:
      return (0..<m).map { k in sin(Double.pi / Double(m) * (Double(k) + 0.5)) }
    case .bohman:
      return (0..<m).map { k in
        if k == 0 || k == m - 1 { return 0 }
        let fac = abs(-1 + 2 * Double(k) / last)
        return (1 - fac) * cos(Double.pi * fac) + 1 / Double.pi * sin(Double.pi * fac)
      }
    case .parzen:
      let half = Double(m) / 2
      return (0..<m).map { k in
        let n = abs(Double(k) - last / 2)
        let r = n / half
        return n <= last / 4 ? 1 - 6 * r * r + 6 * r * r * r : 2 * pow(1 - r, 3)
      }
    case .bartlettHann:
      return (0..<m).map { k in
        let fac = abs(Double(k) / last - 0.5)
        return 0.62 - 0.48 * fac + 0.38 * cos(2 * Double.pi * fac)
      }
    case .tukey(let alpha):
      if alpha <= 0 { return [Double](repeating: 1, count: m) }
      if alpha >= 1 { return Window.hann.symmetric(m) }
      let width = Int((alpha * last / 2).rounded(.down))
      return (0..<m).map { k in
        let n = Double(k)
        if k <= width { return 0.5 * (1 + cos(Double.pi * (-1 + 2 * n / alpha / last))) }
        if k >= m - width - 1 { return 0.5 * (1 + cos(Double.pi * (-2 / alpha + 1 + 2 * n / alpha / last))) }
        return 1
      }
    case .kaiser(let beta):
      let alpha = last / 2
      let denominator = Self.besselI0(beta)
      return (0..<m).map { k in
        let r = (Double(k) - alpha) / alpha
        return Self.besselI0(beta * (1 - r * r).squareRoot()) / denominator
      }
    case .gaussian(let sigma):
      return (0..<m).map { k in
        let n = Double(k) - last / 2
        return exp(-n * n / (2 * sigma * sigma))
      }
    }
  }

  /// `Σ_j a[j]·cos(j·φ_k)` with `φ` running from −π to π over `m` points (`scipy.signal.windows.general_cosine`).
  private static func generalCosine(_ m: Int, _ a: [Double]) -> [Double] {
    (0..<m).map { k in
      let phi = -Double.pi + 2 * Double.pi * Double(k) / Double(m - 1)
      var sum = 0.0
      for (j, coefficient) in a.enumerated() { sum += coefficient * cos(Double(j) * phi) }
      return sum
    }
  }

  /// The modified Bessel function of the first kind, order 0, by its power series
  /// `Σ ((x/2)^k / k!)²`, summed until terms fall below one ulp (accurate for |x| ≲ 700).
  private static func besselI0(_ x: Double) -> Double {
    let q = x * x / 4
    var term = 1.0
    var sum = 1.0
    var k = 1.0
    while term > sum * Double.ulpOfOne {
      term *= q / (k * k)
      sum += term
      k += 1
    }
    return sum
  }
}
