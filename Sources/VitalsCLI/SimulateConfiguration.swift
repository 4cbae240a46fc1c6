import ArgumentParser
import Vitals

/// The options of `vitals simulate` checked and turned into the library's configurations.
extension Simulate {
  /// Rejects options outside their ranges before anything is written.
  public func validate() throws {
    guard output.lowercased().hasSuffix(".csv") else {
      throw ValidationError("--output must be a .csv file, got '\(output)'")
    }
    try checkOption("--duration", duration, in: OptionRange.simulationDuration, unit: "s")
    try checkOption("--rate", rate, in: OptionRange.simulationRate, unit: "Hz")
    guard duration * rate <= OptionRange.simulatedSamples else {
      throw ValidationError(
        "--duration × --rate must be at most \(optionNumber(OptionRange.simulatedSamples)) samples, got "
          + "\(optionNumber(duration)) s × \(optionNumber(rate)) Hz = \(optionNumber(duration * rate))")
    }
    try checkOption("--heart-rate", heartRate, in: OptionRange.heartRate, unit: "bpm")
    if let heartRateEnd {
      try checkOption("--heart-rate-end", heartRateEnd, in: OptionRange.heartRate, unit: "bpm")
    }
    try checkOption("--sdnn", sdnn, in: OptionRange.sdnn, unit: "ms")
    try checkOption("--lf-hf", lfHf, in: OptionRange.lfHfRatio)
    try checkOption("--pvc", pvc, in: OptionRange.ectopicProbability)
    try checkOption("--pac", pac, in: OptionRange.ectopicProbability)
    try checkOption("--pvc + --pac", pvc + pac, in: OptionRange.ectopicProbability)
    _ = try episodes()
    try checkOption("--powerline", powerline, in: OptionRange.powerline, unit: "mV")
    try checkOption("--mains-frequency", mainsFrequency, in: OptionRange.mainsFrequency, unit: "Hz")
    try checkOption("--ppg-channels", ppgChannels, in: OptionRange.ppgChannels)
    if let cadence { try checkOption("--cadence", cadence, in: OptionRange.cadence, unit: "steps/min") }
    try checkOption("--chunk-size", chunkSize, in: OptionRange.chunkSize)
  }

  /// The `--afib START:END` episodes.
  func episodes() throws -> [RhythmEpisode] {
    try afib.map { text in
      let parts = text.split(separator: ":").compactMap { Double($0) }
      guard parts.count == 2, parts[0] >= 0, parts[1] > parts[0], parts[1] <= OptionRange.longestTimeSpan
      else {
        throw ValidationError(
          "--afib takes START:END in seconds with 0 ≤ START < END ≤ \(optionNumber(OptionRange.longestTimeSpan)), got '\(text)'"
        )
      }
      return RhythmEpisode(start: parts[0], end: parts[1])
    }
  }

  /// The simulator the options describe.
  func makeSimulator() throws -> any SignalSimulator {
    var rhythm = RhythmConfiguration(
      heartRate: heartRateEnd.map { Profile([(0, heartRate), (max(duration, 1), $0)]) }
        ?? Profile(constant: heartRate),
      rrStandardDeviation: sdnn / 1000, lfHfRatio: lfHf)
    rhythm.ventricularEctopicProbability = pvc
    rhythm.atrialEctopicProbability = pac
    rhythm.atrialFibrillation = try episodes()
    var accelerometer = AccelerometerConfiguration(
      activity: activity, placement: placement, cadence: cadence.map(Profile.init(constant:)), unit: unit)
    accelerometer.noise = noise == .none ? 0 : accelerometer.noise
    switch signal {
    case .ecg:
      var configuration = noise == .ambulatory ? ECGConfiguration.ambulatory : ECGConfiguration()
      configuration.rhythm = rhythm
      configuration.noise.powerline = powerline
      configuration.noise.powerlineFrequency = mainsFrequency
      return ECGSimulator(configuration: configuration, duration: duration, sampleRate: rate, seed: seed)
    case .ppg:
      var configuration = PPGConfiguration(
        rhythm: rhythm, channelCount: ppgChannels, motion: motion ? accelerometer : nil)
      switch noise {
      case .none: configuration.noise = .none
      case .default: break
      case .ambulatory:
        configuration.noise = NoiseConfiguration(white: 0.03, muscle: 0, drift: 0.15, respiratoryWander: 0.15)
      }
      return PPGSimulator(configuration: configuration, duration: duration, sampleRate: rate, seed: seed)
    case .acc:
      return AccelerometerSimulator(
        configuration: accelerometer, duration: duration, sampleRate: rate, seed: seed)
    }
  }
}
