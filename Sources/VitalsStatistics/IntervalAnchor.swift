import VitalsCore
import VitalsIO

extension IntervalCollection {
  /// The instant an interval anchor names: a date (`2024-03-10`, local midnight), a local date-time
  /// (`2024-03-10T06:00`) or one with an offset or `Z` (`2024-03-10T06:00:00-05:00`). A local time is
  /// read in `zone`: a time a daylight-saving change skips with the offset before the change, a repeated
  /// time as its first occurrence (as Foundation's `Calendar` reads them). Nil for any other text.
  public static func anchor(_ text: String, in zone: TimeZoneRules) -> Timestamp? {
    guard let nanoseconds = Array(text.utf8).withUnsafeBufferPointer({ parseDateTime($0) }) else {
      return nil
    }
    let time = text.dropFirst(10)
    if time.contains("Z") || time.contains("+") || time.contains("-") {
      return Timestamp(nanosecondsSinceEpoch: nanoseconds)
    }
    return zone.instant(atLocal: nanoseconds)
  }

  /// The default anchor: midnight of Monday 2000-01-03 in `zone`, so that weeks start on Monday.
  public static func defaultAnchor(in zone: TimeZoneRules) -> Timestamp { anchor("2000-01-03", in: zone)! }
}
