import VitalsTestSupport
import Testing
import VitalsCore

@Suite struct MovingWindowTests {
  static let lengths = [1, 2, 5, 64, 100]

  @Test(arguments: lengths)
  func sumAndAverageMatchTheDefinition(length: Int) {
    let x = StreamTesting.signal(count: 700)
    var sum = MovingSum(length: length)
    var average = MovingAverage(length: length)
    let sums = sum.processed(x)
    let averages = average.processed(x)
    for n in x.indices {
      let exact = x[max(0, n - length + 1)...n].reduce(0.0) { $0 + Double($1) }
      #expect(abs(Double(sums[n]) - exact) <= 1e-6 * max(1, abs(exact)))
      #expect(abs(Double(averages[n]) - exact / Double(length)) <= 1e-6)
    }
  }

  @Test(arguments: lengths)
  func maximumMatchesTheDefinition(length: Int) {
    let x = StreamTesting.signal(count: 700)
    var maximum = MovingMaximum(length: length)
    let y = maximum.processed(x)
    for n in x.indices {
      #expect(y[n] == x[max(0, n - length + 1)...n].max()!)
    }
  }

  @Test func maximumHandlesMonotonicRuns() {
    // Decreasing input fills the deque to the window length; increasing input keeps it at one.
    var maximum = MovingMaximum(length: 4)
    #expect(maximum.processed([9, 8, 7, 6, 5, 4, 3]) == [9, 9, 9, 9, 8, 7, 6])
    #expect(maximum.processed([1, 2, 3, 4, 5]) == [5, 4, 3, 4, 5])
  }

  @Test func maximumIgnoresNaN() {
    var maximum = MovingMaximum(length: 3)
    let y = maximum.processed([.nan, .nan, 2, .nan, .nan, .nan, 1])
    #expect(y[0].isNaN && y[1].isNaN)
    #expect(Array(y[2...4]) == [2, 2, 2])
    #expect(y[5].isNaN)
    #expect(y[6] == 1)
  }

  @Test func sumDoesNotDriftOverMillionsOfSamples() {
    // 2^21 samples around 1000 with small noise: a Float or uncorrected Double running sum would wander;
    // the recomputed one stays within rounding of the exact window sum.
    let length = 250
    var generator = SplitMix64(state: 3)
    let x = (0..<(1 << 21)).map { _ in 1000 + Float.random(in: -1..<1, using: &generator) }
    var sum = MovingSum(length: length)
    let y = sum.processed(x)
    for n in stride(from: length, to: x.count, by: 99_991) + [x.count - 1] {
      let exact = x[(n - length + 1)...n].reduce(0.0) { $0 + Double($1) }
      #expect(abs(Double(y[n]) - exact) <= Double(Float(exact).ulp))
    }
  }

  @Test func sumRecoversFromNaNOnceItLeavesTheWindow() {
    var x = [Float](repeating: 1, count: 40)
    x[3] = .nan
    var sum = MovingSum(length: 5)
    let y = sum.processed(x)
    #expect(y[3].isNaN)
    #expect(y[(2 * 5 + 3)...].allSatisfy { $0 == 5 })
  }

  @Test(arguments: [1, 7, 64])
  func chunksEqualTheWhole(length: Int) {
    let x = StreamTesting.signal(count: 2000)
    expectChunkInvariant(count: x.count, chunkings: StreamTesting.chunkings, "sum") {
      MovingSum(length: length)
    } feed: { sum, range in
      sum.processed(Array(x[range]))
    }
    expectChunkInvariant(count: x.count, chunkings: StreamTesting.chunkings, "average") {
      MovingAverage(length: length)
    } feed: { average, range in
      average.processed(Array(x[range]))
    }
    expectChunkInvariant(count: x.count, chunkings: StreamTesting.chunkings, "maximum") {
      MovingMaximum(length: length)
    } feed: { maximum, range in
      maximum.processed(Array(x[range]))
    }
  }

  @Test(arguments: [1, 7, 27])
  func pairedSumsEqualTwoSumsBitForBit(length: Int) {
    let x = StreamTesting.signal(count: 2000)
    let y = x.reversed().map { $0 * 3 + 1 }
    var firstAlone = MovingSum(length: length)
    var secondAlone = MovingSum(length: length)
    let expected = zip(firstAlone.processed(x), secondAlone.processed(y)).map { SIMD2($0, $1) }
    let whole = expectChunkInvariant(count: x.count, chunkings: StreamTesting.chunkings) {
      (MovingSum(length: length), MovingSum(length: length))
    } feed: { sums, range in
      var first = [Float](repeating: 0, count: range.count)
      var second = first
      x.withUnsafeBufferPointer { x in
        y.withUnsafeBufferPointer { y in
          first.withUnsafeMutableBufferPointer { a in
            second.withUnsafeMutableBufferPointer { b in
              MovingSum.process(
                &sums.0, UnsafeBufferPointer(rebasing: x[range]), into: a,
                &sums.1, UnsafeBufferPointer(rebasing: y[range]), into: b)
            }
          }
        }
      }
      return zip(first, second).map { SIMD2($0, $1) }
    }
    #expect(whole == expected)
  }

  @Test func resetStartsANewSignal() {
    let x = StreamTesting.signal(count: 100)
    var sum = MovingSum(length: 9)
    var maximum = MovingMaximum(length: 9)
    let (firstSum, firstMaximum) = (sum.processed(x), maximum.processed(x))
    sum.reset()
    maximum.reset()
    #expect(sum.processed(x) == firstSum && maximum.processed(x) == firstMaximum)
  }
}
