import VitalsCore
import VitalsSimulation

/// A simulated wearable recording of one ECG lead and three accelerometer axes at one rate, made of
/// segments of a constant heart rate and activity (and, optionally, atrial fibrillation): the input of
/// the derived-metrics tests (resting and walking heart rate, heart-rate and irregular-rhythm events).
public struct SimulatedActivityRecording: Sendable {
  /// One stretch of the recording.
  public struct Segment: Sendable {
    /// Seconds.
    public var duration: Double
    /// Mean sinus heart rate, beats per minute.
    public var heartRate: Double
    /// What the wearer does (``Activity/walking`` makes steps).
    public var activity: Activity
    /// Whether the segment is in atrial fibrillation.
    public var fibrillation: Bool

    /// A segment.
    public init(duration: Double, heartRate: Double, activity: Activity, fibrillation: Bool = false) {
      self.duration = duration
      self.heartRate = heartRate
      self.activity = activity
      self.fibrillation = fibrillation
    }
  }

  /// Samples per second of every channel.
  public let rate: Double
  /// Absolute time of the first sample.
  public let startTime: Timestamp
  /// `ecg` (mV), `acc_x`, `acc_y`, `acc_z` (g, wrist).
  public let channels: [[Float]]
  /// The channel names, in order.
  public static let names = ["ecg", "acc_x", "acc_y", "acc_z"]
  /// The channel units, in order.
  public static let units = ["mV", "g", "g", "g"]
  /// True step times, seconds from the first sample.
  public let steps: [Double]

  /// The segments one after the other: one ECG simulation whose heart rate steps between the segments'
  /// rates (1 s ramps), accelerometer simulations per segment appended.
  public init(segments: [Segment], rate: Double, startTime: Timestamp, seed: UInt64 = 11) {
    precondition(!segments.isEmpty, "a recording has segments")
    var points: [(time: Double, value: Double)] = []
    var fibrillation: [RhythmEpisode] = []
    var t = 0.0
    for segment in segments {
      points.append((t + (t > 0 ? 1 : 0), segment.heartRate))
      points.append((t + segment.duration, segment.heartRate))
      if segment.fibrillation { fibrillation.append(RhythmEpisode(start: t, end: t + segment.duration)) }
      t += segment.duration
    }
    var rhythm = RhythmConfiguration(heartRate: Profile(points), rrStandardDeviation: 0.03)
    rhythm.atrialFibrillation = fibrillation
    var ecg = ECGSimulator(
      configuration: ECGConfiguration(rhythm: rhythm), duration: t, sampleRate: rate, seed: seed)
    var channels = [ecg.generateAll().channels[0], [], [], []]
    var steps: [Double] = []
    var offset = 0.0
    for (k, segment) in segments.enumerated() {
      var motion = AccelerometerSimulator(
        configuration: AccelerometerConfiguration(activity: segment.activity), duration: segment.duration,
        sampleRate: rate, seed: seed &+ UInt64(k))
      let recording = motion.generateAll()
      for axis in 0..<3 { channels[axis + 1] += recording.channels[axis] }
      steps += recording.events.map { offset + $0.time }
      offset += segment.duration
    }
    let count = channels.map(\.count).min()!
    self.channels = channels.map { Array($0.prefix(count)) }
    self.rate = rate
    self.startTime = startTime
    self.steps = steps
  }
}
