import VitalsCore
import VitalsSupport

/// Where a simulated phone or wearable is carried: it sets how gravity falls on the device axes, how
/// strongly the step impacts reach the sensor, and how much the limb carrying it swings.
public enum Placement: String, Sendable, Hashable, Codable, CaseIterable {
  /// Held in the hand in front of the body, screen up and tilted towards the face.
  case hand
  /// Upright in a front trouser pocket, moving with the thigh.
  case frontPocket = "front-pocket"
  /// Upright, screen outwards, in a back trouser pocket.
  case backPocket = "back-pocket"
  /// Loose in a shoulder bag: damped impacts, a pendulum sway.
  case bag
  /// Strapped to the upper arm.
  case armband
  /// In a pouch hanging from the neck on the chest.
  case neckPouch = "neck-pouch"
  /// A watch on the wrist, the arm hanging and swinging.
  case wrist
  /// A belt-clip or sensor on the lower back (the research-grade position).
  case lowerBack = "lower-back"

  /// Device orientation (roll, pitch, yaw in degrees, applied in that order to body-frame vectors),
  /// impact gain, swing amplitude (degrees, at the stride frequency) and impact width (seconds).
  var parameters: (roll: Double, pitch: Double, yaw: Double, gain: Double, swing: Double, impactWidth: Double)
  {
    switch self {
    case .hand: (0, 50, 0, 0.55, 3, 0.05)
    case .frontPocket: (90, 0, 10, 1.1, 25, 0.03)
    case .backPocket: (90, 0, 190, 1.0, 22, 0.03)
    case .bag: (80, 20, 45, 0.45, 8, 0.08)
    case .armband: (90, 0, 90, 0.8, 15, 0.04)
    case .neckPouch: (85, 5, 0, 0.7, 4, 0.05)
    case .wrist: (0, 90, 0, 0.9, 35, 0.035)
    case .lowerBack: (90, 0, 0, 1.0, 2, 0.03)
    }
  }
}

/// What the wearer of a simulated accelerometer does.
public enum Activity: String, Sendable, Hashable, Codable, CaseIterable {
  /// Motionless (on a table, or sitting very still): gravity and sensor noise only.
  case still
  /// Walking at ``AccelerometerConfiguration/cadence``.
  case walking
  /// Running at ``AccelerometerConfiguration/cadence``: impacts about 2.5 times those of walking.
  case running
  /// Typing on a keyboard or phone: small sharp taps, about 6 per second.
  case typing
  /// Riding in a car or bus: engine and road vibration (10–20 Hz), bumps, braking and accelerating.
  case vehicle
  /// Arm gestures while talking or sitting: slow random changes of orientation.
  case gestures
  /// Shaking the device by hand, about 5 times a second (a classic false step-count source).
  case shaking

  /// Whether the activity has steps (heel strikes in the truth).
  public var isWalking: Bool { self == .walking || self == .running }
}

/// The physical unit of simulated acceleration.
public enum AccelerationUnit: String, Sendable, Hashable, Codable, CaseIterable {
  /// Standard gravity, g₀ = 9.80665 m/s².
  case g
  /// Meters per second squared.
  case metersPerSecondSquared = "m/s^2"

  /// Size of 1 g in this unit (`PhysicalConstants/standardGravity` in m/s²).
  public var standardGravity: Double { self == .g ? 1 : PhysicalConstants.standardGravity }
}

/// Settings of a simulated 3-axis accelerometer (``AccelerometerSimulator``).
public struct AccelerometerConfiguration: Sendable, Hashable, Codable {
  /// What the wearer does.
  public var activity: Activity = .walking
  /// Where the device is carried.
  public var placement: Placement = .wrist
  /// Steps per minute (both feet), possibly changing over the record; used by walking and running.
  public var cadence: Profile = 110
  /// Factor on the body acceleration of each step (its bounce, sway and impact), possibly changing over the
  /// record: below 1 for the weaker steps of a turn, an obstacle or soft ground; used by walking and running.
  public var stepAmplitude: Profile = 1
  /// Coefficient of variation of successive step intervals (stride-to-stride variability; healthy
  /// adults about 2 %, Hausdorff 2007, "Gait dynamics, fractals and falls").
  public var stepVariation: Double = 0.02
  /// Relative difference between the two feet's step times, 0–1: steps alternate between
  /// `(1 + a/2)` and `(1 − a/2)` times the mean interval (a limp); 0 walks symmetrically.
  public var stepTimeAsymmetry: Double = 0
  /// Output unit; gravity is always included (a device at rest reads 1 g).
  public var unit: AccelerationUnit = .g
  /// Standard deviation of white sensor noise on each axis, g.
  public var noise: Double = 0.005
  /// Standard deviation of the jitter of sample times, seconds (phone-like irregular timing, kept
  /// within ±40 % of the sample interval so times stay increasing); 0 gives uniform sampling.
  public var timingJitter: Double = 0

  /// The defaults documented on each property.
  public init() {}

  /// A configuration for `activity` at `placement`; the cadence defaults to 110 steps/min walking, 165 running.
  public init(
    activity: Activity, placement: Placement = .wrist, cadence: Profile? = nil, unit: AccelerationUnit = .g
  ) {
    self.activity = activity
    self.placement = placement
    self.cadence = cadence ?? (activity == .running ? 165 : 110)
    self.unit = unit
  }
}

/// A simulated 3-axis accelerometer: walking and running at a cadence for eight ``Placement``s, and
/// non-walking ``Activity``s, with the heel-strike truth.
///
/// Gait: heel strikes come at intervals 60 / cadence × (1 + ``AccelerometerConfiguration/stepVariation``
/// × N(0, 1)). Between two strikes the step phase p goes from 0 to 1; the body acceleration (g, in
/// the walker's frame: forward, left, up) is vertical 0.25 cos 2πp + an impact (a Gaussian of the
/// placement's width right after the strike, 0.5 g), forward 0.15 sin 2πp, lateral 0.08 sin π(k + p)
/// for step k (sway alternates sides, so it is at half the step frequency), all × the placement's gain
/// (× 2.5 when running) × ``AccelerometerConfiguration/stepAmplitude`` — the shape of the vertical and
/// antero-posterior trunk accelerations of Zijlstra & Hof 2003 ("Assessment of spatio-temporal gait
/// parameters from trunk accelerations").
/// The limb carrying the device swings at the stride frequency (cadence / 120) by the placement's
/// angle, rotating gravity between the axes: so a wrist or pocket device shows its largest component at
/// cadence / 120, while a trunk device shows cadence / 60. Gravity (0, 0, 1 g) is added before the
/// placement's fixed rotation into the device frame.
///
/// Truth: one ``TruthEvent`` labeled `S` per heel strike, at the first sample taken at or after the
/// strike (its jittered time when the timing is irregular), `time` the exact strike instant and `rate` 60 / the step
/// interval ending there. Non-walking activities have no events.
///
/// Channels: `acc_x`, `acc_y`, `acc_z` in ``AccelerometerConfiguration/unit``; with timing jitter the
/// chunks carry ``SimulatedChunk/sampleTimes``.
public struct AccelerometerSimulator: SignalSimulator {
  /// The settings the simulator was made with.
  public let configuration: AccelerometerConfiguration
  public let sampleRate: Double
  public let sampleCount: Int64
  public let startTime: Timestamp
  public var channelNames: [String] { ["acc_x", "acc_y", "acc_z"] }
  public var units: [String] { Array(repeating: configuration.unit.rawValue, count: 3) }
  public private(set) var samplesProduced: Int64 = 0
  public var atrialFibrillationEpisodes: [RhythmEpisode] { [] }

  var motion: MotionGenerator
  var noiseRandom: SimulationRandom
  var timingRandom: SimulationRandom
  var pending: PendingSamples

  /// A record of `duration` seconds at `sampleRate` Hz (nominal when the timing jitters).
  public init(
    configuration: AccelerometerConfiguration = AccelerometerConfiguration(), duration: Double,
    sampleRate: Double, seed: UInt64, startTime: Timestamp = .epoch
  ) {
    precondition(duration >= 0 && duration.isFinite, "duration must be finite and not negative")
    precondition(sampleRate >= 1 && sampleRate.isFinite, "sample rate must be at least 1 Hz")
    precondition(
      configuration.noise >= 0 && configuration.timingJitter >= 0, "noise and jitter are not negative")
    self.configuration = configuration
    self.sampleRate = sampleRate
    self.sampleCount = Int64((duration * sampleRate).rounded())
    self.startTime = startTime
    motion = MotionGenerator(configuration: configuration, sampleRate: sampleRate, seed: seed)
    noiseRandom = SimulationRandom(seed: seed, stream: StreamID.accelerometerNoise)
    timingRandom = SimulationRandom(seed: seed, stream: StreamID.accelerometerTiming)
    pending = PendingSamples(channelCount: 3, irregular: configuration.timingJitter > 0)
  }

  public mutating func next(maxSamples: Int) -> SimulatedChunk? {
    precondition(maxSamples > 0, "chunk size must be positive")
    let count = Int(min(Int64(maxSamples), sampleCount - samplesProduced))
    guard count > 0 else { return nil }
    let scale = configuration.unit.standardGravity
    let jitterLimit = 0.4 / sampleRate
    for _ in 0..<count {
      let index = samplesProduced + Int64(pending.count)
      var time = Double(index) / sampleRate
      if configuration.timingJitter > 0 {
        time += Swift.min(
          jitterLimit, Swift.max(-jitterLimit, configuration.timingJitter * timingRandom.gaussian()))
        pending.times!.append(Int64((time * 1e9).rounded()))
      }
      let value = motion.sample(at: time, index: index, events: &pending.events)
      pending.channels[0].append(Float(scale * (value.x + configuration.noise * noiseRandom.gaussian())))
      pending.channels[1].append(Float(scale * (value.y + configuration.noise * noiseRandom.gaussian())))
      pending.channels[2].append(Float(scale * (value.z + configuration.noise * noiseRandom.gaussian())))
    }
    let chunk = pending.take(count, firstIndex: samplesProduced, sampleRate: sampleRate, startTime: startTime)
    samplesProduced += Int64(count)
    return chunk
  }
}

/// A 3-vector in g.
struct Vector3: Sendable {
  var x: Double
  var y: Double
  var z: Double
}

/// The acceleration (with gravity, device frame, g) of an ``AccelerometerConfiguration``'s activity,
/// sample by sample in time order; the motion source of ``AccelerometerSimulator`` and of the motion
/// artifacts of ``PPGSimulator``.
struct MotionGenerator: Sendable {
  let activity: Activity
  let cadence: Profile
  let stepAmplitude: Profile
  let stepVariation: Double
  let stepTimeAsymmetry: Double
  let gain: Double
  let swing: Double
  let impactWidth: Double
  let sampleRate: Double
  /// Rows of the fixed rotation from the walker's frame into the device frame.
  let rotation: (Vector3, Vector3, Vector3)
  var random: SimulationRandom
  /// Gait: the last heel strike, the next one, and the number of the last one.
  var lastStrike = 0.0
  var nextStrike = 0.0
  var stepNumber = 0
  /// Slow random states (Ornstein–Uhlenbeck) of the non-walking activities: two angles and a
  /// forward acceleration; and the amplitude and phase of the current decaying impulse (taps, bumps).
  var slow = (0.0, 0.0, 0.0)
  var impulseAmplitude = 0.0
  var impulseTime = -Double.infinity
  var nextImpulse = 0.0
  let vibration: [(omega: Double, phase: Double, amplitude: Double)]

  init(configuration: AccelerometerConfiguration, sampleRate: Double, seed: UInt64) {
    precondition(
      configuration.cadence.minimum > 0 || !configuration.activity.isWalking, "cadence must be positive")
    precondition(configuration.stepAmplitude.minimum >= 0, "step amplitude must not be negative")
    precondition((0...1).contains(configuration.stepTimeAsymmetry), "step-time asymmetry must lie in 0...1")
    activity = configuration.activity
    cadence = configuration.cadence
    stepAmplitude = configuration.stepAmplitude
    stepVariation = configuration.stepVariation
    stepTimeAsymmetry = configuration.stepTimeAsymmetry
    let parameters = configuration.placement.parameters
    gain = parameters.gain * (configuration.activity == .running ? 2.5 : 1)
    swing = parameters.swing * Double.pi / 180
    impactWidth = parameters.impactWidth * (configuration.activity == .running ? 0.7 : 1)
    self.sampleRate = sampleRate
    rotation = Self.rotation(
      roll: parameters.roll * Double.pi / 180, pitch: parameters.pitch * Double.pi / 180,
      yaw: parameters.yaw * Double.pi / 180)
    random = SimulationRandom(seed: seed, stream: StreamID.gait)
    var phases = SimulationRandom(seed: seed, stream: StreamID.motion)
    vibration = (0..<4).map { _ in
      (2 * Double.pi * phases.uniform(10, 20), 2 * Double.pi * phases.uniform(), 0.015)
    }
    if activity.isWalking {
      nextStrike = random.uniform() * 60 / cadence.value(at: 0)
      lastStrike = nextStrike - 60 / cadence.value(at: 0)
    }
  }

  /// The rotation matrix Rz(yaw) · Ry(pitch) · Rx(roll), as rows.
  static func rotation(roll: Double, pitch: Double, yaw: Double) -> (Vector3, Vector3, Vector3) {
    let (cr, sr, cp, sp, cy, sy) = (cos(roll), sin(roll), cos(pitch), sin(pitch), cos(yaw), sin(yaw))
    return (
      Vector3(x: cy * cp, y: cy * sp * sr - sy * cr, z: cy * sp * cr + sy * sr),
      Vector3(x: sy * cp, y: sy * sp * sr + cy * cr, z: sy * sp * cr - cy * sr),
      Vector3(x: -sp, y: cp * sr, z: cp * cr)
    )
  }

  /// The acceleration with gravity at `time` seconds (device frame, g); heel strikes passed since the
  /// previous call are appended to `events` at sample `index`. Calls come in increasing time.
  @inline(__always)
  mutating func sample(at time: Double, index: Int64, events: inout [TruthEvent]) -> Vector3 {
    // Walker's frame: forward, left, up; gravity included.
    var forward = 0.0
    var left = 0.0
    var up = 1.0
    var pitch = 0.0
    var roll = 0.0
    switch activity {
    case .walking, .running:
      while time >= nextStrike {
        let interval = nextStrike - lastStrike
        if nextStrike >= 0 {
          events.append(TruthEvent(sampleIndex: index, time: nextStrike, label: .step, rate: 60 / interval))
        }
        stepNumber += 1
        lastStrike = nextStrike
        let mean =
          60 / cadence.value(at: nextStrike) * (1 + (stepNumber % 2 == 0 ? 0.5 : -0.5) * stepTimeAsymmetry)
        nextStrike += mean * Swift.max(0.5, 1 + stepVariation * random.gaussian())
      }
      let p = (time - lastStrike) / (nextStrike - lastStrike)
      let sinceStrike = time - lastStrike
      let impact =
        0.5
        * exp(
          -0.5 * (sinceStrike - 1.5 * impactWidth) * (sinceStrike - 1.5 * impactWidth)
            / (impactWidth * impactWidth))
      let stride = Double.pi * (Double(stepNumber) + p)
      let body = gain * stepAmplitude.value(at: time)
      up += body * (0.25 * cos(2 * Double.pi * p) + impact)
      forward += body * 0.15 * sin(2 * Double.pi * p)
      left += body * 0.08 * sin(stride)
      pitch = swing * sin(stride)
    case .still:
      break
    case .typing:
      up += impulse(at: time, rate: 6, amplitude: 0.04, frequency: 25, damping: 0.02)
      (pitch, roll) = wander(time: time, timeConstant: 3, size: 0.03)
    case .vehicle:
      for wave in vibration { up += wave.amplitude * sin(wave.omega * time + wave.phase) }
      up += impulse(at: time, rate: 0.3, amplitude: 0.25, frequency: 1.8, damping: 0.4)
      (pitch, roll) = wander(time: time, timeConstant: 8, size: 0.05)
      forward += 1.5 * slow.2
    case .gestures:
      (pitch, roll) = wander(time: time, timeConstant: 0.8, size: 0.6)
      forward += 0.3 * slow.2
    case .shaking:
      let omega = 2 * Double.pi * 5
      (pitch, roll) = wander(time: time, timeConstant: 2, size: 0.2)
      forward += 1.2 * sin(omega * time)
      up += 0.4 * sin(omega * time + 1)
    }
    if pitch != 0 || roll != 0 {
      // Rotation of the carrying limb (pitch about the lateral axis, roll about the forward axis).
      let (cp, sp, cr, sr) = (cos(pitch), sin(pitch), cos(roll), sin(roll))
      let f = cp * forward + sp * up
      let u = -sp * forward + cp * up
      forward = f
      let l = cr * left - sr * u
      up = sr * left + cr * u
      left = l
    }
    let (r0, r1, r2) = rotation
    return Vector3(
      x: r0.x * forward + r0.y * left + r0.z * up,
      y: r1.x * forward + r1.y * left + r1.z * up,
      z: r2.x * forward + r2.y * left + r2.z * up)
  }

  /// Decaying oscillations started at Poisson times (`rate` per second): taps or road bumps.
  mutating func impulse(at time: Double, rate: Double, amplitude: Double, frequency: Double, damping: Double)
    -> Double
  {
    while time >= nextImpulse {
      impulseTime = nextImpulse
      impulseAmplitude = amplitude * random.uniform(0.5, 1.5)
      nextImpulse += random.exponential(mean: 1 / rate)
    }
    let age = time - impulseTime
    return impulseAmplitude * exp(-age / damping) * sin(2 * Double.pi * frequency * age)
  }

  /// Slow random orientation angles (radians, standard deviation `size`) and forward acceleration
  /// (g, standard deviation `size` / 4): Ornstein–Uhlenbeck processes with the given time constant.
  mutating func wander(time: Double, timeConstant: Double, size: Double) -> (Double, Double) {
    let decay = exp(-1 / (timeConstant * sampleRate))
    let innovation = size * (1 - decay * decay).squareRoot()
    slow.0 = decay * slow.0 + innovation * random.gaussian()
    slow.1 = decay * slow.1 + innovation * random.gaussian()
    slow.2 = decay * slow.2 + innovation / 4 * random.gaussian()
    return (slow.0, slow.1)
  }
}
