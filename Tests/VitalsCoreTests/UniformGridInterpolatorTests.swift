import Foundation
import Testing
import VitalsTestSupport

@testable import VitalsCore

/// Deterministic jittered sample times: nominal `1/rate` with ±`jitter` of it, from an LCG.
private func jitteredTimes(count: Int, rate: Double, jitter: Double, seed: UInt64 = 42) -> [Double] {
  var state = seed
  var t = 0.0
  var times = [Double]()
  for _ in 0..<count {
    times.append(t)
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let u = Double(state >> 11) / Double(1 << 53) * 2 - 1
    t += (1 + jitter * u) / rate
  }
  return times
}

private func run(
  _ interpolator: inout UniformGridInterpolator, times: [Double], values: [[Float]], chunk: Int
) -> [[Float]] {
  var output = [[Float]](repeating: [], count: values.count)
  var start = 0
  while start < times.count {
    let end = min(start + chunk, times.count)
    interpolator.process(
      times: Array(times[start..<end]), values: values.map { Array($0[start..<end]) }, into: &output)
    start = end
  }
  interpolator.finish(into: &output)
  return output
}

@Suite("Uniform grid interpolator")
struct UniformGridInterpolatorTests {
  @Test(
    "linear reproduces lines, cubic Hermite reproduces parabolas",
    arguments: UniformGridInterpolator.Method.allCases)
  func exactness(method: UniformGridInterpolator.Method) {
    let times = jitteredTimes(count: 500, rate: 100, jitter: 0.3)
    let curvature = method == .linear ? 0.0 : -0.7
    let f = { (t: Double) -> Double in 2 - 3 * t + curvature * t * t }
    var interpolator = UniformGridInterpolator(channelCount: 2, rate: 100, method: method)
    let values = [times.map { Float(f($0)) }, times.map { Float(-f($0)) }]
    let output = run(&interpolator, times: times, values: values, chunk: 500)
    #expect(output[0].count == Int((times.last! * 100).rounded(.down)) + 1)
    for (k, y) in output[0].enumerated() {
      #expect(abs(Double(y) - f(Double(k) / 100)) < 1e-5)
      #expect(output[1][k] == -y)
    }
  }

  @Test(
    "chunked input gives exactly the whole-input output", arguments: UniformGridInterpolator.Method.allCases)
  func chunkEqualsWhole(method: UniformGridInterpolator.Method) {
    let times = jitteredTimes(count: 500, rate: 97, jitter: 0.5)
    let values = [times.map { Float(sin(7 * $0)) }, times.map { Float(cos(3 * $0)) }]
    /// The output channels as one frame per grid point.
    func frames(_ output: [[Float]]) -> [[Float]] { output[0].indices.map { k in output.map { $0[k] } } }
    let chunkings = Chunking.standard + [2, 3, 17, 499].map(Chunking.fixed)
    let whole = expectChunkInvariant(count: times.count, chunkings: chunkings) {
      UniformGridInterpolator(channelCount: 2, rate: 100, method: method)
    } feed: { interpolator, range in
      var output: [[Float]] = [[], []]
      interpolator.process(times: Array(times[range]), values: values.map { Array($0[range]) }, into: &output)
      return frames(output)
    } finish: { interpolator in
      var output: [[Float]] = [[], []]
      interpolator.finish(into: &output)
      return frames(output)
    }
    #expect(whole.count == Int((times.last! * 100).rounded(.down)) + 1)
  }

  @Test("repeated stamps and NaN")
  func repeatedStamps() {
    var interpolator = UniformGridInterpolator(channelCount: 1, rate: 1)
    var output: [[Float]] = [[]]
    interpolator.process(times: [0, 1, 1, 2, 3], values: [[0, 10, 20, 30, .nan]], into: &output)
    interpolator.finish(into: &output)
    #expect(output[0].count == 4)
    #expect(Array(output[0].prefix(3)) == [0, 20, 30])
    #expect(output[0][3].isNaN)
  }

  @Test("measured rate: least squares through jitter and coarse timers")
  func measuredRate() {
    let jittered = jitteredTimes(count: 2000, rate: 104, jitter: 0.4)
    #expect(abs(UniformGridInterpolator.measuredRate(times: jittered)! - 104) < 0.5)
    // A 100 Hz stream stamped by a 15.625 ms timer: intervals are 0 or 15.6 ms, the median says nothing.
    let quantised = (0..<3000).map { (Double($0) / 100 / 0.015625).rounded(.down) * 0.015625 }
    #expect(abs(UniformGridInterpolator.measuredRate(times: quantised)! - 100) < 0.1)
    #expect(UniformGridInterpolator.measuredRate(times: [1]) == nil)
    #expect(UniformGridInterpolator.measuredRate(times: [1, 1, 1]) == nil)
  }
}
