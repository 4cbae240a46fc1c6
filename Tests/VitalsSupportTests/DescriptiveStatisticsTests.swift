import Testing
import VitalsSupport

@Suite("Descriptive statistics")
struct DescriptiveStatisticsTests {
  /// The quantiles of each centered window, sorted afresh: the definition.
  static func reference(_ values: [Double], width: Int, _ qs: [Double]) -> [Double] {
    let n = values.count
    var rows = [Double](repeating: .nan, count: qs.count * n)
    for i in 0..<n {
      let window = values[max(0, i - width / 2)..<min(n, i + width / 2 + 1)].sorted()
      for (k, q) in qs.enumerated() { rows[k * n + i] = DescriptiveStatistics.quantile(sorted: window, q) }
    }
    return rows
  }

  @Test(
    "Rolling quantiles equal each window's, with ties, at every width",
    arguments: [1, 3, 11, 91, 301])
  func rollingQuantiles(width: Int) {
    // A linear congruential sequence on a coarse grid: many ties, and values leaving and entering at
    // every place in the window.
    var state: UInt64 = 12_345
    let values = (0..<1_000).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 58) * 0.25
    }
    let qs: [Double] = [0, 0.25, 0.5, 0.9, 1]
    var rows: [Double] = []
    DescriptiveStatistics.rollingQuantiles(values, width: width, qs, into: &rows)
    #expect(rows == Self.reference(values, width: width, qs))
  }

  @Test("Rolling quantiles leave NaNs out, as pandas does")
  func rollingQuantilesSkipNaN() {
    var values = (0..<120).map { Double(($0 * 37) % 23) }
    for index in [0, 1, 50, 53, 54, 55, 56, 57, 58, 59, 60, 119] { values[index] = .nan }
    var rows: [Double] = []
    DescriptiveStatistics.rollingQuantiles(values, width: 7, [0.25, 0.5], into: &rows)
    let finite = values.indices.map { i in values[max(0, i - 3)..<min(120, i + 4)].filter { !$0.isNaN } }
    var expected: [Double] = []
    for q in [0.25, 0.5] {
      expected += finite.map { $0.isEmpty ? .nan : DescriptiveStatistics.quantile(sorted: $0.sorted(), q) }
    }
    #expect(rows.indices.allSatisfy { rows[$0] == expected[$0] || (rows[$0].isNaN && expected[$0].isNaN) })
    #expect(rows[56].isNaN)  // the window 53…59 holds NaNs only
  }
}
