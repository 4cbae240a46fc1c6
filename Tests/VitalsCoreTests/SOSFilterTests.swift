import Testing
import VitalsCore
import VitalsTestSupport

/// SciPy filtering outputs written by `Fixtures/generate/filters.py`.
struct FilteringFixtures: Decodable {
  struct Case: Decodable {
    var name: String
    var sos: [[Double]]
    var zi: [Double]
    var sosfilt: [Float]
    var sosfiltSteady: [Float]
    var sosfiltSteadyFinalState: [Double]
    var sosfiltfilt: [Float]
    var sosfiltfiltPad10: [Float]
  }
  var signal: [Float]
  var cases: [Case]

  static let shared: FilteringFixtures = try! TestData.decodeFixture(
    FilteringFixtures.self, "filters/sosfilt.json")
  static var names: [String] { shared.cases.map(\.name) }
  static func named(_ name: String) -> Case { shared.cases.first { $0.name == name }! }
}

/// A noisy signal with an offset, a slow wave and a 50 Hz component, `count` samples.
func testSignal(_ count: Int, seed: UInt64 = 1) -> [Float] {
  var generator = SplitMix64(state: seed)
  return (0..<count).map { index in
    let slow = Float(index % 97) / 97
    return 3 + slow + Float.random(in: -1...1, using: &generator) + (index % 10 < 5 ? 0.5 : -0.5)
  }
}

/// Expects every |actual − expected| to be at most `tolerance` times the largest |expected|.
func expectWithinPeak(
  _ actual: [Float], _ expected: [Float], _ tolerance: Float,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let peak = expected.map(\.magnitude).max()!
  expectApproximatelyEqual(
    actual, expected, absoluteTolerance: tolerance * peak, sourceLocation: sourceLocation)
}

@Suite struct SOSFilterTests {
  let bandpass = try! SecondOrderSections.butterworth(
    order: 4, band: .bandpass(low: 0.5, high: 40), sampleRate: 250)

  @Test(arguments: FilteringFixtures.names)
  func causalFilteringMatchesSciPySosfilt(name: String) {
    let reference = FilteringFixtures.named(name)
    var filter = SOSFilter(SecondOrderSections(rows: reference.sos))
    expectWithinPeak(filter.filtered(FilteringFixtures.shared.signal), reference.sosfilt, 1e-6)
  }

  @Test(arguments: FilteringFixtures.names)
  func steadyStateMatchesSciPySosfiltZi(name: String) {
    let reference = FilteringFixtures.named(name)
    let design = SecondOrderSections(rows: reference.sos)
    expectApproximatelyEqual(
      design.steadyStateInitialConditions, reference.zi, absoluteTolerance: 1e-12, relativeTolerance: 1e-12)
    let signal = FilteringFixtures.shared.signal
    var filter = SOSFilter(design, steadyStateFor: Double(signal[0]))
    expectWithinPeak(filter.filtered(signal), reference.sosfiltSteady, 1e-6)
    expectApproximatelyEqual(
      filter.state, reference.sosfiltSteadyFinalState, absoluteTolerance: 1e-5, relativeTolerance: 1e-5)
  }

  @Test(arguments: FilteringFixtures.names)
  func zeroPhaseFilteringMatchesSciPySosfiltfilt(name: String) throws {
    let reference = FilteringFixtures.named(name)
    let design = SecondOrderSections(rows: reference.sos)
    let signal = FilteringFixtures.shared.signal
    expectWithinPeak(try design.zeroPhaseFiltered(signal), reference.sosfiltfilt, 1e-5)
    expectWithinPeak(try design.zeroPhaseFiltered(signal, padLength: 10), reference.sosfiltfiltPad10, 1e-5)
  }

  @Test func defaultPaddingCountsSectionsWithoutSecondOrderTerms() throws {
    #expect(bandpass.defaultPadLength == 27)
    // Order 3 low-pass: a biquad and a first-order section (b2 = a2 = 0), so 3·(2·2 + 1 − 1).
    let odd = try SecondOrderSections.butterworth(order: 3, band: .lowpass(cutoff: 10), sampleRate: 100)
    #expect(odd.defaultPadLength == 12)
  }

  @Test func zeroPhaseFilteringRejectsSignalsNoLongerThanThePadding() {
    #expect(throws: ZeroPhaseFilterError.signalTooShort(count: 27, padLength: 27)) {
      try bandpass.zeroPhaseFiltered(testSignal(27))
    }
    #expect(throws: Never.self) { try bandpass.zeroPhaseFiltered(testSignal(28)) }
  }

  /// The outputs (exact in `Double`) and then the final state.
  @Test func chunksEqualTheWhole() {
    let signal = testSignal(3000)
    expectChunkInvariant(count: signal.count, chunkings: StreamTesting.chunkings) {
      SOSFilter(bandpass)
    } feed: { filter, range in
      filter.filtered(Array(signal[range])).map(Double.init)
    } finish: { filter in
      filter.state
    }
  }

  @Test(arguments: [1, 2, 3, 5, 6, 7, 8])
  func everyGroupingOfSectionsMatchesTheDirectRecurrence(sectionCount: Int) {
    // Designs with 1–8 sections exercise one pair, one quad, quads plus a pair, padding and blocking.
    let design = try! SecondOrderSections.butterworth(
      order: sectionCount, band: .bandstop(low: 20, high: 30), sampleRate: 200)
    let signal = testSignal(700)
    var filter = SOSFilter(design)
    #expect(filter.filtered(signal) == directForm(design, signal))
  }

  @Test func stateRoundTripsAndResetReturnsToRest() {
    var filter = SOSFilter(bandpass)
    _ = filter.filtered(testSignal(100))
    let saved = filter.state
    #expect(saved.count == 8 && saved.contains { $0 != 0 })
    let continued = filter.filtered(testSignal(50, seed: 2))
    filter.state = saved
    #expect(filter.filtered(testSignal(50, seed: 2)) == continued)
    filter.reset()
    #expect(filter.state.allSatisfy { $0 == 0 })
  }

  @Test func nanPoisonsTheStateUntilReset() {
    var filter = SOSFilter(bandpass)
    var signal = testSignal(20)
    signal[5] = .nan
    #expect(filter.filtered(signal)[5...].allSatisfy { $0.isNaN })
    filter.reset()
    #expect(filter.filtered(testSignal(20)).allSatisfy { $0.isFinite })
  }

  /// SciPy's `sosfilt` loop written plainly, with the kernel's order of additions: the reference for the
  /// fused kernels.
  func directForm(_ design: SecondOrderSections, _ signal: [Float]) -> [Float] {
    var state = [Double](repeating: 0, count: 2 * design.sections.count)
    return signal.map { sample in
      var x = Double(sample)
      for (index, s) in design.sections.enumerated() {
        let y = s.b0 * x + state[2 * index]
        state[2 * index] = (s.b1 * x + state[2 * index + 1]) - s.a1 * y
        state[2 * index + 1] = s.b2 * x - s.a2 * y
        x = y
      }
      return Float(x)
    }
  }
}
