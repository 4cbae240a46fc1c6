import Foundation
import Testing
import VitalsCore
import VitalsIO
import VitalsTestSupport

@Suite("WFDB header")
struct WFDBHeaderTests {
  @Test("the full record- and signal-line grammar, CRLF and comments")
  func grammar() throws {
    let text =
      "# leading comment\r\nrec 3 360/720(17.5) 1000 12:30:05.25 31/12/1999\r\n"
      + "rec.dat 212x4:2+16 400(-12)/mV 12 5 7 -123 512 lead II, distal\r\n\r\n"
      + "rec.dat 212 0(3)/mmHg\r\n"
      + "other.dat 61\r\n# 69 M\r\n"
    let header = try WFDBHeader.parse(Array(text.utf8), path: "rec.hea")
    #expect(header.recordName == "rec")
    #expect(header.frameRate == 360)
    #expect(header.counterFrequency == 720)
    #expect(header.baseCounter == 17.5)
    #expect(header.frameCount == 1000)
    #expect(header.baseTimeOfDay == 45_005.25)
    #expect(header.baseDate?.year == 1999 && header.baseDate?.month == 12 && header.baseDate?.day == 31)
    #expect(header.startTime == Timestamp(secondsSinceEpoch: 946_643_405.25))
    #expect(header.comments == [" leading comment", " 69 M"])
    let first = header.signals[0]
    #expect(
      first.format == .packed212 && first.samplesPerFrame == 4 && first.skew == 2 && first.byteOffset == 16)
    #expect(first.gain == 400 && first.baseline == -12 && first.units == "mV")
    #expect(first.adcResolution == 12 && first.adcZero == 5 && first.initialValue == 7)
    #expect(first.checksum == -123 && first.blockSize == 512 && first.description == "lead II, distal")
    let second = header.signals[1]
    #expect(second.gain == 200 && second.baseline == 3 && second.units == "mmHg")  // gain 0 means 200
    #expect(second.description == "record rec, signal 1")
    let third = header.signals[2]
    #expect(
      third.format == .int16BigEndian && third.gain == 200 && third.baseline == 0 && third.units == "mV")
    #expect(third.checksum == nil && third.initialValue == 0)
  }

  @Test("multi-segment headers list their segments")
  func multiSegment() throws {
    let header = try WFDBHeader.parse(
      Array("big/3 2 125 30\r\nbig_layout 0\r\n~ 10\r\nbig_0001 20\r\n".utf8), path: "big.hea")
    #expect(header.recordName == "big" && header.signalCount == 2 && header.signals.isEmpty)
    #expect(header.segments.map(\.name) == ["big_layout", "~", "big_0001"])
    #expect(header.segments.map(\.frameCount) == [0, 10, 20])
    #expect(header.segments[1].isNull && !header.segments[2].isNull)
    #expect(header.recordLineNumber == 1 && header.segmentLineNumbers == [2, 3, 4])
  }

  @Test("the lines of the record line and of each signal line are kept for errors")
  func lineNumbers() throws {
    let header = try WFDBHeader.parse(
      Array("# a\n\nr 2 360\n# b\nr.dat 16\n\nr.dat 16\n".utf8), path: "r.hea")
    #expect(header.recordLineNumber == 3 && header.signalLineNumbers == [5, 7])
  }

  @Test("defaults: no frequency means 250 Hz, no length means unknown, no date means the epoch")
  func defaults() throws {
    let header = try WFDBHeader.parse(Array("r 0\n".utf8), path: "r.hea")
    #expect(header.frameRate == 250 && header.counterFrequency == 250 && header.frameCount == nil)
    #expect(header.signals.isEmpty && header.startTime == .epoch)
  }

  static let malformed: [(text: String, line: Int?, message: String)] = [
    ("", nil, "empty header"),
    ("# only a comment\n", nil, "no record line"),
    ("r x 360\n", 1, "number of signals"),
    ("r 1 fast\n", 1, "sampling frequency"),
    ("r 1 360/0\n", 1, "counter frequency"),
    ("r 1 360(x)\n", 1, "base counter"),
    ("r 1 360 -5\n", 1, "number of samples"),
    ("r 1 360 10 25:99\n", 1, "base time"),
    ("r 1 360 10 10:00:00 32/01/2000\n", 1, "base date"),
    ("r 1 360 10 10:00:00 31/02/2000\n", 1, "base date"),
    ("r 1 360 10 2014-13-01 10:00:00\n", 1, "base date"),
    ("r 1 360 10 10:00:00 01/01/2000 02/02/2000\n", 1, "one base date"),
    ("r 1 360 10 10:00:00 10:00:00\n", 1, "base date"),
    ("r 1 360 10 10:00:00 01/01/2000 x\n", 1, "base date"),
    ("r 1 360 10.5\n", 1, "number of samples"),
    // Found by WFDBHeaderFuzz: a year outside Timestamp's range trapped in `startTime`.
    ("r 1 360 10 10:20:30.5 02/02/1010\n", 1, "between the years 1678 and 2261"),
    ("r/x 2 360\n", 1, "number of segments"),
    ("r/2 2 360\nseg 10\n", 2, "declares 2 segments but 1"),
    ("r/1 1 360\nseg ten\n", 2, "segment line"),
    ("r 2 360\nr.dat 16\n", 2, "declares 2 signals but 1"),
    // More lines than declared: the first line beyond them (it was ignored, and 2 interleaved signals read
    // as 1).
    (
      "r 1 360\nr.dat 212 200 11 1024 0 0 0 MLII\nr.dat 212 200 11 1024 0 0 0 V1\n", 3,
      "declares 1 signals but 2"
    ),
    ("# comment\nr 0 360\nr.dat 16\n", 3, "declares 0 signals but 1"),
    ("r/1 1 360\nseg 10\nseg 5\n", 3, "declares 1 segments but 2"),
    // A multi-segment record line's length must be its segments' sum (it was ignored).
    (
      "m/2 2 360 9999\nseg1 1200\nseg2 1200\n", 1,
      "declares 9999 samples per signal but its segments hold 2400"
    ),
    ("# comment\nm/2 2 360 100\nseg1 1200\nseg2 1200\n", 2, "its segments hold 2400"),
    ("r 1 360\nr.dat\n", 2, "storage format"),
    ("r 1 360\nr.dat abc\n", 2, "numeric storage format"),
    ("r 1 360\nr.dat 516\n", 2, "FLAC"),
    ("r 1 360\nr.dat 999\n", 2, "unknown storage format 999"),
    ("r 1 360\nr.dat 16x0\n", 2, "samples per frame"),
    ("r 1 360\nr.dat 16:-1\n", 2, "skew"),
    ("r 1 360\nr.dat 16+x\n", 2, "byte offset"),
    ("r 1 360\nr.dat 16+9223372036854775807\n", 2, "byte offset from 0 to 2^48"),
    ("r 1 360\n\nr.dat 16 nan\n", 3, "gain"),
    ("r 1 360\nr.dat 16 200(1.5)\n", 2, "baseline"),
    ("r 1 360\nr.dat 16 200 12 zero\n", 2, "ADC zero"),
    ("r 1 360\nr.dat 16 200 64 0\n", 2, "ADC resolution in bits, 0 (unknown) to 32, found 64"),
    ("r 1 360\nr.dat 16 200 -12 0\n", 2, "found -12"),
    ("r 1 360\nr.dat 16 200 12 0 0 sum\n", 2, "checksum"),
  ]

  @Test("malformed fields throw InputError with the line and what was expected", arguments: malformed)
  func malformedFields(_ example: (text: String, line: Int?, message: String)) throws {
    let error = try #require(throws: InputError.self) {
      _ = try WFDBHeader.parse(Array(example.text.utf8), path: "r.hea")
    }
    #expect(error.path == "r.hea")
    #expect(error.location == (example.line.map { .line($0) } ?? .file))
    #expect(error.message.contains(example.message), "\(error)")
  }

  /// Record lines whose start other tools write in other forms: the start they give (UTC) and the
  /// words every note must contain (no notes when the form is `header(5)`'s).
  static let startLines: [(line: String, start: String, frameCount: Int64?, notes: [String])] = [
    ("r 0 300 9000 05:05:15 08/05/2014", "2014-05-08T05:05:15Z", 9000, []),
    (
      "r 0 300 9000 2014-05-08 05:05:15", "2014-05-08T05:05:15Z", 9000,
      ["the date before the time, an ISO 8601 date"]
    ),
    ("r 0 300 9000 05:05:15 2014-05-08", "2014-05-08T05:05:15Z", 9000, ["ISO 8601"]),
    ("r 0 300 9000 2014-05-08T05:05:15", "2014-05-08T05:05:15Z", 9000, ["ISO 8601"]),
    ("r 0 300 9000 2014-05-08T05:05:15.125Z", "2014-05-08T05:05:15.125Z", 9000, ["ISO 8601"]),
    ("r 0 300 9000 05:05:15.5 08/05/2014", "2014-05-08T05:05:15.5Z", 9000, []),
    ("r 0 300 9000 08/05/2014", "2014-05-08T00:00:00Z", 9000, ["no time (the record starts at midnight)"]),
    (
      "r 0 300 9000 05:05:15 05/28/2014", "2014-05-28T05:05:15Z", 9000,
      ["the date as MM/DD/YYYY (28 cannot be a month)"]
    ),
    ("r 0 300 05:05:15 08/05/2014", "2014-05-08T05:05:15Z", nil, ["no sample count"]),
    ("r\t0\t300\t9000\t05:05:15\t08/05/2014 \t", "2014-05-08T05:05:15Z", 9000, []),
    ("r 0 300 9000 29/02/2016", "2016-02-29T00:00:00Z", 9000, ["no time (the record starts at midnight)"]),
  ]

  @Test(
    "start times as other tools write them are read, with a note of what was assumed", arguments: startLines)
  func startForms(_ example: (line: String, start: String, frameCount: Int64?, notes: [String])) throws {
    for ending in ["\n", "\r\n"] {
      let header = try WFDBHeader.parse(Array((example.line + ending).utf8), path: "r.hea")
      #expect(header.startTime.iso8601 == example.start, "\(example.line)")
      #expect(header.frameCount == example.frameCount && header.frameRate == 300)
      #expect(header.notes.count == example.notes.count, "\(header.notes)")
      for words in example.notes { #expect(header.notes.contains { $0.contains(words) }, "\(header.notes)") }
    }
  }

  @Test(
    "every CinC 2017 header (ISO date, CRLF, trailing blank) opens with the start its record line states",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func cinc2017() throws {
    let directory = TestData.sharedData("cinc2017").path
    let headers = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
      $0.hasSuffix(".hea")
    }
    #expect(headers.count >= 100)
    for name in headers.sorted() {
      let path = directory + "/" + name
      let fields = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n")[0]
        .split(separator: " ")
      // `A00001 1 300 9000 2014-05-08 05:05:15`
      let reader = try WFDBRecordReader(path: path)
      #expect(reader.startTime?.iso8601 == "\(fields[4])T\(fields[5])Z", "\(name)")
      #expect(reader.header.notes.count == 1 && reader.header.notes[0].contains("ISO 8601"))
      let samples = try readAll(reader).channels[0]
      #expect(Int64(samples.count) == Int64(fields[3]), "\(name)")
    }
  }

  @Test("byte counts of partial packing groups")
  func byteCounts() {
    #expect(WFDBStorageFormat.packed212.byteCount(forSamples: 3) == 5)
    #expect(WFDBStorageFormat.packed310.byteCount(forSamples: 4) == 6)
    #expect(WFDBStorageFormat.packed311.byteCount(forSamples: 5) == 7)
    for format in WFDBStorageFormat.allCases {
      for samples in Int64(0)..<10 {
        // 310 keeps its second sample in the group's second word: 2 samples take all 4 bytes.
        let bytes = format.byteCount(forSamples: samples)
        #expect(format.sampleCount(forBytes: bytes) >= samples, "\(format)")
        #expect(format.byteCount(forSamples: format.sampleCount(forBytes: bytes)) == bytes, "\(format)")
      }
    }
  }
}
