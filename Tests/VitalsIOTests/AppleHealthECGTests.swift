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
    expectApproximatelyEqual(
      result.channels[0].map(Double.init), expected.values, absoluteTolerance: 1e-6, relativeTolerance: 1e-6)
    #expect(result.chunks.map(\.firstSampleIndex) == [0, 100, 200])
    let samples = try expectReaderChunkInvariant(count: result.channels[0].count) {
      try AppleHealthECGReader(path: ioFixture("apple/" + name))
    }
    #expect(samples.map { $0.bits[0] } == result.channels[0].map(\.bitPattern))
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

@Suite("Apple Health ECG header variants")
struct AppleHealthHeaderVariantTests {
  @Test("fractional rates, quoted values with commas, unknown keys by position")
  func variants() throws {
    let text = """
      Nom,Someone
      Date de naissance,"1 janv. 1970"
      Date d’enregistrement,2023-06-01 10:00:00 -0400
      Classification,"Rythme sinusal, régulier"
      Symptômes,
      Version du logiciel,1.90
      Appareil,"Watch7,4"
      Fréquence d’échantillonnage,512.508 hertz
      Dérivation,Dérivation I
      Unité,µV

      "-12,5"
      7,25
      """
    let reader = try AppleHealthECGReader(contents: Array(text.utf8))
    #expect(reader.chunkSampleRate == 512.508)
    #expect(reader.metadata.classification == "Rythme sinusal, régulier")
    #expect(reader.metadata.device == "Watch7,4")
    #expect(reader.startTime == Timestamp(nanosecondsSinceEpoch: 1_685_628_000_000_000_000))
    let samples = try readAll(reader).channels[0]
    #expect(samples == [-12.5, 7.25])
    let positional = try AppleHealthECGReader(
      contents: Array(
        "Naam,A\nGeboortedatum,B\nOpnamedatum,2020-01-01 00:00:00 +0000\nClassificatie,AF\n\n\nSnelheid,300 hertz\n\n1\n"
          .utf8))
    #expect(positional.metadata.classification == "AF")
    #expect(positional.chunkSampleRate == 300)
    #expect(positional.startTime == Timestamp(nanosecondsSinceEpoch: 1_577_836_800_000_000_000))
  }
}

@Suite("Apple Health ECG reader: inputs found by fuzzing")
struct AppleHealthFuzzRegressionTests {
  /// AppleHealthECGFuzz: a recorded date in the year 9999 overflowed the nanosecond arithmetic.
  @Test("recorded dates outside Timestamp's range are left unread")
  func farFutureDate() throws {
    let text = "Recorded Date,9999-12-31 23:59:59 +0000\nSample Rate,512 hertz\n\n1\n"
    let reader = try AppleHealthECGReader(contents: Array(text.utf8))
    #expect(reader.metadata.recordedDate == nil)
    #expect(reader.metadata.recordedDateText == "9999-12-31 23:59:59 +0000")
    #expect(reader.startTime == nil)
  }
}

/// An ECG export laid out as the Health app writes it (line 3 the recorded date, line 8 the rate).
private func appleECG(recordedDate: String = "2021-12-17 12:58:58 +0800", sampleRate: String = "512 hertz")
  -> [UInt8]
{
  Array(
    """
    Name,Jane Doe
    Date of Birth,"Jan 1, 1980"
    Recorded Date,\(recordedDate)
    Classification,Sinus Rhythm
    Symptoms,
    Software Version,1.90
    Device,"Watch5,1"
    Sample Rate,\(sampleRate)
    Lead,Lead I
    Unit,µV


    12.5
    13

    """.utf8)
}

@Suite("Apple Health ECG reader: header values it cannot read are errors naming their line")
struct AppleHealthHeaderErrorTests {
  @Test(
    "a sample rate that is signed or not a number is recognized as this format and named",
    arguments: [
      "-512 hertz", "\u{2212}512 hertz", "fast",
    ])
  func unreadableSampleRate(rate: String) throws {
    let bytes = appleECG(sampleRate: rate)
    #expect(try RecordingOpener.detectKind(head: bytes, path: "ecg.csv") == .appleHealthECG)
    let error = inputError { _ = try AppleHealthECGReader(contents: bytes, name: "ecg.csv") }
    #expect(error?.path == "ecg.csv")
    #expect(error?.location == .line(8))
    #expect(error?.message == "expected a sample rate like \"512 hertz\", found \"\(rate)\"")
  }

  @Test(
    "a recorded date that cannot be read, or names an impossible date or time, is an error naming line 3",
    arguments: [
      ("yesterday", "expected a recorded date like \"2021-12-17 12:58:58 +0800\", found \"yesterday\""),
      (
        "2021-13-45 99:58:58 +0800",
        "the recorded date \"2021-13-45 99:58:58 +0800\" is not a possible date and time: month 13 is not 01–12"
      ),
      (
        "2021-12-17 12:58:58 +9999",
        "the recorded date \"2021-12-17 12:58:58 +9999\" is not a possible date and time: the zone offset "
          + "99:99 is not less than 24 hours with minutes 00–59"
      ),
      (
        "2023-02-29 12:58:58 +0800",
        "the recorded date \"2023-02-29 12:58:58 +0800\" is not a possible date and time: day 29 is not in "
          + "February 2023, which has 28 days"
      ),
    ])
  func unreadableRecordedDate(date: String, message: String) throws {
    let error = inputError {
      _ = try AppleHealthECGReader(contents: appleECG(recordedDate: date), name: "ecg.csv")
    }
    #expect(error?.path == "ecg.csv")
    #expect(error?.location == .line(3))
    #expect(error?.message == message)
    // The file as written reads, with its start time.
    let reader = try AppleHealthECGReader(contents: appleECG())
    #expect(reader.startTime == Timestamp(nanosecondsSinceEpoch: 1_639_717_138_000_000_000))
  }
}
