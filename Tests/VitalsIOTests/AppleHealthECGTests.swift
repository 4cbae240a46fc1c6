import Foundation
import Testing
import VitalsCore
import VitalsTestSupport

@testable import VitalsIO

private struct AppleExpectation: Decodable {
  var rate: Double
  var lead: String
  var unit: String
  var classification: String
  var device: String
  var software: String
  var start_ns: Int64
  var values: [Double]
}

@Suite("Apple Health ECG reader")
struct AppleHealthECGTests {
  @Test("header fields, absolute start, samples", arguments: ["ecg_english.csv", "ecg_decimal_comma.csv"])
  func reads(name: String) throws {
    let expected = try TestData.decodeFixture([String: AppleExpectation].self, "io/apple/expected.json")[
      name]!
    let reader = try AppleHealthECGReader(path: ioFixture("apple/" + name))
    #expect(reader.chunkSampleRate == expected.rate)
    #expect(reader.metadata.lead == expected.lead)
    #expect(reader.metadata.unit == expected.unit)
    #expect(reader.metadata.classification == expected.classification)
    #expect(reader.metadata.device == expected.device)
    #expect(reader.metadata.softwareVersion == expected.software)
    #expect(reader.startTime == Timestamp(nanosecondsSinceEpoch: expected.start_ns))
    #expect(reader.signals.map(\.name) == [expected.lead])
    let result = try readAll(reader, maxSamples: 100)
    #expect(maxRelativeError(result.channels[0], expected.values) < 1e-6)
    #expect(result.chunks.map(\.firstSampleIndex) == [0, 100, 200])
  }

  @Test("personal fields are never stored")
  func personalData() throws {
    let reader = try AppleHealthECGReader(path: ioFixture("apple/ecg_english.csv"))
    let dump = String(describing: reader.metadata) + String(describing: reader.signals)
    #expect(!dump.contains("Jane") && !dump.contains("Appleseed") && !dump.contains("1980"))
  }

  @Test("bad files throw InputError")
  func badFiles() throws {
    #expect(inputError { _ = try AppleHealthECGReader(contents: []) }?.message == "empty file")
    let noRate = Array("Name,X\nLead,Lead I\n\n1.0\n".utf8)
    #expect(
      inputError { _ = try AppleHealthECGReader(contents: noRate) }?.message.contains("Sample Rate") == true)
    let badRate = Array("Sample Rate,fast hertz\n1\n".utf8)
    #expect(inputError { _ = try AppleHealthECGReader(contents: badRate) }?.location == .line(1))
    let badSample = Array("Sample Rate,512 hertz\n\n1.5\n2.5\noops\n".utf8)
    let error = inputError { _ = try readAll(AppleHealthECGReader(contents: badSample, name: "ecg.csv")) }
    #expect(error?.location == .line(5))
    #expect(error?.path == "ecg.csv")
  }
}
