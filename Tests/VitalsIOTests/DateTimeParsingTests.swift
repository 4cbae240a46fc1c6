import Testing
import VitalsCore

@testable import VitalsIO

/// `readDateTime` of `text`.
private func read(_ text: String) -> Result<Int64, DateTimeRefusal> {
  Array(text.utf8).withUnsafeBufferPointer { readDateTime($0) }
}

@Suite("Date-times: every field checked, impossible dates refused, never moved")
struct DateTimeParsingTests {
  @Test(
    "possible dates and times read as the instant they name",
    arguments: [
      ("2024-02-29 12:00:00", "2024-02-29T12:00:00Z"),
      ("2000-02-29T00:00Z", "2000-02-29T00:00:00Z"),
      ("2023-02-28 23:59:59.99", "2023-02-28T23:59:59.99Z"),
      ("2024-04-30 08:15:02 -0500", "2024-04-30T13:15:02Z"),
      ("2024-12-31T23:59:59,5+01:00", "2024-12-31T22:59:59.5Z"),
      ("\"2024-03-10\"", "2024-03-10T00:00:00Z"),
      // 24:00 is the end of the day: the next day's midnight.
      ("2024-02-29 24:00", "2024-03-01T00:00:00Z"),
      ("2023-12-31T24:00:00.000Z", "2024-01-01T00:00:00Z"),
      ("2024-03-10 24:00:00 -0500", "2024-03-11T05:00:00Z"),
    ])
  func possible(text: String, iso: String) throws {
    let nanoseconds = try read(text).get()
    #expect(Timestamp(nanosecondsSinceEpoch: nanoseconds).iso8601 == iso)
    #expect(Timestamp(dateTime: text)?.iso8601 == iso)
  }

  @Test(
    "impossible dates and times are refused, saying which field and why",
    arguments: [
      (
        "2023-02-29 00:00:00.00", DateTimeRefusal.day(year: 2023, month: 2, day: 29),
        "day 29 is not in February 2023, which has 28 days"
      ),
      (
        "2024-02-30 10:00:00 -0500", .day(year: 2024, month: 2, day: 30),
        "day 30 is not in February 2024, which has 29 days"
      ),
      (
        "1900-02-29", .day(year: 1900, month: 2, day: 29), "day 29 is not in February 1900, which has 28 days"
      ),
      (
        "2024-04-31T00:00Z", .day(year: 2024, month: 4, day: 31),
        "day 31 is not in April 2024, which has 30 days"
      ),
      ("2024-01-00", .day(year: 2024, month: 1, day: 0), "day 00 is not in January 2024, which has 31 days"),
      ("2024-13-01", .month(13), "month 13 is not 01–12"),
      ("2024-00-10", .month(0), "month 00 is not 01–12"),
      ("2024-03-10 25:00:00", .hour(25), "hour 25 is not 00–23 (24 only in 24:00:00, the end of a day)"),
      ("2024-03-10 24:00:01", .hour(24), "hour 24 is not 00–23 (24 only in 24:00:00, the end of a day)"),
      ("2024-03-10 24:00:00.5", .hour(24), "hour 24 is not 00–23 (24 only in 24:00:00, the end of a day)"),
      ("2024-03-10 12:75:00", .minute(75), "minute 75 is not 00–59"),
      ("2024-03-10 12:00:61", .second(61), "second 61 is not 00–59"),
      (
        "2016-12-31T23:59:60Z", .second(60),
        "second 60 is a leap second, which Unix time (and so Vitals) does not count"
      ),
      (
        "2024-03-10 12:00:00 +2400", .offset(hours: 24, minutes: 0),
        "the zone offset 24:00 is not less than 24 hours with minutes 00–59"
      ),
      (
        "2024-03-10 12:00:00 +05:60", .offset(hours: 5, minutes: 60),
        "the zone offset 05:60 is not less than 24 hours with minutes 00–59"
      ),
      (
        "9999-12-31 23:59:59 +0000", .year(9999),
        "the year 9999 is outside 1678–2261, the years Vitals can hold"
      ),
    ])
  func impossible(text: String, refusal: DateTimeRefusal, description: String) {
    #expect(read(text) == .failure(refusal))
    #expect(refusal.description == description)
    #expect(Timestamp(dateTime: text) == nil)
  }

  @Test(
    "text not of the form is malformed",
    arguments: [
      "yesterday", "2024-3-10", "2024-03-10 12", "2024-03-10 12:00:00.", "2024-03-10 12:00 +05:x", "",
    ])
  func malformed(text: String) {
    #expect(read(text) == .failure(.malformed))
  }

  @Test("days per month follow the Gregorian leap-year rule")
  func daysInMonth() {
    #expect(
      (1...12).map { Timestamp.daysInMonth(year: 2023, month: $0) } == [
        31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
      ])
    #expect([1900, 2000, 2024, 2100].map { Timestamp.daysInMonth(year: $0, month: 2) } == [28, 29, 29, 28])
  }

  @Test("a CSV time stamp on an impossible date is an error naming the line and column, not another day")
  func csvImpossibleStamp() {
    var text = "time,ecg\n"
    for k in 0..<100 { text += "2023-02-28 23:59:59.\(k < 10 ? "0" : "")\(k),\(k)\n" }
    text += "2023-02-29 00:00:00.00,100\n"
    let error = inputError {
      _ = try readAll(CSVSignalReader(contents: Array(text.utf8), name: "feb29.csv"))
    }
    #expect(error?.path == "feb29.csv")
    #expect(error?.location == .field(line: 102, column: 1))
    #expect(error?.message.contains("2023-02-29 00:00:00.00") == true)
  }
}
