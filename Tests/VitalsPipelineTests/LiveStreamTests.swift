import Foundation
import Testing
import VitalsIO
import VitalsTestSupport

@testable import VitalsPipeline

/// `samples` as little-endian Float32 bytes.
func float32Bytes(_ samples: [Float]) -> [UInt8] {
  samples.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
}

@Suite("Live streams")
struct LiveStreamTests {
  @Test("CSV lines split anywhere decode to the same frames; a header is skipped")
  func csvDecoding() throws {
    let text = Array("a,b\n1.5,2\r\n\n-3;4e1\n5 6".utf8)
    let splits = (0...text.count).map { split in
      Chunking(description: "split at \(split)") { [split, $0 - split] }
    }
    let frames = try expectChunkInvariant(count: text.count, chunkings: Chunking.standard + splits) {
      StreamDecoder(format: .csv, channelCount: 2)
    } feed: { decoder, range in
      var frames: [Float] = []
      try text[range].withUnsafeBytes { try decoder.decode($0, into: &frames) }
      return frames
    } finish: { decoder in
      var frames: [Float] = []
      try decoder.finish(into: &frames)
      return frames
    }
    #expect(frames == [1.5, 2, -3, 40, 5, 6])
  }

  /// The frames a stream of `channelCount` channels decodes from `text`.
  private static func streamFrames(_ text: String, channelCount: Int) throws -> [Float] {
    var decoder = StreamDecoder(format: .csv, channelCount: channelCount)
    var frames: [Float] = []
    try Array(text.utf8).withUnsafeBytes { try decoder.decode($0, into: &frames) }
    try decoder.finish(into: &frames)
    return frames
  }

  @Test("CSV fields read as the CSV reader reads them: numbers, NaN words, infinities")
  func csvFieldsAsReader() throws {
    let fields = [
      "1.5", " -2 ", "\"3\"", "4e1", ".5", "-0", "0.1", "3.4028234e38", "1.4e-45",
      "123456789012345678901234", "", "nan", "NA", "n/a", "NULL", "-nan", "inf", "-Infinity", "+INF",
    ]
    // Plain rows first: the CSV reader recognises its layout from the first 64 lines.
    let plain = (0..<70).map { "\($0),\($0 + 1)" }
    let rows = plain + fields.map { "\($0),7" }
    let reader = try CSVSignalReader(
      contents: Array(("a,b\n" + rows.joined(separator: "\n") + "\n").utf8),
      options: CSVOptions(sampleRate: 1))
    var read: [Float] = []
    var csv: any SignalReader = reader
    while let chunk = try csv.nextChunk(maxSamples: 1000) { read += chunk.channels[0] }
    let streamed = try Self.streamFrames("a,b\n" + rows.joined(separator: "\n"), channelCount: 2)
    let column = stride(from: 0, to: streamed.count, by: 2).map { streamed[$0] }
    #expect(column.count == read.count && read.count == rows.count)
    for (s, r) in zip(column, read) {
      #expect(s.bitPattern == r.bitPattern || (s.isNaN && r.isNaN), "\(s) vs \(r)")
    }
    let missing: Int = column.suffix(fields.count).filter { (value: Float) -> Bool in value.isNaN }.count
    #expect(missing == 6)
  }

  @Test(
    "CSV fields the reader refuses hold no sample",
    arguments: [
      "nan(1)", "1.5.2", "12abc", "0x", "1e", "--1", "+-1", "infinit", "0x10", "0x1.8p1", "1e39", "-1e999",
      "3.4028236e38",
    ])
  func csvFieldsRefused(field: String) throws {
    #expect(throws: InputError.self) { try Self.streamFrames("1\n\(field)\n", channelCount: 1) }
    #expect(throws: InputError.self) {
      var reader: any SignalReader = try CSVSignalReader(
        contents: Array("v\n1\n2\n\(field)\n".utf8), options: CSVOptions(sampleRate: 1))
      while try reader.nextChunk(maxSamples: 10) != nil {}
    }
  }

  @Test("CSV lines: an empty field is NaN, a trailing delimiter is ignored, spaces around fields too")
  func csvDelimiters() throws {
    let frames = try Self.streamFrames("a,b,c\n1,,3\n4;5;6;\n7\t 8 \t9\n", channelCount: 3)
    #expect(frames.count == 9 && frames[1].isNaN)
    #expect(frames.enumerated().filter { $0.offset != 1 }.map(\.element) == [1, 3, 4, 5, 6, 7, 8, 9])
  }

  @Test("a bad CSV line after the data started names its line")
  func csvError() {
    var decoder = StreamDecoder(format: .csv, channelCount: 1)
    var frames: [Float] = []
    #expect(throws: InputError(path: "-", location: .line(3), "expected 1 numbers, found \"x\"")) {
      try Array("ecg\n1\nx\n".utf8).withUnsafeBytes { try decoder.decode($0, into: &frames) }
    }
  }

  @Test("binary frames: f32 and i16, little-endian, split anywhere; a cut frame throws at the end")
  func binaryDecoding() throws {
    let f32 = float32Bytes([1.25, -2, 3, 4])
    var decoder = StreamDecoder(format: .f32, channelCount: 2)
    var frames: [Float] = []
    try f32[..<5].withUnsafeBytes { try decoder.decode($0, into: &frames) }
    #expect(frames.isEmpty)
    try f32[5...].withUnsafeBytes { try decoder.decode($0, into: &frames) }
    #expect(frames == [1.25, -2, 3, 4])
    var i16 = StreamDecoder(format: .i16, channelCount: 1)
    frames = []
    try ([0x01, 0x00, 0xFF, 0xFF, 0x10] as [UInt8]).withUnsafeBytes { try i16.decode($0, into: &frames) }
    #expect(frames == [1, -1])
    #expect(throws: InputError.self) { try i16.finish(into: &frames) }
  }

  /// A live analysis and the events it has emitted.
  private struct LiveRun: ~Copyable {
    var analysis: LiveAnalysis
    var events: [PipelineEvent] = []
  }

  @Test("live analysis: the same events and sections whatever the bytes' chunks (f32 and CSV)")
  func liveChunkInvariance() throws {
    let ecg = SimulatedECG(seconds: 30)
    for format in [StreamSampleFormat.f32, .csv] {
      let bytes =
        format == .f32 ? float32Bytes(ecg.samples) : Array(ecg.samples.map { "\($0)\n" }.joined().utf8)
      let reports = try expectChunkInvariant(count: bytes.count, "\(format)") {
        LiveRun(
          analysis: try LiveAnalysis(
            signal: .ecg, sampleRate: ecg.rate, format: format, channelCount: 1, channels: [0]))
      } feed: { run, range in
        var emitted: [PipelineEvent] = []
        try bytes[range].withUnsafeBytes { raw in try run.analysis.consume(raw) { emitted.append($0) } }
        run.events += emitted
        return [PipelineReport<PipelineEvent>]()
      } finish: { run in
        var emitted: [PipelineEvent] = []
        let sections = try run.analysis.finish { emitted.append($0) }
        var reports: [PipelineReport<PipelineEvent>] = [.events(groupedByKind(run.events + emitted))]
        for (_, section) in sections { reports.append(try .section(of: section)) }
        return reports
      }
      let events = try #require(reports.first?.events)
      #expect(events.filter { $0.kind == .beat }.count > 30, "\(format)")
    }
  }

  @Test("latency by construction: fed one sample at a time, beats leave within 0.49 s, readings at once")
  func latency() throws {
    let ecg = SimulatedECG(seconds: 30)
    var analysis = try LiveAnalysis(
      signal: .ecg, sampleRate: ecg.rate, format: .f32, channelCount: 1, channels: [0])
    var delays: [Int64] = []
    var readingDelays: [Int64] = []
    let bytes = float32Bytes(ecg.samples)
    for index in ecg.samples.indices {
      try bytes[(4 * index)..<(4 * index + 4)].withUnsafeBytes { raw in
        try analysis.consume(raw) { event in
          switch event.kind {
          case .beat: delays.append(Int64(index) - event.sampleIndex)
          case .heartRate: readingDelays.append(Int64(index) - event.sampleIndex)
          default: break
          }
        }
      }
    }
    #expect(delays.count > 30)
    #expect(delays.allSatisfy { $0 >= 0 && Double($0) <= 0.49 * ecg.rate })
    #expect(readingDelays.count > 25 && readingDelays.allSatisfy { $0 == 0 })
  }

  @Test("event JSON lines: sorted keys, integers without a fraction, NaN as null")
  func eventJSON() {
    let reading = PipelineEvent(
      .heartRate(bpm: 72.5, quality: nil), signal: .ecg, sampleIndex: 500, sampleRate: 250)
    #expect(
      reading.jsonLine()
        == "{\"bpm\":72.5,\"sample\":500,\"signal\":\"ecg\",\"time_s\":2,\"type\":\"heart_rate\"}")
    let hrv = PipelineEvent(
      .hrv(sdnn: .nan, rmssd: 30.5, meanNN: 800, meanHR: 75, window: 300), signal: .ecg, sampleIndex: 1,
      sampleRate: 4)
    #expect(
      hrv.jsonLine()
        == "{\"MeanHR\":75,\"MeanNN\":800,\"RMSSD\":30.5,\"SDNN\":null,\"sample\":1,\"signal\":\"ecg\",\"time_s\":0.25,\"type\":\"hrv\",\"window_s\":300}"
    )
  }

  @Test(
    "each kind's typed values are written under their keys",
    arguments: [
      (
        PipelineEvent.Value.heartRate(bpm: 61.5, quality: .init(score: 0.75, isReliable: false)),
        SignalKind.ppg,
        "{\"bpm\":61.5,\"quality\":0.75,\"reliable\":0,\"sample\":100,\"signal\":\"ppg\",\"time_s\":2,\"type\":\"heart_rate\"}"
      ),
      (
        .irregularRhythmEnd(duration: 90.5), .ecg,
        "{\"duration_s\":90.5,\"sample\":100,\"signal\":\"ecg\",\"time_s\":2,\"type\":\"irregular_rhythm_end\"}"
      ),
      (
        .walkingBout(steps: 12, duration: 5.5, cadence: 130.5), .accelerometer,
        "{\"cadence_spm\":130.5,\"duration_s\":5.5,\"sample\":100,\"signal\":\"accelerometer\",\"steps\":12,\"time_s\":2,\"type\":\"walking_bout\"}"
      ),
      (
        .motion(level: 0.25, window: 10), .accelerometer,
        "{\"g\":0.25,\"sample\":100,\"signal\":\"accelerometer\",\"time_s\":2,\"type\":\"motion\",\"window_s\":10}"
      ),
      (.step, .accelerometer, "{\"sample\":100,\"signal\":\"accelerometer\",\"time_s\":2,\"type\":\"step\"}"),
    ])
  func eventValueKeys(value: PipelineEvent.Value, signal: SignalKind, line: String) {
    #expect(PipelineEvent(value, signal: signal, sampleIndex: 100, sampleRate: 50).jsonLine() == line)
  }
}
