import Foundation
import Testing
import VitalsCore
import VitalsIO

@testable import VitalsStatistics

/// Heartbeat series and electrocardiogram samples in samples files, and their counts per interval.
@Suite struct SeriesSamplesFileTests {
  let series = HeartbeatSeriesSample(
    start: at(60), end: at(120),
    beats: [
      Heartbeat(timeSinceSeriesStart: 0.25, precededByGap: false),
      Heartbeat(timeSinceSeriesStart: 1.0625, precededByGap: false),
      Heartbeat(timeSinceSeriesStart: 3.5, precededByGap: true),
    ], source: "Vitals", device: "rec")
  let ecg = ElectrocardiogramSample(
    classification: "atrialFibrillation", averageHeartRate: 97.5, lead: "Lead I", samplingFrequency: 512,
    numberOfVoltageMeasurements: 15_360, start: at(0), end: at(30), source: "Vitals", metadata: ["k": "v"])

  @Test("the lines of both shapes, as documented")
  func lines() {
    #expect(
      SamplesFile.line(.heartbeatSeries(series), timeZone: utc)
        == #"{"type":"heartbeatSeries","start":"1970-01-01T00:01:00Z","end":"1970-01-01T00:02:00Z","beats":[0.25,1.0625,3.5],"precededByGap":[2],"source":"Vitals","device":"rec"}"#
    )
    #expect(
      SamplesFile.line(.electrocardiogram(ecg), timeZone: utc)
        == #"{"type":"electrocardiogram","start":"1970-01-01T00:00:00Z","end":"1970-01-01T00:00:30Z","classification":"atrialFibrillation","averageHeartRate":97.5,"lead":"Lead I","samplingFrequency":512.0,"numberOfVoltageMeasurements":15360,"source":"Vitals","metadata":{"k":"v"}}"#
    )
  }

  @Test("written samples read back equal, an unknown heart rate as null")
  func roundTrip() throws {
    var unknownRate = ecg
    unknownRate.averageHeartRate = nil
    let samples: [HealthSample] = [
      .heartbeatSeries(series), .electrocardiogram(ecg), .electrocardiogram(unknownRate),
    ]
    let text = samples.map { SamplesFile.line($0, timeZone: newYork) + "\n" }.joined()
    #expect(text.contains(#""averageHeartRate":null"#))
    let reader = SamplesFileReader(bytes: Array(text.utf8), name: "a.samples.jsonl")
    var read: [HealthSample] = []
    while let sample = try reader.next() { read.append(sample) }
    #expect(read == samples)
  }

  @Test(arguments: [
    (#""type":"heartbeatSeries","beats":[0.5,0.25],"precededByGap":[]"#, "increasing beat times"),
    (#""type":"heartbeatSeries","beats":[0.5,61],"precededByGap":[]"#, "within the series' span"),
    (#""type":"heartbeatSeries","beats":[0.5],"precededByGap":[1]"#, "indices into beats"),
    (#""type":"heartbeatSeries","beats":[0.5]"#, "precededByGap"),
    (
      #""type":"electrocardiogram","classification":"sinusRhythm","samplingFrequency":512,"numberOfVoltageMeasurements":3"#,
      "lead"
    ),
    (
      #""type":"electrocardiogram","classification":"sinusRhythm","lead":"I","samplingFrequency":0,"numberOfVoltageMeasurements":3"#,
      "positive"
    ),
  ])
  func badLinesNameTheLine(fields: String, message: String) {
    let line = #"{"start":"1970-01-01T00:00:00Z","end":"1970-01-01T00:01:00Z","# + fields + "}"
    let text = SamplesFile.line(.electrocardiogram(ecg), timeZone: utc) + "\n" + line + "\n"
    let reader = SamplesFileReader(bytes: Array(text.utf8), name: "a.samples.jsonl")
    do {
      while try reader.next() != nil {}
      Issue.record("expected an error")
    } catch {
      #expect(error.location == .line(2) && error.message.contains(message), "\(error)")
    }
  }

  @Test("counts per interval: samples by start, beats, classifications; other kinds left out")
  func counts() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("counts\(UUID()).samples.jsonl")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    var late = series
    (late.start, late.end) = (at(150), at(210))
    var sinus = ecg
    (sinus.classification, sinus.start, sinus.end) = ("sinusRhythm", at(40), at(70))
    let writer = try SamplesFileWriter(path: path)
    for sample: HealthSample in [
      .heartbeatSeries(series), .electrocardiogram(ecg), .heartbeatSeries(late), .electrocardiogram(sinus),
      .category(
        CategorySample(type: .irregularHeartRhythmEvent, start: at(0), end: at(60), source: "Vitals")),
    ] {
      try writer.write(sample)
    }
    try writer.close()
    let minutes = { (span: Range<Timestamp>) in
      IntervalCollection(length: .seconds(60), anchor: at(0), timeZone: utc, covering: span)
    }
    let heartbeats = try SampleCounts(inputs: [path], kind: .heartbeatSeries)
    #expect(heartbeats.span == at(60)..<at(210))
    let perMinute = heartbeats.counts(in: minutes(heartbeats.span!))
    #expect(perMinute.map(\.count) == [1, 1, 0] && perMinute.map(\.beats) == [3, 3, 0])
    #expect(perMinute.map(\.start) == [at(60), at(120), at(180)])
    let ecgs = try SampleCounts(inputs: [path], kind: .electrocardiogram)
    #expect(ecgs.span == at(0)..<at(70))
    let ecgMinutes = ecgs.counts(in: minutes(ecgs.span!))
    #expect(ecgMinutes.map(\.count) == [2, 0])
    #expect(ecgMinutes[0].classifications == ["atrialFibrillation": 1, "sinusRhythm": 1])
    #expect(ecgMinutes.allSatisfy { $0.beats == 0 })
  }
}
