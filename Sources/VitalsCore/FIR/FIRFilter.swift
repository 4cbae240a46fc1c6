/// A causal FIR filter on one channel of `Float` samples, with its state carried between calls:
/// `y[n] = Σₖ h[k]·x[n − k]`, inputs before the first being zero (`scipy.signal.lfilter(h, 1, x)`).
///
/// Feeding a signal in chunks of any size gives bit-for-bit the same output as feeding it at once. The
/// filter's delay is its group delay: `(taps − 1) / 2` samples for a symmetric (linear-phase) design.
/// Outputs are computed 16 at a time in `SIMD8<Float>` lanes (each tap broadcast against consecutive
/// inputs); every output sums its products in tap order, wherever it falls in a chunk. A NaN or infinite input makes the `taps` outputs that
/// include it NaN or infinite, and no others.
public struct FIRFilter: Sendable {
  @usableFromInline var core: _PolyphaseFIRCore

  /// The impulse response `h`, in `y[n] = Σ h[k]·x[n − k]` order, as given.
  public let coefficients: [Float]

  /// A filter with impulse response `coefficients` (at least one), e.g. from ``FIRDesign/firwin(tapCount:cutoff:pass:window:scale:sampleRate:)``.
  public init(coefficients: [Float]) {
    self.coefficients = coefficients
    self.core = _PolyphaseFIRCore(taps: coefficients, up: 1, down: 1, offset: 0)
  }

  /// A filter with `Double` coefficients (as designed), rounded to `Float`.
  public init(coefficients: [Double]) {
    self.init(coefficients: coefficients.map { Float($0) })
  }

  /// Filters `input` into `output` (the same count), carrying the state on. `output` may be the memory of
  /// `input` (in-place filtering).
  @inlinable
  public mutating func process(
    _ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(
      output.count == input.count, "output holds \(output.count) samples for \(input.count) inputs")
    guard let destination = output.baseAddress else { return }
    _ = core.process(input, into: destination)
  }

  /// Filters `samples` in place, carrying the state on.
  @inlinable
  public mutating func process(_ samples: inout [Float]) {
    samples.withUnsafeMutableBufferPointer { buffer in
      process(UnsafeBufferPointer(buffer), into: buffer)
    }
  }

  /// The filtered `input`, carrying the state on.
  @inlinable
  public mutating func processed(_ input: [Float]) -> [Float] {
    var output = input
    process(&output)
    return output
  }

  /// Forgets every past input: the next sample is treated as the first of a new signal.
  public mutating func reset() {
    core.reset()
  }
}

/// A differentiating FIR formula, scaled by the sample rate so that its output is in input units per
/// second; the output lags the true derivative by ``delay`` samples.
public enum DerivativeFormula: Sendable, Hashable {
  /// The five-point derivative of the Pan–Tompkins QRS detector, `H(z) = (−z⁻² − 2z⁻¹ + 2z + z²)·fs / 8`
  /// made causal: `y[n] = (x[n] + 2x[n−1] − 2x[n−3] − x[n−4])·fs / 8`, delay 2 samples; unit gain on a
  /// ramp and close to an ideal differentiator up to about 30 Hz at 200 Hz sampling, damping the noise
  /// above. (The form `2x[n] + x[n−1] − x[n−3] − 2x[n−4]`, often quoted, is a misprint with gain 1.25.)
  /// J. Pan and W. J. Tompkins, "A real-time QRS detection algorithm", IEEE Trans. Biomed. Eng.
  /// 32(3):230–236 (1985).
  case panTompkins
  /// The central difference `y[n] = (x[n] − x[n−2])·fs / 2`, delay 1 sample; exact for quadratics.
  case centralDifference

  /// The impulse response in input units per second per sample, for `sampleRate` Hz.
  public func coefficients(sampleRate: Double) -> [Float] {
    precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive and finite")
    switch self {
    case .panTompkins: return [1, 2, 0, -2, -1].map { Float($0 * sampleRate / 8) }
    case .centralDifference: return [1, 0, -1].map { Float($0 * sampleRate / 2) }
    }
  }

  /// Samples by which the output lags: the derivative at input sample `n − delay` comes out at `n`.
  public var delay: Int {
    switch self {
    case .panTompkins: 2
    case .centralDifference: 1
    }
  }
}

extension FIRFilter {
  /// A differentiator: output in input units per second, lagging by `formula.delay` samples.
  public init(derivative formula: DerivativeFormula, sampleRate: Double) {
    self.init(coefficients: formula.coefficients(sampleRate: sampleRate))
  }
}
