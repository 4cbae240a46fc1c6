import RealModule

/// The taper applied to an ideal (sinc) impulse response by the window method of FIR design.
///
/// Every window is the *symmetric* form (`scipy.signal.get_window(..., fftbins=False)`), the one filter
/// design needs: the first and last values are equal and a window of odd length peaks at 1 in the middle.
public enum FIRWindow: Sendable, Hashable {
  /// Hamming (1958): `w[n] = 0.54 − 0.46·cos(2πn / (N − 1))`; first side lobe −43 dB.
  case hamming
  /// Kaiser (1974): `w[n] = I₀(β·√(1 − (2n / (N − 1) − 1)²)) / I₀(β)`, with `I₀` the zeroth-order modified
  /// Bessel function of the first kind. `β` trades main-lobe width for side-lobe level (5.0 ≈ −37 dB,
  /// 8.6 ≈ −60 dB); see ``FIRDesign/kaiserBeta(attenuation:)``.
  case kaiser(beta: Double)

  /// The `count` window values, equal to `scipy.signal.get_window(window, count, fftbins=False)`.
  /// A window of length 1 is `[1]`.
  public func values(count: Int) -> [Double] {
    precondition(count > 0, "a window holds at least one value, got \(count)")
    guard count > 1 else { return [1] }
    let last = Double(count - 1)
    switch self {
    case .hamming:
      return (0..<count).map { 0.54 - 0.46 * Double.cos(2 * Double.pi * Double($0) / last) }
    case .kaiser(let beta):
      precondition(beta >= 0 && beta.isFinite, "the Kaiser β must be finite and non-negative, got \(beta)")
      let denominator = FIRDesign.besselI0(beta)
      return (0..<count).map { n in
        let r = 2 * Double(n) / last - 1
        return FIRDesign.besselI0(beta * (max(0, 1 - r * r)).squareRoot()) / denominator
      }
    }
  }
}

/// Which bands a window-method FIR filter passes (the `pass_zero` argument of `scipy.signal.firwin`).
public enum FIRPassType: Sendable, Hashable {
  /// Passes 0 … cutoff; one cutoff frequency.
  case lowpass
  /// Passes cutoff … Nyquist; one cutoff frequency; needs an odd tap count.
  case highpass
  /// Passes the bands between successive pairs of cutoffs, starting with the first pair.
  case bandpass
  /// Stops the bands between successive pairs of cutoffs; needs an odd tap count.
  case bandstop
}

/// Linear-phase FIR design by the window method, equal to `scipy.signal.firwin` to 1e-6 (see
/// `Fixtures/generate/resampling.py`).
///
/// Reference: A. V. Oppenheim and R. W. Schafer, *Discrete-Time Signal Processing*, 3rd ed. (2010),
/// §7.5 "Design of FIR filters by windowing"; J. F. Kaiser, "Nonrecursive digital filter design using the
/// I₀-sinh window function", Proc. IEEE ISCAS (1974).
public enum FIRDesign {
  /// The coefficients of a linear-phase FIR filter designed by the window method, in the order
  /// `h[0], h[1], …` of `y[n] = Σ h[k]·x[n − k]`; equal to
  /// `scipy.signal.firwin(tapCount, cutoff, window=…, pass_zero=pass, scale=scale, fs=sampleRate)`.
  ///
  /// - Parameters:
  ///   - tapCount: the filter length (order + 1); high-pass and band-stop filters need it odd (their
  ///     response at the Nyquist frequency must be 1).
  ///   - cutoff: band edges in Hz when `sampleRate` is given (by default 2, which makes them fractions of
  ///     the Nyquist frequency), strictly increasing in (0, sampleRate/2): one for low- and high-pass, an
  ///     even or odd number ≥ 2 for band-pass and band-stop (as in SciPy, an odd count leaves the last band
  ///     open to Nyquist).
  ///   - pass: which bands pass.
  ///   - window: the taper (SciPy's default is Hamming).
  ///   - scale: when `true`, the response is normalized to exactly 1 at the center of the first passband
  ///     (0 Hz for low-pass and band-stop, Nyquist for high-pass, the band center for band-pass).
  ///   - sampleRate: samples per second, the unit of `cutoff`.
  /// - Precondition: the arguments describe a realisable filter (they are the programmer's choice, not input
  ///   data).
  public static func firwin(
    tapCount: Int, cutoff: [Double], pass: FIRPassType, window: FIRWindow = .hamming, scale: Bool = true,
    sampleRate: Double = 2
  ) -> [Double] {
    precondition(tapCount > 0, "an FIR filter has at least one tap, got \(tapCount)")
    precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive and finite")
    let nyquist = sampleRate / 2
    let edges = cutoff.map { $0 / nyquist }
    precondition(!edges.isEmpty, "at least one cutoff frequency is needed")
    precondition(
      edges.allSatisfy { $0 > 0 && $0 < 1 }, "cutoff frequencies must lie strictly between 0 and sampleRate/2"
    )
    precondition(zip(edges, edges.dropFirst()).allSatisfy { $0 < $1 }, "cutoffs must be strictly increasing")
    let passZero: Bool
    switch pass {
    case .lowpass, .highpass:
      precondition(edges.count == 1, "\(pass) takes exactly one cutoff, got \(edges.count)")
      passZero = pass == .lowpass
    case .bandpass, .bandstop:
      precondition(edges.count >= 2, "\(pass) takes at least two cutoffs, got \(edges.count)")
      passZero = pass == .bandstop
    }
    let passNyquist = (edges.count % 2 == 0) == passZero
    precondition(
      !(passNyquist && tapCount % 2 == 0),
      "a filter with an even number of taps must have zero response at the Nyquist frequency")

    // Pairs of edges, each a passband.
    let allEdges = (passZero ? [0] : []) + edges + (passNyquist ? [1] : [])
    let bands = stride(from: 0, to: allEdges.count, by: 2).map { (allEdges[$0], allEdges[$0 + 1]) }
    let alpha = 0.5 * Double(tapCount - 1)
    let taper = window.values(count: tapCount)
    var h = (0..<tapCount).map { n -> Double in
      let m = Double(n) - alpha
      return bands.reduce(0) { sum, band in sum + band.1 * sinc(band.1 * m) - band.0 * sinc(band.0 * m) }
        * taper[n]
    }
    if scale {
      let (left, right) = bands[0]
      let frequency = left == 0 ? 0 : (right == 1 ? 1 : 0.5 * (left + right))
      let gain = (0..<tapCount).reduce(0.0) { sum, n in
        sum + h[n] * Double.cos(Double.pi * (Double(n) - alpha) * frequency)
      }
      h = h.map { $0 / gain }
    }
    return h
  }

  /// A Kaiser-window FIR filter whose transition band is `transitionWidth` wide, as
  /// `scipy.signal.firwin(tapCount, cutoff, width=transitionWidth, pass_zero=pass, fs=sampleRate)`: β comes
  /// from ``kaiserBeta(attenuation:)`` of ``kaiserAttenuation(tapCount:width:)`` (Kaiser 1974).
  ///
  /// - Parameter transitionWidth: the width of the transition band, in the unit of `cutoff` (Hz when
  ///   `sampleRate` is given).
  public static func firwin(
    tapCount: Int, cutoff: [Double], transitionWidth: Double, pass: FIRPassType, scale: Bool = true,
    sampleRate: Double = 2
  ) -> [Double] {
    precondition(transitionWidth > 0 && transitionWidth.isFinite, "the transition width must be positive")
    let attenuation = kaiserAttenuation(tapCount: tapCount, width: transitionWidth / (sampleRate / 2))
    return firwin(
      tapCount: tapCount, cutoff: cutoff, pass: pass,
      window: .kaiser(beta: kaiserBeta(attenuation: attenuation)),
      scale: scale, sampleRate: sampleRate)
  }

  /// Kaiser's empirical β for a stop-band attenuation of `attenuation` dB (positive), as
  /// `scipy.signal.kaiser_beta`: `0.1102·(A − 8.7)` above 50 dB, `0.5842·(A − 21)^0.4 + 0.07886·(A − 21)`
  /// from 21 to 50 dB, 0 below (Kaiser 1974; Oppenheim & Schafer eq. 7.62).
  public static func kaiserBeta(attenuation a: Double) -> Double {
    if a > 50 { return 0.1102 * (a - 8.7) }
    if a > 21 { return 0.5842 * Double.pow(a - 21, 0.4) + 0.07886 * (a - 21) }
    return 0
  }

  /// The stop-band attenuation in dB that a Kaiser-window filter of `tapCount` taps reaches with a
  /// transition band `width` wide (a fraction of the Nyquist frequency), as `scipy.signal.kaiser_atten`:
  /// `2.285·(N − 1)·π·width + 7.95` (Kaiser 1974; Oppenheim & Schafer eq. 7.63).
  public static func kaiserAttenuation(tapCount: Int, width: Double) -> Double {
    2.285 * Double(tapCount - 1) * Double.pi * width + 7.95
  }

  /// The zeroth-order modified Bessel function of the first kind, `I₀(x) = Σₖ ((x/2)ᵏ / k!)²`, summed
  /// until the terms no longer change the result (relative error ≈ 1e-16 for |x| ≤ 50, the range of
  /// Kaiser windows). `NaN` in, `NaN` out.
  public static func besselI0(_ x: Double) -> Double {
    let quarterSquare = 0.25 * x * x
    var term = 1.0
    var sum = 1.0
    var k = 1.0
    while true {
      term *= quarterSquare / (k * k)
      let next = sum + term
      if next == sum || next.isNaN { return next }
      sum = next
      k += 1
    }
  }

  /// The normalized sinc, `sin(πx) / (πx)`, 1 at 0 (NumPy's `np.sinc`).
  private static func sinc(_ x: Double) -> Double {
    x == 0 ? 1 : Double.sin(Double.pi * x) / (Double.pi * x)
  }
}
