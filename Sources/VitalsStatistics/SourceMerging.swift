import VitalsCore

/// Counting overlapping sources once, as the Health app does for cumulative types: where samples of
/// several sources (an iPhone and an Apple Watch both counting steps) cover the same moment, only the
/// source ranked highest counts there.
///
/// The rule, moment by moment: a moment is covered by a source when one of its samples' spans
/// `[start, end)` holds it; the highest-ranked source covering it is the one counted there. Sources
/// are ranked in the order of ``order``, then the others by name. A sample of a lower-ranked source
/// therefore contributes only its parts no higher-ranked source covers, each part with the value
/// share `value × part / (end − start)` (values are taken as spread evenly over the span, as the
/// statistics split boundary-spanning samples). Samples of one source are never merged with each
/// other: overlapping samples from one source all count. An instantaneous sample (`start == end`)
/// counts wholly unless a higher-ranked source covers its instant.
public struct SourcePriority: Hashable, Sendable, Codable {
  /// Source names, highest priority first.
  public var order: [String]

  /// A ranking: `order` first (highest priority first), the other sources after them by name.
  public init(_ order: [String] = []) { self.order = order }

  /// Every source of `samples`, ranked: those in ``order`` first, in that order, then the others in
  /// lexicographic order of their names.
  public func ranked(sources: some Sequence<String>) -> [String] {
    let listed = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    return Set(sources).sorted { a, b in
      switch (listed[a], listed[b]) {
      case (let x?, let y?): x < y
      case (.some, nil): true
      case (nil, .some): false
      case (nil, nil): a < b
      }
    }
  }

  /// The samples with every moment counted once: the samples of the source ranked first unchanged, and
  /// of each lower-ranked source the parts that no higher-ranked source covers (a sample may become
  /// several fragments). The result is ordered by source rank, then start.
  public func merged(_ samples: [QuantitySample]) -> [QuantitySample] {
    let bySource = Dictionary(grouping: samples, by: \.source)
    var claimed: [(start: Int64, end: Int64)] = []
    var result: [QuantitySample] = []
    result.reserveCapacity(samples.count)
    for source in ranked(sources: bySource.keys) {
      let own = bySource[source]!.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
      for sample in own {
        appendUnclaimedParts(of: sample, claimed: claimed, to: &result)
      }
      claimed = Self.union(
        claimed, own.map { ($0.start.nanosecondsSinceEpoch, $0.end.nanosecondsSinceEpoch) })
    }
    return result
  }

  /// The parts of `sample` outside the sorted, disjoint spans `claimed`, with proportional values.
  private func appendUnclaimedParts(
    of sample: QuantitySample, claimed: [(start: Int64, end: Int64)], to result: inout [QuantitySample]
  ) {
    let start = sample.start.nanosecondsSinceEpoch
    let end = sample.end.nanosecondsSinceEpoch
    // First claimed span ending after the sample's start (instantaneous samples: after or at it).
    var lo = 0
    var hi = claimed.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if claimed[mid].end <= start { lo = mid + 1 } else { hi = mid }
    }
    if start == end {
      if lo == claimed.count || claimed[lo].start > start { result.append(sample) }
      return
    }
    var cursor = start
    var k = lo
    func appendPart(_ from: Int64, _ to: Int64) {
      guard from < to else { return }
      if from == start && to == end {
        result.append(sample)
        return
      }
      var part = sample
      part.start = Timestamp(nanosecondsSinceEpoch: from)
      part.end = Timestamp(nanosecondsSinceEpoch: to)
      part.value = sample.value * (Double(to - from) / Double(end - start))
      result.append(part)
    }
    while k < claimed.count && claimed[k].start < end {
      appendPart(cursor, claimed[k].start)
      cursor = Swift.max(cursor, claimed[k].end)
      k += 1
    }
    appendPart(cursor, end)
  }

  /// The union of sorted disjoint spans `a` and spans `b` (sorted by start), as sorted disjoint spans;
  /// empty spans are dropped.
  private static func union(
    _ a: [(start: Int64, end: Int64)], _ b: [(start: Int64, end: Int64)]
  ) -> [(start: Int64, end: Int64)] {
    var all = a + b.filter { $0.start < $0.end }
    all.sort { $0.start < $1.start }
    var result: [(start: Int64, end: Int64)] = []
    for span in all {
      if let last = result.last, span.start <= last.end {
        result[result.count - 1].end = Swift.max(last.end, span.end)
      } else {
        result.append(span)
      }
    }
    return result
  }
}
