import Foundation
import Testing
import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsStatistics
import VitalsTestSupport

import VitalsPipeline

@Suite("heartbeat series and electrocardiogram samples")
struct HeartbeatSeriesTests {
  private static func at(_ seconds: Double) -> Timestamp {
    Timestamp(nanosecondsSinceEpoch: 1_714_525_200_000_000_000 + Int64(seconds * 1e9))
  }

  /// 100 Hz; beats (sample indices) chosen so that each gap rule fires once: 350 lies in the excluded
  /// stretch 320..<400 (left out, so 450 follows a stretch), 580 comes 0.3 s after 550 (kept: the bound
  /// is inclusive), 600 0.2 s after 580, 900 3 s after 600, 1400 2.5 s after 1150; 20 lies before the
  /// first window.
  @Test("beats per window, seconds since its start; gaps after stretches and outside 0.3–2 s intervals")
  func gapsAndSpans() {
    let beats: [Int64] = [20, 50, 150, 250, 350, 450, 550, 580, 600, 900, 1050, 1150, 1400]
    let section = ECGSection(
      channel: "I", sampleRate: 100, samples: 2000, beatCount: beats.count, beats: beats,
      variability: VariabilitySummary(beats: beats, sampleRate: 100), episodes: [], irregularSeconds: 0,
      hrvWindow: nil, excludedStretches: [320..<400])
    let series = section.heartbeatSeries(
      in: [Self.at(0.4)..<Self.at(11), Self.at(11)..<Self.at(20)], recordStart: Self.at(0), source: "Vitals",
      device: "rec")
    #expect(series.count == 2)
    #expect(
      series.map(\.start) == [Self.at(0.4), Self.at(11)] && series.map(\.end) == [Self.at(11), Self.at(20)])
    #expect(series.allSatisfy { $0.source == "Vitals" && $0.device == "rec" })
    let expected: [[(Double, Bool)]] = [
      [
        (0.1, false), (1.1, false), (2.1, false), (4.1, true), (5.1, false), (5.4, false), (5.6, true),
        (8.6, true), (10.1, false),
      ],
      [(0.5, false), (3.0, true)],
    ]
    for (sample, beats) in zip(series, expected) {
      #expect(sample.beats.map(\.precededByGap) == beats.map(\.1))
      #expect(
        sample.beats.count == beats.count
          && zip(sample.beats, beats).allSatisfy { abs($0.timeSinceSeriesStart - $1.0) < 1e-9 })
    }
  }

  @Test("no windows, or windows without beats: empty series over each window")
  func emptyWindows() {
    let section = ECGSection(
      channel: "I", sampleRate: 100, samples: 100, beatCount: 0, beats: [],
      variability: VariabilitySummary(beats: [], sampleRate: 100), episodes: [], irregularSeconds: 0,
      hrvWindow: nil)
    #expect(section.heartbeatSeries(in: [], recordStart: Self.at(0), source: "V", device: nil).isEmpty)
    let one = section.heartbeatSeries(
      in: [Self.at(0)..<Self.at(60)], recordStart: Self.at(0), source: "V", device: nil)
    #expect(one.count == 1 && one[0].beats.isEmpty)
  }

  /// Electrocardiogram samples built from the classification enum, written by `SamplesFileWriter`, read
  /// back, then counted per hour by the `vitals stats` library path (`SampleCounts`, `SampleCountTable`).
  @Test("electrocardiogram samples → samples file → counts per hour and classification")
  func electrocardiogramsRoundTrip() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ecg\(UUID()).samples.jsonl")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recordings: [(ElectrocardiogramClassification, Double?, Double)] = [
      (.sinusRhythm, 62, 10), (.atrialFibrillation, 104.5, 600), (.inconclusivePoorReading, nil, 7300),
      (.sinusRhythm, 71, 7400), (.inconclusiveHighHeartRate, 158, 10_900),
    ]
    let samples = recordings.map { classification, rate, start in
      ElectrocardiogramSample(
        classification: classification, averageHeartRate: rate, lead: "Lead I", samplingFrequency: 512,
        numberOfVoltageMeasurements: 15_360, start: Self.at(start), end: Self.at(start + 30))
    }
    let writer = try SamplesFileWriter(path: path)
    for sample in samples { try writer.write(.electrocardiogram(sample)) }
    try writer.close()

    let reader = try SamplesFileReader(path: path)
    var read: [HealthSample] = []
    while let sample = try reader.next() { read.append(sample) }
    #expect(read == samples.map(HealthSample.electrocardiogram))

    let counts = try SampleCounts(inputs: [path], kind: .electrocardiogram)
    let hours = IntervalCollection(
      length: .seconds(3600), anchor: Self.at(0), timeZone: .utc, covering: try #require(counts.span))
    let table = SampleCountTable(
      kind: .electrocardiogram, intervals: counts.counts(in: hours), timeZone: .utc)
    #expect(
      table.csv() == """
        start,end,count,notSet,sinusRhythm,atrialFibrillation,inconclusiveLowHeartRate,\
        inconclusiveHighHeartRate,inconclusivePoorReading,inconclusiveOther,unrecognized
        2024-05-01T01:00:00Z,2024-05-01T02:00:00Z,2,0,1,1,0,0,0,0,0
        2024-05-01T02:00:00Z,2024-05-01T03:00:00Z,0,0,0,0,0,0,0,0,0
        2024-05-01T03:00:00Z,2024-05-01T04:00:00Z,2,0,1,0,0,0,1,0,0
        2024-05-01T04:00:00Z,2024-05-01T05:00:00Z,1,0,0,0,0,1,0,0,0

        """)
    #expect(table.json().hasPrefix(#"{"intervals":[{"classifications":{"atrialFibrillation":1,"#))
  }

  @Test(
    "vitals info's summary of an Apple Health ECG export holds Apple's classification as HealthKit's case")
  func appleClassification() throws {
    let english = try RecordingOpener.describe(path: TestData.fixture("io/apple/ecg_english.csv").path)
    #expect(english.metadata["classification"] == "Sinus Rhythm")
    #expect(english.metadata["classification_healthkit"] == "sinusRhythm")
    let german = try RecordingOpener.describe(path: TestData.fixture("io/apple/ecg_decimal_comma.csv").path)
    #expect(german.appleClassification == .atrialFibrillation)
    #expect(german.metadata["classification_healthkit"] == "atrialFibrillation")
    let csv = try RecordingOpener.describe(path: TestData.fixture("io/csv/seconds.csv").path)
    #expect(csv.appleClassification == nil && csv.metadata["classification_healthkit"] == nil)
  }
}
