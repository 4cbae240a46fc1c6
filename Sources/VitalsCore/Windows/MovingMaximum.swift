/// The causal moving maximum over the last `length` samples of one channel, amortized O(1) per sample
/// (at most three comparisons per sample), with its state carried between calls:
/// `y[n] = max x[max(0, n − length + 1) … n]` (the first `length − 1` outputs cover the samples seen so
/// far; no padding).
///
/// A monotonic deque holds the samples that can still become the maximum, in decreasing order: each new
/// sample removes the smaller ones at the back, the front leaves when it falls out of the window.
/// D. Lemire, "Streaming maximum-minimum filter using no more than three comparisons per element", Nordic
/// Journal of Computing 13(4):328–339 (2006).
///
/// NaN samples are ignored (they are never the maximum); a window holding only NaN gives NaN. Chunks of
/// any size give the output of the whole signal.
public struct MovingMaximum: Sendable {
  /// Samples in the window.
  public let length: Int
  /// The deque as a power-of-two ring of (sample index, value) slots.
  @usableFromInline var indices: [Int]
  @usableFromInline var values: [Float]
  @usableFromInline let mask: Int
  @usableFromInline var head = 0
  @usableFromInline var count = 0
  /// Index of the next sample.
  @usableFromInline var nextIndex = 0

  /// A moving maximum over `length` (≥ 1) samples.
  public init(length: Int) {
    precondition(length >= 1, "a moving window holds at least one sample, got \(length)")
    self.length = length
    let capacity = Int.powerOfTwo(atLeast: length)
    self.mask = capacity - 1
    self.indices = [Int](repeating: 0, count: capacity)
    self.values = [Float](repeating: 0, count: capacity)
  }

  /// Writes the moving maximum at each sample of `input` to `output` (the same count; may be the same
  /// memory).
  @inlinable
  public mutating func process(
    _ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(
      output.count == input.count, "output holds \(output.count) samples for \(input.count) inputs")
    var head = self.head
    var count = self.count
    var index = self.nextIndex
    let mask = self.mask
    let length = self.length
    indices.withUnsafeMutableBufferPointer { indices in
      values.withUnsafeMutableBufferPointer { values in
        for i in input.indices {
          let sample = input[i]
          if count > 0 && indices[head] &+ length <= index {
            head = (head &+ 1) & mask
            count &-= 1
          }
          if !sample.isNaN {
            while count > 0 && values[(head &+ count &- 1) & mask] <= sample { count &-= 1 }
            let slot = (head &+ count) & mask
            indices[slot] = index
            values[slot] = sample
            count &+= 1
          }
          output[i] = count > 0 ? values[head] : .nan
          index &+= 1
        }
      }
    }
    self.head = head
    self.count = count
    self.nextIndex = index
  }

  /// The moving maxima of `input`, carrying the state on.
  public mutating func processed(_ input: [Float]) -> [Float] {
    var output = input
    output.withUnsafeMutableBufferPointer { process(UnsafeBufferPointer($0), into: $0) }
    return output
  }

  /// Forgets every past input.
  public mutating func reset() {
    head = 0
    count = 0
    nextIndex = 0
  }
}
