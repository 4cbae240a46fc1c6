import ComplexModule
/// A digital IIR filter as a cascade of second-order sections (biquads), the form in which every IIR filter
/// of the package is designed and run.
///
/// Section `i` has the transfer function
/// `Hᵢ(z) = (b0 + b1·z⁻¹ + b2·z⁻²) / (1 + a1·z⁻¹ + a2·z⁻²)`; the filter is their product, applied in order.
/// This is the layout of SciPy's `sos` arrays (`[b0, b1, b2, a0, a1, a2]` per row) with `a0` normalized to 1.
/// Coefficients are `Double`: designs are computed in `Double` and the cascades keep `Double` state.
public struct SecondOrderSections: Sendable, Hashable {
  /// One biquad, `(b0 + b1·z⁻¹ + b2·z⁻²) / (1 + a1·z⁻¹ + a2·z⁻²)`.
  public struct Section: Sendable, Hashable {
    public var b0: Double
    public var b1: Double
    public var b2: Double
    public var a1: Double
    public var a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
      self.b0 = b0
      self.b1 = b1
      self.b2 = b2
      self.a1 = a1
      self.a2 = a2
    }

    /// The section that passes its input through unchanged (`H(z) = 1`).
    public static let identity = Section(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)
  }

  /// The sections, applied first to last. Never empty.
  public var sections: [Section]

  public init(_ sections: [Section]) {
    precondition(!sections.isEmpty, "a filter has at least one section")
    self.sections = sections
  }

  /// Sections from SciPy-layout rows `[b0, b1, b2, a0, a1, a2]`, each divided by its `a0`.
  public init(rows: [[Double]]) {
    self.init(
      rows.map { row in
        precondition(row.count == 6, "a second-order section has 6 coefficients, got \(row.count)")
        precondition(row[3] != 0, "a second-order section needs a0 ≠ 0")
        return Section(
          b0: row[0] / row[3], b1: row[1] / row[3], b2: row[2] / row[3], a1: row[4] / row[3],
          a2: row[5] / row[3])
      })
  }

  /// The SciPy layout: one row `[b0, b1, b2, 1, a1, a2]` per section.
  public var rows: [[Double]] { sections.map { [$0.b0, $0.b1, $0.b2, 1, $0.a1, $0.a2] } }

  /// Steady-state initial conditions of the cascade for a unit step (`scipy.signal.sosfilt_zi`): the state
  /// after the filter has run forever on the constant input 1, so that a signal starting at `x0` filtered
  /// from `x0 · zi` starts without a transient. Layout: `[z0, z1]` per section, first section first.
  ///
  /// Each section's pair solves `zi = A·zi + B` (`lfilter_zi`) and is scaled by the DC gain of the
  /// sections before it. Non-finite when a section has a pole at `z = 1` (no steady state exists).
  public var steadyStateInitialConditions: [Double] {
    var result: [Double] = []
    result.reserveCapacity(2 * sections.count)
    var scale = 1.0
    for section in sections {
      // lfilter_zi for a biquad: (I − companion(a)ᵀ)·zi = b[1...] − a[1...]·b0, solved in closed form.
      let rhs0 = section.b1 - section.a1 * section.b0
      let rhs1 = section.b2 - section.a2 * section.b0
      let z0 = (rhs0 + rhs1) / (1 + section.a1 + section.a2)
      let z1 = rhs1 - section.a2 * z0
      result.append(scale * z0)
      result.append(scale * z1)
      scale *= (section.b0 + section.b1 + section.b2) / (1 + section.a1 + section.a2)
    }
    return result
  }

  /// The zero-phase padding length SciPy's `sosfiltfilt` uses by default:
  /// `3·(2·sections + 1 − min(#(b2 = 0), #(a2 = 0)))`.
  public var defaultPadLength: Int {
    let trailingZeroB = sections.count { $0.b2 == 0 }
    let trailingZeroA = sections.count { $0.a2 == 0 }
    return 3 * (2 * sections.count + 1 - min(trailingZeroB, trailingZeroA))
  }

  /// Converts zeros, poles and gain to sections with SciPy's `zpk2sos(..., pairing='nearest')` (1.17):
  /// poles closest to the unit circle go to the last sections, each pole (pair) takes the nearest zero
  /// (pair), and the gain goes to the first section. Same pairing, same section order as SciPy.
  init(_ design: ZerosPolesGain) {
    var zeros = design.zeros
    var poles = design.poles
    zeros += Array(repeating: Complex<Double>(0), count: max(poles.count - zeros.count, 0))
    poles += Array(repeating: Complex<Double>(0), count: max(zeros.count - poles.count, 0))
    let sectionCount = (poles.count + 1) / 2
    if poles.count % 2 == 1 {
      zeros.append(Complex(0))
      poles.append(Complex(0))
    }
    zeros = Self.conjugatePairsThenReals(zeros)
    poles = Self.conjugatePairsThenReals(poles)

    var result = [Section](repeating: .identity, count: sectionCount)
    for index in result.indices.reversed() {
      let first = poles.remove(at: Self.indexClosestToUnitCircle(poles, where: { _ in true }))
      let realPolesLeft = poles.count { $0.isReal }
      if first.isReal && realPolesLeft == 0 {
        // The last real pole goes with the nearest real zero, each with a root at the origin.
        let zero = zeros.remove(at: Self.indexNearest(in: zeros, to: first, where: { $0.isReal }))
        result[index] = Self.section(zeros: [zero, Complex(0)], poles: [first, Complex(0)])
      } else if poles.count + 1 == zeros.count && !first.isReal && realPolesLeft == 1
        && zeros.count(where: { $0.isReal }) == 1
      {
        // One real pole and one real zero left over: this complex pole must take a complex zero.
        let zero = zeros.remove(at: Self.indexNearest(in: zeros, to: first, where: { !$0.isReal }))
        result[index] = Self.section(zeros: [zero, zero.conjugate], poles: [first, first.conjugate])
      } else {
        let second: Complex<Double>
        if first.isReal {
          second = poles.remove(at: Self.indexClosestToUnitCircle(poles, where: { $0.isReal }))
        } else {
          second = first.conjugate
        }
        var pairedZeros: [Complex<Double>] = []
        if !zeros.isEmpty {
          let zero = zeros.remove(at: Self.indexNearest(in: zeros, to: first, where: { _ in true }))
          if !zero.isReal {
            pairedZeros = [zero, zero.conjugate]
          } else if !zeros.isEmpty {
            pairedZeros = [
              zero, zeros.remove(at: Self.indexNearest(in: zeros, to: first, where: { $0.isReal })),
            ]
          } else {
            pairedZeros = [zero]
          }
        }
        result[index] = Self.section(zeros: pairedZeros, poles: [first, second])
      }
    }
    precondition(zeros.isEmpty && poles.isEmpty, "every zero and pole is paired")
    result[0].b0 *= design.gain
    result[0].b1 *= design.gain
    result[0].b2 *= design.gain
    self.init(result)
  }

  /// SciPy's `_cplxreal`: one member (positive imaginary part) of each conjugate pair, sorted by real part
  /// then by imaginary magnitude, followed by the real values sorted (stored with an exactly zero
  /// imaginary part). Pairs are averaged; values within 100 ε of the real axis count as real.
  private static func conjugatePairsThenReals(_ values: [Complex<Double>]) -> [Complex<Double>] {
    let tolerance = 100 * Double.ulpOfOne
    let sorted = values.enumerated().sorted { lhs, rhs in
      let l = lhs.element
      let r = rhs.element
      if l.real != r.real { return l.real < r.real }
      if abs(l.imaginary) != abs(r.imaginary) { return abs(l.imaginary) < abs(r.imaginary) }
      return lhs.offset < rhs.offset
    }.map(\.element)
    let isReal = { (value: Complex<Double>) in abs(value.imaginary) <= tolerance * value.length }
    let reals = sorted.filter(isReal).map { Complex($0.real) }
    var upper = sorted.filter { !isReal($0) && $0.imaginary > 0 }
    var lower = sorted.filter { !isReal($0) && $0.imaginary < 0 }
    precondition(upper.count == lower.count, "complex zeros and poles come in conjugate pairs")
    // Within runs of (nearly) equal real parts, order by imaginary magnitude.
    var start = 0
    while start < upper.count {
      var stop = start + 1
      while stop < upper.count
        && upper[stop].real - upper[stop - 1].real <= tolerance * upper[stop - 1].length
      {
        stop += 1
      }
      if stop - start > 1 {
        upper[start..<stop].sort { abs($0.imaginary) < abs($1.imaginary) }
        lower[start..<stop].sort { abs($0.imaginary) < abs($1.imaginary) }
      }
      start = stop
    }
    let pairs = zip(upper, lower).map { ($0 + $1.conjugate).multiplied(by: 0.5) }
    return pairs + reals
  }

  /// The first index, among values satisfying `include`, of the value whose magnitude is closest to 1.
  private static func indexClosestToUnitCircle(
    _ values: [Complex<Double>], where include: (Complex<Double>) -> Bool
  ) -> Int {
    var best = -1
    var bestDistance = Double.infinity
    for (index, value) in values.enumerated() where include(value) {
      let distance = abs(1 - value.length)
      if distance < bestDistance {
        best = index
        bestDistance = distance
      }
    }
    precondition(best >= 0, "a candidate root exists")
    return best
  }

  /// The index of the value satisfying `include` nearest to `target` (ties: the earlier index).
  private static func indexNearest(
    in values: [Complex<Double>], to target: Complex<Double>, where include: (Complex<Double>) -> Bool
  ) -> Int {
    var best = -1
    var bestDistance = Double.infinity
    for (index, value) in values.enumerated() where include(value) {
      let distance = (value - target).length
      if distance < bestDistance {
        best = index
        bestDistance = distance
      }
    }
    precondition(best >= 0, "a candidate root exists")
    return best
  }

  /// One section from up to two zeros and exactly two poles, gain 1 (`_single_zpksos`): the polynomials
  /// are right-aligned, so a single zero gives `b = [0, 1, −z]`.
  private static func section(zeros: [Complex<Double>], poles: [Complex<Double>]) -> Section {
    let b = polynomial(zeros)
    let a = polynomial(poles)
    let bPadded = Array(repeating: 0, count: 3 - b.count) + b
    precondition(a.count == 3, "a section has two poles")
    return Section(b0: bPadded[0], b1: bPadded[1], b2: bPadded[2], a1: a[1], a2: a[2])
  }

  /// Real coefficients of `∏(x − rootᵢ)`, highest power first (`numpy.poly`, real part).
  private static func polynomial(_ roots: [Complex<Double>]) -> [Double] {
    var coefficients = [Complex<Double>.one]
    for root in roots {
      var next = coefficients + [.zero]
      for index in coefficients.indices { next[index + 1] = next[index + 1] - root * coefficients[index] }
      coefficients = next
    }
    return coefficients.map(\.real)
  }
}

extension Complex {
  /// Exactly real, as `numpy.isreal` decides (imaginary part equal to zero).
  fileprivate var isReal: Bool { imaginary == 0 }
}
