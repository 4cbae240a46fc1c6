import VitalsSupport

/// SplitMix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number generators"): a 64-bit
/// mixer used to seed ``SimulationRandom`` and to hash integers into independent random values.
///
/// Integer arithmetic only, so every platform gives the same stream for a seed.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
  /// The generator's whole state: the next output is a mix of `state + 0x9E3779B97F4A7C15`.
  public var state: UInt64

  @inlinable
  public init(state: UInt64) { self.state = state }

  @inlinable
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  /// The SplitMix64 finalizer: a bijection of `UInt64` that scrambles every input bit into every
  /// output bit.
  @inlinable
  public static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// The simulator's random number generator: xoshiro256** (Blackman & Vigna 2018, "Scrambled linear
/// pseudorandom number generators"), seeded through ``SplitMix64`` as its authors recommend.
///
/// The integer stream and ``uniform()`` are identical on every platform for a seed (integer arithmetic
/// and an exact conversion). ``gaussian()`` uses the Box–Muller transform (Box & Muller 1958) through
/// the C library's `log`, `sin` and `cos`, which differ between C libraries by at most an ulp or so;
/// runs on one platform are bit-identical.
///
/// Streams: ``init(seed:stream:)`` gives statistically independent generators for one seed, so that
/// each part of a simulation (rhythm, noise, motion…) draws from its own stream and switching one part
/// off leaves the draws of the others unchanged.
public struct SimulationRandom: RandomNumberGenerator, Sendable, Hashable {
  @usableFromInline var s0: UInt64
  @usableFromInline var s1: UInt64
  @usableFromInline var s2: UInt64
  @usableFromInline var s3: UInt64
  /// The second value of the last Box–Muller pair, not yet returned.
  @usableFromInline var spareGaussian: Double?

  /// A generator whose state is four successive outputs of SplitMix64 started at `seed`.
  @inlinable
  public init(seed: UInt64) {
    var seeder = SplitMix64(state: seed)
    s0 = seeder.next()
    s1 = seeder.next()
    s2 = seeder.next()
    s3 = seeder.next()
    spareGaussian = nil
  }

  /// Stream number `stream` of `seed`: seeded from a SplitMix64 hash of both, so that different
  /// `(seed, stream)` pairs start at unrelated points of the xoshiro256** sequence.
  @inlinable
  public init(seed: UInt64, stream: UInt64) {
    self.init(seed: SplitMix64.mix(SplitMix64.mix(seed) ^ (stream &* 0xD1B5_4A32_D192_ED03)))
  }

  @inlinable
  public mutating func next() -> UInt64 {
    let result = rotateLeft(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotateLeft(s3, 45)
    return result
  }

  /// A uniform draw in [0, 1): the top 53 bits of ``next()`` times 2⁻⁵³ (exact on every platform).
  @inlinable
  public mutating func uniform() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// A uniform draw in [`lower`, `upper`).
  @inlinable
  public mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
    lower + (upper - lower) * uniform()
  }

  /// A standard normal draw (mean 0, variance 1) by the Box–Muller transform; each pair of uniforms
  /// gives two normals, the second kept for the next call.
  @inlinable
  public mutating func gaussian() -> Double {
    if let spare = spareGaussian {
      spareGaussian = nil
      return spare
    }
    let u1 = 1 - uniform()  // (0, 1]: the logarithm stays finite
    let angle = 2 * Double.pi * uniform()
    let radius = (-2 * log(u1)).squareRoot()
    spareGaussian = radius * sin(angle)
    return radius * cos(angle)
  }

  /// A draw from the exponential distribution with the given mean (inversion of the CDF).
  @inlinable
  public mutating func exponential(mean: Double) -> Double {
    -mean * log(1 - uniform())
  }

  @inlinable
  func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
