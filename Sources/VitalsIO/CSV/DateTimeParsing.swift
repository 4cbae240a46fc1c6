import VitalsCore

/// Why ``readDateTime(_:)`` finds no instant in some bytes.
package enum DateTimeRefusal: Error, Hashable, Sendable, CustomStringConvertible {
  /// The bytes are not of the form at all.
  case malformed
  /// A month outside 01–12.
  case month(Int)
  /// A day the month does not have (`2023-02-29`, `2024-04-31`, day 00).
  case day(year: Int, month: Int, day: Int)
  /// An hour outside 00–23 that is not `24:00:00` (the end of a day).
  case hour(Int)
  /// A minute outside 00–59.
  case minute(Int)
  /// Second 60 (a leap second) or a second beyond it.
  case second(Int)
  /// A zone offset of 24 hours or more, or with a minute outside 00–59 (hours, minutes as written).
  case offset(hours: Int, minutes: Int)
  /// A possible date in a year outside 1678–2261, the years ``Timestamp`` holds.
  case year(Int)

  /// What is wrong, for an error message (`day 30 is not in February 2024, which has 29 days`).
  package var description: String {
    func two(_ value: Int) -> String { value < 10 && value >= 0 ? "0\(value)" : "\(value)" }
    switch self {
    case .malformed: return "not a date-time like 2024-03-10 08:15:02 -0500"
    case .month(let month): return "month \(two(month)) is not 01–12"
    case .day(let year, let month, let day):
      let name = Self.monthNames[month - 1]
      let days = Timestamp.daysInMonth(year: year, month: month)
      return "day \(two(day)) is not in \(name) \(year), which has \(days) days"
    case .hour(let hour): return "hour \(two(hour)) is not 00–23 (24 only in 24:00:00, the end of a day)"
    case .minute(let minute): return "minute \(two(minute)) is not 00–59"
    case .second(60):
      return "second 60 is a leap second, which Unix time (and so Vitals) does not count"
    case .second(let second): return "second \(two(second)) is not 00–59"
    case .offset(let hours, let minutes):
      return "the zone offset \(two(hours)):\(two(minutes)) is not less than 24 hours with minutes 00–59"
    case .year(let year): return "the year \(year) is outside 1678–2261, the years Vitals can hold"
    }
  }

  private static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
  ]
}

/// The fields of a date-time as written, before their ranges are checked.
private struct DateTimeFields {
  var year = 0
  var month = 0
  var day = 0
  var hour = 0
  var minute = 0
  var second = 0
  var nanoseconds: Int64 = 0
  /// East of UTC: +1 or −1 (0 without an offset).
  var offsetSign: Int64 = 0
  var offsetHours = 0
  var offsetMinutes = 0

  /// Why the fields name no instant, or nil when they name one.
  var refusal: DateTimeRefusal? {
    guard (1...12).contains(month) else { return .month(month) }
    guard (1...Timestamp.daysInMonth(year: year, month: month)).contains(day) else {
      return .day(year: year, month: month, day: day)
    }
    let endOfDay = hour == 24 && minute == 0 && second == 0 && nanoseconds == 0
    guard hour < 24 || endOfDay else { return .hour(hour) }
    guard minute < 60 else { return .minute(minute) }
    guard second < 60 else { return .second(second) }
    guard offsetHours < 24, offsetMinutes < 60 else {
      return .offset(hours: offsetHours, minutes: offsetMinutes)
    }
    guard (1678...2261).contains(year) else { return .year(year) }
    return nil
  }

  /// Nanoseconds since the epoch; the fields must be valid (``refusal`` nil).
  var nanosecondsSinceEpoch: Int64 {
    var seconds = Timestamp.daysSinceEpoch(year: year, month: month, day: day) * 86_400
    seconds += Int64(hour * 3600 + minute * 60 + second)
    seconds -= offsetSign * Int64(offsetHours * 3600 + offsetMinutes * 60)
    return seconds * 1_000_000_000 + nanoseconds
  }
}

/// Reads an ISO-8601-like date-time from bytes: `YYYY-MM-DD`, then `T` or a space, `hh:mm[:ss]`, an
/// optional fraction of any length (`.` or `,`; digits beyond the ninth are ignored), and an optional
/// zone (`Z`, `±hh`, `±hhmm`, `±hh:mm`, optionally after a space). Without a zone the time is read as
/// UTC. Blanks and double quotes around the text are ignored.
///
/// Every field is checked, in the proleptic Gregorian calendar: months 01–12, the month's days
/// (`2023-02-29` and `2024-02-30` are refused, never moved to March), hours 00–23, minutes and seconds
/// 00–59, zone offsets under 24 hours with minutes 00–59. `24:00`, `24:00:00` (any fraction zero) is
/// accepted as ISO 8601 (2004) defines it, the end of the day: the next day's `00:00:00`. Second 60 (a
/// leap second, `23:59:60Z`) is refused: ``Timestamp`` counts Unix time, which has no leap seconds, and
/// reading it as a neighboring second would put two different seconds on one instant.
///
/// - Returns: nanoseconds since the Unix epoch, or why the bytes name none
///   (``DateTimeRefusal/malformed`` when they are not of the form; the field out of range otherwise,
///   the year last: a year outside 1678–2261, the range of ``Timestamp``, is ``DateTimeRefusal/year(_:)``).
package func readDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Int64, DateTimeRefusal> {
  guard let fields = scanDateTime(bytes) else { return .failure(.malformed) }
  if let refusal = fields.refusal { return .failure(refusal) }
  return .success(fields.nanosecondsSinceEpoch)
}

/// The instant of a date-time (``readDateTime(_:)``) in nanoseconds since the Unix epoch; nil when the
/// bytes name none (not of the form, an impossible date or time, or a year outside 1678–2261).
package func parseDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
  guard case .success(let nanoseconds) = readDateTime(bytes) else { return nil }
  return nanoseconds
}

/// The bytes of a date-time being read, and how far: a value, so that reading it needs no captured
/// state (which would be checked for exclusive access at run time on every byte).
private struct DateTimeCursor {
  let bytes: UnsafeBufferPointer<UInt8>
  /// The next byte to read, and the end of the text (blanks and quotes around it left out).
  var i = 0
  var n: Int

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    n = bytes.count
    while i < n && (bytes[i] == 0x20 || bytes[i] == 0x22) { i += 1 }
    while n > i && (bytes[n - 1] == 0x20 || bytes[n - 1] == 0x22 || bytes[n - 1] == 0x0D) { n -= 1 }
  }

  /// Whether the next byte is one of `a`, `b`.
  func next(is a: UInt8, or b: UInt8? = nil) -> Bool { i < n && (bytes[i] == a || bytes[i] == b) }

  /// The number the next `count` bytes spell in decimal, consumed; nil (nothing consumed) otherwise.
  mutating func digits(_ count: Int) -> Int? {
    guard i + count <= n else { return nil }
    var v = 0
    for k in 0..<count {
      let d = Int(bytes[i + k]) - 0x30
      guard d >= 0 && d < 10 else { return nil }
      v = v * 10 + d
    }
    i += count
    return v
  }

  /// Whether the next byte is `c`, consumed when it is.
  mutating func expect(_ c: UInt8) -> Bool {
    guard next(is: c) else { return false }
    i += 1
    return true
  }
}

/// The fields of the date-time form ``readDateTime(_:)`` reads, unchecked; nil when the bytes are not
/// of that form.
private func scanDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> DateTimeFields? {
  var c = DateTimeCursor(bytes)
  var fields = DateTimeFields()
  guard let year = c.digits(4), c.expect(0x2D), let month = c.digits(2), c.expect(0x2D),
    let day = c.digits(2)
  else { return nil }
  (fields.year, fields.month, fields.day) = (year, month, day)
  if c.next(is: 0x54, or: 0x20) {
    c.i += 1
    guard let hour = c.digits(2), c.expect(0x3A), let minute = c.digits(2) else { return nil }
    (fields.hour, fields.minute) = (hour, minute)
    if c.expect(0x3A) {
      guard let second = c.digits(2) else { return nil }
      fields.second = second
      if c.next(is: 0x2E, or: 0x2C) {
        c.i += 1
        var scale: Int64 = 100_000_000
        let first = c.i
        while c.i < c.n, bytes[c.i] >= 0x30 && bytes[c.i] <= 0x39 {
          fields.nanoseconds += Int64(bytes[c.i] - 0x30) * scale
          scale /= 10
          c.i += 1
        }
        guard c.i > first else { return nil }
      }
    }
    _ = c.expect(0x20)
    if c.i < c.n && !c.expect(0x5A) {
      guard c.next(is: 0x2B, or: 0x2D) else { return nil }
      fields.offsetSign = bytes[c.i] == 0x2D ? -1 : 1
      c.i += 1
      guard let hours = c.digits(2) else { return nil }
      _ = c.expect(0x3A)
      guard let minutes = c.i < c.n ? c.digits(2) : 0 else { return nil }
      (fields.offsetHours, fields.offsetMinutes) = (hours, minutes)
    }
  }
  return c.i == c.n ? fields : nil
}

extension Timestamp {
  /// The instant an ISO-8601-like date-time names (`2014-05-08T05:05:15Z`, `2014-05-08 05:05:15.25`,
  /// `2021-12-17 12:58:58 +0800`; without a zone, UTC), or `nil` when `text` is not one or names an
  /// impossible date or time (`readDateTime(_:)`).
  public init?(dateTime text: String) {
    guard let nanoseconds = Array(text.utf8).withUnsafeBufferPointer({ parseDateTime($0) }) else {
      return nil
    }
    self.init(nanosecondsSinceEpoch: nanoseconds)
  }
}
