import VitalsCore

/// The shortest half-open range of time `[low, high)` that holds every sample given: the span
/// statistics intervals are made to cover (``QuantitySampleFiles/span``, ``SampleCounts/span``).
///
/// Intervals hold their start but not their end, as HealthKit's sample predicates
/// (`startDate < end`), so the range runs from the earliest start to the later of the latest end and
/// 1 ns past the latest start: a sample of positive duration `[start, end)` lies inside it, and so
/// does an instantaneous one (`start == end`) at its end, which a range ending at the latest end would
/// leave out.
struct SampleSpan {
  /// The range; nil until a sample is included.
  private(set) var range: Range<Timestamp>?

  /// Widens ``range`` to hold the sample `[start, end]` (`start <= end`).
  mutating func include(start: Timestamp, end: Timestamp) {
    let high = max(end, start.advanced(byNanoseconds: 1))
    guard let range else {
      self.range = start..<high
      return
    }
    self.range = min(range.lowerBound, start)..<max(range.upperBound, high)
  }
}
