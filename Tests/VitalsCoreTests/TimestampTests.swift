import Testing
import VitalsCore

@Suite struct TimestampTests {
  @Test func sampleTimesAreExactForRatesDividingOneBillion() {
    let start = Timestamp(nanosecondsSinceEpoch: 1_600_000_000_000_000_000)
    #expect(start.advanced(bySamples: 360, rate: 360).nanosecondsSinceEpoch == 1_600_000_001_000_000_000)
    #expect(
      start.advanced(bySamples: 1, rate: 250).nanosecondsSinceEpoch - start.nanosecondsSinceEpoch == 4_000_000
    )
    #expect(start.advanced(bySamples: -125, rate: 125) == start.advanced(byNanoseconds: -1_000_000_000))
  }

  @Test func fractionalRatesRoundToTheNearestNanosecond() {
    // 513.625 Hz (an Apple Watch ECG): sample 1 is 1/513.625 s = 1_946_945.728... ns later.
    let t = Timestamp.epoch.advanced(bySamples: 1, rate: 513.625)
    #expect(t.nanosecondsSinceEpoch == 1_946_946)
    #expect(abs(Timestamp.epoch.seconds(to: t) - 1 / 513.625) < 1e-9)
  }

  @Test func chunkEndTimeFollowsItsLastSample() {
    let chunk = SignalChunk(
      channels: [[1, 2, 3, 4], [5, 6, 7, 8]], sampleRate: 4, startTime: .epoch, firstSampleIndex: 8)
    #expect(chunk.sampleCount == 4)
    #expect(chunk.endTime == Timestamp(secondsSinceEpoch: 1))
  }

  @Test func iso8601InUTCWithTheFractionItNeeds() {
    #expect(Timestamp.epoch.iso8601 == "1970-01-01T00:00:00Z")
    #expect(
      Timestamp(nanosecondsSinceEpoch: 1_639_717_138_500_000_000).iso8601 == "2021-12-17T04:58:58.5Z")
    #expect(Timestamp(nanosecondsSinceEpoch: -1).iso8601 == "1969-12-31T23:59:59.999999999Z")
    #expect(Timestamp(secondsSinceEpoch: -86_400 * 365).iso8601 == "1969-01-01T00:00:00Z")
  }

  @Test(arguments: [(1970, 1, 1, 0), (2000, 3, 1, 11_017), (1900, 2, 28, -25_509), (2262, 4, 11, 106_751)])
  func civilDatesRoundTrip(year: Int, month: Int, day: Int, days: Int64) {
    #expect(Timestamp.daysSinceEpoch(year: year, month: month, day: day) == days)
    let date = Timestamp.civilDate(daysSinceEpoch: days)
    #expect(date.year == year && date.month == month && date.day == day)
  }
}
