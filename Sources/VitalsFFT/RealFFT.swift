/// The discrete Fourier transform of `count` real values, forward and inverse, run by FFTW
/// (Frigo & Johnson 2005, "The Design and Implementation of FFTW3") through cached plans.
///
/// Conventions (FFTW's, unnormalized, as `numpy.fft.rfft` / `irfft` without their `1/n`):
/// - forward: `X[k] = Σ_{j=0}^{n-1} x[j]·exp(-2πi·jk/n)` for `k = 0 … n/2` — `n / 2 + 1` bins
///   (``binCount``), bin `k` at frequency `k·fs/n`; bin 0 is real, and so is bin `n/2` for even `n`.
/// - inverse: `y[j] = Σ_{k=0}^{n-1} X[k]·exp(+2πi·jk/n)` with the missing bins taken as the complex
///   conjugates of the given ones (Hermitian symmetry), so `inverse(forward(x)) == n·x`; divide by
///   ``count`` to recover `x`. The imaginary parts of bin 0 and, for even `n`, bin `n/2` are ignored.
///
/// NaN or infinite inputs propagate into every output (FFTW does not check).
///
/// Every entry point checks buffer lengths and throws ``FFTError/lengthMismatch(buffer:expected:actual:)``.
/// Buffers with FFTW's alignment (see ``FFTPlan``) run through the aligned plan; others through a
/// second plan made with `FFTW_UNALIGNED`, fetched from the cache on each such call.
///
/// A `RealFFT` is a value holding its plans: cheap to copy, `Sendable`, and usable from any number of
/// tasks at once. Users that only transform forward (Welch, Lomb–Scargle) plan ``Directions/forwardOnly``
/// and skip the inverse plan's cost.
public struct RealFFT<Scalar: FFTScalar>: Sendable {
  /// The number of real points `n`.
  public let count: Int
  @usableFromInline let forwardPlan: FFTPlan
  /// `nil` for a ``Directions/forwardOnly`` transform.
  @usableFromInline let inversePlan: FFTPlan?
  @usableFromInline let cache: FFTPlanCache

  /// Which transforms to plan.
  public enum Directions: Sendable {
    case forwardAndInverse
    /// Forward only: ``inverse(_:into:)`` then traps.
    case forwardOnly
  }

  /// The transforms of `count` real points, planned (or found) in `cache`. `count` must be ≥ 1.
  public init(count: Int, directions: Directions = .forwardAndInverse, cache: FFTPlanCache = .shared)
    throws(FFTError)
  {
    precondition(count >= 1, "FFT size must be at least 1, got \(count)")
    let precision = Scalar.fftPrecision
    self.count = count
    self.cache = cache
    forwardPlan = try cache.plan(FFTPlan.Key(size: count, kind: .realForward, precision: precision))
    inversePlan =
      directions == .forwardOnly
      ? nil : try cache.plan(FFTPlan.Key(size: count, kind: .realInverse, precision: precision))
  }

  /// The number of complex bins of the half spectrum, `count / 2 + 1`.
  @inlinable
  public var binCount: Int { count / 2 + 1 }

  /// Forward transform of `input` (``count`` values) into `output` (``binCount`` bins), without
  /// allocating. The buffers must not overlap. Thread-safe.
  @inlinable
  public func forward(
    _ input: UnsafeBufferPointer<Scalar>, into output: UnsafeMutableBufferPointer<FFTComplex<Scalar>>
  ) throws(FFTError) {
    guard input.count == count else {
      throw .lengthMismatch(buffer: "input", expected: count, actual: input.count)
    }
    guard output.count == binCount else {
      throw .lengthMismatch(buffer: "output", expected: binCount, actual: output.count)
    }
    let source = UnsafeRawPointer(input.baseAddress!)
    let destination = UnsafeMutableRawPointer(output.baseAddress!)
    try forwardPlan.executeForward(source, destination, cache: cache)
  }

  /// Inverse transform of the half spectrum `input` (``binCount`` bins, left unchanged) into
  /// `output` (``count`` values, `n` times the signal: see the type's conventions), without
  /// allocating. The buffers must not overlap. Thread-safe.
  @inlinable
  public func inverse(
    _ input: UnsafeBufferPointer<FFTComplex<Scalar>>, into output: UnsafeMutableBufferPointer<Scalar>
  ) throws(FFTError) {
    guard input.count == binCount else {
      throw .lengthMismatch(buffer: "input", expected: binCount, actual: input.count)
    }
    guard output.count == count else {
      throw .lengthMismatch(buffer: "output", expected: count, actual: output.count)
    }
    guard let inversePlan else { preconditionFailure("inverse of a RealFFT planned forward only") }
    let source = UnsafeRawPointer(input.baseAddress!)
    let destination = UnsafeMutableRawPointer(output.baseAddress!)
    try inversePlan.executeInverse(source, destination, cache: cache)
  }

  /// Forward transform of `input` (``count`` values): a new array of ``binCount`` bins.
  public func forward(_ input: [Scalar]) throws(FFTError) -> [FFTComplex<Scalar>] {
    guard input.count == count else {
      throw .lengthMismatch(buffer: "input", expected: count, actual: input.count)
    }
    return try [FFTComplex<Scalar>](unsafeUninitializedCapacity: binCount) {
      (output, initialized) throws(FFTError) in
      try input.withUnsafeBufferPointer { (input) throws(FFTError) in try forward(input, into: output) }
      initialized = binCount
    }
  }

  /// Inverse transform of the half spectrum `input` (``binCount`` bins): a new array of ``count``
  /// values, `n` times the signal (unnormalized, see the type's conventions).
  public func inverse(_ input: [FFTComplex<Scalar>]) throws(FFTError) -> [Scalar] {
    guard input.count == binCount else {
      throw .lengthMismatch(buffer: "input", expected: binCount, actual: input.count)
    }
    return try [Scalar](unsafeUninitializedCapacity: count) { (output, initialized) throws(FFTError) in
      try input.withUnsafeBufferPointer { (input) throws(FFTError) in try inverse(input, into: output) }
      initialized = count
    }
  }
}
