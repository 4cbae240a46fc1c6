import VitalsSupport

/// Additive disturbances of a simulated ECG or PPG, in the signal's unit (mV for ECG, pulse heights
/// for PPG). Every component is off at 0, and each draws from its own random stream, so switching
/// one on leaves the others (and the clean signal and its truth) unchanged.
public struct NoiseConfiguration: Sendable, Hashable, Codable {
  /// Standard deviation of white Gaussian noise (electrode and amplifier noise).
  public var white: Double = 0
  /// RMS of muscle (EMG-like) noise: first differences of white noise (energy rising with frequency,
  /// like surface EMG above 20 Hz) under a log-normal envelope with a 2 s time constant, so it comes
  /// in bursts (Clifford et al. 2006, "Advanced Methods and Tools for ECG Data Analysis", ch. 3).
  public var muscle: Double = 0
  /// Standard deviation of slow baseline drift: an Ornstein–Uhlenbeck process with an 8 s time
  /// constant (electrode drift, posture changes).
  public var drift: Double = 0
  /// Amplitude of baseline wander at the breathing frequency (``RhythmConfiguration/respiratoryFrequency``).
  public var respiratoryWander: Double = 0
  /// Amplitude of mains interference, a sine at ``powerlineFrequency``.
  public var powerline: Double = 0
  /// Mains frequency, Hz (50 or 60).
  public var powerlineFrequency: Double = 50

  /// Components as documented on each property (all ≥ 0).
  public init(
    white: Double = 0, muscle: Double = 0, drift: Double = 0, respiratoryWander: Double = 0,
    powerline: Double = 0, powerlineFrequency: Double = 50
  ) {
    precondition([white, muscle, drift, respiratoryWander, powerline].allSatisfy { $0 >= 0 && $0.isFinite })
    precondition(powerlineFrequency > 0, "mains frequency must be positive")
    self.white = white
    self.muscle = muscle
    self.drift = drift
    self.respiratoryWander = respiratoryWander
    self.powerline = powerline
    self.powerlineFrequency = powerlineFrequency
  }

  /// No noise at all: the clean signal.
  public static let none = NoiseConfiguration()
}

/// Draws ``NoiseConfiguration``'s components sample by sample at a fixed rate.
struct NoiseGenerator: Sendable {
  let configuration: NoiseConfiguration
  var whiteRandom: SimulationRandom
  var muscleRandom: SimulationRandom
  var driftRandom: SimulationRandom
  let respiratoryOmega: Double
  let respiratoryPhase: Double
  let powerlineOmega: Double
  let powerlinePhase: Double
  let driftDecay: Double
  let driftInnovation: Double
  let envelopeDecay: Double
  let envelopeInnovation: Double
  var driftState: Double
  var envelopeState = 0.0
  var previousMuscleDraw = 0.0
  let enabled: Bool

  init(
    configuration: NoiseConfiguration, respiratoryFrequency: Double, sampleRate: Double, seed: UInt64,
    stream: UInt64
  ) {
    self.configuration = configuration
    whiteRandom = SimulationRandom(seed: seed, stream: stream)
    muscleRandom = SimulationRandom(seed: seed, stream: stream &+ 100)
    driftRandom = SimulationRandom(seed: seed, stream: stream &+ 200)
    var phases = SimulationRandom(seed: seed, stream: stream &+ 300)
    respiratoryOmega = 2 * Double.pi * respiratoryFrequency
    respiratoryPhase = 2 * Double.pi * phases.uniform()
    powerlineOmega = 2 * Double.pi * configuration.powerlineFrequency
    powerlinePhase = 2 * Double.pi * phases.uniform()
    driftDecay = exp(-1 / (8 * sampleRate))
    driftInnovation = configuration.drift * (1 - driftDecay * driftDecay).squareRoot()
    driftState = configuration.drift * phases.gaussian()
    envelopeDecay = exp(-1 / (2 * sampleRate))
    envelopeInnovation = (1 - envelopeDecay * envelopeDecay).squareRoot()
    let c = configuration
    enabled = c.white > 0 || c.muscle > 0 || c.drift > 0 || c.respiratoryWander > 0 || c.powerline > 0
  }

  /// The sum of the enabled components at `time` seconds (one call per sample, in order).
  @inline(__always)
  mutating func sample(at time: Double) -> Double {
    guard enabled else { return 0 }
    let c = configuration
    var value = 0.0
    if c.white > 0 { value += c.white * whiteRandom.gaussian() }
    if c.muscle > 0 {
      let draw = muscleRandom.gaussian()
      envelopeState = envelopeDecay * envelopeState + envelopeInnovation * muscleRandom.gaussian()
      // Envelope exp(0.8 e − 0.64) has mean square 1 when e ~ N(0, 1); differences have variance 2.
      let envelope = exp(0.8 * envelopeState - 0.64)
      value += c.muscle * envelope * (draw - previousMuscleDraw) * 0.5.squareRoot()
      previousMuscleDraw = draw
    }
    if c.drift > 0 {
      driftState = driftDecay * driftState + driftInnovation * driftRandom.gaussian()
      value += driftState
    }
    if c.respiratoryWander > 0 {
      value += c.respiratoryWander * sin(respiratoryOmega * time + respiratoryPhase)
    }
    if c.powerline > 0 { value += c.powerline * sin(powerlineOmega * time + powerlinePhase) }
    return value
  }
}
