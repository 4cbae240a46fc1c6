import VitalsCore

/// Parses ISO-8601-like date-times from bytes: `YYYY-MM-DD`, then `T` or a space, `hh:mm[:ss]`, an
/// optional fraction of any length (`.` or `,`), and an optional zone (`Z`, `±hh`, `±hhmm`, `±hh:mm`,
/// optionally after a space). Without a zone the time is read as UTC.
///
/// - Returns: nanoseconds since the Unix epoch, or `nil` when the bytes are not such a date-time or
///   the year lies outside 1678–2261 (the range of ``Timestamp``).
package func parseDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
  var i = 0
  var n = bytes.count
  while i < n && (bytes[i] == 0x20 || bytes[i] == 0x22) { i += 1 }
  while n > i && (bytes[n - 1] == 0x20 || bytes[n - 1] == 0x22 || bytes[n - 1] == 0x0D) { n -= 1 }
  func digits(_ count: Int) -> Int? {
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
  func expect(_ c: UInt8) -> Bool {
    guard i < n, bytes[i] == c else { return false }
    i += 1
    return true
  }
  guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
    (1...12).contains(month), (1...31).contains(day), (1678...2261).contains(year)
  else { return nil }
  var seconds = Timestamp.daysSinceEpoch(year: year, month: month, day: day) * 86_400
  var nanos: Int64 = 0
  if i < n && (bytes[i] == 0x54 || bytes[i] == 0x20) {
    i += 1
    guard let hour = digits(2), expect(0x3A), let minute = digits(2), hour < 24, minute < 60 else {
      return nil
    }
    var second = 0
    if expect(0x3A) {
      guard let s = digits(2), s < 61 else { return nil }
      second = s
      if i < n && (bytes[i] == 0x2E || bytes[i] == 0x2C) {
        i += 1
        var scale: Int64 = 100_000_000
        var sawDigit = false
        while i < n, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
          nanos += Int64(bytes[i] - 0x30) * scale
          scale /= 10
          sawDigit = true
          i += 1
        }
        guard sawDigit else { return nil }
      }
    }
    seconds += Int64(hour * 3600 + minute * 60 + second)
    if i < n && bytes[i] == 0x20 { i += 1 }
    if i < n {
      if bytes[i] == 0x5A {
        i += 1
      } else if bytes[i] == 0x2B || bytes[i] == 0x2D {
        let sign: Int64 = bytes[i] == 0x2D ? -1 : 1
        i += 1
        guard let zh = digits(2) else { return nil }
        _ = expect(0x3A)
        let zm = i < n ? (digits(2) ?? -1) : 0
        guard zm >= 0, zm < 60, zh < 24 else { return nil }
        seconds -= sign * Int64(zh * 3600 + zm * 60)
      }
    }
  }
  guard i == n else { return nil }
  return seconds * 1_000_000_000 + nanos
}

/// Whether `bytes` are a date-time that ``parseDateTime(_:)`` refuses only for its year, one outside
/// 1678–2261 (`9999-12-31 23:59:59 +0000`): well formed, but not an instant ``Timestamp`` holds.
package func isDateTimeOutsideTimestampYears(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  var i = 0
  while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x22) { i += 1 }
  guard i + 4 <= bytes.count, bytes[i..<i + 4].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
  let year = bytes[i..<i + 4].reduce(0) { $0 * 10 + Int($1 - 0x30) }
  guard !(1678...2261).contains(year) else { return false }
  var inRange = Array(bytes)
  inRange.replaceSubrange(i..<i + 4, with: Array("2000".utf8))
  return inRange.withUnsafeBufferPointer { parseDateTime($0) } != nil
}

extension Timestamp {
  /// The instant an ISO-8601-like date-time names (`2014-05-08T05:05:15Z`, `2014-05-08 05:05:15.25`,
  /// `2021-12-17 12:58:58 +0800`; without a zone, UTC), or `nil` when `text` is not one.
  public init?(dateTime text: String) {
    guard let nanoseconds = Array(text.utf8).withUnsafeBufferPointer({ parseDateTime($0) }) else {
      return nil
    }
    self.init(nanosecondsSinceEpoch: nanoseconds)
  }
}
