import Testing
import VitalsTestSupport

@testable import VitalsAnalysis

@Suite struct PPGTrackerStepTests {
  /// The vector `raise` against the element-wise `max` it replaces, on widths around the vector length,
  /// with ties, −∞ on either side and a tail.
  @Test(arguments: [1, 7, 8, 9, 16, 23, 61])
  func raiseEqualsTheElementWiseMaximum(count: Int) {
    var generator = SplitMix64(state: UInt64(count))
    func value() -> Float {
      switch generator.next() % 5 {
      case 0: -.infinity
      case 1: 0.5
      default: Float(generator.next() % 1000) / 100 - 5
      }
    }
    let scores = (0..<count).map { _ in value() }
    let candidates = (0..<count).map { _ in value() }
    for cost: Float in [0, 0.5, 1.25] {
      var raised = scores
      raised.withUnsafeMutableBufferPointer { score in
        candidates.withUnsafeBufferPointer { PPGHeartRateEstimator.raise(score, to: $0, less: cost) }
      }
      let expected = zip(scores, candidates).map { max($0, $1 - cost) }
      #expect(raised.map(\.bitPattern) == expected.map(\.bitPattern), "cost \(cost)")
    }
  }
}
