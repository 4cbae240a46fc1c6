import VitalsCore

/// One beat of a ``HeartbeatSeriesSample``, as HealthKit's heartbeat series query hands it out.
public struct Heartbeat: Hashable, Sendable, Codable {
  /// When the beat happened, in seconds since the series' ``HeartbeatSeriesSample/start`` (at least 0).
  public var timeSinceSeriesStart: Double
  /// Whether beats may be missing between the previous beat of the series and this one, so that the
  /// interval between them is not a beat-to-beat interval (false for the first beat).
  public var precededByGap: Bool

  /// A beat `timeSinceSeriesStart` seconds after the series' start.
  public init(timeSinceSeriesStart: Double, precededByGap: Bool) {
    self.timeSinceSeriesStart = timeSinceSeriesStart
    self.precededByGap = precededByGap
  }
}

/// The beat times of a stretch of time, as HealthKit's `HKHeartbeatSeriesSample`: the beats in time order,
/// each flagged where beats were missed before it.
///
/// Its type name in samples files is ``typeName``. `end` is never before `start`, and every beat lies in
/// `0 ... start.seconds(to: end)` seconds, in increasing order.
public struct HeartbeatSeriesSample: Hashable, Sendable {
  /// `heartbeatSeries`, the type name of samples files.
  public static let typeName = "heartbeatSeries"

  /// When the series starts.
  public var start: Timestamp
  /// When it ends (not before ``start``).
  public var end: Timestamp
  /// The beats, in increasing time.
  public var beats: [Heartbeat]
  /// The app or device that recorded the series.
  public var source: String
  /// A description of the recording device, if known.
  public var device: String?
  /// Extra key–value pairs.
  public var metadata: [String: String]

  /// A series; `start` must not be after `end`, and the beats must increase within the span.
  public init(
    start: Timestamp, end: Timestamp, beats: [Heartbeat], source: String, device: String? = nil,
    metadata: [String: String] = [:]
  ) {
    precondition(start <= end, "a sample cannot end before it starts")
    precondition(
      zip(beats, beats.dropFirst()).allSatisfy { $0.timeSinceSeriesStart < $1.timeSinceSeriesStart },
      "the beats of a series must increase")
    precondition(
      beats.allSatisfy { $0.timeSinceSeriesStart >= 0 && $0.timeSinceSeriesStart <= start.seconds(to: end) },
      "the beats of a series must lie within its span")
    self.start = start
    self.end = end
    self.beats = beats
    self.source = source
    self.device = device
    self.metadata = metadata
  }
}
