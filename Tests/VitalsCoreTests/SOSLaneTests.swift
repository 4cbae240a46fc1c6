import Testing
import VitalsCore

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

  @Test(arguments: chunkSizeArguments)
  func multichannelChunksEqualTheWhole(chunkSize: Int?) {
    let channels = (0..<3).map { testSignal(1500, seed: UInt64($0 + 10)) }
    let expected = scalarReference(channels)
    var filter = MultichannelSOSFilter(design, channelCount: 3)
    var output: [[Float]] = [[], [], []]
    var start = 0
    for size in chunkSizes(total: 1500, size: chunkSize) {
      var chunk = channels.map { Array($0[start..<(start + size)]) }
      filter.process(&chunk)
      for channel in 0..<3 { output[channel] += chunk[channel] }
      start += size
    }
    #expect(output == expected)
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
    let scale = expected.map { abs($0) }.max()!
    let worst = zip(actual, expected).map { abs($0 - $1) }.max()!
    #expect(worst <= 2e-7 * scale)
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
