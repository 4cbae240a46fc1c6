import VitalsCore

/// Counting overlapping sources once, as the Health app does for cumulative types: where samples of
/// several sources (an iPhone and an Apple Watch both counting steps) cover the same moment, only the
/// source ranked highest counts there.
///
/// The rule, moment by moment: a moment `t` is covered by a source when one of its samples' spans
/// `[start, end)` holds it (`start <= t < end`: a span's end belongs to the next moment, as the
/// statistics place a boundary instant in the interval starting there) or when one of its
/// instantaneous samples (`start == end`) is at `t`; the highest-ranked source covering it is the one
/// counted there. Sources are ranked in the order of ``order``, then the others by name.
/// - A sample with a span, of a lower-ranked source, contributes only its parts that no higher-ranked
///   span covers, each part with the value share `value × part / (end − start)` (values are taken as
///   spread evenly over the span, as the statistics split boundary-spanning samples). Instants of
///   higher-ranked sources take nothing from it: an instant has zero duration.
/// - An instantaneous sample counts wholly or not at all: not when a higher-ranked source covers its
///   instant (a span holding it, or an instantaneous sample at the same time).
///
/// Samples of one source are never merged with each other: overlapping samples, or several
/// instantaneous samples at one time, from one source all count.
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
  /// of each lower-ranked source the parts that no higher-ranked source covers (a sample with a span
  /// may become several fragments; an instantaneous sample is kept or dropped whole). The result is
  /// ordered by source rank, then start.
  public func merged(_ samples: [QuantitySample]) -> [QuantitySample] {
    let bySource = Dictionary(grouping: samples, by: \.source)
    var claimed = Claimed()
    var result: [QuantitySample] = []
    result.reserveCapacity(samples.count)
    for source in ranked(sources: bySource.keys) {
      let own = bySource[source]!.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
      for sample in own {
        claimed.appendUnclaimedParts(of: sample, to: &result)
      }
      claimed.add(own)
    }
    return result
  }

  /// The moments claimed by the sources merged so far: their spans and their instants.
  private struct Claimed {
    /// The union of the spans `[start, end)` of the samples with a duration, sorted and disjoint.
    var spans: [(start: Int64, end: Int64)] = []
    /// The times of the instantaneous samples.
    var instants: Set<Int64> = []

    /// Claims the moments of `samples`.
    mutating func add(_ samples: [QuantitySample]) {
      var added: [(start: Int64, end: Int64)] = []
      for sample in samples {
        let start = sample.start.nanosecondsSinceEpoch
        let end = sample.end.nanosecondsSinceEpoch
        if start == end { instants.insert(start) } else { added.append((start, end)) }
      }
      spans = Self.union(spans, added)
    }

    /// The index of the first span ending after `t`.
    func firstSpan(endingAfter t: Int64) -> Int {
      var lo = 0
      var hi = spans.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if spans[mid].end <= t { lo = mid + 1 } else { hi = mid }
      }
      return lo
    }

    /// Whether the instant `t` is claimed: inside a span (`start <= t < end`) or an instant itself.
    func holds(instant t: Int64) -> Bool {
      let k = firstSpan(endingAfter: t)
      return (k < spans.count && spans[k].start <= t) || instants.contains(t)
    }

    /// Appends `sample` when it is instantaneous and its instant is not claimed; else its parts
    /// outside the claimed spans, with proportional values.
    func appendUnclaimedParts(of sample: QuantitySample, to result: inout [QuantitySample]) {
      let start = sample.start.nanosecondsSinceEpoch
      let end = sample.end.nanosecondsSinceEpoch
      if start == end {
        if !holds(instant: start) { result.append(sample) }
        return
      }
      var cursor = start
      var k = firstSpan(endingAfter: start)
      func appendPart(_ from: Int64, _ to: Int64) {
        guard from < to else { return }
        if from == start && to == end {
          result.append(sample)
          return
        }
        var part = sample
        part.start = Timestamp(nanosecondsSinceEpoch: from)
        part.end = Timestamp(nanosecondsSinceEpoch: to)
        part.value = sample.value * (distance(from: from, to: to) / distance(from: start, to: end))
        result.append(part)
      }
      while k < spans.count && spans[k].start < end {
        appendPart(cursor, spans[k].start)
        cursor = Swift.max(cursor, spans[k].end)
        k += 1
      }
      appendPart(cursor, end)
    }

    /// The union of sorted disjoint spans `a` and non-empty spans `b`, as sorted disjoint spans.
    private static func union(
      _ a: [(start: Int64, end: Int64)], _ b: [(start: Int64, end: Int64)]
    ) -> [(start: Int64, end: Int64)] {
      var all = a + b
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
}
