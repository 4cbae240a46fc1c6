/// A causal IIR filter on one channel: a cascade of second-order sections in direct form II transposed with
/// explicit state, the equivalent of SciPy's `scipy.signal.sosfilt(sos, x, zi=state)` returning `(y, zf)`.
///
/// The state carries over between calls, so filtering a signal in chunks of any sizes gives bit for bit
/// the output of filtering it whole. Samples are `Float`; coefficients and state are `Double`. Double state
/// is what keeps the low-cut filters of biosignal work accurate (a 0.5 Hz high-pass at 1 kHz has poles
/// within 0.3 % of `z = 1`, where the rounding of `Float` state is amplified about 10⁵ times); it costs no
/// speed, since the cascade's throughput is bound by its recurrences, not by the width of its arithmetic.
///
/// NaN or infinite input makes the state non-finite and every later output NaN until ``reset()`` or a new
/// ``state``.
public struct SOSFilter: Sendable {
  /// The filter's sections.
  public let design: SecondOrderSections
  var cascade: LaneCascade<Double>

  /// A filter at rest (zero state).
  public init(_ design: SecondOrderSections) {
    self.design = design
    self.cascade = LaneCascade(design)
  }

  /// A filter in the steady state for a constant input `initialValue` (SciPy's `sosfilt_zi(sos) · x0`): a
  /// signal that starts near `initialValue` is filtered without a start-up transient.
  public init(_ design: SecondOrderSections, steadyStateFor initialValue: Double) {
    self.init(design)
    state = design.steadyStateInitialConditions.map { $0 * initialValue }
  }

  /// The state in SciPy's `zi`/`zf` layout: `[z0, z1]` for each section, first section first.
  public var state: [Double] {
    get { cascade.state(lane: 0) }
    set { cascade.setState(newValue, lane: 0) }
  }

  /// Returns the filter to rest (zero state).
  public mutating func reset() {
    cascade.reset()
  }

  /// Filters `input` into `output` (of the same count) and advances the state. `output` may be the same
  /// memory as `input`.
  public mutating func process(
    _ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(
      input.count == output.count, "input and output counts differ: \(input.count) vs \(output.count)")
    guard let source = input.baseAddress, let destination = output.baseAddress else { return }
    cascade.run(count: input.count, load: { Double(source[$0]) }, store: { destination[$0] = Float($1) })
  }

  /// Filters `input` into `output` in `Double` (used for intermediate results that must not be rounded).
  /// `output` may be the same memory as `input`.
  public mutating func process(
    _ input: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>
  ) {
    precondition(
      input.count == output.count, "input and output counts differ: \(input.count) vs \(output.count)")
    guard let source = input.baseAddress, let destination = output.baseAddress else { return }
    cascade.run(count: input.count, load: { source[$0] }, store: { destination[$0] = $1 })
  }

  /// Filters `samples` in place and advances the state.
  public mutating func process(_ samples: inout [Float]) {
    samples.withUnsafeMutableBufferPointer { buffer in
      process(UnsafeBufferPointer(buffer), into: buffer)
    }
  }

  /// Returns `samples` filtered, advancing the state.
  public mutating func filtered(_ samples: [Float]) -> [Float] {
    var result = samples
    process(&result)
    return result
  }
}
