import VitalsCore
import VitalsPipeline

/// One signal of a recording as a report draws it: the whole record at screen resolution and its first
/// and last seconds at full resolution.
public struct SignalTrace: Sendable {
  /// The whole signal as a min/max envelope (at most 2400 bins; one per sample for short records).
  public var envelope: MinMaxEnvelope
  /// Full-resolution excerpts: the first and the last `excerptSeconds` seconds (one when the record is
  /// that short), as (record index of the first sample, samples).
  public var excerpts: [(start: Int64, samples: [Float])]
}

/// Builds the ``SignalTrace`` of one signal of a recording from its chunks, in memory bounded by the
/// envelope and the excerpts whatever the record's length.
final class TraceRecorder {
  /// Where the signal comes from in a chunk.
  enum Source {
    /// One channel.
    case channel(Int)
    /// The magnitude √(x² + y² + z²) of three acceleration axes (NaN where an axis is).
    case magnitude(Int, Int, Int)
  }

  /// The kind of signal recorded.
  let kind: SignalKind
  let source: Source
  let excerptSeconds: Double
  var envelope = MinMaxEnvelope(columns: 1200)
  var first: [Float] = []
  var excerptLength = 0
  var last: SampleRingBuffer?

  init(kind: SignalKind, source: Source, excerptSeconds: Double) {
    self.kind = kind
    self.source = source
    self.excerptSeconds = excerptSeconds
  }

  /// A recorder per signal a report draws: the ECG lead, the first PPG channel and the acceleration
  /// magnitude (with three axes), as `roles` gives them.
  static func recorders(for roles: ChannelRoles, excerptSeconds: Double) -> [TraceRecorder] {
    var recorders: [TraceRecorder] = []
    if let lead = roles.ecg {
      recorders.append(TraceRecorder(kind: .ecg, source: .channel(lead), excerptSeconds: excerptSeconds))
    }
    if let channel = roles.ppg.first {
      recorders.append(TraceRecorder(kind: .ppg, source: .channel(channel), excerptSeconds: excerptSeconds))
    }
    let axes = roles.accelerometer
    if axes.count == 3 {
      recorders.append(
        TraceRecorder(
          kind: .accelerometer, source: .magnitude(axes[0], axes[1], axes[2]), excerptSeconds: excerptSeconds)
      )
    }
    return recorders
  }

  /// The recorded signal's samples in `chunk`.
  func samples(of chunk: SignalChunk) -> [Float] {
    switch source {
    case .channel(let channel):
      return chunk.channels[channel]
    case .magnitude(let x, let y, let z):
      let (xs, ys, zs) = (chunk.channels[x], chunk.channels[y], chunk.channels[z])
      return xs.indices.map { (xs[$0] * xs[$0] + ys[$0] * ys[$0] + zs[$0] * zs[$0]).squareRoot() }
    }
  }

  /// Takes the next chunk of the recording.
  func append(_ chunk: SignalChunk) {
    if last == nil {
      excerptLength = max(1, Int(excerptSeconds * chunk.sampleRate))
      last = SampleRingBuffer(
        channelCount: 1, minimumCapacity: excerptLength, sampleRate: chunk.sampleRate,
        startTime: chunk.startTime,
        firstSampleIndex: chunk.firstSampleIndex)
    }
    let samples = samples(of: chunk)
    envelope.append(samples)
    if first.count < excerptLength { first += samples.prefix(excerptLength - first.count) }
    last!.appendOverwritingOldest(
      SignalChunk(
        channels: [samples], sampleRate: chunk.sampleRate, startTime: chunk.startTime,
        firstSampleIndex: chunk.firstSampleIndex))
  }

  /// The trace of a record of `sampleCount` samples, all appended; ends the recording.
  func trace(sampleCount: Int64) -> SignalTrace {
    var excerpts: [(start: Int64, samples: [Float])] = [(0, first)]
    if let ring = last.take(), sampleCount > Int64(excerptLength) {
      let count = min(ring.count, excerptLength)
      var tail = [Float](repeating: 0, count: count)
      tail.withUnsafeMutableBufferPointer {
        ring.copySamples(ofChannel: 0, from: ring.count - count, into: $0)
      }
      excerpts.append((ring.endSampleIndex - Int64(count), tail))
    }
    return SignalTrace(envelope: envelope, excerpts: excerpts)
  }
}
