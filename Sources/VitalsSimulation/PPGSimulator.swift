import VitalsCore
import VitalsSupport

/// Settings of a simulated photoplethysmogram (``PPGSimulator``).
public struct PPGConfiguration: Sendable, Hashable, Codable {
  /// Heart rate (possibly a ramp), variability, ectopic beats and atrial fibrillation; the same
  /// rhythm and seed give the same beats as ``ECGSimulator``.
  public var rhythm = RhythmConfiguration()
  /// Number of PPG channels, 1 or 2 (the second as from another wavelength or site: 15 ms later,
  /// 0.8 × the height, a stronger dicrotic wave, its own noise and motion coupling).
  public var channelCount = 1
  /// Pulse arrival time: from the beat (the ECG R peak) to the systolic peak, seconds.
  public var pulseArrivalTime = 0.25
  /// Respiratory modulation of the pulse height, as a fraction (0.1: ±10 % at the breathing rate).
  public var respiratoryAmplitudeModulation = 0.1
  /// Additive noise and baseline wander (respiratory wander at the breathing rate, drift), in pulse
  /// heights (a normal pulse is 1).
  public var noise = NoiseConfiguration(white: 0.01, drift: 0.05, respiratoryWander: 0.1)
  /// The wearer's motion; when set the simulator also outputs the accelerometer (`acc_x`, `acc_y`,
  /// `acc_z`) and the motion leaks into the PPG. Its timing jitter must be 0.
  public var motion: AccelerometerConfiguration? = nil
  /// Size of the motion artifact: PPG pulse heights per g of dynamic acceleration (each channel mixes
  /// the three axes with random gains of this standard deviation and random delays up to 100 ms).
  public var motionArtifactGain = 1.0
  /// Large artifact bursts per minute (sensor slips, knocks): 1–4 s of 1–3 Hz oscillation of 1–3
  /// pulse heights under a Hann window; 0 for none.
  public var artifactBurstsPerMinute = 0.0

  /// The defaults documented on each property.
  public init() {}

  /// A configuration with the given rhythm, 1 or 2 channels and optional motion; the rest default.
  public init(rhythm: RhythmConfiguration, channelCount: Int = 1, motion: AccelerometerConfiguration? = nil) {
    self.rhythm = rhythm
    self.channelCount = channelCount
    self.motion = motion
  }
}

/// A synthetic photoplethysmogram: one pulse per heartbeat of ``RhythmGenerator``, with the truth of
/// every systolic peak.
///
/// Each pulse is a split Gaussian systolic wave (rise width 0.07 √RR s, fall 0.13 √RR s, peak at the
/// beat + ``PPGConfiguration/pulseArrivalTime``) plus a Gaussian diastolic (reflected, dicrotic) wave
/// of 0.45 × the height, 0.3 √RR s later and 0.14 √RR s wide — the two-Gaussian pulse decomposition
/// of Baruch et al. 2011 ("Pulse decomposition analysis of the digital arterial pulse during
/// hemorrhage simulation", Nonlinear Biomed Phys 5:1), widths scaled with the RR interval. The pulse
/// height follows the filling time, (RR / sinus RR) clipped to 0.3…1.2, so premature beats give small
/// pulses, and is modulated by breathing. Baseline wander and noise come from
/// ``PPGConfiguration/noise``; motion artifacts from the simulated accelerometer (see
/// ``PPGConfiguration/motion``) and bursts.
///
/// Truth: one ``TruthEvent`` per beat (N, V or A) at the sample where channel 1's clean pulse wave
/// (without baseline, noise or artifacts) is largest within ±min(0.12 s, 0.4 RR) of the expected
/// systolic peak; `rate` is the instantaneous heart rate 60 / RR. Steps are not in this truth: an
/// ``AccelerometerSimulator`` with the same configuration, duration, rate and seed gives exactly the
/// same accelerometer channels and their step truth.
///
/// Channels: `ppg` (or `ppg1`, `ppg2`) in arbitrary units (`au`), then `acc_x`, `acc_y`, `acc_z` when
/// there is motion.
public struct PPGSimulator: SignalSimulator {
  /// The settings the simulator was made with.
  public let configuration: PPGConfiguration
  public let sampleRate: Double
  public let sampleCount: Int64
  public let startTime: Timestamp
  public var channelNames: [String] {
    (configuration.channelCount == 1 ? ["ppg"] : ["ppg1", "ppg2"])
      + (configuration.motion == nil ? [] : ["acc_x", "acc_y", "acc_z"])
  }
  public var units: [String] {
    Array(repeating: "au", count: configuration.channelCount)
      + Array(
        repeating: configuration.motion?.unit.rawValue ?? "", count: configuration.motion == nil ? 0 : 3)
  }
  public private(set) var samplesProduced: Int64 = 0
  public var atrialFibrillationEpisodes: [RhythmEpisode] { configuration.rhythm.atrialFibrillation }

  /// A pulse in progress: systolic center (s), height and the RR-scaled width factor √RR.
  struct Pulse: Sendable {
    var center: Double
    var height: Double
    var scale: Double
  }

  var rhythm: RhythmGenerator
  var pulses: [Pulse] = []
  var nextBeat: SimulatedBeat
  var noises: [NoiseGenerator]
  var accelerometer: AccelerometerSimulator?
  /// Per PPG channel and axis: gain and delay in samples; the dynamic acceleration history (ring).
  var coupling: [(gain: Double, delay: Int)] = []
  var history: [[Double]] = [[], [], []]
  var gravityEstimate = (0.0, 0.0, 0.0)
  let gravityDecay: Double
  var burstRandom: SimulationRandom
  var burst = (start: -Double.infinity, length: 0.0, omega: 0.0, amplitude: 0.0)
  var nextBurst = Double.infinity
  var pending: PendingSamples
  var tracker = PeakTracker()
  var renderedSamples: Int64 = 0
  let lookahead: Int
  let respiratoryOmega: Double
  let respiratoryPhase: Double

  /// A record of `duration` seconds at `sampleRate` Hz.
  public init(
    configuration: PPGConfiguration = PPGConfiguration(), duration: Double, sampleRate: Double, seed: UInt64,
    startTime: Timestamp = .epoch
  ) {
    precondition(duration >= 0 && duration.isFinite, "duration must be finite and not negative")
    precondition(sampleRate >= 1 && sampleRate.isFinite, "sample rate must be at least 1 Hz")
    precondition(configuration.channelCount == 1 || configuration.channelCount == 2, "1 or 2 PPG channels")
    precondition(configuration.pulseArrivalTime >= 0, "pulse arrival time is not negative")
    precondition((configuration.motion?.timingJitter ?? 0) == 0, "a PPG's accelerometer samples uniformly")
    self.configuration = configuration
    self.sampleRate = sampleRate
    self.sampleCount = Int64((duration * sampleRate).rounded())
    self.startTime = startTime
    rhythm = RhythmGenerator(configuration: configuration.rhythm, seed: seed)
    nextBeat = rhythm.next()!
    noises = (0..<configuration.channelCount).map { channel in
      NoiseGenerator(
        configuration: configuration.noise, respiratoryFrequency: configuration.rhythm.respiratoryFrequency,
        sampleRate: sampleRate, seed: seed, stream: StreamID.ppgNoise &+ UInt64(channel) &* 1000)
    }
    var shape = SimulationRandom(seed: seed, stream: StreamID.ppgShape)
    respiratoryOmega = 2 * Double.pi * configuration.rhythm.respiratoryFrequency
    respiratoryPhase = 2 * Double.pi * shape.uniform()
    if let motion = configuration.motion {
      accelerometer = AccelerometerSimulator(
        configuration: motion, duration: duration, sampleRate: sampleRate, seed: seed, startTime: startTime)
      let maximumDelay = Int((0.1 * sampleRate).rounded())
      for _ in 0..<(3 * configuration.channelCount) {
        coupling.append(
          (configuration.motionArtifactGain * shape.gaussian(), Int(shape.uniform() * Double(maximumDelay))))
      }
      history = Array(repeating: Array(repeating: 0, count: maximumDelay + 1), count: 3)
    }
    gravityDecay = exp(-1 / (2 * sampleRate))
    burstRandom = SimulationRandom(seed: seed, stream: StreamID.ppgBursts)
    if configuration.artifactBurstsPerMinute > 0 {
      nextBurst = burstRandom.exponential(mean: 60 / configuration.artifactBurstsPerMinute)
    }
    lookahead = Int((0.12 * sampleRate).rounded(.up)) + 2
    pending = PendingSamples(
      channelCount: configuration.channelCount + (configuration.motion == nil ? 0 : 3), irregular: false)
  }

  public mutating func next(maxSamples: Int) -> SimulatedChunk? {
    precondition(maxSamples > 0, "chunk size must be positive")
    let count = Int(min(Int64(maxSamples), sampleCount - samplesProduced))
    guard count > 0 else { return nil }
    render(
      Int(min(Int64(count + lookahead - pending.count), sampleCount + Int64(lookahead) - renderedSamples)))
    let chunk = pending.take(count, firstIndex: samplesProduced, sampleRate: sampleRate, startTime: startTime)
    samplesProduced += Int64(count)
    return chunk
  }

  /// Produces `count` more samples into `pending`.
  mutating func render(_ count: Int) {
    guard count > 0 else { return }
    let ppgChannels = configuration.channelCount
    var motion: [[Float]] = []
    if accelerometer != nil {
      // Past the record's end (look-ahead) the motion is held still at its last value.
      motion = accelerometer!.next(maxSamples: count)?.signal.channels ?? [[], [], []]
    }
    let gravity = configuration.motion?.unit.standardGravity ?? 1
    for offset in 0..<count {
      let index = renderedSamples
      let time = Double(index) / sampleRate
      while nextBeat.time + configuration.pulseArrivalTime - 1 < time { admit() }
      pulses.removeAll { $0.center + 1.2 * $0.scale < time }
      let breathing =
        1 + configuration.respiratoryAmplitudeModulation * sin(respiratoryOmega * time + respiratoryPhase)
      var values = (0.0, 0.0)
      for pulse in pulses {
        let shape = Self.pulse(time - pulse.center, scale: pulse.scale)
        values.0 += pulse.height * (shape.systolic + 0.45 * shape.diastolic)
        if ppgChannels == 2 {
          let second = Self.pulse(time - pulse.center - 0.015, scale: pulse.scale)
          values.1 += 0.8 * pulse.height * (second.systolic + 0.6 * second.diastolic)
        }
      }
      tracker.observe(values.0 * breathing, at: index, sampleRate: sampleRate, into: &pending.events)
      var artifact = (0.0, 0.0)
      if !motion.isEmpty {
        let slot = Int(index % Int64(history[0].count))
        var sample = (0.0, 0.0, 0.0)
        if offset < motion[0].count {
          sample = (Double(motion[0][offset]), Double(motion[1][offset]), Double(motion[2][offset]))
          for axis in 0..<3 { pending.channels[ppgChannels + axis].append(motion[axis][offset]) }
        } else {
          sample = gravityEstimate
        }
        gravityEstimate.0 = gravityDecay * gravityEstimate.0 + (1 - gravityDecay) * sample.0
        gravityEstimate.1 = gravityDecay * gravityEstimate.1 + (1 - gravityDecay) * sample.1
        gravityEstimate.2 = gravityDecay * gravityEstimate.2 + (1 - gravityDecay) * sample.2
        history[0][slot] = (sample.0 - gravityEstimate.0) / gravity
        history[1][slot] = (sample.1 - gravityEstimate.1) / gravity
        history[2][slot] = (sample.2 - gravityEstimate.2) / gravity
        let length = history[0].count
        for channel in 0..<ppgChannels {
          var sum = 0.0
          for axis in 0..<3 {
            let link = coupling[3 * channel + axis]
            sum += link.gain * history[axis][(slot - link.delay + length) % length]
          }
          if channel == 0 { artifact.0 = sum } else { artifact.1 = sum }
        }
      }
      let burstValue = burstArtifact(at: time)
      pending.channels[0].append(
        Float(values.0 * breathing + artifact.0 + burstValue + noises[0].sample(at: time)))
      if ppgChannels == 2 {
        pending.channels[1].append(
          Float(values.1 * breathing + artifact.1 + 0.7 * burstValue + noises[1].sample(at: time)))
      }
      renderedSamples += 1
    }
  }

  /// Adds `nextBeat`'s pulse and registers its systolic peak with the tracker.
  mutating func admit() {
    let beat = nextBeat
    nextBeat = rhythm.next()!
    let sinus = 60 / configuration.rhythm.heartRate.value(at: beat.time)
    let height = Swift.min(1.2, Swift.max(0.3, beat.rr / sinus))
    let center = beat.time + configuration.pulseArrivalTime
    pulses.append(Pulse(center: center, height: height, scale: beat.rr.squareRoot()))
    let halfWindow = Swift.min(0.12, 0.4 * beat.rr)
    tracker.expect(
      first: Int64(((center - halfWindow) * sampleRate).rounded(.up)),
      last: Int64(((center + halfWindow) * sampleRate).rounded(.down)), label: beat.label, rate: 60 / beat.rr)
  }

  /// The systolic (split Gaussian) and diastolic waves at `t` seconds from the systolic center.
  @inline(__always)
  static func pulse(_ t: Double, scale: Double) -> (systolic: Double, diastolic: Double) {
    let width = t < 0 ? 0.07 * scale : 0.13 * scale
    let d = t - 0.3 * scale
    let diastolicWidth = 0.14 * scale
    return (exp(-0.5 * t * t / (width * width)), exp(-0.5 * d * d / (diastolicWidth * diastolicWidth)))
  }

  /// The burst artifact at `time` (0 outside bursts), starting new bursts when due.
  mutating func burstArtifact(at time: Double) -> Double {
    if time >= nextBurst {
      burst = (
        nextBurst, burstRandom.uniform(1, 4), 2 * Double.pi * burstRandom.uniform(1, 3),
        burstRandom.uniform(1, 3)
      )
      nextBurst += burst.length + burstRandom.exponential(mean: 60 / configuration.artifactBurstsPerMinute)
    }
    let age = time - burst.start
    guard age < burst.length else { return 0 }
    let window = 0.5 - 0.5 * cos(2 * Double.pi * age / burst.length)
    return burst.amplitude * window * sin(burst.omega * age)
  }
}
