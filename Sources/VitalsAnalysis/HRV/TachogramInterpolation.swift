/// Interpolation of an NN series (a tachogram: interval lengths at the times of the beats closing
/// them) onto a uniform time grid, for spectral estimates that need evenly spaced samples.
///
/// The interpolant is the B-spline of degree 1, 2 or 3 through every point, with SciPy's default knots
/// (`scipy.interpolate.make_interp_spline(x, y, k)`, which `interp1d(kind="slinear"|"quadratic"|"cubic")`
/// uses): degree 1 is the broken line through the points; degree 2 has its interior knots at the
/// midpoints between points, leaving out the first and last midpoints; degree 3 is the not-a-knot
/// cubic spline. The grid is NeuroKit2's `intervals_process`: `numpy.arange(t₀, t_last + 1/rate, 1/rate)`
/// (so it may end one step after the last beat), and points outside the beats' span take the first or
/// last interval's value (`interp1d`'s `fill_value=(y[0], y[-1])`).
///
/// References: C. de Boor, "A Practical Guide to Splines" (1978): B-spline collocation, which, the
/// collocation matrix being totally positive, is solved by banded Gaussian elimination without
/// pivoting; L. Piegl, W. Tiller, "The NURBS Book" (1997), algorithm A2.2 for the basis functions.
public enum TachogramInterpolation: String, Sendable, Hashable, Codable, CaseIterable {
  /// Straight lines between the points (`interp1d(kind="linear")`).
  case linear
  /// The quadratic interpolating spline: NeuroKit2's default (`signal_interpolate(method="quadratic")`).
  case quadratic
  /// The not-a-knot cubic interpolating spline (`interp1d(kind="cubic")`; Kubios uses a cubic spline).
  case cubic

  /// The spline's degree: 1, 2 or 3.
  public var degree: Int {
    switch self {
    case .linear: 1
    case .quadratic: 2
    case .cubic: 3
    }
  }

  /// The most points ``gridTimes(from:to:rate:)`` returns: 2²⁵, 256 MiB of `Double` (97 days at 4 Hz).
  public static let maximumGridCount = 1 << 25

  /// The grid times NeuroKit2 uses for `times` at `rate` Hz: `numpy.arange(times[0], times.last + 1/rate,
  /// 1/rate)`, computed as NumPy computes it (`start + i·Δ` with `Δ = (start + 1/rate) − start`); `nil`
  /// when that grid would hold more than ``maximumGridCount`` points (or `start` or `end` is not finite).
  public static func gridTimes(from start: Double, to end: Double, rate: Double) -> [Double]? {
    precondition(rate > 0 && rate.isFinite, "interpolation rate must be positive and finite")
    let step = 1 / rate
    let stop = end + step
    let points = ((stop - start) / step).rounded(.up)
    guard points <= Double(maximumGridCount) else { return nil }
    let count = Int(Swift.max(0, points))
    let delta = (start + step) - start
    return (0..<count).map { i in i == 0 ? start : start + Double(i) * delta }
  }

  /// The interpolant of `values` at `times` (strictly increasing, at least `degree + 1` points)
  /// evaluated at `grid`. Non-finite values make the whole result NaN (the spline is global).
  public func interpolate(times: [Double], values: [Double], at grid: [Double]) -> [Double] {
    precondition(times.count == values.count, "one value per time")
    precondition(times.count > degree, "a degree-\(degree) spline needs at least \(degree + 1) points")
    precondition(
      times.indices.dropFirst().allSatisfy { times[$0 - 1] < times[$0] }, "times must be strictly increasing")
    let spline = Spline(times: times, values: values, degree: degree)
    let first = times[0]
    let last = times[times.count - 1]
    var scratch = Spline.Scratch(degree: degree)
    var l = degree
    return grid.map { x in
      if x < first { return values[0] }
      if x > last { return values[values.count - 1] }
      l = spline.interval(of: x, hint: l)  // increasing grids walk the knots once
      return spline.value(at: x, interval: l, scratch: &scratch)
    }
  }

  /// An interpolating B-spline: knots and coefficients.
  private struct Spline {
    let degree: Int
    let knots: [Double]
    var coefficients: [Double]

    init(times x: [Double], values y: [Double], degree k: Int) {
      degree = k
      let n = x.count
      var t = [Double](repeating: x[0], count: k + 1)
      switch k {
      case 2:
        if n > 3 { for j in 1..<(n - 2) { t.append((x[j] + x[j + 1]) / 2) } }
      default:
        // SciPy's `_not_a_knot`: interior knots x[(k+1)/2 ..< n − (k+1)/2].
        let skip = (k + 1) / 2
        if n - skip > skip { t.append(contentsOf: x[skip..<(n - skip)]) }
      }
      t.append(contentsOf: repeatElement(x[n - 1], count: k + 1))
      knots = t
      coefficients = y
      solveCollocation(x)
    }

    /// The knot interval `l` (`degree ≤ l < count`) with `t[l] ≤ x < t[l+1]`, the last one at the end.
    func interval(of x: Double, hint: Int) -> Int {
      let n = coefficients.count
      var l = Swift.min(Swift.max(hint, degree), n - 1)
      while l > degree && x < knots[l] { l -= 1 }
      while l < n - 1 && x >= knots[l + 1] { l += 1 }
      return l
    }

    /// Work arrays of ``basis(at:interval:scratch:)``, so evaluation allocates nothing per point.
    struct Scratch {
      var values: [Double]
      var left: [Double]
      var right: [Double]

      init(degree: Int) {
        values = [Double](repeating: 0, count: degree + 1)
        left = values
        right = values
      }
    }

    /// The `degree + 1` B-splines that are non-zero on interval `l`, at `x`, into `scratch.values`
    /// (NURBS Book A2.2).
    func basis(at x: Double, interval l: Int, scratch: inout Scratch) {
      scratch.values[0] = 1
      for j in stride(from: 1, through: degree, by: 1) {
        scratch.left[j] = x - knots[l + 1 - j]
        scratch.right[j] = knots[l + j] - x
        var saved = 0.0
        for r in 0..<j {
          let temp = scratch.values[r] / (scratch.right[r + 1] + scratch.left[j - r])
          scratch.values[r] = saved + scratch.right[r + 1] * temp
          saved = scratch.left[j - r] * temp
        }
        scratch.values[j] = saved
      }
    }

    /// Replaces ``coefficients`` (holding the values) by the solution of the collocation system
    /// `Σⱼ cⱼ·Bⱼ(xᵢ) = yᵢ`, whose row `i` is non-zero only in columns `i − degree … i + degree`.
    mutating func solveCollocation(_ x: [Double]) {
      let n = x.count
      let width = 2 * degree + 1
      var band = [Double](repeating: 0, count: n * width)  // row i, column c at i·width + (c − i + degree)
      var scratch = Scratch(degree: degree)
      var l = degree
      for i in 0..<n {
        l = interval(of: x[i], hint: l)
        basis(at: x[i], interval: l, scratch: &scratch)
        for r in 0...degree {
          let column = l - degree + r
          precondition(abs(column - i) <= degree, "collocation matrix outside its band")
          band[i * width + column - i + degree] = scratch.values[r]
        }
      }
      // Forward elimination without pivoting (totally positive matrix), then back substitution.
      for i in 0..<n {
        let pivot = band[i * width + degree]
        for below in stride(from: i + 1, through: Swift.min(i + degree, n - 1), by: 1) {
          let factor = band[below * width + i - below + degree] / pivot
          if factor == 0 { continue }
          for column in i...Swift.min(i + degree, n - 1) {
            band[below * width + column - below + degree] -= factor * band[i * width + column - i + degree]
          }
          coefficients[below] -= factor * coefficients[i]
        }
      }
      for i in stride(from: n - 1, through: 0, by: -1) {
        var sum = coefficients[i]
        for column in stride(from: i + 1, through: Swift.min(i + degree, n - 1), by: 1) {
          sum -= band[i * width + column - i + degree] * coefficients[column]
        }
        coefficients[i] = sum / band[i * width + degree]
      }
    }

    /// The spline at `x`, which lies in knot interval `l`.
    func value(at x: Double, interval l: Int, scratch: inout Scratch) -> Double {
      basis(at: x, interval: l, scratch: &scratch)
      var sum = 0.0
      for r in 0...degree { sum += scratch.values[r] * coefficients[l - degree + r] }
      return sum
    }
  }
}
