import VitalsCore
import VitalsSupport

/// Settings of a simulated single-lead ECG (``ECGSimulator``).
public struct ECGConfiguration: Sendable, Hashable, Codable {
  /// Heart rate, variability, ectopic beats and atrial fibrillation.
  public var rhythm = RhythmConfiguration()
  /// Height of a normal R wave above the isoelectric line, mV (approximate: the exact height depends
  /// a little on the preceding beats through the model's 1 s relaxation term).
  public var amplitude: Double = 1.2
  /// Additive noise, baseline wander and mains interference, mV.
  public var noise = NoiseConfiguration.none
  /// Amplitude of the fibrillatory waves during atrial fibrillation, mV (two sines near 5.5 and
  /// 7 Hz, part of the clean signal).
  public var fibrillatoryWaveAmplitude: Double = 0.05
  /// Lowest rate at which the model's ODE is integrated, Hz: the integration rate is the smallest
  /// integer multiple of the output rate at or above it, so every output sample is an integration
  /// point (no interpolation).
  public var minimumIntegrationRate: Double = 1000

  /// The defaults documented on each property.
  public init() {}

  /// A configuration with the given rhythm, normal R height (mV) and noise.
  public init(rhythm: RhythmConfiguration, amplitude: Double = 1.2, noise: NoiseConfiguration = .none) {
    self.rhythm = rhythm
    self.amplitude = amplitude
    self.noise = noise
  }

  /// An ambulatory-quality recording: white noise 0.02 mV, muscle noise 0.03 mV, drift 0.1 mV,
  /// respiratory wander 0.05 mV.
  public static var ambulatory: ECGConfiguration {
    var configuration = ECGConfiguration()
    configuration.noise = NoiseConfiguration(white: 0.02, muscle: 0.03, drift: 0.1, respiratoryWander: 0.05)
    return configuration
  }
}

/// A synthetic ECG from the dynamical model of McSharry, Clifford, Tarassenko & Smith 2003 ("A
/// dynamical model for generating synthetic electrocardiogram signals", IEEE TBME 50(3):289–294,
/// ECGSYN), with the beat-exact truth of every R peak.
///
/// The model is the 3-D ODE ẋ = αx − ωy, ẏ = αy + ωx, ż = −Σᵢ aᵢ Δθᵢ exp(−Δθᵢ² / 2bᵢ²) − (z − z₀),
/// α = 1 − √(x² + y²), with P, Q, R, S, T events at angles θᵢ. The trajectory starts on the
/// attracting limit cycle x² + y² = 1, where α = 0 and the (x, y) motion is exactly a rotation at
/// ω = 2π / RR: so the phase θ is advanced in closed form — ω piecewise constant, with θ = 0 at each
/// beat of ``RhythmGenerator`` — and z (with z₀ = 0; baseline wander is added as noise) is integrated
/// by classical RK4. Event angles and widths follow ECGSYN's heart-rate scaling for the RR interval
/// in progress (θ of Q, S and widths × √(HR/60); θ of P, T × (HR/60)^¼), which keeps wave heights
/// independent of rate; the output is scaled so a normal R wave is ``ECGConfiguration/amplitude`` mV.
/// Premature ventricular beats have no P wave, a wide QRS (widths 2.5×, about 1.5× the normal R
/// height) and an inverted T wave;
/// premature atrial beats an inverted, smaller P wave; beats in atrial fibrillation no P wave.
///
/// Truth: one ``TruthEvent`` per beat at the sample where the clean signal (ECG without noise) is
/// largest within ±60 ms of the beat's phase-zero instant, labeled N, V or A, with 60/RR as rate.
/// A beat whose window would start before the record is not reported.
///
/// Channel: `ecg`, mV, uniform sampling.
public struct ECGSimulator: SignalSimulator {
  /// The settings the simulator was made with.
  public let configuration: ECGConfiguration
  public let sampleRate: Double
  public let sampleCount: Int64
  public let startTime: Timestamp
  public var channelNames: [String] { ["ecg"] }
  public var units: [String] { ["mV"] }
  public private(set) var samplesProduced: Int64 = 0
  public var atrialFibrillationEpisodes: [RhythmEpisode] { configuration.rhythm.atrialFibrillation }

  var rhythm: RhythmGenerator
  var noise: NoiseGenerator
  var pending = PendingSamples(channelCount: 1, irregular: false)
  var tracker = PeakTracker()
  /// Integration steps per output sample, and the step in seconds.
  let stepsPerSample: Int
  let step: Double
  let scale: Double
  let lookahead: Int
  let peakHalfWindow = 0.06
  /// The beat that opens the RR interval in progress, and the one that closes it.
  var opening: SimulatedBeat
  var closing: SimulatedBeat
  /// The interval's ω (rad/s) and its ten waves (five of each beat), centers relative to `opening`.
  var omega = 0.0
  var waves: [Wave] = []
  var z = 0.0
  var renderedSamples: Int64 = 0
  let fibrillationOmegas: (Double, Double)
  let fibrillationPhases: (Double, Double)

  /// A record of `duration` seconds at `sampleRate` Hz (any rate from 25 Hz up).
  public init(
    configuration: ECGConfiguration = ECGConfiguration(), duration: Double, sampleRate: Double,
    seed: UInt64, startTime: Timestamp = .epoch
  ) {
    precondition(duration >= 0 && duration.isFinite, "duration must be finite and not negative")
    precondition(sampleRate >= 1 && sampleRate.isFinite, "sample rate must be at least 1 Hz")
    precondition(configuration.amplitude > 0, "amplitude must be positive")
    self.configuration = configuration
    self.sampleRate = sampleRate
    self.sampleCount = Int64((duration * sampleRate).rounded())
    self.startTime = startTime
    rhythm = RhythmGenerator(configuration: configuration.rhythm, seed: seed)
    noise = NoiseGenerator(
      configuration: configuration.noise, respiratoryFrequency: configuration.rhythm.respiratoryFrequency,
      sampleRate: sampleRate, seed: seed, stream: StreamID.ecgNoise)
    stepsPerSample = max(1, Int((configuration.minimumIntegrationRate / sampleRate).rounded(.up)))
    step = 1 / (sampleRate * Double(stepsPerSample))
    let normalR = BeatShape.normal.waves[2]
    scale = configuration.amplitude * 2 * Double.pi / (normalR.a * normalR.b * normalR.b)
    lookahead = Int((2 * peakHalfWindow * sampleRate).rounded(.up)) + 2
    var fibrillation = SimulationRandom(seed: seed, stream: StreamID.ecgFibrillation)
    fibrillationOmegas = (
      2 * Double.pi * fibrillation.uniform(5, 6), 2 * Double.pi * fibrillation.uniform(6.5, 7.5)
    )
    fibrillationPhases = (2 * Double.pi * fibrillation.uniform(), 2 * Double.pi * fibrillation.uniform())
    // A virtual beat one interval before the first one opens the first interval.
    let first = rhythm.next()!
    opening = SimulatedBeat(
      time: first.time - first.rr, rr: first.rr, label: .normal, inAtrialFibrillation: false)
    closing = first
    expectPeak(of: first)
    setUpInterval()
  }

  public mutating func next(maxSamples: Int) -> SimulatedChunk? {
    precondition(maxSamples > 0, "chunk size must be positive")
    let count = Int(min(Int64(maxSamples), sampleCount - samplesProduced))
    guard count > 0 else { return nil }
    render(count + lookahead - pending.count)
    let chunk = pending.take(count, firstIndex: samplesProduced, sampleRate: sampleRate, startTime: startTime)
    samplesProduced += Int64(count)
    return chunk
  }

  mutating func expectPeak(of beat: SimulatedBeat) {
    tracker.expect(
      first: Int64(((beat.time - peakHalfWindow) * sampleRate).rounded(.up)),
      last: Int64(((beat.time + peakHalfWindow) * sampleRate).rounded(.down)),
      label: beat.label, rate: 60 / beat.rr)
  }

  /// Computes ω and the wave table of the interval from `opening` to `closing`.
  mutating func setUpInterval() {
    let rr = closing.time - opening.time
    omega = 2 * Double.pi / rr
    let rateFactor = (1 / rr).squareRoot()  // ECGSYN's hrfact = √(HR/60) with HR = 60/RR
    waves.removeAll(keepingCapacity: true)
    for (beat, offset) in [(opening, 0.0), (closing, 2 * Double.pi)] {
      for (index, wave) in BeatShape(beat).waves.enumerated() where wave.a != 0 {
        let angleFactor = index == 0 || index == 4 ? rateFactor.squareRoot() : (index == 2 ? 1 : rateFactor)
        let width = wave.b * rateFactor
        waves.append(
          Wave(
            center: offset + wave.theta * angleFactor, amplitude: wave.a,
            inverseTwoWidthSquared: 1 / (2 * width * width), cutoff: 6 * width))
      }
    }
  }

  /// The model's forcing −Σ aᵢ Δθᵢ exp(−Δθᵢ²/2bᵢ²) at `time`, moving to the next interval when due.
  @inline(__always)
  mutating func forcing(at time: Double) -> Double {
    while time >= closing.time {
      opening = closing
      closing = rhythm.next()!
      expectPeak(of: closing)
      setUpInterval()
    }
    let phase = omega * (time - opening.time)
    var sum = 0.0
    for wave in waves {
      let delta = phase - wave.center
      if abs(delta) < wave.cutoff {
        sum -= wave.amplitude * delta * exp(-delta * delta * wave.inverseTwoWidthSquared)
      }
    }
    return sum
  }

  /// Produces `count` more samples into `pending`.
  mutating func render(_ count: Int) {
    guard count > 0 else { return }
    pending.channels[0].reserveCapacity(pending.count + count)
    let fibrillating =
      !configuration.rhythm.atrialFibrillation.isEmpty && configuration.fibrillatoryWaveAmplitude > 0
    for _ in 0..<count {
      let index = renderedSamples
      let time = Double(index) / sampleRate
      var clean = scale * z
      if fibrillating && configuration.rhythm.atrialFibrillation.contains(where: { $0.contains(time) }) {
        clean +=
          configuration.fibrillatoryWaveAmplitude
          * (sin(fibrillationOmegas.0 * time + fibrillationPhases.0)
            + 0.6 * sin(fibrillationOmegas.1 * time + fibrillationPhases.1))
      }
      tracker.observe(clean, at: index, sampleRate: sampleRate, into: &pending.events)
      pending.channels[0].append(Float(clean + noise.sample(at: time)))
      // RK4 on ż = F(θ(t)) − z over the steps to the next output sample.
      let firstStep = index * Int64(stepsPerSample)
      var startForcing = forcing(at: Double(firstStep) * step)
      for stepIndex in firstStep..<(firstStep + Int64(stepsPerSample)) {
        let t = Double(stepIndex) * step
        let middleForcing = forcing(at: t + 0.5 * step)
        let endForcing = forcing(at: Double(stepIndex + 1) * step)
        let k1 = startForcing - z
        let k2 = middleForcing - (z + 0.5 * step * k1)
        let k3 = middleForcing - (z + 0.5 * step * k2)
        let k4 = endForcing - (z + step * k3)
        z += step / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        startForcing = endForcing
      }
      renderedSamples += 1
    }
  }
}

/// One Gaussian event of the McSharry model in the interval in progress: center (rad), aᵢ,
/// 1 / 2bᵢ² and the |Δθ| beyond which its term is below 10⁻⁷ of its peak and skipped.
struct Wave: Sendable {
  var center: Double
  var amplitude: Double
  var inverseTwoWidthSquared: Double
  var cutoff: Double
}

/// The P, Q, R, S, T events of one beat at 60 bpm: angle θ (rad), amplitude a, width b (rad).
struct BeatShape: Sendable {
  var waves: [(theta: Double, a: Double, b: Double)]

  static let degree = Double.pi / 180
  /// McSharry et al. 2003, Table 1.
  static let normal = BeatShape(waves: [
    (-70 * degree, 1.2, 0.25), (-15 * degree, -5, 0.1), (0, 30, 0.1), (15 * degree, -7.5, 0.1),
    (100 * degree, 0.75, 0.4),
  ])
  /// Premature ventricular contraction: no P, wide QRS about 1.5 times the normal R height, deep S, T wave
  /// opposite to the QRS.
  static let ventricular = BeatShape(waves: [
    (-70 * degree, 0, 0.25), (-30 * degree, -1, 0.25), (0, 7.5, 0.25), (40 * degree, -2.5, 0.25),
    (115 * degree, -1.1, 0.45),
  ])
  /// Premature atrial contraction: normal QRS and T, inverted and smaller P wave.
  static let atrial = BeatShape(waves: [
    (-60 * degree, -0.7, 0.25), (-15 * degree, -5, 0.1), (0, 30, 0.1), (15 * degree, -7.5, 0.1),
    (100 * degree, 0.75, 0.4),
  ])

  init(waves: [(theta: Double, a: Double, b: Double)]) { self.waves = waves }

  init(_ beat: SimulatedBeat) {
    switch beat.label {
    case .ventricular: self = .ventricular
    case .atrial: self = .atrial
    default:
      self = .normal
      if beat.inAtrialFibrillation { waves[0].a = 0 }
    }
  }
}
