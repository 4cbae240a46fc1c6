import RealModule

/// The pass band of an IIR design, in hertz.
public enum FilterBand: Sendable, Hashable {
  /// Passes frequencies below `cutoff` Hz.
  case lowpass(cutoff: Double)
  /// Passes frequencies above `cutoff` Hz.
  case highpass(cutoff: Double)
  /// Passes frequencies between `low` and `high` Hz.
  case bandpass(low: Double, high: Double)
  /// Stops frequencies between `low` and `high` Hz.
  case bandstop(low: Double, high: Double)
}

/// Why a filter could not be designed from the options given.
public enum FilterDesignError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The sample rate is not a positive finite number of hertz.
  case invalidSampleRate(Double)
  /// The order is outside `1...8`.
  case orderOutOfRange(Int)
  /// A corner frequency is not strictly between 0 Hz and the Nyquist frequency.
  case frequencyOutOfRange(Double, nyquist: Double)
  /// A band's low edge is not below its high edge.
  case emptyBand(low: Double, high: Double)
  /// The notch quality factor is not a positive finite number.
  case invalidQualityFactor(Double)

  public var description: String {
    switch self {
    case .invalidSampleRate(let rate): "sample rate must be positive and finite, got \(rate) Hz"
    case .orderOutOfRange(let order): "filter order must be in 1...8, got \(order)"
    case .frequencyOutOfRange(let frequency, let nyquist):
      "corner frequency must lie strictly between 0 and the Nyquist frequency \(nyquist) Hz, got \(frequency) Hz"
    case .emptyBand(let low, let high): "band edges must satisfy low < high, got \(low) Hz and \(high) Hz"
    case .invalidQualityFactor(let q): "quality factor must be positive and finite, got \(q)"
    }
  }
}

extension SecondOrderSections {
  /// A digital Butterworth filter (Butterworth 1930), designed as SciPy's
  /// `scipy.signal.butter(order, corners, band, fs=sampleRate, output='sos')` (1.17) designs it: the analog
  /// prototype's zeros, poles and gain are moved to the band with corners pre-warped by
  /// `ω = 4·tan(π·f/fs)`, mapped to the `z` plane by the bilinear transform, and split into sections with
  /// `zpk2sos` nearest pairing. Coefficients agree with SciPy's to 1e-6 relative (in practice to ~1e-14).
  ///
  /// - Parameters:
  ///   - order: 1 to 8. Low- and high-pass designs have `⌈order/2⌉` sections, band designs `order` sections
  ///     (their transfer functions have degree `2·order`).
  ///   - band: corner frequencies in Hz, where the gain is −3 dB.
  ///   - sampleRate: samples per second.
  /// - Throws: ``FilterDesignError`` when the order, rate or a corner is out of range.
  public static func butterworth(
    order: Int, band: FilterBand, sampleRate: Double
  ) throws(FilterDesignError) -> SecondOrderSections {
    guard sampleRate > 0 && sampleRate.isFinite else { throw .invalidSampleRate(sampleRate) }
    guard (1...8).contains(order) else { throw .orderOutOfRange(order) }
    let nyquist = sampleRate / 2
    func warped(_ frequency: Double) throws(FilterDesignError) -> Double {
      let normalized = 2 * frequency / sampleRate
      guard normalized > 0 && normalized < 1 else { throw .frequencyOutOfRange(frequency, nyquist: nyquist) }
      return 4 * Double.tan(Double.pi * normalized / 2)
    }
    let prototype = ZerosPolesGain.butterworthPrototype(order: order)
    let analog: ZerosPolesGain
    switch band {
    case .lowpass(let cutoff): analog = prototype.lowpassToLowpass(cutoff: try warped(cutoff))
    case .highpass(let cutoff): analog = prototype.lowpassToHighpass(cutoff: try warped(cutoff))
    case .bandpass(let low, let high), .bandstop(let low, let high):
      let lower = try warped(low)
      let upper = try warped(high)
      guard low < high else { throw .emptyBand(low: low, high: high) }
      let center = (lower * upper).squareRoot()
      if case .bandpass = band {
        analog = prototype.lowpassToBandpass(center: center, bandwidth: upper - lower)
      } else {
        analog = prototype.lowpassToBandstop(center: center, bandwidth: upper - lower)
      }
    }
    return SecondOrderSections(analog.bilinear(sampleRate: 2))
  }

  /// A second-order IIR notch at `frequency` Hz with −3 dB bandwidth `frequency / qualityFactor`
  /// (`scipy.signal.iirnotch`, after Orfanidis, "Introduction to Signal Processing", 1996, §11.3), e.g. mains
  /// interference at 50 or 60 Hz with a quality factor of 30. One section, unit gain at DC and Nyquist.
  ///
  /// - Throws: ``FilterDesignError`` when the rate, the frequency or the quality factor is out of range.
  public static func notch(
    frequency: Double, qualityFactor: Double, sampleRate: Double
  ) throws(FilterDesignError) -> SecondOrderSections {
    guard sampleRate > 0 && sampleRate.isFinite else { throw .invalidSampleRate(sampleRate) }
    guard qualityFactor > 0 && qualityFactor.isFinite else { throw .invalidQualityFactor(qualityFactor) }
    let normalized = 2 * frequency / sampleRate
    guard normalized > 0 && normalized < 1 else {
      throw .frequencyOutOfRange(frequency, nyquist: sampleRate / 2)
    }
    let bandwidth = normalized / qualityFactor * Double.pi
    let center = normalized * Double.pi
    let gain = 1 / (1 + Double.tan(bandwidth / 2))
    let cosine = Double.cos(center)
    return SecondOrderSections([
      Section(b0: gain, b1: gain * (-2 * cosine), b2: gain, a1: -2 * gain * cosine, a2: 2 * gain - 1)
    ])
  }
}
