/// Conversions between proleptic Gregorian dates and days since 1970-01-01, for the date fields of
/// WFDB headers, EDF headers and CSV date-times (H. Hinnant, "chrono-compatible low-level date
/// algorithms", 2013: `days_from_civil` and `civil_from_days`).

/// Days from 1970-01-01 to the date `year-month-day` (negative before the epoch).
func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
  let y = Int64(month <= 2 ? year - 1 : year)
  let era = (y >= 0 ? y : y - 399) / 400
  let yearOfEra = y - era * 400
  let m = Int64(month)
  let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
  let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

/// The date `days` after 1970-01-01: the inverse of ``daysFromCivil(year:month:day:)``.
func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
  let z = days + 719_468
  let era = (z >= 0 ? z : z - 146_096) / 146_097
  let dayOfEra = z - era * 146_097
  let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
  let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
  let mp = (5 * dayOfYear + 2) / 153
  let day = dayOfYear - (153 * mp + 2) / 5 + 1
  let month = mp < 10 ? mp + 3 : mp - 9
  return (Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
}
