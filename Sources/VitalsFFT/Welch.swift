import CFFTW

/// Options of Welch's method, named and defaulted as the parameters of `scipy.signal.welch`.
public struct WelchOptions: Sendable, Hashable {
  /// What each segment has removed before windowing (`detrend=`).
  public enum Detrend: Sendable, Hashable {
    /// Nothing (`detrend=False`).
    case none
    /// The segment's mean (`'constant'`, SciPy's default).
    case constant
    /// The segment's least-squares straight line (`'linear'`).
    case linear
  }

  /// The unit of the result (`scaling=`).
  public enum Scaling: Sendable, Hashable {
    /// Power spectral density, unit²/Hz: `|X|² / (fs·Σw²)` (`'density'`, SciPy's default).
    case density
    /// Power spectrum, unit²: `|X|² / (Σw)²` (`'spectrum'`).
    case spectrum
  }

  /// How the segments' periodograms are combined (`average=`).
  public enum Average: Sendable, Hashable {
    /// Arithmetic mean (`'mean'`, SciPy's default).
    case mean
    /// Per-bin median divided by the median's bias for χ²₂ variates, `1 + Σ_{i=1}^{⌊(K−1)/2⌋}
    /// (1/(2i+1) − 1/(2i))` for `K` segments (Allen et al. 2012, FINDCHIRP, appendix B)
    /// (`'median'`).
    case median
  }

  /// The segment window, periodic as `get_window(window, nperseg)` (default Hann).
  public var window: Window
  /// Points per segment, `nperseg` (default 256; shortened to the input length when longer).
  public var segmentLength: Int
  /// Points shared by consecutive segments, `noverlap`; `nil` means `segmentLength / 2`.
  public var overlap: Int?
  /// FFT length, `nfft` ≥ `segmentLength` (segments are zero-padded); `nil` means `segmentLength`.
  public var fftLength: Int?
  /// Per-segment trend removal (default `.constant`).
  public var detrend: Detrend
  /// Density or spectrum (default `.density`).
  public var scaling: Scaling
  /// Mean or median of the segments' periodograms (default `.mean`).
  public var average: Average
  /// One-sided spectrum (`return_onesided=True`): `nfft/2 + 1` bins from 0 to Nyquist, with every
  /// bin but 0 and (even `nfft`) Nyquist doubled. Two-sided: `nfft` bins in `numpy.fft.fftfreq` order.
  public var onesided: Bool

  /// Options with SciPy's defaults for any argument left out.
  public init(
    window: Window = .hann, segmentLength: Int = 256, overlap: Int? = nil, fftLength: Int? = nil,
    detrend: Detrend = .constant, scaling: Scaling = .density, average: Average = .mean, onesided: Bool = true
  ) {
    self.window = window
    self.segmentLength = segmentLength
    self.overlap = overlap
    self.fftLength = fftLength
    self.detrend = detrend
    self.scaling = scaling
    self.average = average
    self.onesided = onesided
  }
}

/// Welch's averaged, modified periodogram (Welch 1967, "The use of fast Fourier transform for the
/// estimation of power spectra"), equal to `scipy.signal.welch` (SciPy 1.17) to 1e-5 relative.
///
/// The input is cut into segments of ``WelchOptions/segmentLength`` points starting every
/// `segmentLength − overlap` points (a trailing partial segment is dropped, as SciPy does); each is
/// detrended, windowed, zero-padded to the FFT length and transformed; the scaled periodograms are
/// averaged. All arithmetic after reading the samples is in `Double`, whatever the sample type, and
/// the result is `Double`. A NaN sample makes every bin of its segments NaN (so the mean is NaN;
/// the median sorts NaN last).
///
/// An estimator holds its window, plan and scratch buffers, so repeated estimates allocate nothing
/// (except the per-segment table of a median). It is not thread-safe: use one per task.
public final class WelchEstimator {
  /// The options after resolving defaults (`overlap` and `fftLength` are never `nil`).
  public let options: WelchOptions
  /// Samples per second of the input; frequencies are in Hz and densities per Hz.
  public let sampleRate: Double
  /// Resolved segment step, `segmentLength − overlap`.
  public let step: Int
  /// The frequency of each output bin, Hz: `k·fs/nfft`, rounded as `numpy.fft.rfftfreq` rounds it, in its
  /// order when one-sided, in `numpy.fft.fftfreq` order when two-sided.
  public let frequencies: [Double]

  private let nfft: Int
  private let fft: RealFFT<Double>
  private let window: [Double]
  private let scale: Double
  private let segment: UnsafeMutableBufferPointer<Double>
  private let spectrum: UnsafeMutableBufferPointer<FFTComplex<Double>>
  private var segmentPowers: [Double] = []

  /// An estimator for input at `sampleRate` Hz with `options` (``WelchOptions/segmentLength`` is
  /// used as given: shortening it to the input, as ``welch(_:sampleRate:options:cache:)`` does, is
  /// the caller's choice). Throws ``FFTError/invalidParameter(name:requirement:actual:)`` for a
  /// segment length < 1, an overlap outside `0 ..< segmentLength`, an FFT length < segment length or
  /// a sample rate that is not positive and finite.
  public init(sampleRate: Double, options: WelchOptions = WelchOptions(), cache: FFTPlanCache = .shared)
    throws(FFTError)
  {
    guard sampleRate > 0, sampleRate.isFinite else {
      throw .invalidParameter(
        name: "sampleRate", requirement: "a positive finite rate in Hz", actual: "\(sampleRate)")
    }
    let nperseg = options.segmentLength
    guard nperseg >= 1 else {
      throw .invalidParameter(name: "segmentLength", requirement: "at least 1", actual: "\(nperseg)")
    }
    let noverlap = options.overlap ?? nperseg / 2
    guard noverlap >= 0, noverlap < nperseg else {
      throw .invalidParameter(name: "overlap", requirement: "0 ..< \(nperseg)", actual: "\(noverlap)")
    }
    let nfft = options.fftLength ?? nperseg
    guard nfft >= nperseg else {
      throw .invalidParameter(
        name: "fftLength", requirement: "at least segmentLength \(nperseg)", actual: "\(nfft)")
    }
    var resolved = options
    resolved.overlap = noverlap
    resolved.fftLength = nfft
    self.options = resolved
    self.sampleRate = sampleRate
    step = nperseg - noverlap
    self.nfft = nfft
    fft = try RealFFT(count: nfft, directions: .forwardOnly, cache: cache)
    window = options.window.coefficients(count: nperseg)
    switch options.scaling {
    case .density: scale = 1 / (sampleRate * window.reduce(0) { $0 + $1 * $1 })
    case .spectrum:
      let sum = window.reduce(0, +)
      scale = 1 / (sum * sum)
    }
    let binCount = options.onesided ? nfft / 2 + 1 : nfft
    // As NumPy's `rfftfreq` / `fftfreq(nfft, 1/fs)` round them, `k · (1 / (nfft · (1/fs)))`, so that a bin on
    // a band's edge (0.4 Hz) falls on the same side of it as in SciPy.
    let binWidth = 1 / (Double(nfft) * (1 / sampleRate))
    frequencies = (0..<binCount).map { k in
      let signed = options.onesided || k < (nfft + 1) / 2 ? k : k - nfft
      return Double(signed) * binWidth
    }
    // fftw_alloc_*: FFTW-aligned scratch, so every segment runs through the aligned plan.
    segment = UnsafeMutableBufferPointer(start: fftw_alloc_real(nfft), count: nfft)
    spectrum = UnsafeMutableRawBufferPointer(
      start: fftw_alloc_complex(nfft / 2 + 1), count: (nfft / 2 + 1) * MemoryLayout<FFTComplex<Double>>.stride
    ).bindMemory(to: FFTComplex<Double>.self)
    segment.initialize(repeating: 0)
    spectrum.initialize(repeating: FFTComplex(real: 0, imaginary: 0))
  }

  deinit {
    fftw_free(segment.baseAddress)
    fftw_free(spectrum.baseAddress)
  }

  /// The number of output bins: `nfft/2 + 1` one-sided, `nfft` two-sided.
  public var binCount: Int { frequencies.count }

  /// The number of segments an input of `count` samples yields, `(count − overlap) / step`
  /// (0 when shorter than one segment).
  public func segmentCount(forInputCount count: Int) -> Int {
    count < options.segmentLength ? 0 : (count - options.overlap!) / step
  }

  /// Estimates the spectrum of `input` into `power` (``binCount`` values, unit²/Hz or unit²).
  /// Throws ``FFTError/inputTooShort(buffer:minimum:actual:)`` when `input` is shorter than one
  /// segment and ``FFTError/lengthMismatch(buffer:expected:actual:)`` for a wrong `power` length.
  public func estimate<Scalar: FFTScalar>(
    _ input: UnsafeBufferPointer<Scalar>, into power: UnsafeMutableBufferPointer<Double>
  ) throws(FFTError) {
    let nperseg = options.segmentLength
    guard input.count >= nperseg else {
      throw .inputTooShort(buffer: "input", minimum: nperseg, actual: input.count)
    }
    guard power.count == binCount else {
      throw .lengthMismatch(buffer: "power", expected: binCount, actual: power.count)
    }
    let segments = segmentCount(forInputCount: input.count)
    let median = options.average == .median && segments > 1
    if median {
      segmentPowers.removeAll(keepingCapacity: true)
      segmentPowers.reserveCapacity(segments * binCount)
    }
    power.update(repeating: 0)
    for s in 0..<segments {
      load(input, from: s * step)
      try fft.forward(UnsafeBufferPointer(segment), into: spectrum)
      if median {
        for k in 0..<binCount { segmentPowers.append(periodogram(bin: k)) }
      } else {
        for k in 0..<binCount { power[k] += periodogram(bin: k) }
      }
    }
    if median {
      let bias = Self.medianBias(segments)
      segmentPowers.withUnsafeMutableBufferPointer { table in
        var column = [Double](repeating: 0, count: segments)
        for k in 0..<binCount {
          for s in 0..<segments { column[s] = table[s * binCount + k] }
          power[k] = Self.median(&column) / bias
        }
      }
    } else {
      let inverse = 1 / Double(segments)
      for k in 0..<binCount { power[k] *= inverse }
    }
  }

  /// Estimates the spectrum of `input`: frequencies and power of ``binCount`` bins.
  public func estimate<Scalar: FFTScalar>(_ input: [Scalar]) throws(FFTError) -> PowerSpectrum {
    let power = try [Double](unsafeUninitializedCapacity: binCount) { (power, initialized) throws(FFTError) in
      power.initialize(repeating: 0)
      initialized = binCount
      try input.withUnsafeBufferPointer { (input) throws(FFTError) in try estimate(input, into: power) }
    }
    return PowerSpectrum(frequencies: frequencies, power: power, onesided: options.onesided)
  }

  /// Copies segment `[start, start + nperseg)` into `segment` as `Double`, detrends, windows and
  /// leaves the zero padding up to `nfft` untouched (it is zero from initialization).
  private func load<Scalar: FFTScalar>(_ input: UnsafeBufferPointer<Scalar>, from start: Int) {
    let n = options.segmentLength
    switch Scalar.fftPrecision {
    case .single:
      UnsafeRawBufferPointer(input).withMemoryRebound(to: Float.self) { samples in
        for j in 0..<n { segment[j] = Double(samples[start + j]) }
      }
    case .double:
      UnsafeRawBufferPointer(input).withMemoryRebound(to: Double.self) { samples in
        for j in 0..<n { segment[j] = samples[start + j] }
      }
    }
    switch options.detrend {
    case .none:
      break
    case .constant:
      var sum = 0.0
      for j in 0..<n { sum += segment[j] }
      let mean = sum / Double(n)
      for j in 0..<n { segment[j] -= mean }
    case .linear:
      // Least-squares line a + b·(j − c) with c the center index: the two normal equations decouple.
      let center = Double(n - 1) / 2
      var sum = 0.0
      var moment = 0.0
      var spread = 0.0
      for j in 0..<n {
        let t = Double(j) - center
        sum += segment[j]
        moment += t * segment[j]
        spread += t * t
      }
      let mean = sum / Double(n)
      let slope = spread > 0 ? moment / spread : 0
      for j in 0..<n { segment[j] -= mean + slope * (Double(j) - center) }
    }
    for j in 0..<n { segment[j] *= window[j] }
  }

  /// The scaled periodogram of output bin `k` from the current segment's half spectrum.
  private func periodogram(bin k: Int) -> Double {
    let half = nfft / 2
    let source = k <= half ? k : nfft - k  // two-sided: negative frequencies mirror (real input)
    let value = spectrum[source].magnitudeSquared * scale
    let paired = options.onesided && k > 0 && !(nfft % 2 == 0 && k == half)
    return paired ? 2 * value : value
  }

  /// `numpy.median`: the middle value, or the mean of the two middle values; NaN sorts last.
  private static func median(_ values: inout [Double]) -> Double {
    values.sort { $0 < $1 || (!$0.isNaN && $1.isNaN) }
    let middle = values.count / 2
    return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
  }

  /// `scipy.signal._spectral_py._median_bias`.
  static func medianBias(_ count: Int) -> Double {
    var bias = 1.0
    var i = 1
    while i <= (count - 1) / 2 {
      bias += 1 / Double(2 * i + 1) - 1 / Double(2 * i)
      i += 1
    }
    return bias
  }
}

/// Welch's power spectral density of `input` sampled at `sampleRate` Hz: `scipy.signal.welch(input,
/// fs=sampleRate, …)` with the same options (see ``WelchOptions``), including SciPy's shortening of
/// a segment longer than the input to the input's length. Throws ``FFTError`` for an empty input or
/// invalid options.
public func welch<Scalar: FFTScalar>(
  _ input: [Scalar], sampleRate: Double, options: WelchOptions = WelchOptions(), cache: FFTPlanCache = .shared
) throws(FFTError) -> PowerSpectrum {
  guard !input.isEmpty else { throw .inputTooShort(buffer: "input", minimum: 1, actual: 0) }
  var options = options
  options.segmentLength = min(options.segmentLength, input.count)
  return try WelchEstimator(sampleRate: sampleRate, options: options, cache: cache).estimate(input)
}
