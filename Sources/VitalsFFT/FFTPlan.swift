import CFFTW
import Synchronization

/// One FFTW plan, owned by exactly one Swift object that destroys it in `deinit`.
///
/// Thread safety: a plan is immutable after creation and FFTW's new-array execute functions
/// (`fftw_execute_dft_r2c` and relatives) are the only FFTW calls documented as thread-safe, so one
/// plan may run concurrently on any number of threads, each with its own buffers. Creating and
/// destroying plans touch FFTW's global planner state, which is not thread-safe; both happen only
/// while holding `FFTPlan.plannerLock`. Vitals never calls `fftw_cleanup`, so plans stay valid for
/// as long as a Swift reference to them lives.
///
/// Alignment: FFTW chooses SIMD kernels from the alignment of the arrays it plans with. Aligned
/// plans are made on buffers from `fftw_alloc_real` / `fftwf_alloc_real` and may only run on buffers
/// with the same alignment, i.e. `fftw_alignment_of(pointer) == 0` (16 bytes with this machine's
/// SSE2/AVX build of FFTW 3.3.10; Swift arrays and `UnsafeMutableBufferPointer.allocate` meet it).
/// ``RealFFT`` checks the alignment of every call and runs misaligned buffers through a second,
/// `FFTW_UNALIGNED` plan instead of reading them wrongly.
public final class FFTPlan: @unchecked Sendable {
  // @unchecked: the only stored state is immutable, and the C plan is used only through FFTW's
  // thread-safe execute functions (creation and destruction happen under `plannerLock`).

  /// The transforms the cache plans.
  public enum Kind: Sendable, Hashable, CustomStringConvertible {
    /// Real input of `size` values to `size / 2 + 1` complex bins (`fftw_plan_dft_r2c_1d`).
    case realForward
    /// `size / 2 + 1` Hermitian bins to `size` real values (`fftw_plan_dft_c2r_1d`).
    case realInverse

    /// "real forward" or "real inverse".
    public var description: String {
      switch self {
      case .realForward: "real forward"
      case .realInverse: "real inverse"
      }
    }
  }

  /// What a plan is cached by: transform size, kind, precision, and whether it requires FFTW-aligned
  /// buffers (`aligned`) or accepts any alignment (planned with `FFTW_UNALIGNED`).
  public struct Key: Sendable, Hashable {
    /// The transform length `n` (real points), ≥ 1.
    public var size: Int
    /// Forward (r2c) or inverse (c2r).
    public var kind: Kind
    /// `fftwf_*` (single) or `fftw_*` (double).
    public var precision: FFTPrecision
    /// Whether the plan requires FFTW-aligned buffers (`true`, faster SIMD kernels) or accepts any
    /// alignment (`false`, planned with `FFTW_UNALIGNED`).
    public var aligned: Bool

    /// A key; plans are aligned unless stated otherwise.
    public init(size: Int, kind: Kind, precision: FFTPrecision, aligned: Bool = true) {
      self.size = size
      self.kind = kind
      self.precision = precision
      self.aligned = aligned
    }
  }

  /// How hard FFTW's planner searches for a fast algorithm (FFTW manual §4.3.2, "Planner Flags").
  public enum Rigor: Sendable, Hashable {
    /// `FFTW_ESTIMATE`: picks an algorithm from heuristics in microseconds, without running
    /// anything. The same plan (hence bit-identical results) on every run of a given FFTW build.
    case estimate
    /// `FFTW_MEASURE`: times candidate algorithms while planning (milliseconds to a second per
    /// size, longer for large primes), usually executing faster; the chosen algorithm, and so the
    /// last bits of results, may differ between runs.
    case measure

    var flags: UInt32 {
      switch self {
      case .estimate: UInt32(FFTW_ESTIMATE)
      case .measure: UInt32(FFTW_MEASURE)
      }
    }
  }

  /// Serializes every call into FFTW's planner (plan creation and destruction), for all caches.
  static let plannerLock = Mutex(())

  /// What the plan transforms.
  public let key: Key
  /// The planner rigor it was made with.
  public let rigor: Rigor
  let pointer: OpaquePointer

  /// Plans `key` under the planner lock. Planning uses scratch arrays from `fftw_alloc_*` (which
  /// `FFTW_MEASURE` overwrites) and frees them afterwards: the plan is only ever run through the
  /// new-array execute functions, which never touch the planning arrays.
  init(_ key: Key, rigor: Rigor) throws(FFTError) {
    precondition(key.size >= 1, "FFT size must be at least 1, got \(key.size)")
    let n = Int32(clamping: key.size)
    guard Int(n) == key.size else {
      throw .planningFailed(size: key.size, kind: key.kind, precision: key.precision)
    }
    // Out-of-place plans; c2r keeps its input intact (FFTW_PRESERVE_INPUT, supported for 1-d).
    var flags = rigor.flags
    if !key.aligned { flags |= UInt32(FFTW_UNALIGNED) }
    if key.kind == .realInverse { flags |= UInt32(FFTW_PRESERVE_INPUT) }
    let bins = key.size / 2 + 1

    let plan: OpaquePointer? = Self.plannerLock.withLock { _ in
      switch key.precision {
      case .single:
        guard let real = fftwf_alloc_real(key.size), let complex = fftwf_alloc_complex(bins) else {
          return nil
        }
        defer {
          fftwf_free(real)
          fftwf_free(complex)
        }
        switch key.kind {
        case .realForward: return fftwf_plan_dft_r2c_1d(n, real, complex, flags)
        case .realInverse: return fftwf_plan_dft_c2r_1d(n, complex, real, flags)
        }
      case .double:
        guard let real = fftw_alloc_real(key.size), let complex = fftw_alloc_complex(bins) else {
          return nil
        }
        defer {
          fftw_free(real)
          fftw_free(complex)
        }
        switch key.kind {
        case .realForward: return fftw_plan_dft_r2c_1d(n, real, complex, flags)
        case .realInverse: return fftw_plan_dft_c2r_1d(n, complex, real, flags)
        }
      }
    }
    guard let plan else { throw .planningFailed(size: key.size, kind: key.kind, precision: key.precision) }
    self.key = key
    self.rigor = rigor
    self.pointer = plan
  }

  deinit {
    let pointer = self.pointer
    let precision = key.precision
    Self.plannerLock.withLock { _ in
      switch precision {
      case .single: fftwf_destroy_plan(pointer)
      case .double: fftw_destroy_plan(pointer)
      }
    }
  }

  /// Whether `pointer` has the alignment FFTW's aligned plans were made with.
  private func isAligned(_ pointer: UnsafeRawPointer) -> Bool {
    let mutable = UnsafeMutableRawPointer(mutating: pointer)
    switch key.precision {
    case .single: return fftwf_alignment_of(mutable.assumingMemoryBound(to: Float.self)) == 0
    case .double: return fftw_alignment_of(mutable.assumingMemoryBound(to: Double.self)) == 0
    }
  }

  /// `self` when both buffers have FFTW's alignment or the plan is unaligned already; otherwise the
  /// `FFTW_UNALIGNED` plan of the same key from `cache`.
  private func plan(for a: UnsafeRawPointer, _ b: UnsafeRawPointer, cache: FFTPlanCache) throws(FFTError)
    -> FFTPlan
  {
    if !key.aligned || (isAligned(a) && isAligned(b)) { return self }
    var unaligned = key
    unaligned.aligned = false
    return try cache.plan(unaligned)
  }

  /// Runs this real forward plan (or its unaligned twin from `cache` for misaligned buffers):
  /// `input` holds `size` scalars, `output` `size / 2 + 1` complex pairs; they must not overlap.
  /// Thread-safe.
  @usableFromInline
  func executeForward(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, cache: FFTPlanCache)
    throws(FFTError)
  {
    precondition(key.kind == .realForward, "not a real forward plan")
    let plan = try plan(for: input, output, cache: cache).pointer
    let input = UnsafeMutableRawPointer(mutating: input)  // r2c only reads its input
    switch key.precision {
    case .single:
      fftwf_execute_dft_r2c(
        plan, input.assumingMemoryBound(to: Float.self), output.assumingMemoryBound(to: fftwf_complex.self))
    case .double:
      fftw_execute_dft_r2c(
        plan, input.assumingMemoryBound(to: Double.self), output.assumingMemoryBound(to: fftw_complex.self))
    }
  }

  /// Runs this real inverse plan (or its unaligned twin): `input` holds `size / 2 + 1` complex
  /// pairs (left intact: the plan preserves its input), `output` `size` scalars. Thread-safe.
  @usableFromInline
  func executeInverse(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, cache: FFTPlanCache)
    throws(FFTError)
  {
    precondition(key.kind == .realInverse, "not a real inverse plan")
    let plan = try plan(for: input, output, cache: cache).pointer
    let input = UnsafeMutableRawPointer(mutating: input)
    switch key.precision {
    case .single:
      fftwf_execute_dft_c2r(
        plan, input.assumingMemoryBound(to: fftwf_complex.self), output.assumingMemoryBound(to: Float.self))
    case .double:
      fftw_execute_dft_c2r(
        plan, input.assumingMemoryBound(to: fftw_complex.self), output.assumingMemoryBound(to: Double.self))
    }
  }
}
