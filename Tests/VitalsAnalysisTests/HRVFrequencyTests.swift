import Foundation
import Testing
import VitalsAnalysis
import VitalsFFT
import VitalsTestSupport

/// `Fixtures/hrv/frequency_reference.json`, written by `Fixtures/generate/hrv_frequency.py`.
private struct FrequencyReference: Decodable {
  struct Values: Decodable {
    var ULF: Double?, VLF: Double?, LF: Double?, HF: Double?, VHF: Double?
    var TP: Double?, LFHF: Double?, LFn: Double?, HFn: Double?, LnHF: Double?
  }
  struct Series: Decodable {
    var name: String
    var samplingRate: Double
    var peaks: [Int64]
    var welch: Values
    var welchPeaks: [Double?]
    var lomb: Values
    var welchNormalized: Values?
    var welchCubic10Hz: Values?
  }
  struct Gaps: Decodable {
    var rri: [Double]
    var rriTime: [Double]
    var welch: Values
    var lomb: Values
  }
  var series: [Series]
  var gaps: Gaps
}

private let reference = Result {
  try TestData.decodeFixture(FrequencyReference.self, "hrv/frequency_reference.json")
}

/// Every index of `result` equals `expected` within `tolerance` relative (NaN where NeuroKit2 has null).
private func expectMatches(
  _ result: HRVFrequencyDomain, _ expected: FrequencyReference.Values, tolerance: Double, _ label: String
) {
  let pairs: [(String, Double, Double?)] = [
    ("ULF", result.ulf, expected.ULF), ("VLF", result.vlf, expected.VLF), ("LF", result.lf, expected.LF),
    ("HF", result.hf, expected.HF), ("VHF", result.vhf, expected.VHF), ("TP", result.tp, expected.TP),
    ("LFHF", result.lfhf, expected.LFHF), ("LFn", result.lfn, expected.LFn),
    ("HFn", result.hfn, expected.HFn),
    ("LnHF", result.lnhf, expected.LnHF),
  ]
  for (name, actual, wanted) in pairs {
    expectClose(actual, wanted, relative: tolerance, absolute: 0, allowsInfinity: false, "\(label) \(name)")
  }
}

private func nkLomb() -> HRVFrequencyOptions {
  var options = HRVFrequencyOptions()
  options.method = .lombScargle
  options.lombScaling = .astropyPSD
  return options
}

@Suite("HRV frequency domain")
struct HRVFrequencyTests {
  /// Welch with NeuroKit2's configuration is the same computation (quadratic spline, same grid, same
  /// segments): equal to 1e-12 relative (measured: 4.5e-14), rounding in the spline solve aside.
  @Test("Welch's FFT plan, whose length follows the record's, is not kept in the shared cache")
  func welchPlansAreNotKept() throws {
    let options = HRVFrequencyOptions()
    for seconds in [1_201.0, 1_403.0, 1_607.0] {
      // Beats every 0.8 s with a 0.1-Hz swing, for `seconds`.
      var times: [Double] = [0]
      while times.last! < seconds { times.append(times.last! + 0.8 + 0.05 * sin(0.2 * .pi * times.last!)) }
      let nn = NNSeries(beats: times.map { Int64(($0 * 1000).rounded()) }, sampleRate: 1000)
      #expect(HRVFrequencyDomain.spectrum(of: nn, options: options) != nil)
      // Welch's FFT length: half the 4-Hz tachogram, zero-padded by `zeroPadding`.
      let grid = try #require(
        TachogramInterpolation.gridTimes(
          from: nn.endTimes.first!, to: nn.endTimes.last!, rate: options.interpolationRate))
      let length = options.zeroPadding * (grid.count / 2)
      let key = FFTPlan.Key(size: length, kind: .realForward, precision: .double)
      #expect(!FFTPlanCache.shared.holdsPlan(for: key), "a plan of \(length) points is kept")
      // The check sees such a plan once one is made through the shared cache.
      _ = try RealFFT<Double>(count: length, directions: .forwardOnly)
      #expect(FFTPlanCache.shared.holdsPlan(for: key))
    }
  }

  @Test("Welch equals NeuroKit2 hrv_frequency (interpolation_rate=4, normalize=False)")
  func welchMatchesNeuroKit2() throws {
    for series in try reference.get().series {
      let nn = NNSeries(beats: series.peaks, sampleRate: series.samplingRate)
      let result = HRVFrequencyDomain(nn)
      expectMatches(result, series.welch, tolerance: 1e-12, series.name)
      let peaks = [result.ulfPeak, result.vlfPeak, result.lfPeak, result.hfPeak, result.vhfPeak]
      for (peak, expected) in zip(peaks, series.welchPeaks) {
        if let expected {
          #expect(abs(peak - expected) < 1e-12, "\(series.name) peak")
        } else {
          #expect(peak.isNaN)
        }
      }
    }
  }

  /// Lomb–Scargle: astropy 8 evaluates the periodogram by its own fast approximation, Vitals by Press &
  /// Rybicki's with 20× oversampling and 8-point extirpolation; both are within about 1e-8 of the exact
  /// sums (measured: 3.5e-8 relative on the bands), so 1e-6 relative bounds the difference.
  @Test("Lomb–Scargle equals NeuroKit2 hrv_frequency (psd_method=lomb, astropy psd scaling)")
  func lombMatchesNeuroKit2() throws {
    for series in try reference.get().series {
      let nn = NNSeries(beats: series.peaks, sampleRate: series.samplingRate)
      expectMatches(HRVFrequencyDomain(nn, options: nkLomb()), series.lomb, tolerance: 1e-6, series.name)
    }
  }

  @Test("NeuroKit2's options: normalisation to the peak, cubic spline at 10 Hz")
  func otherOptions() throws {
    let series = try reference.get().series[0]
    let nn = NNSeries(beats: series.peaks, sampleRate: series.samplingRate)
    var normalized = HRVFrequencyOptions()
    normalized.normalizeToPeak = true
    expectMatches(
      HRVFrequencyDomain(nn, options: normalized), try #require(series.welchNormalized), tolerance: 1e-9,
      "normalized")
    var cubic = HRVFrequencyOptions()
    cubic.interpolation = .cubic
    cubic.interpolationRate = 10
    expectMatches(
      HRVFrequencyDomain(nn, options: cubic), try #require(series.welchCubic10Hz), tolerance: 1e-9, "cubic")
  }

  @Test("an NN series with gaps is interpolated across them, as NeuroKit2 does")
  func gaps() throws {
    let gaps = try reference.get().gaps
    let nn = NNSeries(
      intervals: gaps.rri, endTimes: gaps.rriTime,
      followsPrevious: gaps.rri.indices.map {
        $0 > 0 && abs(gaps.rriTime[$0] - gaps.rriTime[$0 - 1] - gaps.rri[$0] / 1000) < 1e-6
      })
    expectMatches(HRVFrequencyDomain(nn), gaps.welch, tolerance: 1e-9, "gaps welch")
    expectMatches(HRVFrequencyDomain(nn, options: nkLomb()), gaps.lomb, tolerance: 1e-6, "gaps lomb")
  }

  /// Parseval: a tachogram of a 0.25 Hz sinusoid of amplitude A ms has variance A²/2, all in HF; Welch
  /// and the Lomb–Scargle density both put it there (within the leakage of the window and the grid).
  @Test(
    "band powers are in ms²: a pure respiratory modulation",
    arguments: [HRVFrequencyOptions.Method.welch, .lombScargle])
  func parseval(method: HRVFrequencyOptions.Method) {
    let amplitude = 40.0
    var times: [Double] = []
    var intervals: [Double] = []
    var t = 0.0
    while t < 600 {
      let rr = 900 + amplitude * sin(2 * Double.pi * 0.25 * t)
      t += rr / 1000
      times.append(t)
      intervals.append(rr)
    }
    let nn = NNSeries(
      intervals: intervals, endTimes: times, followsPrevious: intervals.indices.map { $0 > 0 })
    var options = HRVFrequencyOptions()
    options.method = method
    let result = HRVFrequencyDomain(nn, options: options)
    let variance = amplitude * amplitude / 2
    #expect(abs(result.hf - variance) / variance < 0.05, "HF \(result.hf) vs \(variance)")
    #expect(result.lf < 0.02 * variance)
    #expect(abs(result.hfPeak - 0.25) < 0.01)
    #expect(result.hfn > 0.95)
  }

  @Test("too short a series gives NaN everywhere")
  func tooShort() {
    let nn = NNSeries(beats: [0, 800, 1600], sampleRate: 1000)
    let result = HRVFrequencyDomain(nn)
    #expect(result.lf.isNaN && result.hf.isNaN && result.tp.isNaN && result.lfhf.isNaN && result.hfPeak.isNaN)
  }

  @Test(
    "spline interpolation reproduces polynomials of its degree", arguments: TachogramInterpolation.allCases)
  func splineExactness(method: TachogramInterpolation) throws {
    let times = [0.0, 0.7, 1.5, 2.1, 3.4, 4.0, 5.2, 6.1]
    func p(_ x: Double) -> Double {
      (0...method.degree).reduce(0) { $0 + pow(x, Double($1)) * Double($1 + 1) }
    }
    let grid = try #require(TachogramInterpolation.gridTimes(from: 0, to: 6.1, rate: 4))
    #expect(grid.count == 26)  // numpy.arange(0, 6.35, 0.25): 0, 0.25, …, 6.25
    let values = method.interpolate(times: times, values: times.map(p), at: grid)
    for (x, y) in zip(grid, values) where x <= 6.1 {
      #expect(abs(y - p(x)) < 1e-9 * max(1, abs(p(x))), "\(method) at \(x)")
    }
    #expect(values.last == p(6.1))  // beyond the last point: its value
  }
}

@Test("HRVAnalysis reports the frequency domain of its NN series")
func analysisIncludesFrequency() throws {
  let series = try reference.get().series[1]
  var options = HRVFrequencyOptions()
  options.method = .lombScargle
  let analysis = HRVAnalysis(beats: series.peaks, sampleRate: series.samplingRate, frequencyOptions: options)
  #expect(analysis.frequency == HRVFrequencyDomain(analysis.intervals, options: options))
  #expect(analysis.frequency.hf > 0)
}
