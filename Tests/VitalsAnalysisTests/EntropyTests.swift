import Foundation
import Testing
import VitalsAnalysis

/// ApEn and SampEn straight from their definitions, one pair of vectors at a time (NeuroKit2 0.2.13's
/// `entropy_approximate` / `entropy_sample` with Chebyshev distance): the reference the fast counts
/// must equal exactly.
private func bruteForceEntropies(_ x: [Double], m: Int, r: Double) -> Entropies {
  let n = x.count
  guard n > m + 1 else { return Entropies(approximate: .nan, sample: .nan) }
  func matches(_ i: Int, _ j: Int, _ k: Int) -> Bool {
    (0..<k).allSatisfy { abs(x[i + $0] - x[j + $0]) <= r }
  }
  func phi(_ k: Int) -> Double {
    let vectors = n - k + 1
    var total = 0.0
    for i in 0..<vectors {
      let count = (0..<vectors).filter { $0 == i || matches(i, $0, k) }.count
      total += log(Double(count) / Double(vectors))
    }
    return total / Double(vectors)
  }
  let approximate = abs(phi(m) - phi(m + 1))
  guard n > m + 2 else { return Entropies(approximate: approximate, sample: .nan) }
  let vectors = n - m
  var b = 0
  var a = 0
  for i in 0..<vectors {
    for j in 0..<vectors where j != i {
      if matches(i, j, m) { b += 1 }
      if matches(i, j, m + 1) { a += 1 }
    }
  }
  let pairs = Double(vectors) * Double(vectors - 1)
  let ratioB = Double(b) / pairs
  let ratioA = Double(a) / pairs
  let sample =
    abs(ratioB) <= 1e-8 ? -.infinity : abs(ratioA / ratioB) <= 1e-8 ? .infinity : -log(ratioA / ratioB)
  return Entropies(approximate: approximate, sample: sample)
}

/// A deterministic series of `count` values: a random walk rounded to `step` (0: not rounded), so that
/// small steps give many exact ties and distances equal to the tolerance.
private func series(count: Int, step: Double, seed: UInt64) -> [Double] {
  var state = seed
  var level = 800.0
  return (0..<count).map { _ in
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    level += (Double(state >> 11) * 0x1p-53 - 0.5) * 40
    return step > 0 ? (level / step).rounded() * step : level
  }
}

@Suite("Entropies") struct EntropyTests {
  @Test(
    "Fast counts equal the pair-by-pair definition",
    arguments: [
      (count: 3, m: 1, step: 0.0, r: 5.0), (count: 5, m: 2, step: 8.0, r: 8.0),
      (count: 60, m: 1, step: 4.0, r: 4.0), (count: 200, m: 2, step: 4.0, r: 8.0),
      (count: 257, m: 2, step: 0.0, r: 6.3), (count: 300, m: 3, step: 2.0, r: 6.0),
      (count: 300, m: 2, step: 4.0, r: 0.0), (count: 150, m: 4, step: 1.0, r: 20.0),
      (count: 400, m: 2, step: 7.8125, r: 200.0),
    ])
  func matchesBruteForce(count: Int, m: Int, step: Double, r: Double) {
    let x = series(count: count, step: step, seed: UInt64(count * 31 + m))
    let fast = Entropies(x, dimension: m, tolerance: r)
    let reference = bruteForceEntropies(x, m: m, r: r)
    #expect(fast.approximate.bitPattern == reference.approximate.bitPattern, "ApEn \(fast) vs \(reference)")
    #expect(
      fast.sample.bitPattern == reference.sample.bitPattern || (fast.sample.isNaN && reference.sample.isNaN),
      "SampEn \(fast) vs \(reference)")
  }

  @Test("Non-finite values match nothing, not even themselves")
  func nonFinite() {
    var x = series(count: 120, step: 4, seed: 7)
    x[10] = .nan
    x[50] = .infinity
    x[51] = .infinity
    x[90] = -.infinity
    let fast = Entropies(x, dimension: 2, tolerance: 12)
    let reference = bruteForceEntropies(x, m: 2, r: 12)
    #expect(fast.approximate.bitPattern == reference.approximate.bitPattern)
    #expect(fast.sample.bitPattern == reference.sample.bitPattern)
  }
}

@Suite("Cheap nonlinear indices") struct NonlinearIndicesTests {
  @Test("Poincaré SD1 and SD2 as the two-pass definition, pairs across a gap left out")
  func poincare() {
    let series = NNSeries(
      intervals: [800, 820, 790, 830, 810, 805], endTimes: [0.8, 1.62, 2.41, 3.24, 4.05, 4.855],
      followsPrevious: [true, true, true, false, true, true])
    let pairs = [(800.0, 820.0), (820, 790), (830, 810), (810, 805)]
    func sd(_ x: [Double]) -> Double {
      let mean = x.reduce(0, +) / Double(x.count)
      return (x.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(x.count - 1)).squareRoot()
    }
    let plot = PoincarePlot(series)
    #expect(abs(plot.sd1 - sd(pairs.map { ($0.0 - $0.1) / 2.0.squareRoot() })) < 1e-9)
    #expect(abs(plot.sd2 - sd(pairs.map { ($0.0 + $0.1) / 2.0.squareRoot() })) < 1e-9)
    let full = HRVNonlinear(series)
    #expect(
      [full.sd1, full.sd2, full.sd1sd2, full.s, full.csi, full.cvi]
        == [plot.sd1, plot.sd2, plot.sd1sd2, plot.s, plot.csi, plot.cvi])
    #expect(
      PoincarePlot(NNSeries(intervals: [800, 810], endTimes: [0.8, 1.61], followsPrevious: [true, true])).sd1
        .isNaN)
  }

  /// The least-squares slope of `y` against `x` and the line's value at each x.
  private func fit(_ x: [Double], _ y: [Double]) -> (slope: Double, line: [Double]) {
    let mx = x.reduce(0, +) / Double(x.count)
    let my = y.reduce(0, +) / Double(y.count)
    var sxy = 0.0
    var sxx = 0.0
    for (u, v) in zip(x, y) {
      sxy += (u - mx) * (v - my)
      sxx += (u - mx) * (u - mx)
    }
    let slope = sxy / sxx
    return (slope, x.map { my + slope * ($0 - mx) })
  }

  /// F(s) window by window: a least-squares line fitted to each window of the profile.
  private func fluctuation(_ y: [Double], _ s: Int) -> Double {
    var variances: [Double] = []
    var start = 0
    while start < y.count - s {
      let window = Array(y[start..<(start + s)])
      let line = fit((0..<s).map(Double.init), window).line
      let residuals = zip(window, line).map { $0 - $1 }
      let mean = residuals.reduce(0, +) / Double(s)
      var variance = 0.0
      for r in residuals { variance += (r - mean) * (r - mean) / Double(s) }
      if variance > 1e-8 { variances.append(variance) }
      start += s / 2
    }
    return (variances.reduce(0, +) / Double(variances.count)).squareRoot()
  }

  @Test(
    "DFA from merged block moments equals the window-by-window fit",
    arguments: [(300, 4...11), (700, 12...70)])
  func dfa(count: Int, scales: ClosedRange<Int>) {
    let x = series(count: count, step: 0, seed: 3)
    let mean = x.reduce(0, +) / Double(count)
    var running = 0.0
    let y = x.map { value in
      running += value - mean
      return running
    }
    let logS = scales.map { log2(Double($0)) }
    let logF = scales.map { log2(fluctuation(y, $0)) }
    let expected = fit(logS, logF).slope
    #expect(abs(DetrendedFluctuation.alpha(x, scales: Array(scales)) - expected) < 1e-10)
  }
}
