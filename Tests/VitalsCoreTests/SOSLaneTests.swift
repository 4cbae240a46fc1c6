import Testing
import VitalsCore
import VitalsTestSupport

@Suite struct SOSLaneTests {
  let design = try! SecondOrderSections.butterworth(
    order: 3, band: .bandpass(low: 1, high: 20), sampleRate: 100)

  /// Each channel through its own one-lane filter.
  func scalarReference(_ channels: [[Float]]) -> [[Float]] {
    channels.map { channel in
      var filter = SOSFilter(design)
      return filter.filtered(channel)
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5, 8, 9, 12, 16])
  func lanesEqualTheOneLanePathBitForBit(channelCount: Int) {
    let channels = (0..<channelCount).map { testSignal(400, seed: UInt64($0 + 1)) }
    let expected = scalarReference(channels)

    var planar = channels
    var filter = MultichannelSOSFilter(design, channelCount: channelCount)
    filter.process(&planar)
    #expect(planar == expected)

    var frames = (0..<400).flatMap { index in channels.map { $0[index] } }
    var interleaved = MultichannelSOSFilter(design, channelCount: channelCount)
    frames.withUnsafeMutableBufferPointer {
      interleaved.process(interleaved: UnsafeBufferPointer($0), into: $0)
    }
    #expect(frames == (0..<400).flatMap { index in expected.map { $0[index] } })

    for channel in 0..<channelCount {
      var one = SOSFilter(design)
      _ = one.filtered(channels[channel])
      #expect(filter.state(ofChannel: channel) == one.state)
      #expect(interleaved.state(ofChannel: channel) == one.state)
    }
  }

  @Test func multichannelChunksEqualTheWhole() {
    let channels = (0..<3).map { testSignal(1500, seed: UInt64($0 + 10)) }
    let whole = expectMultichannelChunkInvariant(channels) { MultichannelSOSFilter(design, channelCount: 3) }
    #expect(whole == frames(scalarReference(channels)))
  }

  /// Nine channels: a group of eight loaded straight from the frames and one through the scratch.
  @Test func interleavedChunksEqualTheWhole() {
    let channels = (0..<9).map { testSignal(900, seed: UInt64($0 + 20)) }
    let input = frames(channels)
    let whole = expectChunkInvariant(count: input.count, chunkings: StreamTesting.chunkings) {
      MultichannelSOSFilter(design, channelCount: 9)
    } feed: { filter, range in
      var samples = input[range].flatMap { $0 }
      samples.withUnsafeMutableBufferPointer {
        filter.process(interleaved: UnsafeBufferPointer($0), into: $0)
      }
      return stride(from: 0, to: samples.count, by: 9).map { Array(samples[$0..<$0 + 9]) }
    }
    #expect(whole == frames(scalarReference(channels)))
  }

  @Test func channelStatesAreIndependent() {
    var filter = MultichannelSOSFilter(design, channelCount: 3)
    var one = SOSFilter(design, steadyStateFor: 2)
    filter.setState(one.state, ofChannel: 2)
    var channels = (0..<3).map { testSignal(200, seed: UInt64($0 + 20)) }
    channels[0][10] = .nan
    filter.process(&channels)
    #expect(channels[2] == one.filtered(testSignal(200, seed: 22)))
    #expect(channels[1].allSatisfy { $0.isFinite })
    #expect(channels[0][10...].allSatisfy { $0.isNaN })
    filter.reset()
    #expect((0..<3).allSatisfy { filter.state(ofChannel: $0).allSatisfy { $0 == 0 } })
  }

  @Test func settlingLengthBoundsTheImpulseResponseTail() throws {
    let highpass = try SecondOrderSections.butterworth(
      order: 4, band: .highpass(cutoff: 0.5), sampleRate: 250)
    let length = try #require(highpass.settlingLength(tolerance: 1e-9))
    var filter = SOSFilter(highpass)
    var impulse = [Float](repeating: 0, count: length + 20_000)
    impulse[0] = 1
    let response = filter.filtered(impulse).map { abs(Double($0)) }
    let total = response.reduce(0, +)
    let tail = response[length...].reduce(0, +)
    #expect(tail <= 1e-9 * total * 1.01)
    #expect(response[(length - 200)...].reduce(0, +) > 1e-9 * total)
    // A pole on the unit circle never settles.
    #expect(
      SecondOrderSections([.init(b0: 1, b1: 0, b2: 0, a1: -1, a2: 0)]).settlingLength(tolerance: 1e-9) == nil)
  }

  /// Segments agree with the one-lane path to 2e-7 of the signal's scale (Float rounding of the output):
  /// the warm-up leaves at most 1e-9 · Σ|h| · max|x| of the ignored history.
  @Test(arguments: [0, 1, 2])
  func segmentsAgreeWithTheOneLanePath(designIndex: Int) throws {
    let designs = [
      design,
      try SecondOrderSections.butterworth(order: 2, band: .highpass(cutoff: 0.5), sampleRate: 100),
      try SecondOrderSections.notch(frequency: 50, qualityFactor: 30, sampleRate: 500),
    ]
    let segmented = SegmentedSOSFilter(designs[designIndex])
    let signal = testSignal(9 * SegmentedSOSFilter.laneCount * segmented.warmUp + 13, seed: 5)
    var one = SOSFilter(designs[designIndex])
    let expected = one.filtered(signal)
    let actual = segmented.filtered(signal)
    expectWithinPeak(actual, expected, 2e-7)
    // The first segment starts at rest like the one-lane path: identical.
    let segment = (signal.count + 7) / 8
    #expect(Array(actual[..<segment]) == Array(expected[..<segment]))
  }

  @Test func shortSignalsTakeTheOneLanePath() {
    let segmented = SegmentedSOSFilter(design, warmUp: 100)
    let signal = testSignal(799)
    var one = SOSFilter(design)
    #expect(segmented.filtered(signal) == one.filtered(signal))
  }

  @Test func tooShortAWarmUpShowsAtTheSegmentJoins() {
    // With no warm-up, each later segment starts from rest: the joins visibly differ.
    let signal = testSignal(8000)
    var one = SOSFilter(design)
    let expected = one.filtered(signal)
    let actual = SegmentedSOSFilter(design, warmUp: 0).filtered(signal)
    #expect(actual[1000] != expected[1000])
    #expect(Array(actual[..<1000]) == Array(expected[..<1000]))
  }
}

/// The channels as one frame per sample.
private func frames(_ channels: [[Float]]) -> [[Float]] {
  channels[0].indices.map { k in channels.map { $0[k] } }
}

/// Expects `makeFilter()` to filter `channels` in any chunks as it does whole (bit for bit); returns the
/// whole output as frames.
@discardableResult
private func expectMultichannelChunkInvariant(
  _ channels: [[Float]], sourceLocation: SourceLocation = #_sourceLocation,
  _ makeFilter: () -> MultichannelSOSFilter
) -> [[Float]] {
  expectChunkInvariant(
    count: channels[0].count, chunkings: StreamTesting.chunkings, sourceLocation: sourceLocation,
    makeStage: makeFilter
  ) { filter, range in
    var chunk = channels.map { Array($0[range]) }
    filter.process(&chunk)
    return frames(chunk)
  }
}

@Suite struct SOSSinglePrecisionTests {
  /// Largest |a − b| divided by the largest |b|.
  func relativeError(_ actual: [Float], _ expected: [Float]) -> Double {
    precondition(actual.count == expected.count)
    let scale = expected.map { abs(Double($0)) }.max()!
    return zip(actual, expected).map { abs(Double($0) - Double($1)) }.max()! / scale
  }

  /// Largest |single − double| over the signal's largest |double|, for `channels` channels in lanes.
  func singlePrecisionError(_ design: SecondOrderSections, channels: Int, count: Int) -> Double {
    let inputs = (0..<channels).map { testSignal(count, seed: UInt64($0 + 30)) }
    var double = inputs
    var single = inputs
    var exact = MultichannelSOSFilter(design, channelCount: channels)
    var fast = MultichannelSOSFilter(design, channelCount: channels, precision: .single)
    exact.process(&double)
    fast.process(&single)
    return zip(single, double).map { relativeError($0, $1) }.max()!
  }

  @Test func singlePrecisionIsCloseForBandsWellInsideTheUnitCircle() throws {
    // A QRS band-pass (Pan & Tompkins 1985) and an accelerometer low-pass.
    let qrs = try SecondOrderSections.butterworth(
      order: 2, band: .bandpass(low: 5, high: 15), sampleRate: 250)
    let steps = try SecondOrderSections.butterworth(order: 4, band: .lowpass(cutoff: 3), sampleRate: 50)
    #expect(singlePrecisionError(qrs, channels: 3, count: 4000) < 1e-5)
    #expect(singlePrecisionError(steps, channels: 8, count: 4000) < 1e-5)
  }

  @Test func singlePrecisionDegradesNearTheUnitCircle() throws {
    let baseline = try SecondOrderSections.butterworth(
      order: 4, band: .highpass(cutoff: 0.5), sampleRate: 500)
    // About 2e-4 of the signal's scale: the documented reason to keep Double state by default.
    #expect(singlePrecisionError(baseline, channels: 2, count: 20_000) > 1e-5)
  }

  @Test func singlePrecisionChunksEqualTheWhole() throws {
    let design = try SecondOrderSections.butterworth(
      order: 4, band: .bandpass(low: 5, high: 15), sampleRate: 250)
    let channels = (0..<5).map { testSignal(1200, seed: UInt64($0 + 40)) }
    expectMultichannelChunkInvariant(channels) {
      MultichannelSOSFilter(design, channelCount: 5, precision: .single)
    }
  }

  @Test func singlePrecisionSegmentsFollowTheSinglePrecisionLanes() throws {
    let design = try SecondOrderSections.butterworth(
      order: 2, band: .bandpass(low: 5, high: 15), sampleRate: 250)
    let segmented = SegmentedSOSFilter(design, precision: .single)
    let signal = testSignal(10 * SegmentedSOSFilter.laneCount * segmented.warmUp, seed: 9)
    var one = SOSFilter(design)
    expectWithinPeak(segmented.filtered(signal), one.filtered(signal), 1e-5)
  }
}

@Suite struct SOSFilterPairTests {
  /// Both outputs of the pair agree with two one-channel filters' to `Float` rounding (direct form I
  /// against transposed direct form II), and chunks of any size give bit for bit the output of the whole:
  /// two sections each (one pass), three each (two passes, the second padded with an identity section),
  /// two against three (the shorter padded).
  @Test(arguments: [(2, 2), (3, 3), (2, 3)])
  func pairAgreesWithTwoFiltersAndChunksEqualTheWhole(orders: (Int, Int)) throws {
    let low = try SecondOrderSections.butterworth(
      order: orders.0, band: .bandpass(low: 5, high: 15), sampleRate: 180)
    let high = try SecondOrderSections.butterworth(
      order: orders.1, band: .bandpass(low: 20, high: 45), sampleRate: 180)
    let x = testSignal(2000, seed: 3)
    var lowAlone = SOSFilter(low)
    var highAlone = SOSFilter(high)
    let whole = expectChunkInvariant(count: x.count, chunkings: StreamTesting.chunkings) {
      SOSFilterPair(low, high)
    } feed: { pair, range in
      let input = Array(x[range])
      var a = input
      var b = [Float](repeating: 0, count: input.count)
      input.withUnsafeBufferPointer { input in
        a.withUnsafeMutableBufferPointer { a in
          b.withUnsafeMutableBufferPointer { b in pair.process(input, into: a, b) }
        }
      }
      return zip(a, b).map { SIMD2($0, $1) }
    }
    expectWithinPeak(whole.map(\.x), lowAlone.filtered(x), 1e-6)
    expectWithinPeak(whole.map(\.y), highAlone.filtered(x), 1e-6)
  }
}
