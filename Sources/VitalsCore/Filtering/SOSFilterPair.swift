/// Two causal IIR filters run over one `Float` channel in one pass: two band-passes of one signal for
/// about the cost of one. The filters' sections are paired lane by lane (the first filter in lane 0 of a
/// `SIMD2<Double>`, the second in lane 1; the shorter cascade, and both to an even count, padded with
/// identity sections, which pass samples through exactly) and run in direct form I:
///
/// `y[n] = ((b0·x[n] + b1·x[n−1]) + b2·x[n−2] − a2·y[n−2]) − a1·y[n−1]`.
///
/// A cascade's speed is bound by the latency of its recurrence, not by its arithmetic. In this order the
/// path from one output to the next is one multiplication and one subtraction, against three operations
/// in the transposed direct form II of ``SOSFilter`` (whose state SciPy's `zi` describes); with both
/// filters in one vector the pair costs the arithmetic of one filter. A section's state is its last two
/// inputs and outputs; the outputs agree with ``SOSFilter``'s to the rounding of the arithmetic, not bit
/// for bit. Sections are run two at a time, each sample through both before the next is read; the states
/// carry over between calls, so chunks of any size give bit for bit the output of the whole.
public struct SOSFilterPair: Sendable {
  /// The sections, both filters' in each, with their states.
  var sections: [PairedSection]

  /// Two filters at rest (zero state).
  public init(_ first: SecondOrderSections, _ second: SecondOrderSections) {
    let longer = max(first.sections.count, second.sections.count)
    let count = max(2, longer + longer % 2)
    func padded(_ design: SecondOrderSections) -> [SecondOrderSections.Section] {
      design.sections + Array(repeating: .identity, count: count - design.sections.count)
    }
    sections = zip(padded(first), padded(second)).map(PairedSection.init)
  }

  /// Filters `input` by the first filter into `firstOutput` and by the second into `secondOutput` (both of
  /// `input`'s count; `firstOutput` may be `input`'s memory, `secondOutput` may not) and advances the
  /// states.
  public mutating func process(
    _ input: UnsafeBufferPointer<Float>, into firstOutput: UnsafeMutableBufferPointer<Float>,
    _ secondOutput: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(
      firstOutput.count == input.count && secondOutput.count == input.count,
      "outputs of \(firstOutput.count) and \(secondOutput.count) samples for \(input.count) inputs")
    guard let source = input.baseAddress, input.count > 0 else { return }
    let first = firstOutput.baseAddress!
    let second = secondOutput.baseAddress!
    let count = input.count
    // Two sections a pass. The first pass reads the input (the same sample in both lanes); later passes
    // read the outputs back.
    for next in stride(from: 0, to: sections.count, by: 2) {
      let reading = next == 0 ? nil : (UnsafePointer(first), UnsafePointer(second))
      func sample(_ index: Int) -> SIMD2<Double> {
        guard let (a, b) = reading else { return SIMD2(repeating: Double(source[index])) }
        return SIMD2(Double(a[index]), Double(b[index]))
      }
      var (s, t) = (sections[next], sections[next + 1])
      for index in 0..<count {
        let y = SIMD2<Float>(t(s(sample(index))))
        first[index] = y[0]
        second[index] = y[1]
      }
      (sections[next], sections[next + 1]) = (s, t)
    }
  }
}

/// One second-order section of each of two filters, in the lanes of `SIMD2<Double>`, in direct form I
/// with its last two inputs and outputs.
struct PairedSection: Sendable {
  var b0, b1, b2, a1, a2: SIMD2<Double>
  var x1 = SIMD2<Double>(), x2 = SIMD2<Double>(), y1 = SIMD2<Double>(), y2 = SIMD2<Double>()

  init(_ first: SecondOrderSections.Section, _ second: SecondOrderSections.Section) {
    b0 = SIMD2(first.b0, second.b0)
    b1 = SIMD2(first.b1, second.b1)
    b2 = SIMD2(first.b2, second.b2)
    a1 = SIMD2(first.a1, second.a1)
    a2 = SIMD2(first.a2, second.a2)
  }

  /// The next output for input `x`: the feed-forward sum and the older feedback term first, so that only
  /// `a1·y[n−1]` and one subtraction lie between one output and the next.
  @inline(__always)
  mutating func callAsFunction(_ x: SIMD2<Double>) -> SIMD2<Double> {
    let feedForward: SIMD2<Double> = (b0 * x + b1 * x1) + b2 * x2
    let y: SIMD2<Double> = (feedForward - a2 * y2) - a1 * y1
    x2 = x1
    x1 = x
    y2 = y1
    y1 = y
    return y
  }
}
