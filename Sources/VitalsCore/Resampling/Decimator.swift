/// Causal, stateful decimation of one channel by an integer factor `M`: an anti-alias FIR low-pass, then
/// every `M`-th filtered sample, starting with the first: `y[j] = Σₖ h[k]·x[j·M − k]`.
///
/// Equal to `scipy.signal.decimate(x, M, ftype='fir', zero_phase=False)` (`lfilter(h, 1, x)[::M]`) with its
/// default filter `h = firwin(20·M + 1, 1/M, window='hamming')`. Only the kept outputs are computed.
/// Output `j` belongs to input sample `j·M`; the filter delays the signal by its group delay of
/// `(taps − 1) / 2` input samples (`10·M`, i.e. 10 output samples, for the default design). Feeding a
/// signal in chunks of any size gives bit-for-bit the same output as feeding it at once.
public struct Decimator: Sendable {
  @usableFromInline var core: _PolyphaseFIRCore

  /// Input samples per output sample.
  public let factor: Int

  /// Decimation by `factor` (≥ 1) with SciPy's default anti-alias filter, a 20·`factor` + 1-tap Hamming
  /// window design with cutoff at the new Nyquist frequency (`scipy.signal.decimate`).
  public init(factor: Int) {
    precondition(factor >= 1, "the decimation factor must be at least 1, got \(factor)")
    let taps =
      factor == 1
      ? [1]
      : FIRDesign.firwin(tapCount: 20 * factor + 1, cutoff: [1 / Double(factor)], pass: .lowpass)
    self.init(factor: factor, coefficients: taps)
  }

  /// Decimation by `factor` (≥ 1) after the anti-alias filter `coefficients` (`y[n] = Σ h[k]·x[n − k]`
  /// order), rounded to `Float`.
  public init(factor: Int, coefficients: [Double]) {
    precondition(factor >= 1, "the decimation factor must be at least 1, got \(factor)")
    self.factor = factor
    self.core = _PolyphaseFIRCore(taps: coefficients.map { Float($0) }, up: 1, down: factor, offset: 0)
  }

  /// The largest number of outputs `count` more inputs can produce: `⌊count / factor⌋ + 1`, 0 for no input.
  @inlinable
  public func maximumOutputCount(forInputCount count: Int) -> Int {
    _PolyphaseFIRCore.maximumOutputCount(forInputCount: count, up: 1, down: factor)
  }

  /// Consumes `input`, writes the outputs it completes to the start of `output` and returns their number.
  /// - Precondition: `output` holds at least ``maximumOutputCount(forInputCount:)`` samples.
  @inlinable
  public mutating func process(
    _ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) -> Int {
    core.process(input, intoBuffer: output)
  }

  /// The outputs `input` completes, carrying the state on.
  public mutating func processed(_ input: [Float]) -> [Float] {
    collectOutputs(of: input, capacity: maximumOutputCount(forInputCount: input.count)) {
      process($0, into: $1)
    }
  }

  /// Forgets every past input: the next sample is treated as the first of a new signal (and is kept).
  public mutating func reset() {
    core.reset()
  }
}
