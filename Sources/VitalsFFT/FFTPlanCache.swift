import Synchronization

/// A thread-safe cache of FFTW plans keyed by ``FFTPlan/Key`` (size, kind, precision, alignment):
/// plan once, execute many times from any thread.
///
/// A lookup takes the cache's lock; a miss also plans under the global planner lock, so plans are
/// created one at a time however many tasks ask for them. Hold on to the ``RealFFT`` a cache returns
/// in hot loops: running it takes no lock at all.
///
/// Planning rigor is a property of the cache: ``shared`` uses ``FFTPlan/Rigor/estimate`` (cheap
/// planning, reproducible results); make a cache with ``FFTPlan/Rigor/measure`` for long-running
/// jobs that run one size millions of times. Vitals does not import or export FFTW wisdom.
///
/// A cache keeps every plan unless it has a ``capacity``; then, once full, it drops the plan used
/// least recently to make room (a plan is destroyed once no ``RealFFT`` uses it any more). Sizes that
/// follow the data, such as a record's length, belong in a cache with a capacity: one without would
/// keep a plan, twiddle tables included, for every size a batch meets.
public final class FFTPlanCache: Sendable {
  /// The cache the library's spectral estimators use by default (rigor `.estimate`, no capacity).
  public static let shared = FFTPlanCache(rigor: .estimate)

  /// The planner rigor of every plan this cache creates.
  public let rigor: FFTPlan.Rigor
  /// The most plans the cache keeps; nil: no limit.
  public let capacity: Int?
  private let state = Mutex(State())

  /// The plans and, for each, the count of lookups when it was last used.
  private struct State: ~Copyable {
    var plans: [FFTPlan.Key: (plan: FFTPlan, lastUse: Int)] = [:]
    var lookups = 0
  }

  /// An empty cache whose plans are made with `rigor`, keeping at most `capacity` (≥ 1) of them, or
  /// every one without a capacity.
  public init(rigor: FFTPlan.Rigor, capacity: Int? = nil) {
    precondition(capacity.map { $0 >= 1 } ?? true, "a cache with a capacity keeps at least one plan")
    self.rigor = rigor
    self.capacity = capacity
  }

  /// The cached plan for `key`, planned now when absent.
  public func plan(_ key: FFTPlan.Key) throws(FFTError) -> FFTPlan {
    try state.withLock { (state) throws(FFTError) -> FFTPlan in
      state.lookups += 1
      if let plan = state.plans[key]?.plan {
        state.plans[key]!.lastUse = state.lookups
        return plan
      }
      let plan = try FFTPlan(key, rigor: rigor)
      if let capacity, state.plans.count >= capacity,
        let oldest = state.plans.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
      {
        state.plans[oldest] = nil
      }
      state.plans[key] = (plan, state.lookups)
      return plan
    }
  }

  /// The real forward and inverse transforms of `count` points in `Scalar`'s precision.
  public func realFFT<Scalar: FFTScalar>(_: Scalar.Type = Scalar.self, count: Int) throws(FFTError)
    -> RealFFT<Scalar>
  {
    try RealFFT(count: count, cache: self)
  }

  /// Whether the cache holds a plan for `key`.
  package func holdsPlan(for key: FFTPlan.Key) -> Bool { state.withLock { $0.plans[key] != nil } }

  /// How many plans the cache holds.
  public var count: Int { state.withLock { $0.plans.count } }

  /// Drops the cache's references; each plan is destroyed once no ``RealFFT`` uses it any more.
  public func removeAll() {
    state.withLock { $0.plans.removeAll() }
  }
}
