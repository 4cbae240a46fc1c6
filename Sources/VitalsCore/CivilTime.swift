/// Calendar dates and ISO 8601 text for ``Timestamp``s, in UTC and the proleptic Gregorian calendar
/// (H. Hinnant, "chrono-compatible low-level date algorithms", 2013: `days_from_civil` and
/// `civil_from_days`), as the date fields of WFDB and EDF headers and CSV date-times need them.
extension Timestamp {
  /// The largest magnitude of each argument of ``daysSinceEpoch(year:month:day:)`` and of the
  /// result's year in ``civilDate(daysSinceEpoch:)``: arguments beyond are clamped to it, so that no
  /// value overflows (such dates lie far outside ``Timestamp``'s 1677–2262 anyway).
  static let civilLimit: Int64 = 1_000_000_000

  /// Days from 1970-01-01 to the date `year-month-day` (negative before the epoch): exact for months
  /// 1–12 and days 1–31 (a later day counts on into the next month); each argument is first clamped to
  /// ±10⁹ (`civilLimit`).
  public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
    let limits = -civilLimit...civilLimit
    let year = Int64(clamping: year).clamped(to: limits)
    let m = Int64(clamping: month).clamped(to: limits)
    let y = m <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(clamping: day).clamped(to: limits) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The number of days of `month` (1–12) of `year` in the proleptic Gregorian calendar: 28 to 31,
  /// February 29 days in years divisible by 4 but not by 100, or by 400. Exact for every `year`.
  public static func daysInMonth(year: Int, month: Int) -> Int {
    precondition((1...12).contains(month), "month \(month) is not 1–12")
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// The date `days` after 1970-01-01: the inverse of ``daysSinceEpoch(year:month:day:)``; `days`
  /// is first clamped to ±365 × 10⁹ (about ±10⁹ years, `civilLimit`).
  public static func civilDate(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
    let z = days.clamped(to: -365 * civilLimit...365 * civilLimit) + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
  }

  /// The instant in ISO 8601 form in UTC, `2011-01-01T00:00:00Z`, with as many fractional digits as
  /// the nanoseconds need (none when whole).
  public var iso8601: String {
    let (seconds, fraction) = nanosecondsSinceEpoch.quotientAndRemainder(dividingBy: 1_000_000_000)
    let wholeSeconds = fraction < 0 ? seconds - 1 : seconds
    let nanoseconds = fraction < 0 ? fraction + 1_000_000_000 : fraction
    let (days, secondOfDay) = wholeSeconds.quotientAndRemainder(dividingBy: 86_400)
    let date = Self.civilDate(daysSinceEpoch: secondOfDay < 0 ? days - 1 : days)
    let second = secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay
    func two(_ value: some BinaryInteger) -> String { value < 10 ? "0\(value)" : "\(value)" }
    var text = "\(date.year)-\(two(date.month))-\(two(date.day))T"
    text += "\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
    if nanoseconds > 0 {
      var digits = String(nanoseconds)
      digits = String(repeating: "0", count: 9 - digits.count) + digits
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
    }
    return text + "Z"
  }
}

extension Int64 {
  /// The value of `range` nearest to `self`.
  fileprivate func clamped(to range: ClosedRange<Int64>) -> Int64 {
    Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
  }
}
