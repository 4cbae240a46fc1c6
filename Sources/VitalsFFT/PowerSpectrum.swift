/// A power spectrum: power (or power density) at a list of frequencies, as Welch's method and the
/// Lomb–Scargle periodogram return it, with the band helpers heart-rate and HRV analysis use.
public struct PowerSpectrum: Sendable, Hashable {
  /// Bin frequencies, Hz.
  public var frequencies: [Double]
  /// Power of each bin: unit²/Hz for a density, unit² for a spectrum.
  public var power: [Double]
  /// Whether negative frequencies are folded into the positive ones (true for ``welch(_:sampleRate:options:cache:)``
  /// with the default options).
  public var onesided: Bool

  /// A spectrum of `power[k]` at `frequencies[k]`; the two arrays must have equal lengths.
  public init(frequencies: [Double], power: [Double], onesided: Bool = true) {
    precondition(frequencies.count == power.count, "one power value per frequency")
    self.frequencies = frequencies
    self.power = power
    self.onesided = onesided
  }

  /// The power in the band `[lower, upper)` Hz: the trapezoid rule over the bins whose frequency `f`
  /// satisfies `lower ≤ f < upper`, as NeuroKit2's `signal_power` does (`np.trapz` over the masked
  /// bins). The band edges are not interpolated; fewer than two bins in the band give 0. For a
  /// density (unit²/Hz) the result is in unit² (e.g. ms² for the HF band 0.15–0.4 Hz of an RR series
  /// in ms). Bins are taken in array order, so use it on one-sided spectra (ascending frequencies).
  /// NaN in the band makes the result NaN.
  public func bandPower(from lower: Double, to upper: Double) -> Double {
    var total = 0.0
    var previous: (frequency: Double, power: Double)?
    for (f, p) in zip(frequencies, power) where f >= lower && f < upper {
      if let previous { total += (f - previous.frequency) * (p + previous.power) / 2 }
      previous = (f, p)
    }
    return total
  }

  /// The frequency, Hz, of the bin with the most power among those with `lower ≤ f < upper` (the
  /// lowest such frequency on ties), or `nil` when the band holds no bin with a non-NaN power. No
  /// interpolation between bins: the resolution is the bin spacing.
  public func peakFrequency(from lower: Double = -.infinity, to upper: Double = .infinity) -> Double? {
    var best: (frequency: Double, power: Double)?
    for (f, p) in zip(frequencies, power) where f >= lower && f < upper && !p.isNaN {
      if best == nil || p > best!.power || (p == best!.power && f < best!.frequency) { best = (f, p) }
    }
    return best?.frequency
  }
}
