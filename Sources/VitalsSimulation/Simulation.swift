import VitalsCore

/// What a ground-truth event marks.
public enum TruthLabel: String, Sendable, Hashable, Codable, CaseIterable {
  /// A normal (sinus or conducted) heartbeat: its R peak in an ECG, its systolic peak in a PPG.
  case normal = "N"
  /// A premature ventricular contraction (early, wide QRS, no P wave, compensatory pause).
  case ventricular = "V"
  /// A premature atrial contraction (early, abnormal P wave, normal QRS, no compensatory pause).
  case atrial = "A"
  /// A step: the heel strike of one foot.
  case step = "S"
}

/// One ground-truth event of a simulated recording: a heartbeat, a pulse or a step.
public struct TruthEvent: Sendable, Hashable, Codable {
  /// Index, within the whole record, of the sample that carries the event: for ECG the sample of the
  /// QRS maximum of the clean signal, for PPG the sample of the systolic maximum of the clean pulse
  /// wave, for the accelerometer the first sample at or after the heel strike.
  public var sampleIndex: Int64
  /// Seconds from the record's start: for ECG and PPG the time of ``sampleIndex``; for steps the
  /// exact instant of the heel strike (which lies between samples).
  public var time: Double
  /// What happened.
  public var label: TruthLabel
  /// The instantaneous rate, per minute: for beats and pulses 60 / the RR interval ending at this
  /// beat (bpm); for steps 60 / the interval since the previous heel strike (steps/min).
  public var rate: Double

  /// An event from its parts (see the properties).
  public init(sampleIndex: Int64, time: Double, label: TruthLabel, rate: Double) {
    self.sampleIndex = sampleIndex
    self.time = time
    self.label = label
    self.rate = rate
  }
}

/// A time interval of a recording, in seconds from its start: used for rhythm episodes (atrial
/// fibrillation) in the truth.
public struct RhythmEpisode: Sendable, Hashable, Codable {
  /// Start, seconds from the record's start (inclusive).
  public var start: Double
  /// End, seconds from the record's start (exclusive).
  public var end: Double

  /// The interval [`start`, `end`) in seconds; `end` must not precede `start`.
  public init(start: Double, end: Double) {
    precondition(end >= start, "an interval ends after it starts (\(start) … \(end))")
    self.start = start
    self.end = end
  }

  /// Whether `time` lies in [start, end).
  @inlinable
  public func contains(_ time: Double) -> Bool { time >= start && time < end }
}

/// A block of simulated samples with the ground truth that falls inside it.
public struct SimulatedChunk: Sendable, Equatable {
  /// The samples (see the simulator's ``SignalSimulator/channelNames`` and ``SignalSimulator/units``).
  public var signal: SignalChunk
  /// Absolute time of every sample when the simulator samples irregularly (phone-like timing), `nil`
  /// for a uniform series (then sample `i` is at `signal.startTime.advanced(bySamples:rate:)`).
  public var sampleTimes: [Timestamp]?
  /// Truth events whose ``TruthEvent/sampleIndex`` lies in this chunk, in time order.
  public var events: [TruthEvent]

  /// A chunk from its parts; `sampleTimes`, when given, holds one time per sample.
  public init(signal: SignalChunk, sampleTimes: [Timestamp]?, events: [TruthEvent]) {
    precondition(sampleTimes == nil || sampleTimes!.count == signal.sampleCount, "one time per sample")
    self.signal = signal
    self.sampleTimes = sampleTimes
    self.events = events
  }
}

/// A generator of a simulated recording, chunk by chunk: the whole record never needs to be in memory,
/// and chunks of any size concatenate to exactly the record that one large chunk gives (the samples
/// are produced one by one in order; truth is decided with a fixed look-ahead, not from chunk edges).
public protocol SignalSimulator: Sendable {
  /// Samples per second (the nominal rate when the timing is irregular).
  var sampleRate: Double { get }
  /// Samples per channel in the whole record.
  var sampleCount: Int64 { get }
  /// Absolute time of sample 0.
  var startTime: Timestamp { get }
  /// One name per channel, e.g. `["ecg"]`, `["ppg1", "ppg2", "acc_x", "acc_y", "acc_z"]`.
  var channelNames: [String] { get }
  /// One physical unit per channel: `"mV"`, `"au"` (arbitrary units), `"g"` or `"m/s^2"`.
  var units: [String] { get }
  /// Samples produced so far (the index of the next sample).
  var samplesProduced: Int64 { get }
  /// Rhythm episodes of the whole record (atrial fibrillation), known in advance; empty when none.
  var atrialFibrillationEpisodes: [RhythmEpisode] { get }
  /// The next chunk of at most `maxSamples` samples per channel, or `nil` once the record is complete.
  mutating func next(maxSamples: Int) -> SimulatedChunk?
}

/// A whole simulated recording held in memory: the one-shot form of a ``SignalSimulator``.
public struct SimulatedRecording: Sendable, Equatable {
  /// Channel names, as ``SignalSimulator/channelNames``.
  public var channelNames: [String]
  /// Channel units, as ``SignalSimulator/units``.
  public var units: [String]
  /// All samples, one array per channel.
  public var channels: [[Float]]
  /// Samples per second (nominal when `sampleTimes` is not `nil`).
  public var sampleRate: Double
  /// Absolute time of sample 0.
  public var startTime: Timestamp
  /// Absolute time of every sample for irregular timing, else `nil`.
  public var sampleTimes: [Timestamp]?
  /// Every truth event, in time order.
  public var events: [TruthEvent]
  /// Atrial fibrillation episodes, seconds from the start.
  public var atrialFibrillationEpisodes: [RhythmEpisode]

  /// Seconds from the start of sample `index` (its irregular time when there is one).
  public func time(ofSample index: Int) -> Double {
    if let sampleTimes { return startTime.seconds(to: sampleTimes[index]) }
    return Double(index) / sampleRate
  }
}

extension SignalSimulator {
  /// Generates the rest of the record in chunks of `chunkSize` samples and joins them.
  public mutating func generateAll(chunkSize: Int = 1 << 16) -> SimulatedRecording {
    let remaining = Int(sampleCount - samplesProduced)
    var channels = channelNames.map { _ in [Float]() }
    for index in channels.indices { channels[index].reserveCapacity(remaining) }
    var times: [Timestamp]? = nil
    var events: [TruthEvent] = []
    while let chunk = next(maxSamples: chunkSize) {
      for index in channels.indices { channels[index].append(contentsOf: chunk.signal.channels[index]) }
      if let chunkTimes = chunk.sampleTimes { times = (times ?? []); times!.append(contentsOf: chunkTimes) }
      events.append(contentsOf: chunk.events)
    }
    return SimulatedRecording(
      channelNames: channelNames, units: units, channels: channels, sampleRate: sampleRate,
      startTime: startTime, sampleTimes: times, events: events,
      atrialFibrillationEpisodes: atrialFibrillationEpisodes)
  }

  /// The remaining chunks as a sequence (each of `chunkSize` samples, the last one shorter), for
  /// `for chunk in simulator.chunks(of: 65_536) { … }`.
  public func chunks(of chunkSize: Int) -> SimulatedChunks<Self> {
    SimulatedChunks(simulator: self, chunkSize: chunkSize)
  }
}

/// The chunks of a ``SignalSimulator`` as a `Sequence` (see ``SignalSimulator/chunks(of:)``).
public struct SimulatedChunks<Simulator: SignalSimulator>: Sequence, IteratorProtocol, Sendable {
  var simulator: Simulator
  let chunkSize: Int

  init(simulator: Simulator, chunkSize: Int) {
    precondition(chunkSize > 0, "chunk size must be positive, got \(chunkSize)")
    self.simulator = simulator
    self.chunkSize = chunkSize
  }

  /// The next chunk, `nil` once the record is complete.
  public mutating func next() -> SimulatedChunk? { simulator.next(maxSamples: chunkSize) }
}

/// Samples produced ahead of what has been handed out, with their finished truth events: lets a
/// simulator decide truth (a peak's exact sample) a fixed number of samples after the fact, whatever
/// the chunk size.
struct PendingSamples: Sendable {
  var channels: [[Float]]
  var times: [Int64]?
  var events: [TruthEvent] = []

  init(channelCount: Int, irregular: Bool) {
    channels = Array(repeating: [], count: channelCount)
    times = irregular ? [] : nil
  }

  var count: Int { channels[0].count }

  /// Removes and returns the first `count` samples as a chunk whose sample 0 is record sample
  /// `firstIndex`, with the events before `firstIndex + count`.
  mutating func take(
    _ count: Int, firstIndex: Int64, sampleRate: Double, startTime: Timestamp
  ) -> SimulatedChunk {
    precondition(count <= self.count, "took more samples than were produced")
    let out = channels.map { Array($0.prefix(count)) }
    for index in channels.indices { channels[index].removeFirst(count) }
    var outTimes: [Timestamp]? = nil
    if let times {
      outTimes = times.prefix(count).map { startTime.advanced(byNanoseconds: $0) }
      self.times!.removeFirst(count)
    }
    let end = firstIndex + Int64(count)
    let split = events.firstIndex { $0.sampleIndex >= end } ?? events.count
    let chunkEvents = Array(events[..<split])
    events.removeFirst(split)
    let chunkStart = outTimes?.first ?? startTime.advanced(bySamples: firstIndex, rate: sampleRate)
    return SimulatedChunk(
      signal: SignalChunk(
        channels: out, sampleRate: sampleRate, startTime: chunkStart, firstSampleIndex: firstIndex),
      sampleTimes: outTimes, events: chunkEvents)
  }
}

/// Follows the maximum of a signal over a window of sample indices, for truth events that must sit on
/// the actual peak of the clean signal. Windows are handled in order and never overlap.
struct PeakTracker: Sendable {
  struct Pending: Sendable {
    var first: Int64
    var last: Int64
    var label: TruthLabel
    var rate: Double
    var bestIndex: Int64 = -1
    var bestValue = -Double.infinity
  }
  var queue: [Pending] = []
  var head = 0

  /// Registers a peak to find in samples `first...last` (dropped when `first < 0`).
  mutating func expect(first: Int64, last: Int64, label: TruthLabel, rate: Double) {
    guard first >= 0 else { return }
    queue.append(Pending(first: first, last: last, label: label, rate: rate))
  }

  /// Feeds sample `index` of the clean signal; a window that ends here yields its event.
  @inline(__always)
  mutating func observe(_ value: Double, at index: Int64, sampleRate: Double, into events: inout [TruthEvent])
  {
    guard head < queue.count, index >= queue[head].first else { return }
    if value > queue[head].bestValue {
      queue[head].bestValue = value
      queue[head].bestIndex = index
    }
    if index >= queue[head].last {
      let done = queue[head]
      events.append(
        TruthEvent(
          sampleIndex: done.bestIndex, time: Double(done.bestIndex) / sampleRate, label: done.label,
          rate: done.rate))
      head += 1
      if head > 64 {
        queue.removeFirst(head)
        head = 0
      }
    }
  }
}
