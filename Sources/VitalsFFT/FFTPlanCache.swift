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
public final class FFTPlanCache: Sendable {
  /// The cache the library's spectral estimators use by default (rigor `.estimate`).
  public static let shared = FFTPlanCache(rigor: .estimate)

  /// The planner rigor of every plan this cache creates.
  public let rigor: FFTPlan.Rigor
  private let plans = Mutex<[FFTPlan.Key: FFTPlan]>([:])

  /// An empty cache whose plans are made with `rigor`.
  public init(rigor: FFTPlan.Rigor) {
    self.rigor = rigor
  }

  /// The cached plan for `key`, planned now when absent.
  public func plan(_ key: FFTPlan.Key) throws(FFTError) -> FFTPlan {
    try plans.withLock { (plans) throws(FFTError) -> FFTPlan in
      if let plan = plans[key] { return plan }
      let plan = try FFTPlan(key, rigor: rigor)
      plans[key] = plan
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
  package func holdsPlan(for key: FFTPlan.Key) -> Bool { plans.withLock { $0[key] != nil } }

  /// How many plans the cache holds.
  public var count: Int { plans.withLock { $0.count } }

  /// Drops the cache's references; each plan is destroyed once no ``RealFFT`` uses it any more.
  public func removeAll() {
    plans.withLock { $0.removeAll() }
  }
}
