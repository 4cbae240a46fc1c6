import VitalsFFT

import VitalsSupport

/// How ``HRVFrequencyDomain`` estimates the spectrum of an NN series. The defaults are NeuroKit2
/// 0.2.13's `hrv_frequency` with `normalize=False` and `interpolation_rate=4`. NeuroKit2's own default
/// rate is 100 Hz; 4 Hz is Kubios' and costs 1/25. On a clean NN series the two agree closely (NeuroKit2
/// on the detected beats of MIT-BIH 119: band powers within 0.2 %), but the spline through a sharp
/// artifact holds power above 2 Hz that aliases into the bands at 4 Hz (record 101 with its RR
/// artifacts kept: LF 14 % lower than at 100 Hz): drop artifacts first, or set ``interpolationRate``.
public struct HRVFrequencyOptions: Sendable, Hashable {
  /// The spectral estimator.
  public enum Method: String, Sendable, Hashable, Codable, CaseIterable {
    /// Welch's averaged periodogram (Welch 1967) of the tachogram interpolated onto a uniform grid.
    case welch
    /// The Lomb–Scargle periodogram (Lomb 1976; Scargle 1982) of the raw, unevenly spaced NN
    /// intervals at the times of their closing beats: no interpolation.
    case lombScargle
  }

  /// The unit of the Lomb–Scargle spectrum.
  public enum LombScaling: String, Sendable, Hashable, Codable, CaseIterable {
    /// A one-sided density in ms²/Hz whose integral is the variance (Parseval), so band powers are in
    /// ms² like Welch's: astropy's `"psd"` periodogram × 2·(t_last − t_first)/(N − 1), twice the mean
    /// sampling interval (exact for even sampling).
    case density
    /// astropy's `LombScargle(normalization="psd")` as NeuroKit2 integrates it (ms²; band "powers" in
    /// ms²·Hz): `½·(YC²/CC + YS²/SS)·N` with the mean fitted at every frequency.
    case astropyPSD
  }

  /// A frequency band `[lower, upper)` in Hz.
  public struct Band: Sendable, Hashable, Codable {
    public var lower: Double
    public var upper: Double

    public init(_ lower: Double, _ upper: Double) {
      precondition(lower >= 0 && lower < upper && upper.isFinite, "a band is 0 ≤ lower < upper < ∞")
      self.lower = lower
      self.upper = upper
    }
  }

  /// Estimator (default Welch).
  public var method: Method = .welch
  /// Ultra-low, very-low, low, high and very-high frequency bands, Hz (Task Force 1996; NeuroKit2's
  /// defaults: 0–0.0033, 0.0033–0.04, 0.04–0.15, 0.15–0.4, 0.4–0.5). A bin at frequency f belongs to a
  /// band when lower ≤ f < upper.
  public var ulf = Band(0, 0.0033)
  public var vlf = Band(0.0033, 0.04)
  public var lf = Band(0.04, 0.15)
  public var hf = Band(0.15, 0.4)
  public var vhf = Band(0.4, 0.5)
  /// Welch: rate of the uniform grid the tachogram is interpolated onto, Hz (default 4).
  public var interpolationRate = 4.0
  /// Welch: the interpolant (default the quadratic spline, as NeuroKit2).
  public var interpolation = TachogramInterpolation.quadratic
  /// The lowest frequency kept, Hz; bins below it take no part in any band. `nil` is NeuroKit2's rule:
  /// `4·rate/N` for Welch (N grid points: four bins of the zero-padded spectrum) and
  /// `4·median(Δt)/N` for Lomb–Scargle (N intervals, Δt the times between them in seconds).
  public var minimumFrequency: Double? = nil
  /// Welch: segment length, seconds; `nil` is NeuroKit2's rule, `2 / minimumFrequency` (two cycles of
  /// the lowest frequency). Either way at most half the grid, so there are at least three segments.
  public var segmentDuration: Double? = nil
  /// Welch: the segment window (default Hann, periodic).
  public var window: Window = .hann
  /// Welch: FFT length as a multiple of the segment length (zero padding; NeuroKit2: 2).
  public var zeroPadding = 2
  /// Lomb–Scargle: frequency step `1 / (samplesPerPeak · (t_last − t_first))` (astropy: 5).
  public var samplesPerPeak = 5.0
  /// Lomb–Scargle: unit of the spectrum (default ms²/Hz).
  public var lombScaling = LombScaling.density
  /// Divide the spectrum by its largest value before integrating (NeuroKit2's default `normalize=True`;
  /// default false here so that powers are in ms²). The largest value is taken over every bin computed:
  /// 0 to the grid's Nyquist frequency for Welch, the minimum frequency to the top of the highest band
  /// for Lomb–Scargle.
  public var normalizeToPeak = false

  public init() {}

  /// The five bands in order ULF, VLF, LF, HF, VHF.
  public var bands: [Band] { [ulf, vlf, lf, hf, vhf] }
}

/// Frequency-domain heart-rate variability of an NN series, with NeuroKit2 0.2.13's `hrv_frequency`
/// names and definitions (Task Force of the ESC and NASPE 1996; Pham et al. 2021).
///
/// The power of each band is the trapezoid integral of the spectrum over the bins inside the band
/// (`PowerSpectrum/bandPower(from:to:)`), in ms² (ms²/Hz × Hz) with the default options; a band
/// with fewer than two bins, or no power, is NaN (NeuroKit2: "too short to compute"). TP is the sum of
/// the five bands that are not NaN, LF/HF = LF / HF, LFn = LF / TP and HFn = HF / TP (NeuroKit2 divides
/// by the total including ULF, VLF and VHF, not by LF + HF), LnHF = ln HF. Peak frequencies are those of
/// the largest bin in each band, Hz (NaN when the band holds none); their resolution is the bin spacing.
///
/// Welch (``HRVFrequencyOptions/Method/welch``): the intervals (ms) at the times of their closing beats
/// are interpolated (``TachogramInterpolation``) onto a grid at ``HRVFrequencyOptions/interpolationRate``
/// Hz, the grid's mean is removed, and `scipy.signal.welch` runs with a periodic Hann window, segments of
/// `2/minimumFrequency` s (at most half the grid), half overlap, FFT twice the segment, no detrending,
/// one-sided density scaling (ms²/Hz). Lomb–Scargle: the generalized periodogram of the intervals with
/// a floating mean at frequencies `f_min + k·df` up to the top of the highest band, by Press & Rybicki's
/// fast method with 20× oversampling and 8-point extirpolation (about 3e-10 of the peak from the exact sums).
/// Gaps in the series (dropped intervals) are interpolated across, as NeuroKit2 does.
public struct HRVFrequencyDomain: Sendable, Equatable, Codable {
  /// Band powers (ms² with the default options; see the type's documentation).
  public var ulf: Double, vlf: Double, lf: Double, hf: Double, vhf: Double
  /// Total power: the sum of the five bands that are not NaN.
  public var tp: Double
  /// LF / HF.
  public var lfhf: Double
  /// LF / TP and HF / TP.
  public var lfn: Double, hfn: Double
  /// ln HF (natural logarithm of the power in ms²).
  public var lnhf: Double
  /// Frequency of the largest bin in each band, Hz.
  public var ulfPeak: Double, vlfPeak: Double, lfPeak: Double, hfPeak: Double, vhfPeak: Double

  /// The indices of `series` with `options`; every value is NaN when the series has too few
  /// intervals (Welch: fewer than `degree + 1` of the interpolant or a grid under 4 points;
  /// Lomb–Scargle: fewer than 3 intervals) or spans too long a time for bounded memory (Welch: a
  /// grid of more than ``TachogramInterpolation/maximumGridCount`` points; Lomb–Scargle: more than
  /// 1/20 of that many frequencies, whose sums use a grid 20 times finer).
  public init(_ series: NNSeries, options: HRVFrequencyOptions = HRVFrequencyOptions()) {
    let spectrum = Self.spectrum(of: series, options: options)
    var powers: [Double] = []
    var peaks: [Double] = []
    for band in options.bands {
      guard let spectrum else {
        powers.append(.nan)
        peaks.append(.nan)
        continue
      }
      let power = spectrum.bandPower(from: band.lower, to: band.upper)
      powers.append(power == 0 || power.isNaN ? .nan : power)
      peaks.append(spectrum.peakFrequency(from: band.lower, to: band.upper) ?? .nan)
    }
    (ulf, vlf, lf, hf, vhf) = (powers[0], powers[1], powers[2], powers[3], powers[4])
    (ulfPeak, vlfPeak, lfPeak, hfPeak, vhfPeak) = (peaks[0], peaks[1], peaks[2], peaks[3], peaks[4])
    tp = spectrum == nil ? .nan : powers.filter { !$0.isNaN }.reduce(0, +)
    lfhf = lf / hf
    lfn = lf / tp
    hfn = hf / tp
    lnhf = log(hf)
  }

  /// The spectrum the indices integrate: bins from the minimum frequency to the top of the highest
  /// band, in ms²/Hz (or as ``HRVFrequencyOptions/lombScaling`` and
  /// ``HRVFrequencyOptions/normalizeToPeak`` say); `nil` when the series is too short.
  public static func spectrum(of series: NNSeries, options: HRVFrequencyOptions = HRVFrequencyOptions())
    -> PowerSpectrum?
  {
    precondition(options.interpolationRate > 0 && options.interpolationRate.isFinite, "rate must be > 0")
    precondition(options.zeroPadding >= 1, "zero padding is a factor of at least 1")
    precondition(
      options.samplesPerPeak > 0 && options.samplesPerPeak.isFinite, "samples per peak must be > 0")
    let top = options.bands.map(\.upper).max()!
    let estimate: (spectrum: PowerSpectrum, minimum: Double)?
    switch options.method {
    case .welch: estimate = welch(series, options: options)
    case .lombScargle: estimate = lombScargle(series, options: options, top: top)
    }
    guard let estimate else { return nil }
    var spectrum = estimate.spectrum
    if options.normalizeToPeak, let peak = spectrum.power.max(), peak > 0 {
      spectrum.power = spectrum.power.map { $0 / peak }
    }
    let minimum = Swift.max(estimate.minimum, options.bands.map(\.lower).min()!)
    let kept = spectrum.frequencies.indices.filter {
      spectrum.frequencies[$0] >= minimum && spectrum.frequencies[$0] <= top
    }
    return PowerSpectrum(
      frequencies: kept.map { spectrum.frequencies[$0] }, power: kept.map { spectrum.power[$0] })
  }

  /// Welch's density of the interpolated tachogram from 0 to the grid's Nyquist frequency, and the
  /// minimum frequency.
  private static func welch(_ series: NNSeries, options: HRVFrequencyOptions)
    -> (spectrum: PowerSpectrum, minimum: Double)?
  {
    guard series.count > options.interpolation.degree else { return nil }
    let rate = options.interpolationRate
    guard
      let grid = TachogramInterpolation.gridTimes(
        from: series.endTimes[0], to: series.endTimes[series.count - 1], rate: rate),
      grid.count >= 4
    else { return nil }
    var values = options.interpolation.interpolate(times: series.endTimes, values: series.intervals, at: grid)
    let mean = values.reduce(0, +) / Double(values.count)
    for k in values.indices { values[k] -= mean }
    let n = Double(values.count)
    let minimum = options.minimumFrequency ?? (2 * rate) / (n / 2)
    var segment = Int(
      options.segmentDuration.map { $0 * rate } ?? (2 / (minimum == 0 ? 0.001 : minimum)) * rate)
    if Double(segment) > n / 2 { segment = Int(n / 2) }
    segment = Swift.max(segment, 1)
    let welchOptions = WelchOptions(
      window: options.window, segmentLength: segment, fftLength: options.zeroPadding * segment, detrend: .none
    )
    do {
      let estimator = try WelchEstimator(sampleRate: rate, options: welchOptions, cache: welchPlans)
      return (try estimator.estimate(values), minimum)
    } catch {
      preconditionFailure("Welch options derived from a valid grid were rejected: \(error)")
    }
  }

  /// The plans of the Welch spectra: their FFT length follows the record's duration, so the shared cache
  /// would keep one (megabytes for a day's record) for every record of a batch; these few serve runs of
  /// records, or windows, of one length.
  private static let welchPlans = FFTPlanCache(rigor: .estimate, capacity: 4)

  /// The oversampling of the Lomb–Scargle sums' extirpolation grid.
  private static let lombScargleOversampling = 20

  /// The most Lomb–Scargle frequencies computed: the extirpolation grid then holds at most
  /// ``TachogramInterpolation/maximumGridCount`` points, as Welch's tachogram does (about 7 days of
  /// beats at the default 5 samples per peak up to 0.5 Hz).
  private static let lombScargleMaximumFrequencyCount =
    TachogramInterpolation.maximumGridCount / lombScargleOversampling

  /// The Lomb–Scargle spectrum at `f_min + k·df` up to `top` Hz, and `f_min`.
  private static func lombScargle(_ series: NNSeries, options: HRVFrequencyOptions, top: Double)
    -> (spectrum: PowerSpectrum, minimum: Double)?
  {
    let times = series.endTimes
    let n = times.count
    guard n >= 3, let first = times.first, let last = times.last, last > first else { return nil }
    let median = DescriptiveStatistics.median(sorted: (1..<n).map { times[$0] - times[$0 - 1] }.sorted())
    let minimum = options.minimumFrequency ?? (2 * median) / (Double(n) / 2)
    let baseline = last - first
    let df = 1 / baseline / options.samplesPerPeak
    let steps = ((top - minimum) / df).rounded(.down)
    guard minimum <= top, steps < Double(lombScargleMaximumFrequencyCount) else { return nil }
    let count = Int(steps) + 1
    let frequencies = (0..<count).map { minimum + df * Double($0) }
    let mean = series.intervals.reduce(0, +) / Double(n)
    let centered = series.intervals.map { $0 - mean }
    var power: [Double]
    do {
      power = try LombScargle.fastPeriodogram(
        times: times, values: centered, firstAngularFrequency: 2 * Double.pi * minimum,
        angularFrequencyStep: 2 * Double.pi * df, count: count, floatingMean: true, normalization: .power,
        oversampling: lombScargleOversampling, extirpolationOrder: 8)
    } catch {
      preconditionFailure("Lomb–Scargle arguments derived from a valid series were rejected: \(error)")
    }
    if options.lombScaling == .density {
      let scale = 2 * baseline / Double(n - 1)
      for k in power.indices { power[k] *= scale }
    }
    return (PowerSpectrum(frequencies: frequencies, power: power), minimum)
  }
}
