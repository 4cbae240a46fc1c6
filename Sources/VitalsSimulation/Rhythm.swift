import VitalsSupport

/// The heart rhythm shared by the ECG and PPG simulators: mean rate, RR variability, ectopic beats
/// and atrial fibrillation episodes.
///
/// RR variability follows McSharry et al. 2003 (IEEE TBME 50(3), "A dynamical model for generating
/// synthetic electrocardiogram signals"): a bimodal power spectrum, a Gaussian around
/// ``lfFrequency`` (Mayer waves) and one around ``respiratoryFrequency`` (respiratory sinus
/// arrhythmia), with LF/HF power ratio ``lfHfRatio`` and total standard deviation
/// ``rrStandardDeviation``. ECGSYN draws it by an inverse FFT of the whole record; to stream records of
/// any length this uses the equivalent randomized spectral representation: 32 cosines per band, with
/// frequencies drawn from the band's Gaussian and uniform random phases, each carrying an equal share of
/// the band's variance, so the process variance is exactly ``rrStandardDeviation``².
public struct RhythmConfiguration: Sendable, Hashable, Codable {
  /// Mean heart rate of sinus rhythm, bpm, possibly changing over the record (an exercise ramp).
  public var heartRate: Profile = 60
  /// Standard deviation of the sinus RR variability (SDNN of a stationary record), seconds.
  public var rrStandardDeviation: Double = 0.05
  /// Ratio of low- to high-frequency RR variance (McSharry et al.: 0.5).
  public var lfHfRatio: Double = 0.5
  /// Center of the low-frequency (Mayer wave) band, Hz (McSharry et al.: 0.1).
  public var lfFrequency: Double = 0.1
  /// Standard deviation of the low-frequency band, Hz (McSharry et al.: 0.01).
  public var lfBandwidth: Double = 0.01
  /// Breathing frequency, Hz: the center of the high-frequency (RSA) band, and the rate of the
  /// respiratory baseline wander and pulse modulation (McSharry et al.: 0.25).
  public var respiratoryFrequency: Double = 0.25
  /// Standard deviation of the high-frequency band, Hz (McSharry et al.: 0.01).
  public var hfBandwidth: Double = 0.01
  /// Probability that a sinus beat is replaced by a premature ventricular contraction (label `V`):
  /// coupling interval 55–70 % of the sinus RR, then a full compensatory pause (the two intervals
  /// around it add up to two sinus intervals).
  public var ventricularEctopicProbability: Double = 0
  /// Probability that a sinus beat is replaced by a premature atrial contraction (label `A`):
  /// coupling interval 65–80 % of the sinus RR, the sinus node reset (no compensatory pause).
  public var atrialEctopicProbability: Double = 0
  /// Atrial fibrillation episodes, seconds from the start: RR intervals drawn independently (no
  /// respiratory or Mayer-wave structure), no P waves, fibrillatory waves on the ECG baseline.
  public var atrialFibrillation: [RhythmEpisode] = []
  /// Ventricular rate during atrial fibrillation as a multiple of the sinus rate.
  public var fibrillationRateFactor: Double = 1.15
  /// Coefficient of variation of the RR intervals during atrial fibrillation.
  public var fibrillationRRVariation: Double = 0.2

  /// The defaults documented on each property.
  public init() {}

  /// A configuration with the given mean rate (bpm), SDNN (seconds) and LF/HF ratio.
  public init(heartRate: Profile, rrStandardDeviation: Double = 0.05, lfHfRatio: Double = 0.5) {
    self.heartRate = heartRate
    self.rrStandardDeviation = rrStandardDeviation
    self.lfHfRatio = lfHfRatio
  }

  func validate() {
    precondition(heartRate.minimum >= 20 && heartRate.values.max()! <= 250, "heart rate 20–250 bpm")
    precondition(rrStandardDeviation >= 0 && lfHfRatio >= 0, "RR variability must not be negative")
    precondition(
      ventricularEctopicProbability >= 0 && atrialEctopicProbability >= 0
        && ventricularEctopicProbability + atrialEctopicProbability <= 0.5,
      "ectopic probabilities are in [0, 0.5] together")
  }
}

/// One simulated heartbeat, as produced by ``RhythmGenerator``.
public struct SimulatedBeat: Sendable, Hashable, Codable {
  /// Time of the R peak's center (the instant the McSharry phase crosses 0), seconds from the start.
  public var time: Double
  /// The RR interval ending at this beat, seconds.
  public var rr: Double
  /// `.normal`, `.ventricular` or `.atrial`.
  public var label: TruthLabel
  /// Whether the beat is conducted during atrial fibrillation (no P wave).
  public var inAtrialFibrillation: Bool
}

/// The infinite sequence of heartbeats of a ``RhythmConfiguration`` for a seed: the shared beat
/// schedule of ``ECGSimulator`` and ``PPGSimulator`` (the same seed and rhythm give the same beats in
/// both). The first beat falls at a random time in [0.2 s, 0.2 s + RR).
public struct RhythmGenerator: Sendable, Sequence, IteratorProtocol {
  /// The rhythm the beats follow.
  public let configuration: RhythmConfiguration
  var random: SimulationRandom
  /// Frequencies (rad/s), phases (rad) and amplitudes (s) of the RR variability cosines.
  var angularFrequencies: [Double] = []
  var phases: [Double] = []
  var amplitudes: [Double] = []
  var lastTime: Double
  /// After a premature ventricular beat, the interval that completes the compensatory pause.
  var pendingCompensation: Double?
  var started = false

  /// Shortest RR interval the generator produces, seconds.
  public static let minimumRR = 0.22

  /// The beats of `configuration` for `seed` (draws from the seed's rhythm stream).
  public init(configuration: RhythmConfiguration, seed: UInt64) {
    configuration.validate()
    self.configuration = configuration
    random = SimulationRandom(seed: seed, stream: StreamID.rhythm)
    let total = configuration.rrStandardDeviation * configuration.rrStandardDeviation
    let lfVariance = total * configuration.lfHfRatio / (1 + configuration.lfHfRatio)
    let bands = [
      (configuration.lfFrequency, configuration.lfBandwidth, lfVariance),
      (configuration.respiratoryFrequency, configuration.hfBandwidth, total - lfVariance),
    ]
    let perBand = 32
    for (center, width, variance) in bands {
      for _ in 0..<perBand {
        angularFrequencies.append(2 * Double.pi * abs(center + width * random.gaussian()))
        phases.append(2 * Double.pi * random.uniform())
        amplitudes.append((2 * variance / Double(perBand)).squareRoot())
      }
    }
    lastTime = 0
  }

  /// The sinus RR interval at `time` seconds: 60 / heart rate plus the variability process.
  public func sinusRR(at time: Double) -> Double {
    var variation = 0.0
    for index in amplitudes.indices {
      variation += amplitudes[index] * cos(angularFrequencies[index] * time + phases[index])
    }
    return Swift.max(Self.minimumRR, 60 / configuration.heartRate.value(at: time) + variation)
  }

  func inFibrillation(_ time: Double) -> Bool {
    configuration.atrialFibrillation.contains { $0.contains(time) }
  }

  /// The next beat (never `nil`: the sequence is infinite).
  public mutating func next() -> SimulatedBeat? {
    let sinus = sinusRR(at: lastTime)
    let draw = random.uniform()
    let fraction = random.uniform()
    let spread = random.gaussian()
    if !started {
      started = true
      lastTime = 0.2 + draw * sinus
      return SimulatedBeat(
        time: lastTime, rr: sinus, label: .normal, inAtrialFibrillation: inFibrillation(lastTime))
    }
    var rr = sinus
    var label = TruthLabel.normal
    var fibrillating = false
    if inFibrillation(lastTime) {
      let variation = Swift.max(-0.55, configuration.fibrillationRRVariation * spread)
      rr =
        60 / (configuration.heartRate.value(at: lastTime) * configuration.fibrillationRateFactor)
        * (1 + variation)
      fibrillating = true
      pendingCompensation = nil
    } else if let compensation = pendingCompensation {
      rr = compensation
      pendingCompensation = nil
    } else if draw < configuration.ventricularEctopicProbability {
      rr = sinus * (0.55 + 0.15 * fraction)
      pendingCompensation = 2 * sinus - rr
      label = .ventricular
    } else if draw < configuration.ventricularEctopicProbability + configuration.atrialEctopicProbability {
      rr = sinus * (0.65 + 0.15 * fraction)
      label = .atrial
    }
    rr = Swift.max(Self.minimumRR, rr)
    lastTime += rr
    return SimulatedBeat(
      time: lastTime, rr: rr, label: label, inAtrialFibrillation: fibrillating || inFibrillation(lastTime))
  }
}

/// Stream numbers of ``SimulationRandom/init(seed:stream:)``, one per independent part of a simulation.
enum StreamID {
  static let rhythm: UInt64 = 1
  static let ecgNoise: UInt64 = 2
  static let ecgFibrillation: UInt64 = 3
  static let ppgShape: UInt64 = 4
  static let ppgNoise: UInt64 = 5
  static let motion: UInt64 = 6
  static let accelerometerNoise: UInt64 = 7
  static let accelerometerTiming: UInt64 = 8
  static let gait: UInt64 = 9
  static let ppgBursts: UInt64 = 10
}
