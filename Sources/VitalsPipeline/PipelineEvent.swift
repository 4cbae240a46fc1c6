import VitalsSupport

/// Something a pipeline found at one moment of a recording: a beat, a heart-rate reading, periodic
/// HRV metrics, the start or end of an irregular-rhythm episode, a step, a walking bout, a motion level.
///
/// Times are those of the sample the event belongs to (the R peak of a beat, the end of the window of
/// a heart-rate reading, the first sample of an episode), not the moment the event was decided.
public struct PipelineEvent: Sendable, Equatable {
  /// What happened, without its values; the raw value is the event's `"type"` in output.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// See ``Value/beat``.
    case beat
    /// See ``Value/heartRate(bpm:quality:)``.
    case heartRate = "heart_rate"
    /// See ``Value/hrv(sdnn:rmssd:meanNN:meanHR:window:)``.
    case hrv
    /// See ``Value/irregularRhythmStart``.
    case irregularRhythmStart = "irregular_rhythm_start"
    /// See ``Value/irregularRhythmEnd(duration:)``.
    case irregularRhythmEnd = "irregular_rhythm_end"
    /// See ``Value/step``.
    case step
    /// See ``Value/walkingBout(steps:duration:cadence:)``.
    case walkingBout = "walking_bout"
    /// See ``Value/motion(level:window:)``.
    case motion
  }

  /// What happened, with its values.
  public enum Value: Sendable, Equatable {
    /// A heartbeat (ECG: the R peak; PPG: the systolic peak).
    case beat
    /// A heart-rate reading in beats per minute; from PPG, with the quality of the window it was read in.
    case heartRate(bpm: Double, quality: WindowQuality?)
    /// Heart-rate variability over the trailing `window` seconds: SDNN, RMSSD and mean NN interval (ms),
    /// mean heart rate (bpm).
    case hrv(sdnn: Double, rmssd: Double, meanNN: Double, meanHR: Double, window: Double)
    /// An irregular-rhythm (possible atrial fibrillation) episode began at the event's time.
    case irregularRhythmStart
    /// The irregular-rhythm episode ended at the event's time, `duration` seconds after it began.
    case irregularRhythmEnd(duration: Double)
    /// A step (accelerometer: the peak of its acceleration).
    case step
    /// A walking bout, at its first step, reported once it has ended: its step count, `duration` (s,
    /// first to last step) and `cadence` (steps per minute).
    case walkingBout(steps: Int, duration: Double, cadence: Double)
    /// The motion level of the `window` seconds starting at the event's time: `level` is the standard
    /// deviation of the acceleration magnitude, in g.
    case motion(level: Double, window: Double)
  }

  /// How far a PPG heart-rate reading can be trusted (`HeartRateWindow`'s quality).
  public struct WindowQuality: Sendable, Equatable {
    /// Confidence in `0…1`.
    public var score: Double
    /// Whether `score` reaches the estimator's threshold.
    public var isReliable: Bool

    /// A quality of `score` (`0…1`).
    public init(score: Double, isReliable: Bool) {
      self.score = score
      self.isReliable = isReliable
    }
  }

  /// What happened, with its values.
  public var value: Value
  /// The pipeline that found it.
  public var signal: SignalKind
  /// Index, within the record, of the sample the event belongs to.
  public var sampleIndex: Int64
  /// Seconds from the first sample of the record to ``sampleIndex``.
  public var seconds: Double

  /// An event at `sampleIndex` of a record sampled at `sampleRate` Hz.
  public init(_ value: Value, signal: SignalKind, sampleIndex: Int64, sampleRate: Double) {
    self.value = value
    self.signal = signal
    self.sampleIndex = sampleIndex
    self.seconds = Double(sampleIndex) / sampleRate
  }

  /// What happened, without its values.
  public var kind: Kind { value.kind }
}

extension PipelineEvent.Value {
  /// The kind of event.
  public var kind: PipelineEvent.Kind {
    switch self {
    case .beat: .beat
    case .heartRate: .heartRate
    case .hrv: .hrv
    case .irregularRhythmStart: .irregularRhythmStart
    case .irregularRhythmEnd: .irregularRhythmEnd
    case .step: .step
    case .walkingBout: .walkingBout
    case .motion: .motion
    }
  }

  /// The values under their output keys, the one place those keys are named: `bpm`, with `quality` and
  /// `reliable` (1 or 0) from PPG; `SDNN`, `RMSSD`, `MeanNN`, `MeanHR`, `window_s`; `duration_s`;
  /// `steps`, `duration_s`, `cadence_spm`; `g`, `window_s`. Empty for beats, steps and episode starts.
  public var outputFields: [(key: String, value: Double)] {
    switch self {
    case .beat, .irregularRhythmStart, .step: []
    case .heartRate(let bpm, nil): [("bpm", bpm)]
    case .heartRate(let bpm, let quality?):
      [("bpm", bpm), ("quality", quality.score), ("reliable", quality.isReliable ? 1 : 0)]
    case .hrv(let sdnn, let rmssd, let meanNN, let meanHR, let window):
      [("SDNN", sdnn), ("RMSSD", rmssd), ("MeanNN", meanNN), ("MeanHR", meanHR), ("window_s", window)]
    case .irregularRhythmEnd(let duration): [("duration_s", duration)]
    case .walkingBout(let steps, let duration, let cadence):
      [("steps", Double(steps)), ("duration_s", duration), ("cadence_spm", cadence)]
    case .motion(let level, let window): [("g", level), ("window_s", window)]
    }
  }
}

extension PipelineEvent {
  /// The event as one line of JSON (keys sorted, no trailing newline):
  /// `{"sample":…,"signal":"ecg","time_s":…,"type":"beat"}` plus the event's
  /// ``Value/outputFields`` (`"bpm":…`); non-finite values as null.
  public func jsonLine() -> String {
    var fields: [(String, String)] = [
      ("sample", String(sampleIndex)), ("signal", "\"\(signal.rawValue)\""), ("time_s", Self.number(seconds)),
      ("type", "\"\(kind.rawValue)\""),
    ]
    for (key, value) in value.outputFields { fields.append((key, Self.number(value))) }
    fields.sort { $0.0 < $1.0 }
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  /// A JSON number in its shortest form; null for a value JSON cannot hold.
  private static func number(_ value: Double) -> String { value.isFinite ? shortestText(value) : "null" }
}
