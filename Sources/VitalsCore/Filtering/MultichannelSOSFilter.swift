/// One IIR filter applied to several channels at once, the channels running in the SIMD lanes of `Double`
/// (or `Float`) vectors: 3 accelerometer axes, 2 PPG channels, 8 or 12 ECG leads.
///
/// Channels are grouped eight to a `SIMD8` vector; the remainder runs in one `SIMD8`, `SIMD4`, `SIMD2` or
/// scalar group (3 channels: one `SIMD4` with a spare lane). In ``SOSPrecision/double`` precision (the
/// default) each channel's output and state are bit for bit those of an ``SOSFilter`` on that channel
/// alone; in ``SOSPrecision/single`` they are those of the same recurrence in `Float`. Either way chunks
/// of any size give the output of the whole. Samples come planar (one buffer per channel) or interleaved (frames of `channelCount`
/// samples); the kernel gathers and scatters the lanes itself.
///
/// NaN or infinite input poisons only its own channel's state (see ``SOSFilter``).
public struct MultichannelSOSFilter: Sendable {
  /// The filter's sections.
  public let design: SecondOrderSections
  /// Channels filtered.
  public let channelCount: Int
  /// The precision of the state and arithmetic.
  public let precision: SOSPrecision
  /// Lane groups covering the channels in order.
  private var groups: [any ChannelLanes]

  /// A filter at rest (zero state) for `channelCount` channels.
  public init(_ design: SecondOrderSections, channelCount: Int, precision: SOSPrecision = .double) {
    precondition(channelCount > 0, "a multichannel filter has at least one channel, got \(channelCount)")
    self.design = design
    self.channelCount = channelCount
    self.precision = precision
    switch precision {
    case .double: groups = Self.groups(of: Double.self, design, channelCount)
    case .single: groups = Self.groups(of: Float.self, design, channelCount)
    }
  }

  /// Eight channels to a group while five or more remain (the last of them maybe partly filled), then one
  /// group of four (for 3–4 left), two or one.
  private static func groups<S: LaneScalar>(
    of _: S.Type, _ design: SecondOrderSections, _ channelCount: Int
  ) -> [any ChannelLanes] {
    var groups: [any ChannelLanes] = []
    var start = 0
    while channelCount - start >= 5 {
      let end = min(start + 8, channelCount)
      groups.append(ChannelGroup<SIMD8<S>>(design, channels: start..<end))
      start = end
    }
    let tail = start..<channelCount
    switch tail.count {
    case 3, 4: groups.append(ChannelGroup<SIMD4<S>>(design, channels: tail))
    case 2: groups.append(ChannelGroup<SIMD2<S>>(design, channels: tail))
    case 1: groups.append(ChannelGroup<S>(design, channels: tail))
    default: break
    }
    return groups
  }

  private func groupIndex(of channel: Int) -> Int {
    precondition((0..<channelCount).contains(channel), "channel \(channel) out of 0..<\(channelCount)")
    return groups.firstIndex { $0.channels.contains(channel) }!
  }

  /// The state of `channel` in SciPy's `zi` layout (`[z0, z1]` per section).
  public func state(ofChannel channel: Int) -> [Double] {
    let group = groups[groupIndex(of: channel)]
    return group.state(lane: channel - group.channels.lowerBound)
  }

  /// Sets the state of `channel` from SciPy's `zi` layout (rounded to `Float` in single precision).
  public mutating func setState(_ state: [Double], ofChannel channel: Int) {
    let index = groupIndex(of: channel)
    groups[index].setState(state, lane: channel - groups[index].channels.lowerBound)
  }

  /// Returns every channel to rest (zero state).
  public mutating func reset() {
    for index in groups.indices { groups[index].reset() }
  }

  /// Filters interleaved frames (`input[frame · channelCount + channel]`) into `output`, advancing the
  /// state. `output` may be the same memory as `input`. Groups of eight consecutive channels are loaded
  /// and stored as vectors straight from the frames; a smaller remainder goes through a transposing scratch.
  public mutating func process(
    interleaved input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(
      input.count == output.count, "input and output counts differ: \(input.count) vs \(output.count)")
    precondition(
      input.count % channelCount == 0, "\(input.count) samples are not whole frames of \(channelCount)")
    guard let source = input.baseAddress, let destination = output.baseAddress else { return }
    run(
      frames: input.count / channelCount, stride: channelCount, input: { source + $0 },
      output: { destination + $0 })
  }

  /// Filters planar channels (`inputs[channel][sample]`, all of the same count) into `outputs`, advancing
  /// the state. An output buffer may be the same memory as its input.
  public mutating func process(
    planar inputs: [UnsafeBufferPointer<Float>], into outputs: [UnsafeMutableBufferPointer<Float>]
  ) {
    precondition(inputs.count == channelCount && outputs.count == channelCount, "one buffer per channel")
    let count = inputs[0].count
    precondition(
      inputs.allSatisfy { $0.count == count } && outputs.allSatisfy { $0.count == count },
      "every channel buffer holds the same number of samples")
    guard count > 0 else { return }
    run(frames: count, stride: 1, input: { inputs[$0].baseAddress! }, output: { outputs[$0].baseAddress! })
  }

  /// Filters `channels` (one array per channel, all of the same count) in place, advancing the state.
  public mutating func process(_ channels: inout [[Float]]) {
    precondition(channels.count == channelCount, "expected \(channelCount) channels, got \(channels.count)")
    let count = channels[0].count
    precondition(channels.allSatisfy { $0.count == count }, "every channel holds the same number of samples")
    guard count > 0 else { return }
    var samples = channels.flatMap { $0 }
    samples.withUnsafeMutableBufferPointer { samples in
      let buffers = (0..<channelCount).map { channel in
        UnsafeMutableBufferPointer(rebasing: samples[(channel * count)..<(channel * count + count)])
      }
      process(planar: buffers.map { UnsafeBufferPointer($0) }, into: buffers)
    }
    for channel in 0..<channelCount {
      channels[channel] = Array(samples[(channel * count)..<(channel * count + count)])
    }
  }

  private mutating func run(
    frames: Int, stride: Int, input: (Int) -> UnsafePointer<Float>,
    output: (Int) -> UnsafeMutablePointer<Float>
  ) {
    for index in groups.indices {
      groups[index].run(frames: frames, stride: stride, input: input, output: output)
    }
  }
}

/// The precision in which a lane filter keeps its state and does its arithmetic.
public enum SOSPrecision: Sendable, Hashable {
  /// `Double` state: bit for bit the one-lane ``SOSFilter``, accurate for any stable design. Eight
  /// channels take two 256-bit registers per operation.
  case double
  /// `Float` state and coefficients rounded to `Float`: twice the lanes per register, so about twice the
  /// throughput, at the price of `Float` rounding inside the recurrence. Rounding errors are amplified
  /// as poles approach `z = 1`: fine for bands well inside the unit circle (a 5–15 Hz QRS band-pass at
  /// 250 Hz, a 3 Hz accelerometer low-pass at 50 Hz: within 1e-5 of the signal's scale, tested), not for
  /// sub-hertz high-passes at hundreds of hertz (2e-4 for 0.5 Hz at 500 Hz, order 4). Check against the
  /// `double` path before choosing it.
  case single
}

/// One group of channels in the lanes of `L`, behind an existential so that a filter can mix widths.
protocol ChannelLanes: Sendable {
  var channels: Range<Int> { get }
  func state(lane: Int) -> [Double]
  mutating func setState(_ state: [Double], lane: Int)
  mutating func reset()
  mutating func run(
    frames: Int, stride: Int, input: (Int) -> UnsafePointer<Float>,
    output: (Int) -> UnsafeMutablePointer<Float>)
}

struct ChannelGroup<L: SOSLanes>: ChannelLanes {
  var cascade: LaneCascade<L>
  let channels: Range<Int>

  init(_ design: SecondOrderSections, channels: Range<Int>) {
    precondition(
      channels.count <= L.laneCount, "\(channels.count) channels do not fit in \(L.laneCount) lanes")
    self.cascade = LaneCascade(design)
    self.channels = channels
  }

  func state(lane: Int) -> [Double] { cascade.state(lane: lane) }

  mutating func setState(_ state: [Double], lane: Int) { cascade.setState(state, lane: lane) }

  mutating func reset() { cascade.reset() }

  /// Channel `c` of frame `n` is `input(c)[n·stride]`. With interleaved frames (`stride > 1`) a full group's
  /// channels are consecutive floats: vector loads straight from the frames; otherwise the lanes go through
  /// a transposing scratch.
  mutating func run(
    frames: Int, stride: Int, input: (Int) -> UnsafePointer<Float>,
    output: (Int) -> UnsafeMutablePointer<Float>
  ) {
    let first = channels.lowerBound
    if L.laneCount == 1 || (channels.count == L.laneCount && stride > 1) {
      cascade.run(frames: input(first), stride: stride, count: frames, into: output(first))
    } else {
      cascade.run(count: frames, stride: stride, inputs: channels.map(input), outputs: channels.map(output))
    }
  }
}
