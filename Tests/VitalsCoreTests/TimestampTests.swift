import Testing
import VitalsCore

@Suite struct TimestampTests {
  @Test func sampleTimesAreExactForRatesDividingOneBillion() {
    let start = Timestamp(nanosecondsSinceEpoch: 1_600_000_000_000_000_000)
    #expect(start.advanced(bySamples: 360, rate: 360).nanosecondsSinceEpoch == 1_600_000_001_000_000_000)
    #expect(start.advanced(bySamples: 1, rate: 250).nanosecondsSinceEpoch - start.nanosecondsSinceEpoch == 4_000_000)
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
}
