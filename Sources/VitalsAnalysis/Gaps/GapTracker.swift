/// The gaps of a signal fed chunk by chunk: runs of missing samples (NaN or infinite: a reader's invalid
/// sample, a stretch without data between time stamps), as ranges of sample indices counted from the
/// first sample fed.
///
/// The detectors and estimators of this module take their input through one: a chunk without a missing
/// sample and outside a gap (the usual case) is found so by one vectorized pass (``allPresent(_:)``, or
/// the detector's own, fused with the first pass over the samples: ``advance(presentCount:)``) and takes
/// the detector's fast path; otherwise the chunk is split into runs of present and missing samples. The
/// runs depend on the samples only, not on how the signal is chunked.
public struct GapTracker: Sendable, Equatable {
  /// Samples fed so far.
  public private(set) var sampleCount: Int64 = 0
  /// The gaps that have ended, in increasing order.
  public private(set) var endedGaps: [Range<Int64>] = []
  /// Index of the first sample of the gap the last sample fed belongs to; nil when that sample was present.
  public private(set) var openGapStart: Int64?

  /// One run of a chunk: consecutive present or missing samples, as offsets into the chunk.
  public struct Run: Sendable, Equatable {
    /// Offsets of the run's samples in the chunk.
    public var offsets: Range<Int>
    /// Whether the samples are missing.
    public var isMissing: Bool

    public init(offsets: Range<Int>, isMissing: Bool) {
      self.offsets = offsets
      self.isMissing = isMissing
    }
  }

  public init() {}

  /// Every gap so far, in increasing order; a gap still open ends after the last sample fed.
  public var gaps: [Range<Int64>] {
    openGapStart.map { endedGaps + [$0..<sampleCount] } ?? endedGaps
  }

  /// Samples missing so far.
  public var missingSampleCount: Int64 {
    endedGaps.reduce(0) { $0 + Int64($1.count) } + (openGapStart.map { sampleCount - $0 } ?? 0)
  }

  /// How many samples of `span` are missing (an open gap counting up to the last sample fed).
  public func missingCount(in span: Range<Int64>) -> Int64 {
    let open = openGapStart.map { [$0..<Swift.max($0, sampleCount)] } ?? []
    return endedGaps.overlapCount(with: span) + open.overlapCount(with: span)
  }

  /// Whether every sample is finite: one pass, eight lanes at a time.
  public static func allPresent(_ samples: UnsafeBufferPointer<Float>) -> Bool {
    guard let base = samples.baseAddress else { return true }
    // x − x is 0 for a finite x and NaN otherwise, so the samples are finite when the sum of these is 0.
    var check = SIMD8<Float>()
    var i = 0
    let raw = UnsafeRawPointer(base)
    while i &+ 8 <= samples.count {
      let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
      check += v - v
      i &+= 8
    }
    var tail: Float = 0
    while i < samples.count {
      tail += samples[i] - samples[i]
      i &+= 1
    }
    return check.sum() + tail == 0
  }

  /// Feeds the next samples; returns nil when they are all present and no gap is open (the caller
  /// processes them as they are), otherwise their runs, in order.
  public mutating func runs(in samples: UnsafeBufferPointer<Float>) -> [Run]? {
    if openGapStart == nil && Self.allPresent(samples) {
      sampleCount += Int64(samples.count)
      return nil
    }
    return runs(count: samples.count) { !samples[$0].isFinite }
  }

  /// Feeds `count` samples that the caller found present (with ``allPresent(_:)`` or a check of its own)
  /// while no gap is open.
  public mutating func advance(presentCount count: Int) {
    precondition(openGapStart == nil, "a gap is open: its end must be found with runs(in:)")
    sampleCount += Int64(count)
  }

  /// Feeds the next samples of several channels (equal counts): a sample is missing when it is missing in
  /// any channel. Returns nil or the runs as ``runs(in:)`` does.
  public mutating func runs(in channels: [UnsafeBufferPointer<Float>]) -> [Run]? {
    let count = channels.first?.count ?? 0
    precondition(channels.allSatisfy { $0.count == count }, "every channel needs the same sample count")
    if openGapStart == nil && channels.allSatisfy(Self.allPresent) {
      sampleCount += Int64(count)
      return nil
    }
    return runs(count: count) { i in channels.contains { !$0[i].isFinite } }
  }

  /// Splits the next `count` samples into runs by `isMissing` and records the gaps.
  private mutating func runs(count: Int, isMissing: (Int) -> Bool) -> [Run] {
    var result: [Run] = []
    var start = 0
    while start < count {
      let missing = isMissing(start)
      var end = start + 1
      while end < count && isMissing(end) == missing { end += 1 }
      result.append(Run(offsets: start..<end, isMissing: missing))
      let first = sampleCount + Int64(start)
      if missing {
        if openGapStart == nil { openGapStart = first }
      } else if let gapStart = openGapStart {
        endedGaps.append(gapStart..<first)
        openGapStart = nil
      }
      start = end
    }
    sampleCount += Int64(count)
    return result
  }

  /// Closes a gap still open at the last sample fed (at the end of a recording).
  public mutating func finish() {
    if let gapStart = openGapStart {
      endedGaps.append(gapStart..<sampleCount)
      openGapStart = nil
    }
  }
}

extension Array where Element == Range<Int64> {
  /// How many of the indices in `span` lie in these ranges (increasing and disjoint).
  public func overlapCount(with span: Range<Int64>) -> Int64 {
    var total: Int64 = 0
    // Ranges ending at or before the span do not count; they come first.
    var k = partitioningIndex { $0.upperBound > span.lowerBound }
    while k < count && self[k].lowerBound < span.upperBound {
      total += Swift.min(self[k].upperBound, span.upperBound) - Swift.max(self[k].lowerBound, span.lowerBound)
      k += 1
    }
    return total
  }

  /// These ranges and `other`'s (any order, may overlap) as increasing, disjoint ranges: overlapping and
  /// touching ranges joined, empty ones dropped.
  public func union(_ other: [Range<Int64>]) -> [Range<Int64>] {
    var result: [Range<Int64>] = []
    for range in (self + other).filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = result.last, range.lowerBound <= last.upperBound {
        result[result.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
      } else {
        result.append(range)
      }
    }
    return result
  }

  /// The parts of `span` outside these ranges (increasing and disjoint), in order.
  public func complement(within span: Range<Int64>) -> [Range<Int64>] {
    var parts: [Range<Int64>] = []
    complement(within: span, appendingTo: &parts)
    return parts
  }

  /// Appends to `parts` the parts of `span` outside these ranges (increasing and disjoint), in order.
  package func complement(within span: Range<Int64>, appendingTo parts: inout [Range<Int64>]) {
    var from = span.lowerBound
    var k = partitioningIndex { $0.upperBound > span.lowerBound }
    while k < count && self[k].lowerBound < span.upperBound {
      if self[k].lowerBound > from { parts.append(from..<self[k].lowerBound) }
      from = Swift.max(from, self[k].upperBound)
      k += 1
    }
    if from < span.upperBound { parts.append(from..<span.upperBound) }
  }

  /// The first index whose range satisfies `predicate`, which is false for a prefix and true after it.
  func partitioningIndex(where predicate: (Range<Int64>) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if predicate(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
