import ArgumentParser
import Vitals

extension HRVFrequencyOptions.Method: ExpressibleByArgument {}
extension HRVFrequencyOptions.LombScaling: ExpressibleByArgument {}
extension TachogramInterpolation: ExpressibleByArgument {}

/// The options of `vitals hrv` that choose how beats are analyzed (artifacts, spectral estimate), as the
/// command and the C interface's `vitals_hrv_with_options` take them.
public struct HRVOptions: ParsableArguments {
  @Flag(name: .customLong("no-artifacts"), help: "Keep the intervals around RR artifact beats.")
  public var keepArtifacts = false

  /// `--no-artefacts`, the former spelling of `--no-artifacts`, still accepted.
  @Flag(name: .customLong("no-artefacts"), help: .hidden)
  public var keepArtifactsFormerSpelling = false

  @Option(help: "Spectral estimate: welch or lombScargle.")
  public var psd: HRVFrequencyOptions.Method = .welch

  @Option(
    name: .customLong("interpolation-rate"),
    help: "Welch: tachogram grid rate, \(optionRange(OptionRange.interpolationRate)) Hz.")
  public var interpolationRate = 4.0

  @Option(
    name: .customLong("tachogram-interpolation"),
    help: "Welch: tachogram interpolation (linear, quadratic, cubic spline).")
  public var tachogramInterpolation: TachogramInterpolation = .quadratic

  @Option(
    name: .customLong("lomb-scaling"),
    help: "Lomb–Scargle: density (ms²/Hz, band powers in ms²) or astropyPSD (NeuroKit2's values).")
  public var lombScaling: HRVFrequencyOptions.LombScaling = .density

  public init() {}

  public func validate() throws {
    try checkOption("--interpolation-rate", interpolationRate, in: OptionRange.interpolationRate, unit: "Hz")
  }

  /// Whether the intervals around RR artifact beats are dropped (neither `--no-artifacts` spelling given).
  public var detectArtifacts: Bool { !(keepArtifacts || keepArtifactsFormerSpelling) }

  /// The spectral estimate the options choose.
  public var frequencyOptions: HRVFrequencyOptions {
    var options = HRVFrequencyOptions()
    options.method = psd
    options.interpolationRate = interpolationRate
    options.interpolation = tachogramInterpolation
    options.lombScaling = lombScaling
    return options
  }
}
