import ComplexModule
import RealModule

extension SecondOrderSections {
  /// Phase of the frequency response `H(e^{iω}) = Π (b0 + b1·e^{−iω} + b2·e^{−2iω}) / (1 + a1·e^{−iω} +
  /// a2·e^{−2iω})` at `frequency` Hz, radians in (−π, π] (SciPy `sosfreqz` at one frequency, then `angle`).
  public func phase(atFrequency frequency: Double, sampleRate: Double) -> Double {
    let omega = 2 * Double.pi * frequency / sampleRate
    let (z1, z2) = (Complex(length: 1, phase: -omega), Complex(length: 1, phase: -2 * omega))
    var response = Complex<Double>.one
    for s in sections {
      let numerator = Complex(s.b0) + z1.multiplied(by: s.b1) + z2.multiplied(by: s.b2)
      let denominator = .one + z1.multiplied(by: s.a1) + z2.multiplied(by: s.a2)
      // numerator / denominator has the phase of numerator · conj(denominator): no division needed.
      response = response * (numerator * denominator.conjugate)
    }
    return Double.atan2(y: response.imaginary, x: response.real)
  }

  /// Phase delay at `frequency` Hz, in samples: `−φ(ω)/ω` with `φ` from ``phase(atFrequency:sampleRate:)``
  /// (so valid where the total phase lies in (−π, π], e.g. in a band-pass's pass band): the shift of the
  /// crests of a sinusoid of that frequency.
  public func phaseDelay(atFrequency frequency: Double, sampleRate: Double) -> Double {
    -phase(atFrequency: frequency, sampleRate: sampleRate) / (2 * Double.pi * frequency / sampleRate)
  }

  /// Group delay at `frequency` Hz, in samples: `−dφ/dω`, from the phase at `frequency ± 0.01 Hz`
  /// (the difference wrapped to (−π, π]).
  public func groupDelay(atFrequency frequency: Double, sampleRate: Double) -> Double {
    let step = 0.01
    var difference =
      phase(atFrequency: frequency + step, sampleRate: sampleRate)
      - phase(atFrequency: frequency - step, sampleRate: sampleRate)
    while difference > Double.pi { difference -= 2 * Double.pi }
    while difference < -Double.pi { difference += 2 * Double.pi }
    return -difference / (2 * Double.pi * 2 * step / sampleRate)
  }
}
