import VitalsCore
import VitalsSupport

/// The UTC offsets of a time zone over time, read from the system's tz database (`tzdata`,
/// `/usr/share/zoneinfo`), and the calendar arithmetic of local days and months in it.
///
/// A zone file is TZif (RFC 8536, 2019): its 64-bit transitions (version 2 and later) and local time
/// types give the offset up to the last transition, and its footer, a POSIX `TZ` rule (IEEE 1003.1
/// `TZ` variable, with the RFC's extensions: hours −167…167, rules for all-year daylight time),
/// gives the offsets after it. Instants before the first transition take the first local time
/// type. Leap-second records are ignored, as civil time does. `UTC`, `GMT` and fixed offsets
/// (`GMT+5`, `UTC-08:00`, `GMT+0530`) are built in.
///
/// Local (wall-clock) times are resolved to instants as Foundation's Gregorian `Calendar` resolves
/// them: a time skipped by a forward change is read with the offset before the change (02:30 on a
/// spring-forward night in New York is 03:30 daylight time); a time repeated by a backward change
/// is its first occurrence. Offsets are whole seconds east of UTC; instants are `Timestamp`s.
public struct TimeZoneRules: Sendable, Hashable, CustomStringConvertible {
  /// The zone's name: the IANA name it was loaded by (`America/New_York`), `GMT` for UTC, or
  /// `GMT+0530` for a fixed offset.
  public let identifier: String
  /// Transition instants in seconds since the epoch, ascending.
  private let transitions: [Int64]
  /// The offset (seconds east of UTC) from each transition on.
  private let offsetsAfter: [Int32]
  /// The offset before the first transition (and throughout, without transitions or rule).
  private let initialOffset: Int32
  /// The rule after the last transition, from the file's footer.
  private let rule: PosixRule?

  /// Coordinated Universal Time.
  public static let utc = TimeZoneRules(identifier: "GMT", fixedOffset: 0)

  /// A zone `offset` seconds east of UTC all the time, named `identifier`.
  public init(identifier: String, fixedOffset offset: Int) {
    precondition(abs(offset) < 86_400, "an offset must be less than a day")
    self.identifier = identifier
    transitions = []
    offsetsAfter = []
    initialOffset = Int32(offset)
    rule = nil
  }

  /// The zone named `name`: `UTC`/`GMT`, a fixed offset (`GMT+1`, `UTC+01:00`, `GMT-0800`), or an IANA
  /// name read from `directory` (`/usr/share/zoneinfo`, or `$TZDIR` when set).
  /// - Throws: ``TimeZoneError`` when the name is not a zone there (naming it) or its file is not TZif.
  public init(named name: String, directory: String? = nil) throws(TimeZoneError) {
    if name == "UTC" || name == "GMT" {
      self = .utc
      return
    }
    if let offset = Self.fixedOffset(name) {
      let magnitude = abs(offset) / 60
      let digits = String(magnitude / 60 * 100 + magnitude % 60)
      let text = String(repeating: "0", count: 4 - digits.count) + digits
      self.init(
        identifier: offset == 0 ? "GMT" : "GMT" + (offset < 0 ? "-" : "+") + text, fixedOffset: offset)
      return
    }
    let components = name.split(separator: "/", omittingEmptySubsequences: false)
    let valid =
      !name.isEmpty
      && components.allSatisfy { component in
        !component.isEmpty && component != "." && component != ".."
          && component.utf8.allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
              || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
          }
      }
    guard valid else { throw TimeZoneError(name: name, "not a time zone name") }
    let base = directory ?? Self.databaseDirectory
    guard let bytes = FileSystem.contents(ofRegularFile: base + "/" + name) else {
      throw TimeZoneError(name: name, "unknown time zone (no such zone in \(base))")
    }
    try self.init(identifier: name, tzif: bytes)
  }

  /// The zone of the TZif file `bytes`, named `identifier`.
  /// - Throws: ``TimeZoneError`` when the bytes are not a valid TZif file.
  public init(identifier: String, tzif bytes: [UInt8]) throws(TimeZoneError) {
    self.identifier = identifier
    let invalid = TimeZoneError(name: identifier, "not a TZif zone file")
    func integer(at offset: Int, size: Int) throws(TimeZoneError) -> Int64 {
      guard offset >= 0, offset + size <= bytes.count else { throw invalid }
      var value: Int64 = 0
      for byte in bytes[offset..<offset + size] { value = value << 8 | Int64(byte) }
      return size == 4 ? Int64(Int32(truncatingIfNeeded: value)) : value
    }
    func counts(at header: Int) throws(TimeZoneError) -> [Int] {
      guard header + 44 <= bytes.count, bytes[header..<header + 4].elementsEqual("TZif".utf8) else {
        throw invalid
      }
      var counts: [Int] = []
      for k in 0..<6 { counts.append(Int(try integer(at: header + 20 + 4 * k, size: 4))) }
      guard counts.allSatisfy({ $0 >= 0 }), counts[4] > 0 else { throw invalid }
      return counts  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
    }
    func blockSize(_ c: [Int], timeSize: Int) -> Int {
      c[3] * timeSize + c[3] + c[4] * 6 + c[5] + c[2] * (timeSize + 4) + c[1] + c[0]
    }
    var c = try counts(at: 0)
    var start = 44
    var timeSize = 4
    if bytes[4] >= UInt8(ascii: "2") {
      start += blockSize(c, timeSize: 4)
      c = try counts(at: start)
      start += 44
      timeSize = 8
    }
    let (timeCount, typeCount) = (c[3], c[4])
    let typesStart = start + timeCount * timeSize + timeCount
    var typeOffsets: [Int32] = []
    for k in 0..<typeCount {
      let offset = try integer(at: typesStart + 6 * k, size: 4)
      guard abs(offset) < 86_400 else { throw invalid }
      typeOffsets.append(Int32(offset))
    }
    var transitions: [Int64] = []
    var offsetsAfter: [Int32] = []
    for k in 0..<timeCount {
      let time = try integer(at: start + k * timeSize, size: timeSize)
      let type = Int(try integer(at: start + timeCount * timeSize + k, size: 1))
      guard type < typeCount, transitions.last.map({ $0 < time }) ?? true else { throw invalid }
      transitions.append(time)
      offsetsAfter.append(typeOffsets[type])
    }
    self.transitions = transitions
    self.offsetsAfter = offsetsAfter
    initialOffset = typeOffsets[0]
    var footerRule: PosixRule?
    let footerStart = start + blockSize(c, timeSize: timeSize)
    if timeSize == 8, footerStart < bytes.count, bytes[footerStart] == 0x0A,
      let end = bytes[(footerStart + 1)...].firstIndex(of: 0x0A), end > footerStart + 1
    {
      let text = String(decoding: bytes[(footerStart + 1)..<end], as: UTF8.self)
      guard let parsed = PosixRule(text) else { throw invalid }
      footerRule = parsed
    }
    rule = footerRule
  }

  /// The system's zone: `$TZ` when it names a zone, else the zone `/etc/localtime` links to (or its
  /// contents, named `localtime`), else UTC.
  public static var current: TimeZoneRules {
    if let variable = getenv("TZ").map({ String(cString: $0) }), !variable.isEmpty,
      let zone = try? TimeZoneRules(named: variable)
    {
      return zone
    }
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/etc/localtime", &buffer, buffer.count - 1)
    if length > 0 {
      let target = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if let range = target.firstRange(of: "zoneinfo/"),
        let zone = try? TimeZoneRules(named: String(target[range.upperBound...]))
      {
        return zone
      }
    }
    if let bytes = FileSystem.contents(ofRegularFile: "/etc/localtime"),
      let zone = try? TimeZoneRules(identifier: "localtime", tzif: bytes)
    {
      return zone
    }
    return .utc
  }

  /// `$TZDIR` when set, else `/usr/share/zoneinfo`.
  private static var databaseDirectory: String {
    getenv("TZDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
  }

  /// The identifier.
  public var description: String { identifier }

  /// The offset, in seconds east of UTC, in force at `instant` (whole seconds since the epoch).
  public func offset(atSecond instant: Int64) -> Int {
    if let rule, transitions.last.map({ instant >= $0 }) ?? true { return Int(rule.offset(at: instant)) }
    let passed = transitionCount(atOrBefore: instant)
    return Int(passed == 0 ? initialOffset : offsetsAfter[passed - 1])
  }

  /// How many transitions are at or before `instant` (binary search).
  private func transitionCount(atOrBefore instant: Int64) -> Int {
    var low = 0
    var high = transitions.count
    while low < high {
      let middle = (low + high) / 2
      if transitions[middle] <= instant { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The offset, in seconds east of UTC, in force at `instant`.
  public func offset(at instant: Timestamp) -> Int {
    offset(atSecond: floorDivide(instant.nanosecondsSinceEpoch, 1_000_000_000))
  }

  /// The local wall-clock time at `instant`, in ns since 1970-01-01T00:00 local; saturating at the
  /// ends of `Int64` (within a day of `Timestamp.distantPast` and `Timestamp.distantFuture`).
  public func localNanoseconds(at instant: Timestamp) -> Int64 {
    instant.advanced(byNanoseconds: Int64(offset(at: instant)) * 1_000_000_000).nanosecondsSinceEpoch
  }

  /// The instant of the local wall-clock time `local` (ns since 1970-01-01T00:00 local), as
  /// Foundation's `Calendar.date(from:)`: a skipped time is read with the offset before the change,
  /// a repeated time is its first occurrence.
  public func instant(atLocal local: Int64) -> Timestamp {
    let (second, fraction) = Self.split(local)
    return Self.timestamp(second: resolve(localSecond: second, repeatedLatter: false), fraction: fraction)
  }

  /// The instant (seconds) of the local time `local` (seconds): a skipped time read with the offset
  /// before the change; a repeated time's first occurrence, or its second with `repeatedLatter`.
  private func resolve(localSecond local: Int64, repeatedLatter: Bool) -> Int64 {
    // Offset changes within two days of the local time hold every candidate instant.
    let changes = changeInstants(from: local - 2 * 86_400, to: local + 2 * 86_400)
    var before = offset(atSecond: (changes.first ?? local) - 1)
    var segmentStart = Int64.min
    var found: Int64?
    for change in changes + [Int64.max] {
      // The segment [segmentStart, change) has offset `before`.
      let candidate = local - Int64(before)
      if candidate >= segmentStart && candidate < change {
        if !repeatedLatter { return candidate }
        found = candidate
      }
      guard change != Int64.max else { break }
      let after = offset(atSecond: change)
      // A skipped local time: read with the offset before the change.
      if found == nil, local >= change + Int64(before), local < change + Int64(after) { return candidate }
      segmentStart = change
      before = after
    }
    guard let found else { preconditionFailure("no instant for local time \(local) in \(identifier)") }
    return found
  }

  /// The instants in `low...high` (seconds) at which the offset changes, ascending.
  private func changeInstants(from low: Int64, to high: Int64) -> [Int64] {
    var result: [Int64] = []
    var k = transitionCount(atOrBefore: low - 1)
    while k < transitions.count && transitions[k] <= high {
      if offsetsAfter[k] != (k == 0 ? initialOffset : offsetsAfter[k - 1]) { result.append(transitions[k]) }
      k += 1
    }
    if let rule {
      let ruleStart = max(transitions.last.map { $0 + 1 } ?? low, low)
      for change in rule.changes(from: ruleStart, to: high)
      where offset(atSecond: change) != offset(atSecond: change - 1) {
        result.append(change)
      }
    }
    return result
  }

  /// The length (seconds) of the repeated local time holding `second`, when it is in one: the first
  /// offset change in the 48 hours before it turns the clock back and `second` is within the
  /// turned-back amount after it (Foundation's rewind to a repeated time's first occurrence).
  private func repeatedLength(at second: Int64) -> Int64? {
    guard let change = changeInstants(from: second - 48 * 3600 + 1, to: second).first else { return nil }
    let back = Int64(offset(atSecond: change - 1) - offset(atSecond: change + 1))
    return back > 0 && second < change + back ? back : nil
  }

  /// The first instant of the local calendar day holding `instant` (local midnight, or the end of
  /// the skipped time when midnight is skipped), as Foundation's `Calendar.startOfDay(for:)`.
  public func startOfDay(containing instant: Timestamp) -> Timestamp {
    let local = localNanoseconds(at: instant)
    // Local midnight: `local` less the time since it; the first day's midnight, before the earliest
    // instant, saturates to it.
    let (midnight, overflow) = local.subtractingReportingOverflow(floorModulo(local, Self.day))
    return self.instant(atLocal: overflow ? .min : midnight)
  }

  /// `instant` moved by `days` calendar days, keeping the wall-clock time where it can, as
  /// Foundation's Gregorian `Calendar.date(byAdding: .day, …)` (swift-foundation,
  /// `_CalendarGregorian.add`, 2024): the instant `days × 24 h` away; when its wall-clock time
  /// differs, corrected by the change of offset in between, unless the corrected time still differs
  /// after a forward change (a skipped time keeps the uncorrected instant); moving forward into a
  /// repeated time gives its first occurrence.
  public func adding(days: Int, to instant: Timestamp) -> Timestamp {
    guard days != 0 else { return instant }
    let (second, fraction) = Self.split(instant.nanosecondsSinceEpoch)
    let wallTime = wallClockSecond(second)
    var moved = second + Int64(days) * 86_400
    if wallClockSecond(moved) != wallTime {
      let previousOffset = offset(atSecond: second)
      let newOffset = offset(atSecond: moved)
      if newOffset != previousOffset {
        let corrected = moved + Int64(previousOffset - newOffset)
        if wallClockSecond(corrected) == wallTime || previousOffset > newOffset { moved = corrected }
      }
    }
    if days > 0, let repeated = repeatedLength(at: moved) { moved -= repeated }
    return Self.timestamp(second: moved, fraction: fraction)
  }

  /// `instant` moved by `months` calendar months, as Foundation's Gregorian
  /// `Calendar.date(byAdding: .month, …)`: the same day of the month (clamped to the month's last
  /// day) and wall-clock time; a skipped time read with the offset before the change; a repeated
  /// time's first occurrence moving forward, its second moving back.
  public func adding(months: Int, to instant: Timestamp) -> Timestamp {
    guard months != 0 else { return instant }
    let (second, fraction) = Self.split(instant.nanosecondsSinceEpoch)
    let local = second + Int64(offset(atSecond: second))
    let days = floorDivide(local, 86_400)
    let date = Timestamp.civilDate(daysSinceEpoch: days)
    let monthIndex = date.year * 12 + (date.month - 1) + months
    let year = Int(floorDivide(Int64(monthIndex), 12))
    let month = monthIndex - year * 12 + 1
    let day = min(date.day, Timestamp.daysInMonth(year: year, month: month))
    let target =
      Timestamp.daysSinceEpoch(year: year, month: month, day: day) * 86_400 + (local - days * 86_400)
    var result = resolve(localSecond: target, repeatedLatter: true)
    if months > 0, let repeated = repeatedLength(at: result) { result -= repeated }
    return Self.timestamp(second: result, fraction: fraction)
  }

  /// The local time of day at `second`, in seconds since local midnight.
  private func wallClockSecond(_ second: Int64) -> Int64 {
    floorModulo(second + Int64(offset(atSecond: second)), 86_400)
  }

  /// Whole seconds (rounded down) and the nanoseconds past them.
  private static func split(_ nanoseconds: Int64) -> (second: Int64, fraction: Int64) {
    (floorDivide(nanoseconds, 1_000_000_000), floorModulo(nanoseconds, 1_000_000_000))
  }

  /// The instant `second` s and `fraction` ns (0 ≤ `fraction` < 10⁹) after the epoch, saturating at
  /// ``Timestamp/distantPast`` and ``Timestamp/distantFuture``.
  private static func timestamp(second: Int64, fraction: Int64) -> Timestamp {
    let (nanoseconds, overflow) = second.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return second < 0 ? .distantPast : .distantFuture }
    return Timestamp(nanosecondsSinceEpoch: nanoseconds).advanced(byNanoseconds: fraction)
  }
  private static let day: Int64 = 86_400_000_000_000

  /// The seconds east of UTC of `GMT±h`, `GMT±hh:mm`, `GMT±hhmm` (or `UTC…`), nil for anything else.
  private static func fixedOffset(_ name: String) -> Int? {
    guard name.hasPrefix("GMT") || name.hasPrefix("UTC") else { return nil }
    var rest = Substring(name.dropFirst(3))
    guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
    rest = rest.dropFirst()
    let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
    let (hoursText, minutesText): (Substring, Substring) =
      parts.count == 2
      ? (parts[0], parts[1]) : rest.count > 2 ? (rest.dropLast(2), rest.suffix(2)) : (rest, "0")
    guard parts.count <= 2, (1...2).contains(hoursText.count), (1...2).contains(minutesText.count),
      hoursText.allSatisfy(\.isASCII), minutesText.allSatisfy(\.isASCII),
      let hours = Int(hoursText), let minutes = Int(minutesText), hours <= 23, minutes <= 59
    else { return nil }
    return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
  }
}

/// A time zone that cannot be loaded.
public struct TimeZoneError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The zone's name as given and what is wrong: `Nowhere/Else: unknown time zone (…)`.
  public let description: String

  init(name: String, _ problem: String) { description = "\(name): \(problem)" }
}

/// `a` modulo `b` (> 0), in `0..<b`.
private func floorModulo(_ a: Int64, _ b: Int64) -> Int64 {
  let remainder = a % b
  return remainder < 0 ? remainder + b : remainder
}

/// A POSIX `TZ` rule (`CET-1CEST,M3.5.0,M10.5.0/3`): a standard offset and, optionally, a daylight
/// offset with the dates and local times daylight time starts and ends each year.
private struct PosixRule: Sendable, Hashable {
  /// Offsets in seconds east of UTC.
  var standard: Int32
  var daylight: Int32?
  var start = ChangeDate.monthWeekDay(3, 2, 0)
  var startTime: Int64 = 7200
  var end = ChangeDate.monthWeekDay(11, 1, 0)
  var endTime: Int64 = 7200

  enum ChangeDate: Hashable, Sendable {
    /// `Jn`: day 1–365 of the year, February 29 never counted.
    case julian(Int)
    /// `n`: day 0–365 of the year, February 29 counted.
    case zeroBased(Int)
    /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (1–5, 5 the last) of month `m`.
    case monthWeekDay(Int, Int, Int)

    /// The day (since the epoch) of this date in `year`.
    func day(in year: Int) -> Int64 {
      let first = Timestamp.daysSinceEpoch(year: year, month: 1, day: 1)
      switch self {
      case .julian(let n):
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return first + Int64(n - 1) + (leap && n >= 60 ? 1 : 0)
      case .zeroBased(let n):
        return first + Int64(n)
      case .monthWeekDay(let month, let week, let weekday):
        let monthStart = Timestamp.daysSinceEpoch(year: year, month: month, day: 1)
        let firstWeekday = Int(floorModulo(monthStart + 4, 7))  // 1970-01-01 was a Thursday
        var day = 1 + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
        let length = Timestamp.daysInMonth(year: year, month: month)
        while day > length { day -= 7 }
        return monthStart + Int64(day - 1)
      }
    }
  }

  /// Parses `text`; nil when it is not a rule.
  init?(_ text: String) {
    var scanner = RuleScanner(Array(text.utf8))
    guard scanner.skipName(), let standardOffset = scanner.time() else { return nil }
    standard = Int32(-standardOffset)
    if scanner.atEnd { return }
    guard scanner.skipName() else { return nil }
    if let daylightOffset = scanner.time() {
      daylight = Int32(-daylightOffset)
    } else {
      daylight = standard + 3600
    }
    if scanner.atEnd { return }
    guard scanner.take(","), let start = scanner.date() else { return nil }
    self.start = start
    if scanner.take("/") {
      guard let time = scanner.time() else { return nil }
      startTime = time
    }
    guard scanner.take(","), let end = scanner.date() else { return nil }
    self.end = end
    if scanner.take("/") {
      guard let time = scanner.time() else { return nil }
      endTime = time
    }
    guard scanner.atEnd else { return nil }
  }

  /// A switch between standard and daylight time: its instant in seconds and the offset from then on.
  private typealias Change = (instant: Int64, offset: Int32)

  /// The two changes of `year` under a rule with `daylight` time, in order of time.
  private func changes(in year: Int, daylight: Int32) -> (Change, Change) {
    let begins = start.day(in: year) * 86_400 + startTime - Int64(standard)
    let ends = end.day(in: year) * 86_400 + endTime - Int64(daylight)
    // On a tie (all-year daylight time written as a start at the year's end) the start wins.
    let daylightStarts: Change = (begins, daylight)
    let daylightEnds: Change = (ends, standard)
    return begins < ends ? (daylightStarts, daylightEnds) : (daylightEnds, daylightStarts)
  }

  /// The year (proleptic Gregorian, in standard time) holding `instant`.
  private func year(of instant: Int64) -> Int {
    Timestamp.civilDate(daysSinceEpoch: floorDivide(instant + Int64(standard), 86_400)).year
  }

  /// The offset at `instant`.
  func offset(at instant: Int64) -> Int32 {
    guard let daylight else { return standard }
    let year = year(of: instant)
    var offset = standard
    var latest = Int64.min
    func consider(_ change: Change) {
      if change.instant <= instant && change.instant >= latest {
        latest = change.instant
        offset = change.offset
      }
    }
    for y in (year - 1)...(year + 1) {
      let (first, second) = changes(in: y, daylight: daylight)
      consider(first)
      consider(second)
    }
    return offset
  }

  /// The instants in `low...high` at which the rule switches between standard and daylight time.
  func changes(from low: Int64, to high: Int64) -> [Int64] {
    guard let daylight, low <= high else { return [] }
    var result: [Int64] = []
    for y in (year(of: low) - 1)...(year(of: high) + 1) {
      let (first, second) = changes(in: y, daylight: daylight)
      if (low...high).contains(first.instant) { result.append(first.instant) }
      if (low...high).contains(second.instant) { result.append(second.instant) }
    }
    return result.sorted()
  }
}

/// Reads the parts of a POSIX `TZ` rule.
private struct RuleScanner {
  let bytes: [UInt8]
  var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var atEnd: Bool { position == bytes.count }

  mutating func take(_ character: Unicode.Scalar) -> Bool {
    guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
    position += 1
    return true
  }

  /// Skips a zone abbreviation: three or more letters, or `<…>` quoted (`<+03>`).
  mutating func skipName() -> Bool {
    if take("<") {
      guard let close = bytes[position...].firstIndex(of: UInt8(ascii: ">")) else { return false }
      position = close + 1
      return true
    }
    let start = position
    while position < bytes.count, (0x41...0x5A).contains(bytes[position] & 0xDF) { position += 1 }
    return position - start >= 3
  }

  /// `[+-]h[:mm[:ss]]` in seconds (hours up to 167).
  mutating func time() -> Int64? {
    let negative = take("-")
    if !negative { _ = take("+") }
    guard let hours = number(), hours <= 167 else { return nil }
    var seconds = hours * 3600
    if take(":") {
      guard let minutes = number(), minutes < 60 else { return nil }
      seconds += minutes * 60
      if take(":") {
        guard let secs = number(), secs < 60 else { return nil }
        seconds += secs
      }
    }
    return negative ? -seconds : seconds
  }

  /// `Jn`, `n` or `Mm.w.d`.
  mutating func date() -> PosixRule.ChangeDate? {
    if take("J") {
      guard let n = number(), (1...365).contains(n) else { return nil }
      return .julian(Int(n))
    }
    if take("M") {
      guard let month = number(), (1...12).contains(month), take("."), let week = number(),
        (1...5).contains(week),
        take("."), let weekday = number(), weekday <= 6
      else { return nil }
      return .monthWeekDay(Int(month), Int(week), Int(weekday))
    }
    guard let n = number(), n <= 365 else { return nil }
    return .zeroBased(Int(n))
  }

  /// Decimal digits (at most three).
  mutating func number() -> Int64? {
    var value: Int64 = 0
    let start = position
    while position < bytes.count, position - start < 3, (0x30...0x39).contains(bytes[position]) {
      value = value * 10 + Int64(bytes[position] - 0x30)
      position += 1
    }
    return position > start ? value : nil
  }
}
