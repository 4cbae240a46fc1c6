/// Rational resampling of one channel by `up / down` with a polyphase FIR filter, streaming, equal to
/// `scipy.signal.resample_poly(x, up, down)` (default `window=('kaiser', 5.0)`, `padtype='constant'`) to
/// 1e-5 for signals of unit scale.
///
/// The factors are reduced by their greatest common divisor. The anti-alias/anti-image filter is SciPy's:
/// `h = up · firwin(2·half + 1, 1 / max(up, down), window)` with `half = 10·max(up, down)`, centered on each
/// output, so output `k` lies at input time `k·down / up` (zero phase; at `startTime + k / outputRate`):
/// `y[k] = Σₙ x[n]·h[k·down + half − n·up]`, inputs outside the signal being zero. A signal of `n` samples
/// gives `⌈n·up / down⌉` outputs. Reference: R. E. Crochiere and L. R. Rabiner, *Multirate Digital Signal
/// Processing* (1983), §3.3 (polyphase structures).
///
/// **Streaming.** ``process(_:into:)`` emits output `k` as soon as input `⌊(k·down + half) / up⌋` has
/// arrived, so the stream lags the input by ``delay`` = `half / up` input samples (360 → 250 Hz:
/// 14.4 samples, 40 ms); ``finish(into:)`` ends the signal, emitting the remaining outputs with zeros past
/// the end. The outputs of any sequence of chunks followed by `finish` are bit-for-bit the outputs of the
/// whole signal at once (``resample(_:up:down:window:)``). A NaN or infinite input spoils the outputs within
/// one filter length of it.
public struct PolyphaseResampler: Sendable {
  @usableFromInline var core: _PolyphaseFIRCore

  /// Upsampling factor, reduced by the greatest common divisor.
  public let up: Int
  /// Downsampling factor, reduced by the greatest common divisor.
  public let down: Int
  /// Input samples consumed since the start of the signal.
  public private(set) var inputCount: Int = 0
  /// Outputs written since the start of the signal.
  public private(set) var outputCount: Int = 0
  /// Taps by which each output is centered in the filter (`half`).
  @usableFromInline let center: Int

  /// A resampler by `up / down` (both ≥ 1) with SciPy's default design, the window `window` (Kaiser β = 5
  /// unless told) over `20·max(up, down) + 1` taps with cutoff `1 / max(up, down)` of Nyquist.
  public init(up: Int, down: Int, window: FIRWindow = .kaiser(beta: 5)) {
    precondition(up >= 1 && down >= 1, "rate factors must be at least 1, got up \(up), down \(down)")
    let divisor = Self.greatestCommonDivisor(up, down)
    let (up, down) = (up / divisor, down / divisor)
    let maxRate = max(up, down)
    let taps =
      up == down
      ? [1]
      : FIRDesign.firwin(
        tapCount: 20 * maxRate + 1, cutoff: [1 / Double(maxRate)], pass: .lowpass, window: window)
    self.init(reducedUp: up, down: down, taps: taps)
  }

  /// A resampler by `up / down` with the filter `coefficients`, designed for the input rate times the
  /// reduced `up` and centered on its middle tap (`scipy.signal.resample_poly(..., window=coefficients)`:
  /// an odd, symmetric filter gives zero phase). The coefficients are multiplied by the reduced `up`.
  public init(up: Int, down: Int, coefficients: [Double]) {
    precondition(up >= 1 && down >= 1, "rate factors must be at least 1, got up \(up), down \(down)")
    let divisor = Self.greatestCommonDivisor(up, down)
    self.init(reducedUp: up / divisor, down: down / divisor, taps: coefficients)
  }

  private init(reducedUp up: Int, down: Int, taps: [Double]) {
    precondition(!taps.isEmpty, "a filter has at least one tap")
    self.up = up
    self.down = down
    self.center = (taps.count - 1) / 2
    self.core = _PolyphaseFIRCore(
      taps: taps.map { Float($0 * Double(up)) }, up: up, down: down, offset: center)
  }

  /// Input samples by which the stream lags: output `k`, at input time `k·down / up`, is emitted once the
  /// input at time `k·down / up + delay` has arrived (rounded down to a sample).
  public var delay: Double { Double(center) / Double(up) }

  /// The largest number of outputs `count` more inputs can produce: `⌊count·up / down⌋ + 1`, 0 for no input.
  @inlinable
  public func maximumOutputCount(forInputCount count: Int) -> Int {
    _PolyphaseFIRCore.maximumOutputCount(forInputCount: count, up: up, down: down)
  }

  /// The outputs ``finish(into:)`` will write: `⌈inputCount·up / down⌉ − outputCount`.
  public var pendingOutputCount: Int {
    (inputCount * up + down - 1) / down - outputCount
  }

  /// Consumes `input`, writes the outputs it completes to the start of `output` and returns their number.
  /// - Precondition: `output` holds at least ``maximumOutputCount(forInputCount:)`` samples.
  public mutating func process(
    _ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) -> Int {
    let count = core.process(input, intoBuffer: output)
    inputCount += input.count
    outputCount += count
    return count
  }

  /// Ends the signal: writes the ``pendingOutputCount`` remaining outputs (zeros taken past the end) to the
  /// start of `output`, returns their number, and resets the resampler for a new signal.
  /// - Precondition: `output` holds at least ``pendingOutputCount`` samples.
  public mutating func finish(into output: UnsafeMutableBufferPointer<Float>) -> Int {
    let pending = pendingOutputCount
    precondition(output.count >= pending, "output holds \(output.count) samples; \(pending) are pending")
    var written = 0
    withUnsafeTemporaryAllocation(of: Float.self, capacity: 256) { zeros in
      zeros.initialize(repeating: 0)
      while written < pending {
        written += core.process(
          UnsafeBufferPointer(zeros), into: output.baseAddress! + written, limit: pending - written)
      }
    }
    reset()
    return written
  }

  /// The outputs `input` completes, carrying the state on.
  public mutating func processed(_ input: [Float]) -> [Float] {
    collectOutputs(of: input, capacity: maximumOutputCount(forInputCount: input.count)) {
      process($0, into: $1)
    }
  }

  /// The remaining outputs of the signal (see ``finish(into:)``); resets the resampler.
  public mutating func finished() -> [Float] {
    var output = [Float](repeating: 0, count: pendingOutputCount)
    _ = output.withUnsafeMutableBufferPointer { finish(into: $0) }
    return output
  }

  /// Forgets the signal: the next input is treated as the first of a new one.
  public mutating func reset() {
    core.reset()
    inputCount = 0
    outputCount = 0
  }

  /// `signal` resampled by `up / down` at once, as `scipy.signal.resample_poly(signal, up, down)`:
  /// `⌈signal.count·up / down⌉` samples (`signal` itself when the reduced factors are equal).
  public static func resample(
    _ signal: [Float], up: Int, down: Int, window: FIRWindow = .kaiser(beta: 5)
  ) -> [Float] {
    var resampler = PolyphaseResampler(up: up, down: down, window: window)
    return resampler.processed(signal) + resampler.finished()
  }

  private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
    b == 0 ? a : greatestCommonDivisor(b, a % b)
  }
}
