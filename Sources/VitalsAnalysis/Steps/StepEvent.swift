import VitalsCore

/// One step found by ``StepDetector``: where the step's acceleration peak lies.
public struct StepEvent: Sendable, Hashable, Codable {
  /// Index, at the input rate, of the sample at the step's peak within the record (sample 0 is the record's
  /// first sample).
  public var sampleIndex: Int64
  /// Absolute time of that sample.
  public var time: Timestamp

  public init(sampleIndex: Int64, time: Timestamp) {
    self.sampleIndex = sampleIndex
    self.time = time
  }
}

/// A stretch of continuous walking or running: steps at a regular rhythm with no pause longer than the
/// detector's ``StepDetector/Configuration-swift.struct/maximumStepInterval``.
public struct WalkingBout: Sendable, Hashable, Codable {
  /// The bout's first step.
  public var start: StepEvent
  /// The bout's last step.
  public var end: StepEvent
  /// Steps in the bout, the first and the last included (at least
  /// ``StepDetector/Configuration-swift.struct/stepsToResumeBout``).
  public var steps: Int

  public init(start: StepEvent, end: StepEvent, steps: Int) {
    precondition(steps >= 1 && start.sampleIndex <= end.sampleIndex, "a bout has steps, in order")
    self.start = start
    self.end = end
    self.steps = steps
  }

  /// Time from the first to the last step, seconds.
  public var duration: Double { start.time.seconds(to: end.time) }

  /// Steps per minute over the bout: `60 · (steps − 1) / duration` (the step intervals between the first
  /// and the last step); 0 for a bout of one step or of no duration.
  public var cadence: Double { duration > 0 ? 60 * Double(steps - 1) / duration : 0 }
}

extension Sequence<WalkingBout> {
  /// Steps per minute over all the bouts together: `60 · Σ(steps − 1) / Σ duration` (steps per minute of
  /// walking, pauses between bouts excluded, as HealthKit's walking cadence); 0 without walking time.
  public var overallCadence: Double {
    var intervals = 0
    var seconds = 0.0
    for bout in self {
      intervals += bout.steps - 1
      seconds += bout.duration
    }
    return seconds > 0 ? 60 * Double(intervals) / seconds : 0
  }
}
