import VitalsAnalysis

/// Steps, walking time, cadence and walking bouts, encoded once for `vitals steps` and the `"steps"`
/// section of a recording's summary (``StepsSection``):
/// `{"steps":…,"walking_s":…,"cadence_spm":…,"bouts":[{"start_s":…,"end_s":…,"steps":…}]}`.
///
/// `walking_s` is the time from the first to the last step of each bout, summed; `cadence_spm` the step
/// intervals per minute of walking (`Swift/Sequence/overallCadence`), 0 without walking; bout times
/// are seconds from the record's first sample (sample index / rate). Without bouts (live streams, which
/// keep none) `bouts` is left out.
public struct WalkingSummary: Sendable, Equatable, Encodable {
  /// Steps counted.
  public var stepCount: Int
  /// Seconds of walking: first to last step of each bout, summed.
  public var walkingSeconds: Double
  /// Steps per minute of walking; 0 without walking.
  public var cadence: Double
  /// Every walking bout (whole records); nil for live streams.
  public var bouts: [WalkingBout]?
  /// Samples per second of the record the bouts' sample indices count.
  public var sampleRate: Double

  /// A summary of counts kept as the steps came (`bouts` nil when they were not kept); `sampleRate`
  /// (Hz) must be positive.
  public init(
    stepCount: Int, walkingSeconds: Double, cadence: Double, bouts: [WalkingBout]?, sampleRate: Double
  ) {
    precondition(sampleRate > 0, "the sample rate must be positive")
    self.stepCount = stepCount
    self.walkingSeconds = walkingSeconds
    self.cadence = cadence
    self.bouts = bouts
    self.sampleRate = sampleRate
  }

  /// The summary of `stepCount` steps found in `bouts` (sample indices at `sampleRate` Hz, positive),
  /// walking time and cadence computed from them.
  public init(stepCount: Int, bouts: [WalkingBout], sampleRate: Double) {
    self.init(
      stepCount: stepCount, walkingSeconds: bouts.reduce(0) { $0 + $1.duration },
      cadence: bouts.overallCadence,
      bouts: bouts, sampleRate: sampleRate)
  }

  private struct Bout: Encodable {
    var start_s: Double
    var end_s: Double
    var steps: Int
  }

  private enum CodingKeys: String, CodingKey {
    case steps, walking_s, cadence_spm, bouts
  }

  /// Encodes the keys described in the type's documentation into the encoder's keyed container (which
  /// an enclosing section may share).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(stepCount, forKey: .steps)
    try c.encode(walkingSeconds, forKey: .walking_s)
    try c.encode(cadence, forKey: .cadence_spm)
    try c.encodeIfPresent(
      bouts?.map {
        Bout(
          start_s: Double($0.start.sampleIndex) / sampleRate, end_s: Double($0.end.sampleIndex) / sampleRate,
          steps: $0.steps)
      }, forKey: .bouts)
  }
}
