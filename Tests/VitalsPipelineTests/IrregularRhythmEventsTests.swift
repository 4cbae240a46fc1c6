import Testing
import VitalsAnalysis
import VitalsCore
import VitalsStatistics

import VitalsPipeline

@Suite struct IrregularRhythmEventsTests {
  @Test func irregularRhythmEventsFromEpisodes() {
    let recordStart = Timestamp(nanosecondsSinceEpoch: 1_714_525_200_000_000_000)  // 2024-05-01T01:00Z
    let episode = IrregularRhythmEpisode(startSample: 36_000, endSample: 108_000, sampleRate: 360)
    let events = DerivedMetrics.irregularRhythmEvents([episode], recordStart: recordStart)
    #expect(events.count == 1)
    #expect(events[0].type == .irregularHeartRhythmEvent)
    #expect(events[0].start == recordStart.advanced(byNanoseconds: 100_000_000_000))
    #expect(events[0].end == recordStart.advanced(byNanoseconds: 300_000_000_000))
  }
}
