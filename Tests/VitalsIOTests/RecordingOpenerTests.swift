import Foundation
import Testing
import VitalsCore
import VitalsTestSupport

@testable import VitalsIO

@Suite("Format detection and opening")
struct RecordingOpenerTests {
  @Test(
    "kinds are recognised from content",
    arguments: [
      ("edf/plain.edf", RecordingOpener.Kind.edf), ("edf/discontinuous.edf", .edf), ("csv/seconds.csv", .csv),
      ("csv/tab-crlf.tsv", .csv), ("apple/ecg_english.csv", .appleHealthECG),
      ("apple/ecg_decimal_comma.csv", .appleHealthECG),
    ])
  func kinds(file: String, kind: RecordingOpener.Kind) throws {
    #expect(try RecordingOpener.detectKind(path: ioFixture(file)) == kind)
  }

  @Test("unknown, empty and missing inputs")
  func failures() {
    #expect(
      inputError { _ = try RecordingOpener.detectKind(head: [0x00, 0x01, 0xFF, 0x10], path: "b.bin") }?
        .message.hasPrefix("unknown format") == true)
    #expect(inputError { _ = try RecordingOpener.detectKind(head: [], path: "e") }?.message == "empty file")
    #expect(
      inputError { _ = try RecordingOpener.detectKind(path: "/nonexistent/x.edf") }?.message.hasPrefix(
        "cannot open") == true)
  }

  @Test("open applies channel and CSV options")
  func open() throws {
    var edf = try RecordingOpener.open(
      path: ioFixture("edf/mixed.edf"), options: RecordingOptions(channels: [.name("Pleth")]))
    #expect(edf.formatName == "EDF+C")
    #expect(edf.chunkSampleRate == 100)
    #expect(try edf.nextChunk(maxSamples: 10)?.sampleCount == 10)
    let csv = try RecordingOpener.open(
      path: ioFixture("csv/single.csv"), options: RecordingOptions(csv: CSVOptions(sampleRate: 360)))
    #expect(csv.chunkSampleRate == 360)
    #expect(
      inputError {
        _ = try RecordingOpener.open(
          path: ioFixture("apple/ecg_english.csv"), options: RecordingOptions(channels: [.index(3)]))
      } != nil)
  }

  @Test("summaries count samples and annotations")
  func summary() throws {
    let edf = try RecordingOpener.summarize(path: ioFixture("edf/mixed.edf"))
    #expect(edf.signals.map(\.sampleRate) == [200, 200, 100])
    #expect(edf.annotationCount == 4)
    #expect(edf.gapCount == 0)
    let d = try RecordingOpener.summarize(path: ioFixture("edf/discontinuous.edf"))
    #expect(d.gapCount == 1)
    let apple = try RecordingOpener.summarize(path: ioFixture("apple/ecg_english.csv"))
    #expect(apple.signals[0].sampleCount == 300)
    #expect(apple.metadata["classification"] == "Sinus Rhythm")
  }
}
