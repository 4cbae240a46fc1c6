import Testing
import VitalsCore
import VitalsTestSupport

/// `Fixtures/resampling/decimate.json`, written by `Fixtures/generate/resampling.py`.
private struct DecimateFixture: Decodable {
  struct Case: Decodable {
    var factor: Int
    var output: [Double]
  }
  var input: [Float]
  var cases: [Case]

  static let shared: DecimateFixture = try! TestData.decodeFixture(
    DecimateFixture.self, "resampling/decimate.json")
}

@Suite struct DecimationTests {
  @Test(arguments: DecimateFixture.shared.cases.map(\.factor))
  func matchesSciPyDecimate(factor: Int) throws {
    let fixture = DecimateFixture.shared
    let reference = try #require(fixture.cases.first { $0.factor == factor })
    var decimator = Decimator(factor: factor)
    let y = decimator.processed(fixture.input)
    expectApproximatelyEqual(
      y.map(Double.init), reference.output, absoluteTolerance: 1e-5, "factor \(factor)")
  }

  @Test(arguments: [2, 3, 7])
  func chunksEqualTheWhole(factor: Int) {
    let x = StreamTesting.signal(count: 2000)
    var whole = Decimator(factor: factor)
    let expected = whole.processed(x)
    #expect(expected.count == (x.count + factor - 1) / factor)
    expectChunkInvariant(count: x.count, chunkings: StreamTesting.chunkings) {
      Decimator(factor: factor)
    } feed: { decimator, range in
      decimator.processed(Array(x[range]))
    }
  }

  /// Every output sums its products in tap order from zero, oldest input first (see
  /// `FIRFilterTests.inOrderSum`), in the vector blocks and the scalar tail alike, for factors split into
  /// phases with vector shuffles (2) and one at a time, and for tap counts padded to whole vectors (13).
  @Test(arguments: [(2, 9), (2, 2), (2, 41), (3, 13), (4, 17), (6, 25)])
  func equalsTheInOrderSumBitForBit(factor: Int, tapCount: Int) {
    let taps = FIRDesign.firwin(tapCount: tapCount, cutoff: [0.5 / Double(factor)], pass: .lowpass)
    let h = taps.map { Float($0) }
    let x = StreamTesting.signal(count: 2003)
    var decimator = Decimator(factor: factor, coefficients: taps)
    let expected = stride(from: 0, to: x.count, by: factor).map { FIRFilterTests.inOrderSum(h, x, at: $0) }
    #expect(decimator.processed(x) == expected)
  }

  @Test func keepsEveryMthFilteredSample() {
    let x = StreamTesting.signal(count: 500)
    let taps = FIRDesign.firwin(tapCount: 31, cutoff: [0.25], pass: .lowpass)
    var filter = FIRFilter(coefficients: taps)
    let filtered = filter.processed(x)
    var decimator = Decimator(factor: 4, coefficients: taps)
    let y = decimator.processed(x)
    // The two sum their products in different orders: equal to rounding.
    let kept = stride(from: 0, to: x.count, by: 4).map { filtered[$0] }
    #expect(y.count == kept.count)
    #expect(zip(y, kept).allSatisfy { abs($0 - $1) < 1e-6 })
  }
}
