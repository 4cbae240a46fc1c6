/// One IIR filter applied to several channels at once, the channels running in the SIMD lanes of `Double`
/// vectors: 3 accelerometer axes, 2 PPG channels, 8 or 12 ECG leads.
///
/// Channels are grouped eight to a `SIMD8<Double>`; the remainder runs in one `SIMD8`, `SIMD4`, `SIMD2` or
/// scalar group (3 channels: one `SIMD4` with a spare lane). Each channel's output and state are bit for
/// bit those of an ``SOSFilter`` on that channel alone, and, like it, chunks of any size give the output of
/// the whole. Samples come planar (one buffer per channel) or interleaved (frames of `channelCount`
/// samples); the kernel gathers and scatters the lanes itself.
///
/// NaN or infinite input poisons only its own channel's state (see ``SOSFilter``).
public struct MultichannelSOSFilter: Sendable {
  /// The filter's sections.
  public let design: SecondOrderSections
  /// Channels filtered.
  public let channelCount: Int
  private var eights: [LaneCascade<SIMD8<Double>>] = []
  private var four: LaneCascade<SIMD4<Double>>?
  private var two: LaneCascade<SIMD2<Double>>?
  private var one: LaneCascade<Double>?

  /// A filter at rest (zero state) for `channelCount` channels.
  public init(_ design: SecondOrderSections, channelCount: Int) {
    precondition(channelCount > 0, "a multichannel filter has at least one channel, got \(channelCount)")
    self.design = design
    self.channelCount = channelCount
    var remaining = channelCount
    while remaining >= 5 {
      eights.append(LaneCascade(design))
      remaining -= min(remaining, 8)
    }
    switch remaining {
    case 3, 4: four = LaneCascade(design)
    case 2: two = LaneCascade(design)
    case 1: one = LaneCascade(design)
    default: break
    }
  }

  /// First channel of the group after the eight-lane groups.
  private var tailStart: Int { min(8 * eights.count, channelCount) }

  /// The state of `channel` in SciPy's `zi` layout (`[z0, z1]` per section).
  public func state(ofChannel channel: Int) -> [Double] {
    precondition((0..<channelCount).contains(channel), "channel \(channel) out of 0..<\(channelCount)")
    if channel < tailStart { return eights[channel / 8].state(lane: channel % 8) }
    let lane = channel - tailStart
    if let four { return four.state(lane: lane) }
    if let two { return two.state(lane: lane) }
    return one!.state(lane: lane)
  }

  /// Sets the state of `channel` from SciPy's `zi` layout.
  public mutating func setState(_ state: [Double], ofChannel channel: Int) {
    precondition((0..<channelCount).contains(channel), "channel \(channel) out of 0..<\(channelCount)")
    if channel < tailStart {
      eights[channel / 8].setState(state, lane: channel % 8)
      return
    }
    let lane = channel - tailStart
    four?.setState(state, lane: lane)
    two?.setState(state, lane: lane)
    one?.setState(state, lane: lane)
  }

  /// Returns every channel to rest (zero state).
  public mutating func reset() {
    for index in eights.indices { eights[index].reset() }
    four?.reset()
    two?.reset()
    one?.reset()
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
    for index in eights.indices {
      Self.run(
        &eights[index], channels: (8 * index)..<min(8 * index + 8, channelCount), frames, stride, input,
        output)
    }
    let tail = tailStart..<channelCount
    if four != nil { Self.run(&four!, channels: tail, frames, stride, input, output) }
    if two != nil { Self.run(&two!, channels: tail, frames, stride, input, output) }
    if one != nil { Self.run(&one!, channels: tail, frames, stride, input, output) }
  }

  private static func run<L: SOSLanes>(
    _ cascade: inout LaneCascade<L>, channels: Range<Int>, _ frames: Int, _ stride: Int,
    _ input: (Int) -> UnsafePointer<Float>, _ output: (Int) -> UnsafeMutablePointer<Float>
  ) {
    let first = channels.lowerBound
    // Interleaved channels of a full group are consecutive floats: vector loads straight from the frames.
    if L.laneCount == 1 || (channels.count == L.laneCount && stride > 1) {
      cascade.run(frames: input(first), stride: stride, count: frames, into: output(first))
    } else {
      cascade.run(count: frames, stride: stride, inputs: channels.map(input), outputs: channels.map(output))
    }
  }
}
