import ArgumentParser
import Vitals

extension Stats {
  /// Throws a `ValidationError` unless --interval names a length (``intervalLength(_:)``) or `all`, and
  /// --anchor, when given, parses.
  func checkIntervalOptions() throws(ValidationError) {
    if Self.intervalLength(interval) == nil && interval != "all" {
      throw ValidationError(
        "--interval must be like day, week, month, hour, 15min, 30s, 24h or all, of at most "
          + "\(OptionRange.calendarDays.upperBound) days, \(OptionRange.calendarWeeks.upperBound) weeks, "
          + "\(OptionRange.calendarMonths.upperBound) months or a fixed "
          + "\(optionRange(OptionRange.fixedInterval)) s; got '\(interval)'")
    }
    // Whether an anchor parses does not depend on the zone: checked in UTC, so that the system's zone
    // is read once, by report().
    if let anchor, IntervalCollection.anchor(anchor, in: .utc) == nil {
      throw ValidationError(
        "--anchor must be a date like 2024-03-10 or 2024-03-10T06:00[±hh:mm]; got '\(anchor)'")
    }
  }

  /// The interval length of `text`: `day`, `2day`, `week`, `month`, or a number with `s`, `min`, `h`
  /// (`hour`), `ms` for a fixed length; `nil` when it is none of these or its count is outside
  /// ``OptionRange``'s `calendarDays`, `calendarWeeks`, `calendarMonths` or `fixedInterval`.
  static func intervalLength(_ text: String) -> IntervalLength? {
    let digits = text.prefix { $0.isNumber || $0 == "." }
    let unit = text.dropFirst(digits.count).lowercased()
    guard let count = digits.isEmpty ? 1 : Double(digits) else { return nil }
    func calendar(_ range: ClosedRange<Int>) -> Int? {
      Int(exactly: count).flatMap { range.contains($0) ? $0 : nil }
    }
    func fixed(_ seconds: Double) -> IntervalLength? {
      OptionRange.fixedInterval.contains(seconds) ? .seconds(seconds) : nil
    }
    switch unit {
    case "day", "days", "d": return calendar(OptionRange.calendarDays).map { .days($0) }
    case "week", "weeks", "w": return calendar(OptionRange.calendarWeeks).map { .weeks($0) }
    case "month", "months": return calendar(OptionRange.calendarMonths).map { .months($0) }
    case "h", "hour", "hours": return fixed(count * 3600)
    case "min", "minute", "minutes", "m": return fixed(count * 60)
    case "s", "second", "seconds": return fixed(count)
    case "ms": return fixed(count / 1000)
    default: return nil
    }
  }

  /// Throws an ``InputError`` naming the inputs, their span and --interval when intervals of `length`
  /// covering `range` would be more than ``OptionRange/statisticsIntervals``.
  func checkIntervalCount(_ length: IntervalLength, covering range: Range<Timestamp>) throws(InputError) {
    let hour = 3600e9
    let shortest: Double  // nanoseconds: calendar days last at least 23 hours, months 28 days
    switch length {
    case .fixed(let nanoseconds): shortest = Double(nanoseconds)
    case .days(let n): shortest = Double(n) * 23 * hour
    case .weeks(let n): shortest = Double(n) * (7 * 24 - 1) * hour
    case .months(let n): shortest = Double(n) * (28 * 24 - 1) * hour
    }
    let span = range.lowerBound.seconds(to: range.upperBound)
    let count = (span * 1e9 / shortest).rounded(.up) + 1
    guard count > OptionRange.statisticsIntervals else { return }
    throw InputError(
      path: inputs.joined(separator: ", "),
      "the samples span \(optionNumber(span.rounded(.up))) s: --interval \(interval) makes up to "
        + "\(optionNumber(count)) intervals, more than \(optionNumber(OptionRange.statisticsIntervals)); "
        + "give a longer --interval")
  }

  /// What to say when the inputs hold no sample of `type`, whose types are `found`: a known type gives
  /// an empty table and `note` is told so; a type neither known nor found is a usage error listing the
  /// types found and known, with the nearest name when one is close.
  func explainAbsence(
    of type: QuantityType, found: Set<QuantityType>, note: (String) -> Void
  ) throws(ValidationError) {
    let inInputs =
      found.isEmpty
      ? "the inputs hold no quantity samples"
      : "types in the inputs: \(found.map(\.rawValue).sorted().joined(separator: ", "))"
    guard type.isKnown else {
      let known = QuantityType.knownTypes
      let nearest = QuantityType.nearestName(
        to: type.rawValue, among: known.map(\.rawValue) + found.map(\.rawValue))
      let suggestion = nearest.map { "; did you mean \($0)?" } ?? ""
      throw ValidationError(
        """
        --type '\(self.type)' is neither in the inputs nor a known quantity type\(suggestion)
        \(inInputs)
        types known: \(known.map(\.rawValue).joined(separator: ", "))
        or as HealthKit identifiers: \(known.map(\.identifier).joined(separator: ", "))
        """)
    }
    note("no \(type) samples in \(inputs.joined(separator: ", ")); \(inInputs)")
  }
}
