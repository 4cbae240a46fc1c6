import ComplexModule
import Testing
import VitalsTestSupport

@testable import VitalsCore

/// SciPy designs written by `Fixtures/generate/filters.py`.
struct DesignFixtures: Decodable {
  struct Butter: Decodable {
    var order: Int
    var band: String
    var corners: [Double]
    var fs: Double
    var sos: [[Double]]
  }
  struct Notch: Decodable {
    var frequency: Double
    var q: Double
    var fs: Double
    var sos: [[Double]]
  }
  var butter: [Butter]
  var notch: [Notch]

  static let shared: DesignFixtures = try! TestData.decodeFixture(DesignFixtures.self, "filters/butter.json")
}

/// Every coefficient within `relative` of SciPy's, relative to the coefficient itself, with a floor of
/// 1e-12 of the largest coefficient of its row for coefficients SciPy computes as (rounded) zero.
func expectCoefficients(
  _ actual: SecondOrderSections, equal expected: [[Double]], relative: Double = 1e-6,
  _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(actual.sections.count == expected.count, comment, sourceLocation: sourceLocation)
  for (row, reference) in zip(actual.rows, expected) {
    let scale = reference.map(abs).max()!
    for (value, target) in zip(row, reference) {
      #expect(
        abs(value - target) <= relative * abs(target) + 1e-12 * scale, "\(comment): \(row) vs \(reference)",
        sourceLocation: sourceLocation)
    }
  }
}

@Suite struct FilterDesignTests {
  @Test(arguments: ["lowpass", "highpass", "bandpass", "bandstop"])
  func butterworthMatchesSciPy(band: String) throws {
    let cases = DesignFixtures.shared.butter.filter { $0.band == band }
    #expect(cases.count == 64)
    for reference in cases {
      let filterBand: FilterBand
      switch band {
      case "lowpass": filterBand = .lowpass(cutoff: reference.corners[0])
      case "highpass": filterBand = .highpass(cutoff: reference.corners[0])
      case "bandpass": filterBand = .bandpass(low: reference.corners[0], high: reference.corners[1])
      default: filterBand = .bandstop(low: reference.corners[0], high: reference.corners[1])
      }
      let design = try SecondOrderSections.butterworth(
        order: reference.order, band: filterBand, sampleRate: reference.fs)
      expectCoefficients(
        design, equal: reference.sos,
        "order \(reference.order) \(band) \(reference.corners) at \(reference.fs) Hz")
    }
  }

  @Test func notchMatchesSciPy() throws {
    for reference in DesignFixtures.shared.notch {
      let design = try SecondOrderSections.notch(
        frequency: reference.frequency, qualityFactor: reference.q, sampleRate: reference.fs)
      expectCoefficients(
        design, equal: reference.sos, "notch \(reference.frequency) Hz Q \(reference.q) at \(reference.fs) Hz"
      )
    }
  }

  @Test func sectionCountsFollowTheOrder() throws {
    for order in 1...8 {
      let low = try SecondOrderSections.butterworth(order: order, band: .lowpass(cutoff: 10), sampleRate: 100)
      let band = try SecondOrderSections.butterworth(
        order: order, band: .bandpass(low: 1, high: 10), sampleRate: 100)
      #expect(low.sections.count == (order + 1) / 2)
      #expect(band.sections.count == order)
    }
  }

  @Test func gainIsOneInThePassBandAndHalfPowerAtTheCorner() throws {
    let design = try SecondOrderSections.butterworth(order: 6, band: .lowpass(cutoff: 30), sampleRate: 250)
    #expect(abs(magnitude(of: design, at: 0, sampleRate: 250) - 1) < 1e-12)
    #expect(abs(magnitude(of: design, at: 30, sampleRate: 250) - 0.5.squareRoot()) < 1e-12)
    let notch = try SecondOrderSections.notch(frequency: 50, qualityFactor: 30, sampleRate: 500)
    #expect(magnitude(of: notch, at: 50, sampleRate: 500) < 1e-12)
    #expect(abs(magnitude(of: notch, at: 0, sampleRate: 500) - 1) < 1e-12)
  }

  @Test func butterworthPrototypePolesLieOnTheUnitCircleInTheLeftHalfPlane() {
    let prototype = ZerosPolesGain.butterworthPrototype(order: 5)
    #expect(prototype.poles.count == 5)
    for pole in prototype.poles {
      #expect(abs(pole.length - 1) < 1e-15)
      #expect(pole.real < 0)
    }
    #expect(prototype.poles[2] == Complex(-1, -0.0))
  }

  /// The band transforms rely on NumPy's branch of `sqrt`, which ComplexModule's follows.
  @Test func principalSquareRootFollowsTheSignOfTheImaginaryPart() {
    #expect(Complex.sqrt(Complex(-4, 0)) == Complex(0, 2))
    #expect(Complex.sqrt(Complex(-4, -0.0)) == Complex(0, -2))
    let root = Complex.sqrt(Complex(3, 4))
    #expect(abs(root.real - 2) < 1e-15 && abs(root.imaginary - 1) < 1e-15)
  }

  @Test func invalidOptionsThrow() {
    #expect(throws: FilterDesignError.orderOutOfRange(9)) {
      try SecondOrderSections.butterworth(order: 9, band: .lowpass(cutoff: 10), sampleRate: 100)
    }
    #expect(throws: FilterDesignError.frequencyOutOfRange(50, nyquist: 50)) {
      try SecondOrderSections.butterworth(order: 2, band: .highpass(cutoff: 50), sampleRate: 100)
    }
    #expect(throws: FilterDesignError.emptyBand(low: 10, high: 5)) {
      try SecondOrderSections.butterworth(order: 2, band: .bandpass(low: 10, high: 5), sampleRate: 100)
    }
    #expect(throws: FilterDesignError.invalidSampleRate(0)) {
      try SecondOrderSections.butterworth(order: 2, band: .lowpass(cutoff: 1), sampleRate: 0)
    }
    #expect(throws: FilterDesignError.invalidQualityFactor(-1)) {
      try SecondOrderSections.notch(frequency: 50, qualityFactor: -1, sampleRate: 500)
    }
    #expect(throws: FilterDesignError.frequencyOutOfRange(60, nyquist: 50)) {
      try SecondOrderSections.notch(frequency: 60, qualityFactor: 30, sampleRate: 100)
    }
  }

  @Test func rowsRoundTripAndNormaliseByA0() {
    let design = SecondOrderSections(rows: [[2, 4, 2, 2, -1, 0.5]])
    #expect(design.rows == [[1, 2, 1, 1, -0.5, 0.25]])
  }

  /// |H(e^{iω})| evaluated directly from the sections.
  func magnitude(of design: SecondOrderSections, at frequency: Double, sampleRate: Double) -> Double {
    let z = Complex(length: 1, phase: -2 * Double.pi * frequency / sampleRate)
    let z2 = z * z
    var response = Complex<Double>.one
    for s in design.sections {
      let numerator = Complex(s.b0) + z.multiplied(by: s.b1) + z2.multiplied(by: s.b2)
      let denominator = .one + z.multiplied(by: s.a1) + z2.multiplied(by: s.a2)
      response = response * (numerator / denominator)
    }
    return response.length
  }
}
