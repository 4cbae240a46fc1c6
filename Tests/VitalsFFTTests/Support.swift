import VitalsTestSupport
import Foundation
import VitalsFFT

/// `count` values uniform in [-1, 1) from `seed`.
func randomSignal(count: Int, seed: UInt64) -> [Double] {
  var rng = SplitMix64(state: seed)
  return (0..<count).map { _ in Double.random(in: -1..<1, using: &rng) }
}

/// The textbook DFT in `Double`, `X[k] = Σ x[j]·exp(sign·2πi·jk/n)` for `k` in `0 ..< bins`, with an
/// exact twiddle table indexed by `jk mod n`: the reference every FFT path is checked against.
func naiveDFT(real: [Double], imaginary: [Double], bins: Int, sign: Double) -> (
  real: [Double], imaginary: [Double]
) {
  let n = real.count
  let cosines = (0..<n).map { cos(2 * Double.pi * Double($0) / Double(n)) }
  let sines = (0..<n).map { sign * sin(2 * Double.pi * Double($0) / Double(n)) }
  var outReal = [Double](repeating: 0, count: bins)
  var outImaginary = [Double](repeating: 0, count: bins)
  for k in 0..<bins {
    var (re, im) = (0.0, 0.0)
    for j in 0..<n {
      let t = (j * k) % n
      re += real[j] * cosines[t] - imaginary[j] * sines[t]
      im += real[j] * sines[t] + imaginary[j] * cosines[t]
    }
    outReal[k] = re
    outImaginary[k] = im
  }
  return (outReal, outImaginary)
}

/// `‖a − b‖₂ / ‖b‖₂` over paired components (0 when both are zero).
func relativeL2Error(_ a: [Double], _ b: [Double]) -> Double {
  precondition(a.count == b.count)
  var difference = 0.0
  var norm = 0.0
  for (x, y) in zip(a, b) {
    difference += (x - y) * (x - y)
    norm += y * y
  }
  return norm == 0 ? difference.squareRoot() : (difference / norm).squareRoot()
}

/// Interleaves complex bins as [re0, im0, re1, im1, …] in `Double`.
func flatten<Scalar>(_ bins: [FFTComplex<Scalar>]) -> [Double] {
  bins.flatMap { [Double($0.real), Double($0.imaginary)] }
}
