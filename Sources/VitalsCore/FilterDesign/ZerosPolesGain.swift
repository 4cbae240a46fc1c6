import ComplexModule
import RealModule

/// A transfer function as its zeros, poles and gain: `H(s) = k·∏(s − zᵢ)/∏(s − pᵢ)` (analog) or the same
/// in `z` (digital). The steps below are SciPy's (`buttap`, `lp2lp_zpk`, `lp2hp_zpk`, `lp2bp_zpk`,
/// `lp2bs_zpk`, `bilinear_zpk`, `scipy.signal` 1.17), written in the same order of operations so that the
/// designs agree with SciPy's to rounding.
struct ZerosPolesGain {
  var zeros: [Complex<Double>]
  var poles: [Complex<Double>]
  var gain: Double

  /// Poles minus zeros: the zeros at infinity.
  var relativeDegree: Int {
    precondition(poles.count >= zeros.count, "an improper transfer function has more zeros than poles")
    return poles.count - zeros.count
  }

  /// The analog Butterworth low-pass prototype of `order` with a cutoff of 1 rad/s (`scipy.signal.buttap`):
  /// no zeros, poles `−exp(iπm/(2N))` for `m = −N+1, −N+3, …, N−1`, gain 1.
  static func butterworthPrototype(order: Int) -> ZerosPolesGain {
    let poles = stride(from: -order + 1, to: order, by: 2).map { m in
      -Complex(length: 1, phase: Double.pi * Double(m) / Double(2 * order))
    }
    return ZerosPolesGain(zeros: [], poles: poles, gain: 1)
  }

  /// Low-pass to low-pass with cutoff `cutoff` rad/s (`lp2lp_zpk`).
  func lowpassToLowpass(cutoff: Double) -> ZerosPolesGain {
    ZerosPolesGain(
      zeros: zeros.map { $0.multiplied(by: cutoff) }, poles: poles.map { $0.multiplied(by: cutoff) },
      gain: gain * Double.pow(cutoff, relativeDegree))
  }

  /// Low-pass to high-pass with cutoff `cutoff` rad/s (`lp2hp_zpk`); zeros at infinity move to the origin.
  func lowpassToHighpass(cutoff: Double) -> ZerosPolesGain {
    let scale = Complex(cutoff)
    return ZerosPolesGain(
      zeros: zeros.map { scale / $0 } + Array(repeating: Complex(0), count: relativeDegree),
      poles: poles.map { scale / $0 },
      gain: gain * (product(zeros.map { -$0 }) / product(poles.map { -$0 })).real)
  }

  /// Low-pass to band-pass centered on `center` rad/s with bandwidth `bandwidth` rad/s (`lp2bp_zpk`).
  func lowpassToBandpass(center: Double, bandwidth: Double) -> ZerosPolesGain {
    let degree = relativeDegree
    func shift(_ roots: [Complex<Double>]) -> [Complex<Double>] {
      let scaled = roots.map { $0.multiplied(by: bandwidth / 2) }
      let offsets = scaled.map { Complex.sqrt($0 * $0 - Complex(center * center)) }
      return zip(scaled, offsets).map { $0 + $1 } + zip(scaled, offsets).map { $0 - $1 }
    }
    return ZerosPolesGain(
      zeros: shift(zeros) + Array(repeating: Complex(0), count: degree), poles: shift(poles),
      gain: gain * Double.pow(bandwidth, degree))
  }

  /// Low-pass to band-stop centered on `center` rad/s with bandwidth `bandwidth` rad/s (`lp2bs_zpk`); zeros at
  /// infinity move to `±i·center`.
  func lowpassToBandstop(center: Double, bandwidth: Double) -> ZerosPolesGain {
    let degree = relativeDegree
    func shift(_ roots: [Complex<Double>]) -> [Complex<Double>] {
      let inverted = roots.map { Complex(bandwidth / 2) / $0 }
      let offsets = inverted.map { Complex.sqrt($0 * $0 - Complex(center * center)) }
      return zip(inverted, offsets).map { $0 + $1 } + zip(inverted, offsets).map { $0 - $1 }
    }
    return ZerosPolesGain(
      zeros: shift(zeros) + Array(repeating: Complex(0, center), count: degree)
        + Array(repeating: Complex(0, -center), count: degree),
      poles: shift(poles),
      gain: gain * (product(zeros.map { -$0 }) / product(poles.map { -$0 })).real)
  }

  /// The digital equivalent by the bilinear transform `s = 2·fs·(z − 1)/(z + 1)` (`bilinear_zpk`); zeros at
  /// infinity move to Nyquist (`z = −1`).
  func bilinear(sampleRate: Double) -> ZerosPolesGain {
    let twice = Complex(2 * sampleRate)
    return ZerosPolesGain(
      zeros: zeros.map { (twice + $0) / (twice - $0) }
        + Array(repeating: Complex(-1), count: relativeDegree),
      poles: poles.map { (twice + $0) / (twice - $0) },
      gain: gain
        * (product(zeros.map { twice - $0 }) / product(poles.map { twice - $0 }))
        .real)
  }
}

/// The product of `values` multiplied from the first on, as `numpy.prod` does (1 when empty).
private func product(_ values: [Complex<Double>]) -> Complex<Double> { values.reduce(.one, *) }
