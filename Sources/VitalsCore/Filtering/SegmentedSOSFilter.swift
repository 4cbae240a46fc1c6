extension SecondOrderSections {
  /// The largest magnitude among the poles of the sections (the roots of `z² + a1·z + a2`): below 1 for a
  /// stable filter; the closer to 1, the longer the impulse response rings.
  public var largestPoleRadius: Double {
    sections.map { section in
      let discriminant = section.a1 * section.a1 - 4 * section.a2
      if discriminant < 0 { return section.a2.squareRoot() }
      let root = discriminant.squareRoot()
      return max(abs(-section.a1 + root), abs(-section.a1 - root)) / 2
    }.max()!
  }

  /// The length after which the filter's impulse response `h` has decayed for good: the smallest `n` with
  /// `Σₖ≥ₙ |h[k]| ≤ tolerance · Σₖ |h[k]|`, or `nil` for a filter that is not stable (a pole on or outside
  /// the unit circle).
  ///
  /// Starting a filter at rest `n` samples before a point instead of at the start of the signal changes its
  /// output from that point on by at most `tolerance · Σ|h| · max|x|` (the response to the ignored history
  /// is a sum of `h` tails): the warm-up of ``SegmentedSOSFilter``. The response is computed in `Double`
  /// until the cascade's state is negligible.
  public func settlingLength(tolerance: Double) -> Int? {
    precondition(tolerance > 0 && tolerance < 1, "tolerance must lie in (0, 1), got \(tolerance)")
    let radius = largestPoleRadius
    guard radius < 1 else { return nil }
    var filter = SOSFilter(self)
    var magnitudes: [Double] = []
    var total = 0.0
    var sample = 1.0
    var response = 0.0
    // The state is the whole future: once its size, amplified by up to 1/(1 − r) per pole, is far below
    // the tolerance, the rest of the response is too.
    let amplification = Double.pow(1 / (1 - radius), 2 * sections.count)
    while magnitudes.count < 100_000_000 {
      withUnsafeMutablePointer(to: &response) { output in
        withUnsafePointer(to: &sample) { input in
          filter.process(
            UnsafeBufferPointer(start: input, count: 1),
            into: UnsafeMutableBufferPointer(start: output, count: 1))
        }
      }
      sample = 0
      magnitudes.append(abs(response))
      total += abs(response)
      let stateSize = filter.state.reduce(0) { $0 + abs($1) }
      if stateSize.isNaN { return nil }
      if stateSize * min(amplification, 1e12) <= 1e-3 * tolerance * total { break }
    }
    var tail = 0.0
    for index in magnitudes.indices.reversed() {
      tail += magnitudes[index]
      if tail > tolerance * total { return index + 1 }
    }
    return 0
  }
}

/// A long single channel filtered as eight overlapping segments in the lanes of a `SIMD8<Double>`: the
/// output of a causal ``SOSFilter`` started at rest on the whole signal, computed up to eight times faster
/// on one core.
///
/// Segment `k` covers samples `[k·S, (k + 1)·S)` with `S = ⌈n/8⌉`; its lane starts at rest ``warmUp`` samples
/// earlier and its warm-up outputs are discarded. The first segment is exact; each later one differs from
/// the one-lane path by at most `tolerance · Σ|h| · max|x|` (see
/// ``SecondOrderSections/settlingLength(tolerance:)``), below `Float` resolution at the default tolerance.
/// Signals shorter than `8 · warmUp` take the one-lane path.
///
/// This is a batch operation: it has no state between calls, so it suits whole recordings, not streams.
public struct SegmentedSOSFilter: Sendable {
  /// The filter's sections.
  public let design: SecondOrderSections
  /// Samples each segment's lane runs before its segment starts.
  public let warmUp: Int

  /// Segments filtered at once.
  public static var laneCount: Int { SIMD8<Double>.scalarCount }

  /// A segmented filter whose warm-up is the design's ``SecondOrderSections/settlingLength(tolerance:)``.
  /// The default tolerance of 1e-9 keeps the segment joins below `Float` rounding of the output.
  public init(_ design: SecondOrderSections, tolerance: Double = 1e-9) {
    guard let settling = design.settlingLength(tolerance: tolerance) else {
      preconditionFailure(
        "segmented filtering needs a stable filter (largest pole radius \(design.largestPoleRadius))")
    }
    self.init(design, warmUp: settling)
  }

  /// A segmented filter with an explicit warm-up in samples.
  public init(_ design: SecondOrderSections, warmUp: Int) {
    precondition(warmUp >= 0, "warm-up must not be negative, got \(warmUp)")
    self.design = design
    self.warmUp = warmUp
  }

  /// Filters `input` into `output` (same count) from rest. `output` may be the same memory as `input`.
  public func process(_ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>) {
    precondition(
      input.count == output.count, "input and output counts differ: \(input.count) vs \(output.count)")
    let lanes = Self.laneCount
    let count = input.count
    guard count >= lanes * max(warmUp, 1) else {
      var filter = SOSFilter(design)
      filter.process(input, into: output)
      return
    }
    let segment = (count + lanes - 1) / lanes
    let steps = warmUp + segment
    // Frame j holds sample k·S + j − warmUp of every segment k in lane k (zero outside the signal): the
    // lanes are consecutive floats, loaded and stored as vectors.
    withUnsafeTemporaryAllocation(of: Float.self, capacity: steps * lanes) { frames in
      let source = input.baseAddress!
      for lane in 0..<lanes {
        let first = lane * segment - warmUp
        for step in 0..<steps {
          let index = first + step
          frames[step * lanes + lane] = index >= 0 && index < count ? source[index] : 0
        }
      }
      var cascade = LaneCascade<SIMD8<Double>>(design)
      cascade.run(frames: frames.baseAddress!, stride: lanes, count: steps, into: frames.baseAddress!)
      for lane in 0..<lanes {
        for index in (lane * segment)..<min(lane * segment + segment, count) {
          output[index] = frames[(index - lane * segment + warmUp) * lanes + lane]
        }
      }
    }
  }

  /// Returns `samples` filtered from rest.
  public func filtered(_ samples: [Float]) -> [Float] {
    var result = samples
    result.withUnsafeMutableBufferPointer { process(UnsafeBufferPointer($0), into: $0) }
    return result
  }
}
