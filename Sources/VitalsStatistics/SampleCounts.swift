import VitalsCore
import VitalsIO

/// The heartbeat series or electrocardiogram samples of samples files (`*.samples.jsonl`) and Apple
/// Health exports, counted per interval: how many start in each interval and, for heartbeat series,
/// how many beats they hold; for electrocardiograms, how many have each classification.
///
/// Opening reads every input once, in the order given, and keeps per sample its start, beat count and
/// classification (a few bytes each). Exports hold neither kind, so they add no sample.
public struct SampleCounts: Sendable {
  /// The kinds of sample counted.
  public enum Kind: String, Sendable, CaseIterable {
    /// ``HeartbeatSeriesSample``.
    case heartbeatSeries
    /// ``ElectrocardiogramSample``.
    case electrocardiogram
  }

  /// The counts of one interval `[start, end)`.
  public struct Interval: Hashable, Sendable {
    /// When the interval starts.
    public var start: Timestamp
    /// When it ends.
    public var end: Timestamp
    /// Samples starting in the interval.
    public var count = 0
    /// Heartbeat series: the beats of those samples (0 for electrocardiograms).
    public var beats = 0
    /// Electrocardiograms: those samples per classification, by HealthKit's case name (empty for
    /// heartbeat series).
    public var classifications: [String: Int] = [:]
  }

  /// The files read, in order.
  public let inputs: [String]
  /// The kind counted.
  public let kind: Kind
  /// The shortest range holding every sample of ``kind`` (`SampleSpan`): from the earliest start to
  /// the latest end, or 1 ns past the latest start when that is later; nil when there is none.
  public private(set) var span: Range<Timestamp>?
  /// Per sample of ``kind``: start, beats, classification.
  private var samples: [(start: Timestamp, beats: Int, classification: String)] = []

  /// Reads `inputs` for the samples of `kind`. Throws `InputError` for an input that cannot be read or
  /// is neither an export nor a samples file.
  public init(inputs: [String], kind: Kind) throws(InputError) {
    self.inputs = inputs
    self.kind = kind
    var span = SampleSpan()
    for path in inputs {
      let next = try QuantitySampleFiles.samples(at: path)
      while let sample = try next() {
        switch (kind, sample) {
        case (.heartbeatSeries, .heartbeatSeries(let series)):
          samples.append((series.start, series.beats.count, ""))
        case (.electrocardiogram, .electrocardiogram(let ecg)):
          samples.append((ecg.start, 0, ecg.classification))
        default: continue
        }
        span.include(start: sample.start, end: sample.end)
      }
    }
    self.span = span.range
  }

  /// The counts of every interval of `intervals`, in order; a sample counts in the interval holding its
  /// start (none when it starts outside the collection).
  public func counts(in intervals: IntervalCollection) -> [Interval] {
    var result = (0..<intervals.count).map {
      Interval(start: intervals.boundary($0), end: intervals.boundary($0 + 1))
    }
    for sample in samples {
      guard let index = intervals.index(of: sample.start.nanosecondsSinceEpoch) else { continue }
      result[index].count += 1
      result[index].beats += sample.beats
      if kind == .electrocardiogram { result[index].classifications[sample.classification, default: 0] += 1 }
    }
    return result
  }
}
