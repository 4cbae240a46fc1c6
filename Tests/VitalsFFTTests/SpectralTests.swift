import Foundation
import Testing
import VitalsFFT
import VitalsTestSupport

/// `Fixtures/fft/windows.json`: `scipy.signal.get_window(spec, count, fftbins=periodic)`.
struct WindowFixture: Decodable {
  struct Case: Decodable {
    var name: String
    var parameter: Double?
    var count: Int
    var periodic: Bool
    var values: [Double]
  }
  var cases: [Case]
}

/// `Fixtures/fft/welch.json`: `scipy.signal.welch` of synthetic inputs.
struct WelchFixture: Decodable {
  struct Case: Decodable {
    var input: String
    var sampleRate: Double
    var window: String
    var parameter: Double?
    var segmentLength: Int
    var overlap: Int?
    var fftLength: Int?
    var detrend: String
    var scaling: String
    var average: String
    var onesided: Bool
    var frequencies: [Double]
    var power: [Double]
  }
  var inputs: [String: [Double]]
  var cases: [Case]
}

/// `Fixtures/fft/lombscargle.json`: `scipy.signal.lombscargle` of an irregular synthetic series.
struct LombScargleFixture: Decodable {
  struct Case: Decodable {
    var weighted: Bool
    var floatingMean: Bool
    var normalize: String
    var real: [Double]
    var imaginary: [Double]?
  }
  var times: [Double]
  var values: [Double]
  var weights: [Double]
  var angularFrequencies: [Double]
  var cases: [Case]
}

/// The Swift window for a SciPy name and optional parameter, as the fixtures spell them.
func window(_ name: String, _ parameter: Double?) throws -> Window {
  switch (name, parameter) {
  case ("tukey", let alpha?): .tukey(alpha: alpha)
  case ("kaiser", let beta?): .kaiser(beta: beta)
  case ("gaussian", let sigma?): .gaussian(standardDeviation: sigma)
  default: try Window(scipyName: name)
  }
}

@Suite("Windows")
struct WindowTests {
  @Test("Every window equals scipy.signal.get_window, periodic and symmetric")
  func scipyWindows() throws {
    let fixture = try TestData.decodeFixture(WindowFixture.self, "fft/windows.json")
    #expect(fixture.cases.count == 216)
    for c in fixture.cases {
      let values = try window(c.name, c.parameter).coefficients(count: c.count, periodic: c.periodic)
      expectApproximatelyEqual(
        values, c.values, absoluteTolerance: 1e-24, relativeTolerance: 1e-12,
        "\(c.name)(\(c.parameter ?? .nan)) M=\(c.count) periodic=\(c.periodic)")
    }
  }

  @Test("SciPy names and aliases parse; unknown or parameterised names throw")
  func names() throws {
    #expect(try Window(scipyName: "hann_periodic") == .hann)
    #expect(try Window(scipyName: "rect") == .boxcar)
    #expect(try Window(scipyName: "blk") == .blackman)
    #expect(throws: FFTError.self) { try Window(scipyName: "tukey") }
    #expect(throws: FFTError.self) { try Window(scipyName: "hanning") }
  }
}

@Suite("Welch")
struct WelchTests {
  static let fixture = Result { try TestData.decodeFixture(WelchFixture.self, "fft/welch.json") }

  static func options(_ c: WelchFixture.Case) throws -> WelchOptions {
    WelchOptions(
      window: try window(c.window, c.parameter), segmentLength: c.segmentLength, overlap: c.overlap,
      fftLength: c.fftLength,
      detrend: ["none": .none, "constant": .constant, "linear": .linear][c.detrend]!,
      scaling: c.scaling == "density" ? .density : .spectrum, average: c.average == "mean" ? .mean : .median,
      onesided: c.onesided)
  }

  @Test("Double input equals scipy.signal.welch to 1e-5 relative", arguments: 0..<10)
  func scipyWelch(index: Int) throws {
    let fixture = try Self.fixture.get()
    let c = fixture.cases[index]
    let spectrum = try welch(fixture.inputs[c.input]!, sampleRate: c.sampleRate, options: Self.options(c))
    expectApproximatelyEqual(
      spectrum.frequencies, c.frequencies, absoluteTolerance: 0, relativeTolerance: 1e-12)
    // The floor keeps bins ~1e-12 of the peak (rounding noise in both implementations) out of the ratio.
    let peak = c.power.max()!
    expectApproximatelyEqual(
      spectrum.power, c.power, absoluteTolerance: 1e-14 * peak, relativeTolerance: 1e-5)
    #expect(spectrum.onesided == c.onesided)
  }

  @Test("Float input equals SciPy on the same (Float-representable) samples")
  func floatInput() throws {
    let fixture = try Self.fixture.get()
    let c = fixture.cases.first { $0.input == "ppgSingle" }!
    let samples = fixture.inputs[c.input]!.map { Float($0) }
    let spectrum = try welch(samples, sampleRate: c.sampleRate, options: Self.options(c))
    expectApproximatelyEqual(
      spectrum.power, c.power, absoluteTolerance: 1e-14 * c.power.max()!, relativeTolerance: 1e-5)
  }

  @Test("The estimator reuses its buffers and gives the convenience function's result")
  func estimatorReuse() throws {
    let fixture = try Self.fixture.get()
    let c = fixture.cases[1]
    let input = fixture.inputs[c.input]!
    let estimator = try WelchEstimator(sampleRate: c.sampleRate, options: Self.options(c))
    #expect(estimator.segmentCount(forInputCount: input.count) == 5)
    var power = [Double](repeating: .nan, count: estimator.binCount)
    for _ in 0..<2 {
      try input.withUnsafeBufferPointer { source in
        try power.withUnsafeMutableBufferPointer { try estimator.estimate(source, into: $0) }
      }
      expectApproximatelyEqual(
        power, c.power, absoluteTolerance: 1e-14 * c.power.max()!, relativeTolerance: 1e-5)
    }
  }

  @Test("Invalid options and inputs throw naming the parameter")
  func errors() throws {
    #expect(throws: FFTError.invalidParameter(name: "overlap", requirement: "0 ..< 8", actual: "8")) {
      try WelchEstimator(sampleRate: 4, options: WelchOptions(segmentLength: 8, overlap: 8))
    }
    #expect(
      throws: FFTError.invalidParameter(
        name: "fftLength", requirement: "at least segmentLength 8", actual: "7")
    ) {
      try WelchEstimator(sampleRate: 4, options: WelchOptions(segmentLength: 8, fftLength: 7))
    }
    #expect(throws: FFTError.self) { try WelchEstimator(sampleRate: 0) }
    #expect(throws: FFTError.inputTooShort(buffer: "input", minimum: 1, actual: 0)) {
      try welch([Double](), sampleRate: 1)
    }
    let estimator = try WelchEstimator(sampleRate: 4, options: WelchOptions(segmentLength: 16))
    #expect(throws: FFTError.inputTooShort(buffer: "input", minimum: 16, actual: 10)) {
      try estimator.estimate([Double](repeating: 0, count: 10))
    }
  }

  @Test("The median bias is SciPy's for 1 to 6 segments")
  func medianBias() throws {
    // scipy.signal._spectral_py._median_bias(n) for n = 1 … 6.
    let expected = [1.0, 1.0, 0.8333333333333334, 0.8333333333333334, 0.7833333333333334, 0.7833333333333334]
    // Through the public path: K identical segments have median = value, so the result is value / bias.
    for (k, bias) in expected.enumerated() {
      let segments = k + 1
      let input = (0..<(8 * segments)).map { Double(($0 % 8) == 3 ? 1 : 0) }
      let median = try welch(
        input, sampleRate: 1,
        options: WelchOptions(window: .boxcar, segmentLength: 8, overlap: 0, detrend: .none, average: .median)
      )
      let mean = try welch(
        input, sampleRate: 1,
        options: WelchOptions(window: .boxcar, segmentLength: 8, overlap: 0, detrend: .none))
      #expect(abs(median.power[1] * bias / mean.power[1] - 1) < 1e-12)
    }
  }
}

@Suite("PowerSpectrum")
struct PowerSpectrumTests {
  let spectrum = PowerSpectrum(frequencies: [0, 0.1, 0.2, 0.3, 0.4, 0.5], power: [9, 1, 3, 5, 2, .nan])

  @Test("Band power is the trapezoid over bins in [lower, upper)")
  func bandPower() {
    #expect(abs(spectrum.bandPower(from: 0.1, to: 0.4) - (0.1 * (1 + 3) / 2 + 0.1 * (3 + 5) / 2)) < 1e-15)
    #expect(spectrum.bandPower(from: 0.15, to: 0.25) == 0)  // one bin: no interval
    #expect(spectrum.bandPower(from: 0.3, to: 0.6).isNaN)
  }

  @Test("Peak frequency is the strongest non-NaN bin of the band")
  func peak() {
    #expect(spectrum.peakFrequency() == 0)
    #expect(spectrum.peakFrequency(from: 0.05, to: 0.5) == 0.3)
    #expect(spectrum.peakFrequency(from: 0.45, to: 1) == nil)
  }

  @Test("A sinusoid's Welch density peaks at its frequency and integrates to its variance")
  func sinusoid() throws {
    let rate = 125.0
    let signal = (0..<2000).map { 2 * sin(2 * Double.pi * 1.5 * Double($0) / rate) }
    let psd = try welch(signal, sampleRate: rate, options: WelchOptions(segmentLength: 500, fftLength: 1000))
    #expect(psd.peakFrequency(from: 0.5, to: 3) == 1.5)
    // Variance of 2·sin is 2; the Hann window spreads it over a few bins.
    #expect(abs(psd.bandPower(from: 1, to: 2) - 2) < 0.02)
  }
}

@Suite("LombScargle")
struct LombScargleTests {
  @Test("Every normalisation, weighting and floating mean equals scipy.signal.lombscargle")
  func scipyLombScargle() throws {
    let f = try TestData.decodeFixture(LombScargleFixture.self, "fft/lombscargle.json")
    #expect(f.cases.count == 12)
    for c in f.cases {
      let weights = c.weighted ? f.weights : nil
      let label = "weighted=\(c.weighted) floatingMean=\(c.floatingMean) \(c.normalize)"
      if let imaginary = c.imaginary {
        let result = try LombScargle.amplitude(
          times: f.times, values: f.values, angularFrequencies: f.angularFrequencies, weights: weights,
          floatingMean: c.floatingMean)
        let scale = c.real.map(abs).max()!
        expectApproximatelyEqual(
          result.map(\.real), c.real, absoluteTolerance: 1e-14 * scale, relativeTolerance: 1e-8, "\(label)")
        expectApproximatelyEqual(
          result.map(\.imaginary), imaginary, absoluteTolerance: 1e-14 * scale, relativeTolerance: 1e-8,
          "\(label)")
      } else {
        let result = try LombScargle.periodogram(
          times: f.times, values: f.values, angularFrequencies: f.angularFrequencies, weights: weights,
          floatingMean: c.floatingMean, normalization: c.normalize == "power" ? .power : .normalize)
        expectApproximatelyEqual(
          result, c.real, absoluteTolerance: 1e-17 * c.real.max()!, relativeTolerance: 1e-8, "\(label)")
      }
    }
  }

  @Test(
    "The fast (Press & Rybicki) periodogram is within its stated error of SciPy",
    arguments: [(10, 6, 1e-5), (5, 4, 1e-2), (20, 8, 1e-9)])
  func fast(oversampling: Int, order: Int, tolerance: Double) throws {
    let f = try TestData.decodeFixture(LombScargleFixture.self, "fft/lombscargle.json")
    let first = f.angularFrequencies[0]
    let step = (f.angularFrequencies.last! - first) / Double(f.angularFrequencies.count - 1)
    for c in f.cases where c.imaginary == nil {
      let result = try LombScargle.fastPeriodogram(
        times: f.times, values: f.values, firstAngularFrequency: first, angularFrequencyStep: step,
        count: f.angularFrequencies.count, weights: c.weighted ? f.weights : nil,
        floatingMean: c.floatingMean,
        normalization: c.normalize == "power" ? .power : .normalize, oversampling: oversampling,
        extirpolationOrder: order)
      let peak = c.real.max()!
      let error = zip(result, c.real).map { abs($0 - $1) }.max()! / peak
      #expect(
        error < tolerance, "weighted=\(c.weighted) floatingMean=\(c.floatingMean) \(c.normalize): \(error)")
    }
  }

  @Test("Mismatched lengths and invalid weights throw")
  func errors() {
    #expect(throws: FFTError.lengthMismatch(buffer: "values", expected: 3, actual: 2)) {
      try LombScargle.periodogram(times: [0, 1, 2], values: [1, 2], angularFrequencies: [1])
    }
    #expect(throws: FFTError.inputTooShort(buffer: "angularFrequencies", minimum: 1, actual: 0)) {
      try LombScargle.periodogram(times: [0, 1], values: [1, 2], angularFrequencies: [])
    }
    #expect(throws: FFTError.self) {
      try LombScargle.periodogram(times: [0, 1], values: [1, 2], angularFrequencies: [1], weights: [1, -1])
    }
    #expect(throws: FFTError.invalidParameter(name: "oversampling", requirement: "at least 2", actual: "1")) {
      try LombScargle.fastPeriodogram(
        times: [0, 1], values: [1, 2], firstAngularFrequency: 0, angularFrequencyStep: 1, count: 4,
        oversampling: 1)
    }
  }
}
