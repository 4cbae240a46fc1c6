import VitalsCore
import VitalsIO

/// What a pipeline reports about its signal at the end of a recording: one section of the recording's
/// summary, encoded under the pipeline's ``SignalKind/sectionName`` (e.g. `"ecg": {…}`, `"steps": {…}`).
public protocol PipelineSection: Encodable, Sendable {
  /// Samples per second of the channels the pipeline read.
  var sampleRate: Double { get }
  /// Event tables written beside the summary (`vitals analyze --out`), by file suffix: e.g. `"beats"`
  /// → the record sample indices of the beats, written as `NAME.beats.csv` (header `sample,time_s`).
  var eventTables: [String: [Int64]] { get }
  /// Labels of the events of some tables, one per event, written as a `label` column (e.g. `"beats"` →
  /// the beats' EC57 classes); none by default.
  var eventLabels: [String: [String]] { get }
}

extension PipelineSection {
  public var eventLabels: [String: [String]] { [:] }
}

/// The analysis of one kind of signal in one recording, run causally over chunks.
///
/// A pipeline reads its channels from each `SignalChunk` of the recording (the chunks hold every
/// channel the reader yields; the pipeline knows its indices), keeps its state between chunks and
/// emits events as soon as it has decided them. The same record fed in chunks of any size gives the
/// same events and section. ``finish(events:)`` ends the record and returns the summary section.
///
/// To add a kind of signal: one type conforming to this protocol and one
/// ``PipelineRegistry/register(_:factory:)`` call in ``PipelineRegistry/standard``.
public protocol RecordingPipeline {
  /// The kind of signal analyzed.
  var kind: SignalKind { get }
  /// Feeds the next chunk (consecutive with the previous one) and appends the events decided by now.
  mutating func process(_ chunk: SignalChunk, events: inout [PipelineEvent])
  /// Ends the record: appends the events still pending and returns the summary section.
  mutating func finish(events: inout [PipelineEvent]) -> any PipelineSection

  /// Takes out the part of ``process(_:events:)`` that reads nothing but the chunk, so that
  /// ``RecordingAnalyzer`` can run it on another thread a few chunks ahead of the rest; nil (the default)
  /// when the pipeline has no such part. Until ``attach(_:)`` gives the stage back, the pipeline takes
  /// chunks through ``process(_:staged:events:)`` only.
  mutating func detachStage() -> (any PipelineStage)?
  /// Feeds the next chunk together with what the detached stage returned for it; the events are those of
  /// ``process(_:events:)``.
  mutating func process(_ chunk: SignalChunk, staged: any Sendable, events: inout [PipelineEvent])
  /// Gives back the stage ``detachStage()`` took out, after it has run on every chunk fed.
  mutating func attach(_ stage: any PipelineStage)
}

/// The part of a pipeline's work on each chunk that reads nothing but the chunk (see
/// ``RecordingPipeline/detachStage()``): run in chunk order on a thread of its own, it returns for each
/// chunk what the rest of the pipeline needs of it, and the pipeline's events and section stay those of one
/// thread.
public protocol PipelineStage: Sendable {
  /// Runs on the next chunk and returns what ``RecordingPipeline/process(_:staged:events:)`` takes with it.
  mutating func process(_ chunk: SignalChunk) -> any Sendable
}

extension RecordingPipeline {
  public mutating func detachStage() -> (any PipelineStage)? { nil }

  public mutating func process(_ chunk: SignalChunk, staged: any Sendable, events: inout [PipelineEvent]) {
    preconditionFailure("\(kind.rawValue) pipeline: no stage was detached")
  }

  public mutating func attach(_ stage: any PipelineStage) {
    preconditionFailure("\(kind.rawValue) pipeline: no stage was detached")
  }
}

/// Why the channels of a recognized kind are not analyzed (no pipeline for it in this build, or its
/// pipeline cannot take them, e.g. a rate outside the detector's range).
public struct PipelineUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
  /// The reason, as a sentence fragment (`"no PPG pipeline in this build"`).
  public var reason: String

  /// An error with `reason`.
  public init(_ reason: String) { self.reason = reason }

  /// The reason.
  public var description: String { reason }
}

/// How a pipeline is built for one recording.
public struct PipelineContext: Sendable {
  /// The recording's path (for error messages).
  public var path: String
  /// Every signal the reader yields, in chunk channel order.
  public var signals: [SignalDescription]
  /// Samples per second of every channel of the chunks.
  public var sampleRate: Double
  /// The indices of the channels of the pipeline's kind.
  public var channels: [Int]
  /// The accelerometer axes of the recording (empty when none), for pipelines that use motion (PPG).
  public var accelerometer: [Int]
  /// Whether the pipeline runs on an unbounded live stream: keep only bounded state (no whole-record
  /// beat lists) and report periodic metrics instead of whole-record ones.
  public var live: Bool

  /// A context.
  public init(
    path: String, signals: [SignalDescription], sampleRate: Double, channels: [Int],
    accelerometer: [Int] = [],
    live: Bool
  ) {
    self.path = path
    self.signals = signals
    self.sampleRate = sampleRate
    self.channels = channels
    self.accelerometer = accelerometer
    self.live = live
  }
}

/// The pipelines available, by kind of signal.
public struct PipelineRegistry: Sendable {
  /// Builds the pipeline of one kind for one recording, or says why it cannot.
  public typealias Factory =
    @Sendable (PipelineContext) throws(PipelineUnavailable) -> any RecordingPipeline

  private var factories: [SignalKind: Factory] = [:]

  /// An empty registry.
  public init() {}

  /// Registers (or replaces) the pipeline of `kind`.
  public mutating func register(_ kind: SignalKind, factory: @escaping Factory) {
    factories[kind] = factory
  }

  /// The pipeline of `kind` for `context`; throws when there is none or it cannot take the channels.
  public func makePipeline(_ kind: SignalKind, context: PipelineContext) throws(PipelineUnavailable)
    -> any RecordingPipeline
  {
    guard let factory = factories[kind] else {
      throw PipelineUnavailable("no \(kind.rawValue) pipeline in this build")
    }
    return try factory(context)
  }

  /// Every pipeline of this build: ECG (``ECGPipeline``), PPG (``PPGPipeline``) and accelerometer
  /// (``AccelerometerPipeline``).
  public static let standard: PipelineRegistry = {
    var registry = PipelineRegistry()
    registry.register(.ecg) { context throws(PipelineUnavailable) in try ECGPipeline(context: context) }
    registry.register(.ppg) { context throws(PipelineUnavailable) in try PPGPipeline(context: context) }
    registry.register(.accelerometer) { context throws(PipelineUnavailable) in
      try AccelerometerPipeline(context: context)
    }
    return registry
  }()
}
