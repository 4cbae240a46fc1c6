import Foundation
import Testing
import VitalsCore
import VitalsTestSupport

@Suite struct DerivativeTests {
  @Test(arguments: [DerivativeFormula.panTompkins, .centralDifference])
  func rampGivesItsSlopeAfterTheWarmUp(formula: DerivativeFormula) {
    // x = 3 units/s · t at 200 Hz: every formula is exact on a straight line.
    let rate = 200.0
    let x = (0..<100).map { Float(3 * Double($0) / rate) }
    var derivative = FIRFilter(derivative: formula, sampleRate: rate)
    let y = derivative.processed(x)
    let warmUp = 2 * formula.delay
    #expect(y[warmUp...].allSatisfy { abs($0 - 3) < 1e-4 })
  }

  @Test func panTompkinsFollowsItsDifferenceEquation() {
    let x = StreamTesting.signal(count: 50)
    var derivative = FIRFilter(derivative: .panTompkins, sampleRate: 250)
    let y = derivative.processed(x)
    for n in 4..<x.count {
      let expected = (x[n] + 2 * x[n - 1] - 2 * x[n - 3] - x[n - 4]) * 250 / 8
      #expect(y[n].isApproximatelyEqual(to: expected, absoluteTolerance: 1e-4, relativeTolerance: 1e-4))
    }
  }

  @Test func centralDifferenceIsExactForAQuadraticWithItsDelay() {
    // x = t², dx/dt = 2t; the output at n is the derivative at sample n − 1.
    let rate = 100.0
    let x = (0..<60).map { Float(pow(Double($0) / rate, 2)) }
    var derivative = FIRFilter(derivative: .centralDifference, sampleRate: rate)
    let y = derivative.processed(x)
    for n in 2..<x.count {
      #expect(abs(Double(y[n]) - 2 * Double(n - 1) / rate) < 1e-4)
    }
  }

  @Test(arguments: [DerivativeFormula.panTompkins, .centralDifference])
  func chunksEqualTheWhole(formula: DerivativeFormula) {
    let x = StreamTesting.signal(count: 1000)
    expectChunkInvariant(count: x.count, chunkings: StreamTesting.chunkings) {
      FIRFilter(derivative: formula, sampleRate: 360)
    } feed: { derivative, range in
      derivative.processed(Array(x[range]))
    }
  }
}
