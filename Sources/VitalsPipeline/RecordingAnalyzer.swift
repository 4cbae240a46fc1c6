import FoundationEssentials
import VitalsCore
import VitalsIO
import VitalsSupport

/// How recordings are analyzed: how files are read, which channels play which role, which pipelines
/// exist and how many samples are read at a time.
public struct AnalysisOptions: Sendable {
  /// Reading options (CSV layout and rate). Their channel selection, if any, limits the channels read;
  /// roles among them are recognized or given by ``overrides``.
  public var recording: RecordingOptions
  /// Channel roles given explicitly (`--ecg`, `--ppg`, `--accel`).
  public var overrides: ChannelRoles.Overrides
  /// The pipelines to run.
  public var registry: PipelineRegistry
  /// Samples per channel read at a time; memory per recording is proportional to it.
  public var chunkSize: Int

  /// Options: default reading, recognized roles, every pipeline of this build.
  public init(
    recording: RecordingOptions = RecordingOptions(), overrides: ChannelRoles.Overrides = .init(),
    registry: PipelineRegistry = .standard, chunkSize: Int = SignalChunk.defaultSampleCount
  ) {
    precondition(chunkSize > 0, "chunk size must be positive")
    self.recording = recording
    self.overrides = overrides
    self.registry = registry
    self.chunkSize = chunkSize
  }
}

/// A recording's summary: what it holds, what each pipeline found, and what was recognized but not
/// analyzed. Encodes as one JSON object (``jsonLine()``), keys sorted:
/// `path`, `format`, `start_time` (ISO 8601, UTC; null when unknown), `sample_rate` (Hz), `samples` (per channel),
/// `duration_s`, `signals` (`name`, `unit`, `kind` or null), one object per analyzed kind (`ecg`: see
/// ``ECGSection``; `steps`: see ``StepsSection``), `not_analyzed` (`kind`, `channels`, `reason`), `processing_s` (wall-clock seconds
/// of reading and analysis) and `samples_per_s` (samples of all channels read per second of it).
public struct RecordingAnalysis: Sendable, Encodable {
  /// A kind of signal the recording holds whose pipeline did not run, and why.
  public struct NotAnalyzed: Sendable, Equatable, Encodable {
    /// The recognized kind.
    public var kind: SignalKind
    /// The names of its channels.
    public var channels: [String]
    /// Why it was not analyzed.
    public var reason: String
  }

  /// The path as given.
  public var path: String
  /// The reader's format name (`WFDB 212`, `EDF+C`, `CSV`).
  public var format: String
  /// Absolute time of the first sample; `nil` when the recording states none (and no
  /// `RecordingOptions/startTime` was given).
  public var startTime: Timestamp?
  /// Samples per second of the channels read.
  public var sampleRate: Double
  /// Samples per channel read.
  public var samples: Int64
  /// The channels read.
  public var signals: [SignalDescription]
  /// Which channels play which role.
  public var roles: ChannelRoles
  /// Each pipeline's section, in ``SignalKind`` order.
  public var sections: [(kind: SignalKind, section: any PipelineSection)]
  /// Recognized kinds that were not analyzed.
  public var notAnalyzed: [NotAnalyzed]
  /// Wall-clock seconds spent reading and analyzing.
  public var processingSeconds: Double

  /// Samples of every channel read per second of processing.
  public var samplesPerSecond: Double {
    processingSeconds > 0 ? Double(samples) * Double(signals.count) / processingSeconds : 0
  }

  /// What the user should know beyond the summary: that the recording states no start time (its
  /// `start_time` is null and it has no derived samples until one is given).
  public var notes: [String] {
    guard startTime == nil else { return [] }
    return [
      "\(path): the recording states no start time: start_time is null and no HealthKit samples are derived (give its start with --start)"
    ]
  }

  /// The section of type `T` (e.g. ``ECGSection``), if a pipeline produced one.
  public func section<T: PipelineSection>(_ type: T.Type) -> T? {
    sections.lazy.compactMap { $0.section as? T }.first
  }

  private struct Signal: Encodable {
    var name: String
    var unit: String
    var kind: SignalKind?

    private enum CodingKeys: String, CodingKey { case name, unit, kind }

    /// `kind` is written as null when the channel has no role (not left out).
    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(name, forKey: .name)
      try c.encode(unit, forKey: .unit)
      try c.encode(kind, forKey: .kind)
    }
  }

  /// Encodes the summary object described in the type's documentation.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: StringKey.self)
    try c.encode(path, forKey: StringKey("path"))
    try c.encode(format, forKey: StringKey("format"))
    try c.encode(startTime?.iso8601, forKey: StringKey("start_time"))
    try c.encodeExtent(samples: samples, sampleRate: sampleRate)
    let signalList = signals.indices.map { i in
      Signal(
        name: signals[i].name, unit: signals[i].unit,
        kind: SignalKind.allCases.first { roles.channels(of: $0).contains(i) })
    }
    try c.encode(signalList, forKey: StringKey("signals"))
    for (kind, section) in sections { try c.encode(section, forKey: StringKey(kind.sectionName)) }
    try c.encode(notAnalyzed, forKey: StringKey("not_analyzed"))
    try c.encode(processingSeconds, forKey: StringKey("processing_s"))
    try c.encode(samplesPerSecond, forKey: StringKey("samples_per_s"))
  }

  /// The summary as one line of JSON (no trailing newline).
  public func jsonLine() -> String { compactJSON(self) }
}

/// Runs every pipeline a recording needs over it, reading it once, chunk by chunk.
public enum RecordingAnalyzer {
  /// Analyses the recording at `path`.
  ///
  /// With `threads` ≥ 2, a second thread reads the chunks and runs the pipelines' detached stages on them
  /// (``RecordingPipeline/detachStage()``: the ECG pipeline's QRS detection) up to six
  /// chunks ahead of the rest, which runs on the calling thread: the events, their order and the summary
  /// are those of one thread (but `processing_s`).
  ///
  /// - Parameters:
  ///   - threads: threads the analysis may use, 1 or 2 (more are not used).
  ///   - onOpen: called once the file is open, with the signals it yields (their `sampleCount` set when
  ///     the header states the length).
  ///   - onChunk: called with every chunk read, before the pipelines see it (progress, pictures).
  ///   - onEvent: called with every event, in the order the pipelines decide them.
  /// - Throws: `InputError` for input that cannot be read, naming the file and place.
  public static func analyze(
    path: String, options: AnalysisOptions = AnalysisOptions(), threads: Int = 1,
    onOpen: ([SignalDescription]) -> Void = { _ in },
    onChunk: (SignalChunk) -> Void = { _ in }, onEvent: (PipelineEvent) -> Void = { _ in }
  ) throws(InputError) -> RecordingAnalysis {
    let clock = ContinuousClock()
    let started = clock.now
    var reader = try RecordingOpener.open(path: path, options: options.recording)
    let signals = reader.signals
    guard !signals.isEmpty else { throw InputError(path: path, "no signals to analyze") }
    onOpen(signals)
    let roles = try ChannelRoles(signals: signals, overrides: options.overrides, path: path)
    var pipelines: [any RecordingPipeline] = []
    var notAnalyzed: [RecordingAnalysis.NotAnalyzed] = []
    for kind in roles.kinds {
      let channels = roles.channels(of: kind)
      let context = PipelineContext(
        path: path, signals: signals, sampleRate: reader.chunkSampleRate, channels: channels,
        accelerometer: roles.accelerometer, live: false)
      do {
        pipelines.append(try options.registry.makePipeline(kind, context: context))
      } catch {
        notAnalyzed.append(
          .init(kind: kind, channels: channels.map { signals[$0].name }, reason: error.reason))
      }
    }
    guard !pipelines.isEmpty else {
      throw InputError(path: path, nothingToAnalyze(signals: signals, notAnalyzed: notAnalyzed))
    }
    var events: [PipelineEvent] = []
    var samples: Int64 = 0
    let stages = threads >= 2 ? pipelines.indices.map { pipelines[$0].detachStage() } : []
    let ahead =
      stages.contains { $0 != nil }
      ? StagesAhead(reader: reader, stages: stages, chunkSize: options.chunkSize) : nil
    if let ahead { startThread(stackSize: 8 << 20) { ahead.run() } }
    /// The next chunk, with its stages' outputs when they ran ahead; nil at the end of the recording.
    func nextChunk() throws(InputError) -> (SignalChunk, [(any Sendable)?]?)? {
      if let ahead { return try ahead.next() }
      return try reader.nextChunk(maxSamples: options.chunkSize).map { ($0, nil) }
    }
    while let (chunk, staged) = try nextChunk() {
      onChunk(chunk)
      samples += Int64(chunk.sampleCount)
      for k in pipelines.indices {
        if let output = staged?[k] {
          pipelines[k].process(chunk, staged: output, events: &events)
        } else {
          pipelines[k].process(chunk, events: &events)
        }
      }
      events.forEach(onEvent)
      events.removeAll(keepingCapacity: true)
    }
    if let ahead {
      for k in pipelines.indices { if let stage = ahead.stages[k] { pipelines[k].attach(stage) } }
      reader = ahead.reader
    }
    var sections: [(kind: SignalKind, section: any PipelineSection)] = []
    for k in pipelines.indices {
      sections.append((pipelines[k].kind, pipelines[k].finish(events: &events)))
    }
    events.forEach(onEvent)
    return RecordingAnalysis(
      path: path, format: reader.formatName, startTime: reader.startTime, sampleRate: reader.chunkSampleRate,
      samples: samples, signals: signals, roles: roles, sections: sections, notAnalyzed: notAnalyzed,
      processingSeconds: (clock.now - started).seconds)
  }
}

/// The reading thread of ``RecordingAnalyzer/analyze(path:options:threads:onOpen:onChunk:onEvent:)``: reads
/// the chunks and runs the pipelines' detached stages on them, handing each chunk with the stages' outputs
/// to the calling thread through ``slotCount`` slots taken in turn (`SlotRing`).
///
/// `@unchecked Sendable`: the reading thread alone touches ``reader`` and ``stages`` until it has written
/// the last slot (the end of the recording or its error), and a slot between `ring`'s `beginWriting()`
/// and `endWriting()`; the calling thread touches a slot between `beginReading()` and `endReading()`, and
/// ``reader`` and ``stages`` only once it has taken the last slot.
final class StagesAhead: @unchecked Sendable {
  /// What a slot holds.
  enum Slot {
    /// A chunk and, per pipeline, its stage's output (nil for a pipeline without a stage).
    case chunk(SignalChunk, [(any Sendable)?])
    case end
    case failed(InputError)
  }

  /// Chunks the reading thread may be ahead of the pipelines.
  static let slotCount = 6
  var reader: any SignalReader
  var stages: [(any PipelineStage)?]
  let chunkSize: Int
  let slots: UnsafeMutablePointer<Slot?>
  let ring = SlotRing(count: slotCount)

  init(reader: any SignalReader, stages: [(any PipelineStage)?], chunkSize: Int) {
    self.reader = reader
    self.stages = stages
    self.chunkSize = chunkSize
    slots = .allocate(capacity: Self.slotCount)
    slots.initialize(repeating: nil, count: Self.slotCount)
  }

  deinit {
    slots.deinitialize(count: Self.slotCount)
    slots.deallocate()
  }

  /// The reading thread's work: fills the slots in turn until the recording ends or cannot be read.
  func run() {
    while true {
      let slot = ring.beginWriting()
      let item: Slot
      do {
        if let chunk = try reader.nextChunk(maxSamples: chunkSize) {
          var outputs: [(any Sendable)?] = []
          outputs.reserveCapacity(stages.count)
          for k in stages.indices { outputs.append(stages[k]?.process(chunk)) }
          item = .chunk(chunk, outputs)
        } else {
          item = .end
        }
      } catch {
        item = .failed(error)
      }
      slots[slot] = item
      ring.endWriting()
      guard case .chunk = item else { return }
    }
  }

  /// The next chunk with its stages' outputs; nil at the end of the recording. Throws the reading
  /// thread's error, once it has ended.
  func next() throws(InputError) -> (SignalChunk, [(any Sendable)?])? {
    let item = slots[ring.beginReading()].take()!
    ring.endReading()
    switch item {
    case .chunk(let chunk, let outputs): return (chunk, outputs)
    case .end: return nil
    case .failed(let error): throw error
    }
  }
}

extension RecordingAnalyzer {
  /// Why a recording has nothing any pipeline can analyze.
  static func nothingToAnalyze(signals: [SignalDescription], notAnalyzed: [RecordingAnalysis.NotAnalyzed])
    -> String
  {
    guard notAnalyzed.isEmpty else {
      return "nothing to analyze: "
        + notAnalyzed.map { "\($0.kind.sectionName) (\($0.channels.joined(separator: ", "))): \($0.reason)" }
        .joined(separator: "; ")
    }
    return "nothing to analyze: no channel is recognized as ECG, PPG or accelerometer (channels: "
      + signals.map(\.name).joined(separator: ", ") + "); give their roles with --ecg, --ppg or --accel"
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    let (whole, fraction) = components
    return Double(whole) + Double(fraction) * 1e-18
  }
}

/// A JSON key given as a string (section names, keys shared between a section and the summaries it
/// encodes).
struct StringKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer<StringKey> {
  /// Encodes the extent of a recording, or of the channels a section read: `sample_rate` (Hz), `samples`
  /// (per channel) and `duration_s` (`samples` / rate).
  mutating func encodeExtent(samples: Int64, sampleRate: Double) throws {
    try encode(sampleRate, forKey: StringKey("sample_rate"))
    try encode(samples, forKey: StringKey("samples"))
    try encode(Double(samples) / sampleRate, forKey: StringKey("duration_s"))
  }
}
