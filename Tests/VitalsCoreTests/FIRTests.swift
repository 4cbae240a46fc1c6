import Testing
import VitalsCore
import VitalsTestSupport

/// `Fixtures/fir/firwin.json`, written by `Fixtures/generate/resampling.py`.
private struct FirwinFixture: Decodable {
  struct Case: Decodable {
    var name: String
    var numtaps: Int
    var cutoff: [Double]
    var pass_type: String
    var window: String
    var kaiser_beta: Double?
    var width: Double?
    var fs: Double
    var scale: Bool
    var coefficients: [Double]
  }
  struct Beta: Decodable {
    var attenuation: Double
    var beta: Double
  }
  struct Attenuation: Decodable {
    var numtaps: Int
    var width: Double
    var attenuation: Double
  }
  var firwin: [Case]
  var kaiser_beta: [Beta]
  var kaiser_atten: [Attenuation]

  static let shared: FirwinFixture = try! TestData.decodeFixture(FirwinFixture.self, "fir/firwin.json")
}

@Suite struct FIRDesignTests {
  @Test(arguments: FirwinFixture.shared.firwin.map(\.name))
  func firwinMatchesSciPy(name: String) throws {
    let reference = try #require(FirwinFixture.shared.firwin.first { $0.name == name })
    let pass: FIRPassType =
      switch reference.pass_type {
      case "lowpass": .lowpass
      case "highpass": .highpass
      case "bandpass": .bandpass
      default: .bandstop
      }
    let taps: [Double]
    if let width = reference.width {
      taps = FIRDesign.firwin(
        tapCount: reference.numtaps, cutoff: reference.cutoff, transitionWidth: width, pass: pass,
        scale: reference.scale, sampleRate: reference.fs)
    } else {
      let window: FIRWindow = reference.window == "hamming" ? .hamming : .kaiser(beta: reference.kaiser_beta!)
      taps = FIRDesign.firwin(
        tapCount: reference.numtaps, cutoff: reference.cutoff, pass: pass, window: window,
        scale: reference.scale, sampleRate: reference.fs)
    }
    #expect(taps.count == reference.coefficients.count)
    let worst = zip(taps, reference.coefficients).map { abs($0 - $1) }.max() ?? .infinity
    #expect(worst < 1e-6, "\(name): largest difference \(worst)")
  }

  @Test func kaiserParametersMatchSciPy() {
    for reference in FirwinFixture.shared.kaiser_beta {
      #expect(abs(FIRDesign.kaiserBeta(attenuation: reference.attenuation) - reference.beta) < 1e-12)
    }
    for reference in FirwinFixture.shared.kaiser_atten {
      let attenuation = FIRDesign.kaiserAttenuation(tapCount: reference.numtaps, width: reference.width)
      #expect(abs(attenuation - reference.attenuation) < 1e-9)
    }
  }

  @Test func besselI0MatchesKnownValues() {
    // Abramowitz & Stegun, table 9.8: I0(1) = 1.2660658777520082, I0(5) = 27.239871823604442.
    #expect(FIRDesign.besselI0(0) == 1)
    #expect(abs(FIRDesign.besselI0(1) - 1.2660658777520082) < 1e-15)
    #expect(abs(FIRDesign.besselI0(5) / 27.239871823604442 - 1) < 1e-14)
    #expect(FIRDesign.besselI0(.nan).isNaN)
  }

  @Test func windowsAreSymmetricAndPeakAtOne() {
    for window in [FIRWindow.hamming, .kaiser(beta: 8.6)] {
      let values = window.values(count: 11)
      #expect(zip(values, values.reversed()).allSatisfy { abs($0 - $1) < 1e-15 })
      #expect(abs(values[5] - 1) < 1e-15)
    }
    #expect(FIRWindow.hamming.values(count: 1) == [1])
  }
}

@Suite struct FIRFilterTests {
  /// `Σ h[k]·x[n − k]` in `Double`, the textbook definition.
  static func convolve(_ h: [Float], _ x: [Float]) -> [Double] {
    x.indices.map { n in
      h.indices.reduce(0.0) { sum, k in n - k >= 0 ? sum + Double(h[k]) * Double(x[n - k]) : sum }
    }
  }

  @Test(arguments: [1, 3, 8, 17, 33, 101])
  func matchesDirectConvolution(tapCount: Int) {
    let h = StreamTesting.signal(count: tapCount, seed: 9).map { $0 / Float(tapCount) }
    let x = StreamTesting.signal(count: 1500)
    var filter = FIRFilter(coefficients: h)
    let y = filter.processed(x)
    let reference = Self.convolve(h, x)
    expectApproximatelyEqual(y.map(Double.init), reference, absoluteTolerance: 2e-6)
  }

  /// `Σ h[k]·x[n − k]` in `Float`, one product at a time from zero, oldest input first (`k` descending):
  /// the order every output of the vector kernels follows, so their outputs equal it bit for bit.
  static func inOrderSum(_ h: [Float], _ x: [Float], at n: Int) -> Float {
    var sum: Float = 0
    for k in h.indices.reversed() { sum += h[k] * (n - k >= 0 ? x[n - k] : 0) }
    return sum
  }

  /// 1000 outputs go through the 32-output blocks, the 8-output blocks and the scalar tail.
  @Test(arguments: [1, 2, 5, 9, 33])
  func equalsTheInOrderSumBitForBit(tapCount: Int) {
    let h = StreamTesting.signal(count: tapCount, seed: 5).map { $0 / Float(tapCount) }
    let x = StreamTesting.signal(count: 1000)
    var filter = FIRFilter(coefficients: h)
    #expect(filter.processed(x) == x.indices.map { Self.inOrderSum(h, x, at: $0) })
  }

  /// Out of place, the outputs past the first `taps − 1` of each 1024-sample block read the input where
  /// it lies; in place, each block is copied first. Both, in chunks shorter than the filter and longer
  /// than a block, give the in-order sums bit for bit.
  @Test(arguments: [1, 2, 5, 9, 33])
  func outOfPlaceAndInPlaceEqualTheInOrderSum(tapCount: Int) {
    let h = StreamTesting.signal(count: tapCount, seed: 5).map { $0 / Float(tapCount) }
    let x = StreamTesting.signal(count: 3000)
    let expected = x.indices.map { Self.inOrderSum(h, x, at: $0) }
    for chunk in [1, 7, 32, 1024, 1500, 3000] {
      var inPlace = FIRFilter(coefficients: h)
      var outOfPlace = FIRFilter(coefficients: h)
      var inPlaceOutputs: [Float] = []
      var outOfPlaceOutputs: [Float] = []
      for start in stride(from: 0, to: x.count, by: chunk) {
        let part = Array(x[start..<min(start + chunk, x.count)])
        inPlaceOutputs += inPlace.processed(part)
        var outputs = [Float](repeating: .nan, count: part.count)
        part.withUnsafeBufferPointer { input in
          outputs.withUnsafeMutableBufferPointer { outOfPlace.process(input, into: $0) }
        }
        outOfPlaceOutputs += outputs
      }
      #expect(inPlaceOutputs == expected, "in place, chunks of \(chunk)")
      #expect(outOfPlaceOutputs == expected, "out of place, chunks of \(chunk)")
    }
  }

  @Test func chunksEqualTheWhole() {
    let h = FIRDesign.firwin(tapCount: 61, cutoff: [40], pass: .lowpass, sampleRate: 360)
    let x = StreamTesting.signal(count: 3000)
    expectChunkInvariant(count: x.count, chunkings: StreamTesting.chunkings) {
      FIRFilter(coefficients: h)
    } feed: { filter, range in
      filter.processed(Array(x[range]))
    }
  }

  @Test func resetStartsANewSignal() {
    let x = StreamTesting.signal(count: 200)
    var filter = FIRFilter(coefficients: FIRDesign.firwin(tapCount: 9, cutoff: [0.3], pass: .lowpass))
    let first = filter.processed(x)
    filter.reset()
    #expect(filter.processed(x) == first)
  }

  @Test func nonFiniteInputSpoilsOnlyTheOutputsThatIncludeIt() {
    var x = [Float](repeating: 1, count: 40)
    x[10] = .nan
    var filter = FIRFilter(coefficients: [Float](repeating: 0.2, count: 5))
    let y = filter.processed(x)
    #expect(y[10...14].allSatisfy { $0.isNaN })
    #expect(y[..<10].allSatisfy(\.isFinite) && y[15...].allSatisfy { abs($0 - 1) < 1e-6 })
  }
}
