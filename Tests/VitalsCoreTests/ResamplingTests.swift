import Foundation
import Testing
import VitalsCore
import VitalsTestSupport

/// `Fixtures/resampling/resample_poly.json`, written by `Fixtures/generate/resampling.py`.
private struct ResamplePolyFixture: Decodable {
  struct Case: Decodable {
    var up: Int
    var down: Int
    var output: [Double]
  }
  var input: [Float]
  var cases: [Case]

  static let shared: ResamplePolyFixture = try! TestData.decodeFixture(
    ResamplePolyFixture.self, "resampling/resample_poly.json")
}

@Suite struct ResamplingTests {
  static let ratios = ResamplePolyFixture.shared.cases.map { "\($0.up)/\($0.down)" }

  @Test(arguments: ratios)
  func wholeSignalMatchesResamplePoly(ratio: String) throws {
    let fixture = ResamplePolyFixture.shared
    let reference = try #require(fixture.cases.first { "\($0.up)/\($0.down)" == ratio })
    let y = PolyphaseResampler.resample(fixture.input, up: reference.up, down: reference.down)
    expectApproximatelyEqual(y.map(Double.init), reference.output, absoluteTolerance: 1e-5, "\(ratio)")
  }

  @Test(arguments: [(4, 5), (125, 360), (250, 360), (5, 2), (1, 3)])
  func chunksEqualTheWhole(up: Int, down: Int) {
    let x = StreamTesting.signal(count: 1200)
    let whole = expectChunkInvariant(count: x.count, chunkings: StreamTesting.chunkings) {
      PolyphaseResampler(up: up, down: down)
    } feed: { resampler, range in
      resampler.processed(Array(x[range]))
    } finish: { resampler in
      resampler.finished()
    }
    #expect(whole == PolyphaseResampler.resample(x, up: up, down: down))
  }

  @Test func outputsArriveAfterTheDocumentedDelay() {
    // 360 → 250 Hz reduces to 25/36 with half = 360 taps: output k needs input ⌊(36k + 360) / 25⌋.
    var resampler = PolyphaseResampler(up: 250, down: 360)
    #expect(resampler.up == 25 && resampler.down == 36)
    #expect(resampler.delay == 14.4)
    #expect(resampler.maximumOutputCount(forInputCount: 0) == 0)
    #expect(resampler.maximumOutputCount(forInputCount: 36) == 26)
    let x = StreamTesting.signal(count: 100)
    var emitted = 0
    for n in 0..<x.count {
      emitted += resampler.processed([x[n]]).count
      // Outputs k with ⌊(36k + 360) / 25⌋ ≤ n: k ≤ (25n + 24 − 360) / 36.
      let expected = n * 25 + 24 >= 360 ? (n * 25 + 24 - 360) / 36 + 1 : 0
      #expect(emitted == expected, "after input \(n)")
    }
    #expect(resampler.pendingOutputCount == (100 * 25 + 35) / 36 - emitted)
  }

  @Test func equalFactorsCopyTheSignal() {
    let x = StreamTesting.signal(count: 50)
    #expect(PolyphaseResampler.resample(x, up: 3, down: 3) == x)
  }

  @Test func finishResetsForANewSignal() {
    let x = StreamTesting.signal(count: 300)
    var resampler = PolyphaseResampler(up: 4, down: 5)
    let first = resampler.processed(x) + resampler.finished()
    #expect(resampler.inputCount == 0 && resampler.outputCount == 0)
    #expect(resampler.processed(x) + resampler.finished() == first)
  }

  @Test func aToneKeepsItsAmplitudeAndFrequency() {
    // 5 Hz at 360 Hz → 250 Hz: away from the edges, the output is the same tone sampled at 250 Hz.
    let x = (0..<3600).map { Float(sin(2 * Double.pi * 5 * Double($0) / 360)) }
    let y = PolyphaseResampler.resample(x, up: 250, down: 360)
    #expect(y.count == 2500)
    for k in 100..<2400 {
      #expect(abs(Double(y[k]) - sin(2 * Double.pi * 5 * Double(k) / 250)) < 1e-3)
    }
  }
}
