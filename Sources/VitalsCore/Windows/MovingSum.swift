/// The causal moving sum over the last `length` samples of one channel, O(1) per sample, with its state
/// carried between calls: `y[n] = Σ x[n − length + 1 … n]`, samples before the first being zero (the first
/// `length − 1` outputs are partial sums, as `scipy.signal.lfilter(np.ones(length), 1, x)`).
///
/// **No drift.** The running sum is kept in `Double` (each `Float` sample is exact in it) and recomputed
/// from the window, in `Double`, every `length` samples; rounding errors therefore never accumulate beyond
/// one window, whatever the length of the stream (amortized cost: one extra addition per sample). The
/// recomputations fall on the same samples whatever the chunking, so chunks of any size give bit-for-bit
/// the output of the whole signal. A NaN or infinite sample makes the outputs NaN or infinite from its
/// arrival until the first recomputation after it has left the window (fewer than `2·length` samples).
public struct MovingSum: Sendable {
  /// Samples in the window.
  public let length: Int
  @usableFromInline var window: [Float]
  @usableFromInline var position = 0
  @usableFromInline var sum = 0.0

  /// A moving sum over `length` (≥ 1) samples.
  public init(length: Int) {
    precondition(length >= 1, "a moving window holds at least one sample, got \(length)")
    self.length = length
    self.window = [Float](repeating: 0, count: length)
  }

  /// Writes the moving sum of each sample of `input` to `output` (the same count; may be the same memory),
  /// each multiplied by `scale` in `Double` before rounding to `Float`.
  @inlinable
  public mutating func process(
    _ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>, scale: Double = 1
  ) {
    precondition(
      output.count == input.count, "output holds \(output.count) samples for \(input.count) inputs")
    var sum = self.sum
    var position = self.position
    let length = self.length
    window.withUnsafeMutableBufferPointer { window in
      // Runs of samples up to the next recomputation, so the loop body has no wrap-around test.
      var i = 0
      while i < input.count {
        let run = min(input.count &- i, length &- position)
        for k in 0..<run {
          let sample = input[i &+ k]
          sum += Double(sample) - Double(window[position &+ k])
          window[position &+ k] = sample
          output[i &+ k] = Float(sum * scale)
        }
        i &+= run
        position &+= run
        if position == length {
          position = 0
          sum = Self.exactSum(UnsafeBufferPointer(window))
          output[i &- 1] = Float(sum * scale)
        }
      }
    }
    self.sum = sum
    self.position = position
  }

  /// The moving sums of two channels in one pass, their running sums in the two lanes of one vector (so one
  /// recurrence serves both): `first` of `firstInput` into `firstOutput`, `second` of `secondInput` into
  /// `secondOutput`, each bit for bit what ``process(_:into:scale:)`` gives. The two have the same length
  /// and have taken the same number of samples (their windows recompute on the same samples).
  @inlinable
  public static func process(
    _ first: inout MovingSum, _ firstInput: UnsafeBufferPointer<Float>,
    into firstOutput: UnsafeMutableBufferPointer<Float>, _ second: inout MovingSum,
    _ secondInput: UnsafeBufferPointer<Float>, into secondOutput: UnsafeMutableBufferPointer<Float>,
    scale: Double = 1
  ) {
    precondition(
      first.length == second.length && first.position == second.position,
      "the two moving sums have different lengths or positions")
    let count = firstInput.count
    precondition(
      secondInput.count == count && firstOutput.count == count && secondOutput.count == count,
      "the inputs and outputs have different counts")
    var sum = SIMD2(first.sum, second.sum)
    var position = first.position
    let length = first.length
    first.window.withUnsafeMutableBufferPointer { firstWindow in
      second.window.withUnsafeMutableBufferPointer { secondWindow in
        var i = 0
        while i < count {
          let run = min(count &- i, length &- position)
          for k in 0..<run {
            let samples = SIMD2(firstInput[i &+ k], secondInput[i &+ k])
            let leaving = SIMD2(firstWindow[position &+ k], secondWindow[position &+ k])
            sum += SIMD2<Double>(samples) - SIMD2<Double>(leaving)
            firstWindow[position &+ k] = samples[0]
            secondWindow[position &+ k] = samples[1]
            let scaled = SIMD2<Float>(sum * scale)
            firstOutput[i &+ k] = scaled[0]
            secondOutput[i &+ k] = scaled[1]
          }
          i &+= run
          position &+= run
          if position == length {
            position = 0
            sum = SIMD2(
              exactSum(UnsafeBufferPointer(firstWindow)), exactSum(UnsafeBufferPointer(secondWindow)))
            firstOutput[i &- 1] = Float(sum[0] * scale)
            secondOutput[i &- 1] = Float(sum[1] * scale)
          }
        }
      }
    }
    first.sum = sum[0]
    second.sum = sum[1]
    first.position = position
    second.position = position
  }

  /// The sum of `window` in `Double`, in four interleaved partial sums (a fixed order, so the result
  /// depends only on the window's contents).
  @inlinable
  static func exactSum(_ window: UnsafeBufferPointer<Float>) -> Double {
    var partial = SIMD4<Double>()
    var i = 0
    while i &+ 4 <= window.count {
      partial += SIMD4(
        Double(window[i]), Double(window[i &+ 1]), Double(window[i &+ 2]), Double(window[i &+ 3]))
      i &+= 4
    }
    var sum = partial.sum()
    while i < window.count {
      sum += Double(window[i])
      i &+= 1
    }
    return sum
  }

  /// The moving sums of `input`, carrying the state on.
  public mutating func processed(_ input: [Float]) -> [Float] {
    var output = input
    output.withUnsafeMutableBufferPointer { process(UnsafeBufferPointer($0), into: $0) }
    return output
  }

  /// Forgets every past input.
  public mutating func reset() {
    self = MovingSum(length: length)
  }
}

/// The causal moving average over the last `length` samples: the ``MovingSum`` divided by `length`
/// (`scipy.signal.lfilter(np.ones(length) / length, 1, x)`; the first `length − 1` outputs average the
/// signal with the zeros before it). O(1) per sample, no drift, chunks equal the whole (see ``MovingSum``).
public struct MovingAverage: Sendable {
  @usableFromInline var sum: MovingSum

  /// Samples in the window.
  public var length: Int { sum.length }

  /// A moving average over `length` (≥ 1) samples.
  public init(length: Int) {
    sum = MovingSum(length: length)
  }

  /// Writes the moving average of each sample of `input` to `output` (the same count; may be the same
  /// memory).
  @inlinable
  public mutating func process(
    _ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) {
    sum.process(input, into: output, scale: 1 / Double(sum.length))
  }

  /// The moving averages of `input`, carrying the state on.
  public mutating func processed(_ input: [Float]) -> [Float] {
    var output = input
    output.withUnsafeMutableBufferPointer { process(UnsafeBufferPointer($0), into: $0) }
    return output
  }

  /// Forgets every past input.
  public mutating func reset() {
    sum.reset()
  }
}
