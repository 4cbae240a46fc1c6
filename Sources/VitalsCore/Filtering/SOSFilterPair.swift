/// Two causal IIR filters run over one `Float` channel in one pass: two band-passes of one signal for
/// about the cost of one. A cascade's speed is bound by the latency of its recurrences, not by its
/// arithmetic, so the two filters' recurrences, computed side by side for each sample, overlap in the
/// pipeline. Filters of up to two sections each run fused that way; longer ones run one after the other.
///
/// Each output is bit for bit that of an ``SOSFilter`` with the same design on the same input (the same
/// scalar operations in `Double`, in the same order), and the states carry over between calls, so chunks
/// of any size give the output of the whole.
public struct SOSFilterPair: Sendable {
  var first: LaneCascade<Double>
  var second: LaneCascade<Double>

  /// Two filters at rest (zero state).
  public init(_ first: SecondOrderSections, _ second: SecondOrderSections) {
    self.first = LaneCascade(first)
    self.second = LaneCascade(second)
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
    let firstBase = firstOutput.baseAddress!
    let secondBase = secondOutput.baseAddress!
    guard first.sections.count == 2 && second.sections.count == 2 else {
      second.run(frames: source, stride: 1, count: input.count, into: secondBase)
      first.run(frames: source, stride: 1, count: input.count, into: firstBase)
      return
    }
    var a = SectionPair(first: first.sections[0], second: first.sections[1])
    var b = SectionPair(first: second.sections[0], second: second.sections[1])
    for index in 0..<input.count {
      let x = Double(source[index])
      let y = a(x)
      let z = b(x)
      firstBase[index] = Float(y)
      secondBase[index] = Float(z)
    }
    first.sections[0] = a.first
    first.sections[1] = a.second
    second.sections[0] = b.first
    second.sections[1] = b.second
  }
}
