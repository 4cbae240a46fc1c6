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

  @Test("sample times beyond the representable range saturate instead of trapping")
  func sampleTimesSaturate() {
    // 20 000 samples at 1e-6 Hz are 2·10¹⁰ s: past 2262.
    #expect(Timestamp.epoch.advanced(bySamples: 20_000, rate: 1e-6) == .distantFuture)
    #expect(Timestamp.epoch.advanced(bySamples: -20_000, rate: 1e-6) == .distantPast)
    #expect(Timestamp.epoch.advanced(bySamples: .max, rate: 1e-300) == .distantFuture)
    #expect(Timestamp.epoch.advanced(bySamples: .min, rate: 1e-300) == .distantPast)
    #expect(Timestamp.distantFuture.advanced(bySamples: .max, rate: 1e6) == .distantFuture)
    #expect(Timestamp.distantPast.advanced(bySamples: .min, rate: 1e6) == .distantPast)
    // Inside the range, still exact.
    #expect(Timestamp.distantPast.advanced(bySamples: 1, rate: 1e9).nanosecondsSinceEpoch == Int64.min + 1)
    let chunk = SignalChunk(channels: [[0, 0]], sampleRate: 1e-10, startTime: .epoch, firstSampleIndex: 0)
    #expect(chunk.endTime == .distantFuture)
  }

  @Test("nanosecond offsets saturate at the ends of the range")
  func nanosecondOffsetsSaturate() {
    #expect(Timestamp.distantFuture.advanced(byNanoseconds: 1) == .distantFuture)
    #expect(Timestamp.distantPast.advanced(byNanoseconds: -1) == .distantPast)
    #expect(Timestamp(nanosecondsSinceEpoch: 1).advanced(byNanoseconds: .max) == .distantFuture)
    #expect(Timestamp(nanosecondsSinceEpoch: -2).advanced(byNanoseconds: .min) == .distantPast)
    #expect(Timestamp.distantFuture.advanced(byNanoseconds: .min).nanosecondsSinceEpoch == -1)
  }

  @Test("seconds between any two instants, without overflow")
  func secondsBetweenExtremes() {
    let span = Timestamp.distantPast.seconds(to: .distantFuture)
    #expect(abs(span - 18_446_744_073.709_552) < 1e-3)
    #expect(Timestamp.distantFuture.seconds(to: .distantPast) == -span)
    #expect(Timestamp.epoch.seconds(to: Timestamp(nanosecondsSinceEpoch: 1)) == 1e-9)
  }

  @Test("seconds since the epoch saturate: the infinities and values past Int64 nanoseconds")
  func secondsSaturate() {
    #expect(Timestamp(secondsSinceEpoch: .infinity) == .distantFuture)
    #expect(Timestamp(secondsSinceEpoch: -.infinity) == .distantPast)
    #expect(Timestamp(secondsSinceEpoch: 1e300) == .distantFuture)
    #expect(Timestamp(secondsSinceEpoch: -1e300) == .distantPast)
    #expect(Timestamp(secondsSinceEpoch: 9_223_372_036.854_776) == .distantFuture)
    #expect(Timestamp(secondsSinceEpoch: -9_223_372_036.854_775_808) == .distantPast)
    #expect(Timestamp(secondsSinceEpoch: 1.5).nanosecondsSinceEpoch == 1_500_000_000)
  }

  @Test("saturating Int64 conversion at the bounds")
  func saturatingIntegers() {
    #expect(Int64(saturating: 0x1p63) == .max)
    #expect(Int64(saturating: -0x1p63) == .min)
    #expect(Int64(saturating: (-0x1p63).nextDown) == .min)
    #expect(Int64(saturating: (0x1p63).nextDown) == 9_223_372_036_854_774_784)
    #expect(Int64(saturating: .infinity) == .max)
    #expect(Int64(saturating: -.infinity) == .min)
    #expect(Int64(saturating: 2.5) == 3)
    #expect(Int64(saturating: -2.5) == -3)
  }

  @Test("calendar arithmetic on absurd dates and day counts neither overflows nor traps")
  func civilArithmeticIsBounded() {
    let farFuture = Timestamp.daysSinceEpoch(year: .max, month: .max, day: .max)
    let farPast = Timestamp.daysSinceEpoch(year: .min, month: .min, day: .min)
    #expect(farFuture > 365 * 999_999_999)
    #expect(farPast < -365 * 999_999_999)
    #expect(Timestamp.civilDate(daysSinceEpoch: .max).year > 999_000_000)
    #expect(Timestamp.civilDate(daysSinceEpoch: .min).year < -999_000_000)
    #expect(Timestamp.distantFuture.iso8601 == "2262-04-11T23:47:16.854775807Z")
    #expect(Timestamp.distantPast.iso8601 == "1677-09-21T00:12:43.145224192Z")
  }
}
