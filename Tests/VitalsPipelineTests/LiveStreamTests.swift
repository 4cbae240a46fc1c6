import Foundation
import Testing
import VitalsIO

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
    for split in 0...text.count {
      var decoder = StreamDecoder(format: .csv, channelCount: 2)
      var frames: [Float] = []
      try text[..<split].withUnsafeBytes { try decoder.decode($0, into: &frames) }
      try text[split...].withUnsafeBytes { try decoder.decode($0, into: &frames) }
      try decoder.finish(into: &frames)
      #expect(frames == [1.5, 2, -3, 40, 5, 6])
    }
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

  @Test("latency by construction: fed one sample at a time, beats leave within 0.45 s, readings at once")
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
    #expect(delays.allSatisfy { $0 >= 0 && Double($0) <= 0.45 * ecg.rate })
    #expect(readingDelays.count > 25 && readingDelays.allSatisfy { $0 == 0 })
  }

  @Test("event JSON lines: sorted keys, integers without a fraction, NaN as null")
  func eventJSON() {
    let reading = PipelineEvent(
      .heartRate, signal: .ecg, sampleIndex: 500, sampleRate: 250, values: ["bpm": 72.5])
    #expect(
      reading.jsonLine()
        == "{\"bpm\":72.5,\"sample\":500,\"signal\":\"ecg\",\"time_s\":2,\"type\":\"heart_rate\"}")
    let hrv = PipelineEvent(.hrv, signal: .ecg, sampleIndex: 1, sampleRate: 4, values: ["SDNN": .nan])
    #expect(
      hrv.jsonLine() == "{\"SDNN\":null,\"sample\":1,\"signal\":\"ecg\",\"time_s\":0.25,\"type\":\"hrv\"}")
  }
}
