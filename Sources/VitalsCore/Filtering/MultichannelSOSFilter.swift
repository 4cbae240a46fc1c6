/// One IIR filter applied to several channels at once, the channels running in the SIMD lanes of `Double`
/// (or `Float`) vectors: 3 accelerometer axes, 2 PPG channels, 8 or 12 ECG leads.
///
/// Channels are grouped eight to a `SIMD8` vector; the remainder runs in one `SIMD8`, `SIMD4`, `SIMD2` or
/// scalar group (3 channels: one `SIMD4` with a spare lane). In ``SOSPrecision/double`` precision (the
/// default) each channel's output and state are bit for bit those of an ``SOSFilter`` on that channel
/// alone; in ``SOSPrecision/single`` they are those of the same recurrence in `Float`. Either way chunks
/// of any size give the output of the whole. Samples come planar (one buffer per channel) or interleaved
/// (frames of `channelCount` samples); the kernel gathers and scatters the lanes itself. Eight interleaved
/// channels are the fastest layout: their lanes load and store as vectors straight from the frames.
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
  private var groups: [ChannelGroup]

  /// A filter at rest (zero state) for `channelCount` channels.
  public init(_ design: SecondOrderSections, channelCount: Int, precision: SOSPrecision = .double) {
    precondition(channelCount > 0, "a multichannel filter has at least one channel, got \(channelCount)")
    self.design = design
    self.channelCount = channelCount
    self.precision = precision
    // Eight channels to a group while five or more remain (the last of them maybe partly filled), then
    // one group of four (for 3–4 left), two or one.
    var groups: [ChannelGroup] = []
    var start = 0
    while start < channelCount {
      let left = channelCount - start
      let width = left >= 5 ? 8 : left >= 3 ? 4 : left
      let end = min(start + width, channelCount)
      groups.append(ChannelGroup(design, channels: start..<end, width: width, precision: precision))
      start = end
    }
    self.groups = groups
  }

  private func groupIndex(of channel: Int) -> Int {
    precondition((0..<channelCount).contains(channel), "channel \(channel) out of 0..<\(channelCount)")
    return groups.firstIndex { $0.channels.contains(channel) }!
  }

  /// The state of `channel` in SciPy's `zi` layout (`[z0, z1]` per section).
  public func state(ofChannel channel: Int) -> [Double] {
    var group = groups[groupIndex(of: channel)]
    return group.lanes.accept(ReadState(lane: channel - group.channels.lowerBound))
  }

  /// Sets the state of `channel` from SciPy's `zi` layout (rounded to `Float` in single precision).
  public mutating func setState(_ state: [Double], ofChannel channel: Int) {
    let index = groupIndex(of: channel)
    groups[index].lanes.accept(WriteState(state: state, lane: channel - groups[index].channels.lowerBound))
  }

  /// Returns every channel to rest (zero state).
  public mutating func reset() {
    for index in groups.indices { groups[index].lanes.accept(Reset()) }
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
      let channels = groups[index].channels
      groups[index].lanes.accept(
        Run(frames: frames, stride: stride, inputs: channels.map(input), outputs: channels.map(output)))
    }
  }
}

/// The precision in which a lane filter keeps its state and does its arithmetic.
public enum SOSPrecision: Sendable, Hashable {
  /// `Double` state: bit for bit the one-lane ``SOSFilter``, accurate for any stable design. Eight
  /// channels take two 256-bit registers per operation.
  case double
  /// `Float` state and coefficients rounded to `Float`: twice the lanes per register, and two to three
  /// times the throughput of eight interleaved channels, at the price of `Float` rounding inside the
  /// recurrence. Rounding errors are amplified as poles approach `z = 1`: fine for bands well inside the
  /// unit circle (a 5–15 Hz QRS band-pass at 250 Hz, a 3 Hz accelerometer low-pass at 50 Hz: within 1e-5
  /// of the signal's scale, tested), not for sub-hertz high-passes at hundreds of hertz (2e-4 for 0.5 Hz
  /// at 500 Hz, order 4). Check against the `double` path before choosing it.
  case single
}

/// One group of channels in the lanes of one vector type. The cases are concrete types, so each operation
/// (a `CascadeVisitor`) runs fully specialized code for its lanes.
struct ChannelGroup: Sendable {
  enum Lanes: Sendable {
    case double8(LaneCascade<SIMD8<Double>>), double4(LaneCascade<SIMD4<Double>>)
    case double2(LaneCascade<SIMD2<Double>>), double1(LaneCascade<Double>)
    case single8(LaneCascade<SIMD8<Float>>), single4(LaneCascade<SIMD4<Float>>)
    case single2(LaneCascade<SIMD2<Float>>), single1(LaneCascade<Float>)

    /// Applies `visitor` to the cascade, whatever its lanes.
    @discardableResult
    mutating func accept<V: CascadeVisitor>(_ visitor: V) -> V.Result {
      switch self {
      case .double8(var cascade): defer { self = .double8(cascade) }; return visitor.visit(&cascade)
      case .double4(var cascade): defer { self = .double4(cascade) }; return visitor.visit(&cascade)
      case .double2(var cascade): defer { self = .double2(cascade) }; return visitor.visit(&cascade)
      case .double1(var cascade): defer { self = .double1(cascade) }; return visitor.visit(&cascade)
      case .single8(var cascade): defer { self = .single8(cascade) }; return visitor.visit(&cascade)
      case .single4(var cascade): defer { self = .single4(cascade) }; return visitor.visit(&cascade)
      case .single2(var cascade): defer { self = .single2(cascade) }; return visitor.visit(&cascade)
      case .single1(var cascade): defer { self = .single1(cascade) }; return visitor.visit(&cascade)
      }
    }
  }

  var lanes: Lanes
  let channels: Range<Int>

  init(_ design: SecondOrderSections, channels: Range<Int>, width: Int, precision: SOSPrecision) {
    self.channels = channels
    switch (precision, width) {
    case (.double, 8): lanes = .double8(LaneCascade(design))
    case (.double, 4): lanes = .double4(LaneCascade(design))
    case (.double, 2): lanes = .double2(LaneCascade(design))
    case (.double, _): lanes = .double1(LaneCascade(design))
    case (.single, 8): lanes = .single8(LaneCascade(design))
    case (.single, 4): lanes = .single4(LaneCascade(design))
    case (.single, 2): lanes = .single2(LaneCascade(design))
    case (.single, _): lanes = .single1(LaneCascade(design))
    }
  }
}

/// An operation on a cascade of any lanes.
protocol CascadeVisitor {
  associatedtype Result
  func visit<L: SOSLanes>(_ cascade: inout LaneCascade<L>) -> Result
}

private struct Reset: CascadeVisitor {
  func visit<L: SOSLanes>(_ cascade: inout LaneCascade<L>) { cascade.reset() }
}

private struct ReadState: CascadeVisitor {
  let lane: Int
  func visit<L: SOSLanes>(_ cascade: inout LaneCascade<L>) -> [Double] { cascade.state(lane: lane) }
}

private struct WriteState: CascadeVisitor {
  let state: [Double]
  let lane: Int
  func visit<L: SOSLanes>(_ cascade: inout LaneCascade<L>) { cascade.setState(state, lane: lane) }
}

/// Filters the group's channels: channel `c` of frame `n` is `inputs[c][n·stride]`. With interleaved frames
/// (`stride > 1`) a full group's channels are consecutive floats: vector loads straight from the frames;
/// otherwise the lanes go through a transposing scratch.
private struct Run: CascadeVisitor {
  let frames: Int
  let stride: Int
  let inputs: [UnsafePointer<Float>]
  let outputs: [UnsafeMutablePointer<Float>]

  func visit<L: SOSLanes>(_ cascade: inout LaneCascade<L>) {
    if L.laneCount == 1 || (inputs.count == L.laneCount && stride > 1) {
      cascade.run(frames: inputs[0], stride: stride, count: frames, into: outputs[0])
    } else {
      cascade.run(count: frames, stride: stride, inputs: inputs, outputs: outputs)
    }
  }
}
