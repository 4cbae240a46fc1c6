import Foundation
import Testing
import VitalsCore
import VitalsIO

/// An EDF+C file of one-second records: ordinary signals of `samples.count` samples per record
/// (digital −32768…32767 over `physical`), then one `EDF Annotations` signal per entry of
/// `annotations` (each record's TAL bytes, NUL-padded to 60 bytes).
private func edfPlus(
  signals: [(label: String, samples: [[Int16]])], physical: (String, String) = ("-100", "100"),
  annotations: [[String]]
) -> [UInt8] {
  let annotationBytes = 60
  let count = signals.count + annotations.count
  let records = signals.first?.samples.count ?? annotations[0].count
  var out: [UInt8] = []
  func field(_ text: String, _ width: Int) {
    let utf8 = Array(text.utf8.prefix(width))
    out += utf8 + Array(repeating: 0x20, count: width - utf8.count)
  }
  for (text, width) in [
    ("0", 8), ("X X X X", 80), ("Startdate 01-JAN-2020 X X X", 80), ("01.01.20", 8), ("10.00.00", 8),
    (String(256 * (count + 1)), 8), ("EDF+C", 44), (String(records), 8), ("1", 8), (String(count), 4),
  ] {
    field(text, width)
  }
  let ordinary: (String, String, String, String, String, String, String, String) = (
    "", "uV", physical.0, physical.1, "-32768", "32767", "", ""
  )
  let columns: [(Int, (Int) -> String)] = [
    (16, { $0 < signals.count ? signals[$0].label : "EDF Annotations" }),
    (80, { _ in ordinary.0 }), (8, { $0 < signals.count ? ordinary.1 : "" }),
    (8, { $0 < signals.count ? ordinary.2 : "-1" }), (8, { $0 < signals.count ? ordinary.3 : "1" }),
    (8, { $0 < signals.count ? ordinary.4 : "-32768" }), (8, { $0 < signals.count ? ordinary.5 : "32767" }),
    (80, { _ in ordinary.6 }),
    (8, { $0 < signals.count ? String(signals[$0].samples[0].count) : String(annotationBytes / 2) }),
    (32, { _ in ordinary.7 }),
  ]
  for (width, text) in columns {
    for signal in 0..<count { field(text(signal), width) }
  }
  for r in 0..<records {
    for signal in signals {
      for sample in signal.samples[r] {
        out += [UInt8(truncatingIfNeeded: sample), UInt8(truncatingIfNeeded: sample >> 8)]
      }
    }
    for tals in annotations {
      let text = Array(tals[r].utf8)
      out += text + Array(repeating: 0, count: annotationBytes - text.count)
    }
  }
  return out
}

/// Time-keeping TALs for `records` one-second records, each followed by `extra[r]` when given.
private func timeKeeping(_ records: Int, _ extra: [Int: String] = [:]) -> [String] {
  (0..<records).map { "+\($0)\u{14}\u{14}\u{0}" + (extra[$0] ?? "") }
}

@Suite("EDF+: several annotation signals")
struct EDFSeveralAnnotationSignalsTests {
  @Test("the annotations of every EDF Annotations signal are read, merged in onset order")
  func secondAnnotationSignal() throws {
    let samples: [[Int16]] = Array(repeating: [1, 2, 3, 4], count: 3)
    let bytes = edfPlus(
      signals: [("ECG", samples)],
      annotations: [
        timeKeeping(3, [0: "+0.5\u{14}First\u{14}\u{0}", 2: "+2.75\u{14}Third\u{14}\u{0}"]),
        ["", "+1.5\u{15}0.25\u{14}Second\u{14}\u{0}", "+2.5\u{14}A\u{14}B\u{14}\u{0}"],
      ])
    let reader = try EDFReader(contents: bytes, name: "two.edf")
    #expect(reader.availableSignals.map(\.name) == ["ECG"])
    let index = try reader.readAnnotations()
    #expect(index.annotations.map(\.text) == ["First", "Second", "A", "B", "Third"])
    #expect(index.annotations.map(\.onset) == [0.5, 1.5, 2.5, 2.5, 2.75])
    #expect(index.annotations[1].duration == 0.25)
    #expect(index.recordOnsets == [0, 1, 2])
    // The signal reads as without the second annotation signal.
    let once = try readAll(
      EDFReader(contents: edfPlus(signals: [("ECG", samples)], annotations: [timeKeeping(3)])))
    #expect(try readAll(reader).channels == once.channels)
  }

  @Test("a broken TAL in a second annotation signal is an error naming its byte")
  func brokenSecondSignal() throws {
    let bytes = edfPlus(
      signals: [("ECG", [[1, 2, 3, 4]])], annotations: [timeKeeping(1), ["+x\u{14}Second\u{14}\u{0}"]])
    let error = inputError { _ = try EDFReader(contents: bytes, name: "two.edf").readAnnotations() }
    // Header 4 × 256 bytes, 8 bytes of samples, 60 of the first annotation signal, then the sign.
    #expect(error?.location == .byteOffset(1024 + 8 + 60 + 1))
    #expect(error?.path == "two.edf")
  }
}

@Suite("EDF and WFDB: impossible dates and times are refused")
struct ImpossibleDateTests {
  @Test(
    "an EDF start date that is no day, without a Startdate that is one, is an error naming its byte",
    arguments: [
      ("31.02.20", "Startdate X X X X", "February 2020 has 29 days"),
      ("29.02.21", "Startdate X X X X", "February 2021 has 28 days"),
      ("31.04.11", "X X X X", "month 4 has 30 days"),
      (
        "31.02.20", "Startdate 30-FEB-2020 X X X", "nor is the recording field's Startdate 30-FEB-2020 a date"
      ),
      (
        "31.02.20", "Startdate 01-JAN-1700 X X X",
        "Startdate 01-JAN-1700 a date (expected a year in 1800–2200)"
      ),
      ("01.01.yy", "Startdate 29-FEB-2100 X X X", "February 2100 has 28 days"),
    ])
  func edfDates(_ example: (date: String, recording: String, message: String)) throws {
    var file = GeneratedEDF()
    (file.date, file.recording) = (example.date, example.recording)
    let error = inputError { _ = try EDFReader(contents: file.bytes, name: "bad.edf") }
    #expect(error?.location == .byteOffset(168) && error?.path == "bad.edf")
    #expect(error?.description.contains(example.message) == true, "\(String(describing: error))")
  }

  @Test(
    "a Startdate that is a date is used, whatever the header's date; one that is not gives way to it",
    arguments: [
      // The header's date is no day, unreadable or out of range: the Startdate wins, with a note.
      ("31.02.20", "Startdate 01-MAR-2020 X X X", "2020-03-01", "is not a date (February 2020 has 29 days)"),
      ("xx.yy.zz", "Startdate 01-MAR-2020 X X X", "2020-03-01", "is not a date (expected dd.mm.yy)"),
      (
        "1.1.9999", "Startdate 01-MAR-2020 X X X", "2020-03-01",
        "is not a date (expected a year in 1800–2200)"
      ),
      ("01.03.20", "Startdate 01-mar-2020 X X X", "2020-03-01", nil),
      ("01.03.yy", "Startdate 01-MAR-2090 X X X", "2090-03-01", nil),
      // The Startdate is no day, out of range or not dd-MMM-yyyy: the header's date, with a note.
      (
        "01.01.20", "Startdate 30-FEB-2020 X X X", "2020-01-01",
        "Startdate 30-FEB-2020 is not a date (February"
      ),
      (
        "01.01.20", "Startdate 01-JAN-1700 X X X", "2020-01-01",
        "is not a date (expected a year in 1800–2200)"
      ),
      ("01.01.20", "Startdate 2020-01-01 X X X", "2020-01-01", "is not a date (expected dd-MMM-yyyy)"),
      ("01.01.20", "Startdate X X X X", "2020-01-01", nil),
    ])
  func edfStartdateWins(_ example: (date: String, recording: String, day: String, note: String?)) throws {
    var file = GeneratedEDF()
    (file.date, file.recording) = (example.date, example.recording)
    let header = try EDFReader(contents: file.bytes).header
    #expect(header.startTime.iso8601 == example.day + "T10:20:30Z")
    if let note = example.note {
      #expect(header.notes.count == 1 && header.notes[0].contains(note), "\(header.notes)")
    } else {
      #expect(header.notes.isEmpty, "\(header.notes)")
    }
  }

  @Test("29 February of a leap year and 23:59:59 are read")
  func edfLeapDay() throws {
    var file = GeneratedEDF()
    (file.date, file.time, file.recording) = ("29.02.20", "23.59.59", "Startdate X X X X")
    #expect(try EDFReader(contents: file.bytes).header.startTime.iso8601 == "2020-02-29T23:59:59Z")
  }

  @Test("a leap second (second 60) in an EDF start time is an error naming the file and its byte")
  func edfLeapSecond() throws {
    for time in ["23.59.60", "12.00.60", "00:00:60"] {
      var file = GeneratedEDF()
      file.time = time
      let error = inputError { _ = try EDFReader(contents: file.bytes, name: "leap.edf") }
      #expect(error?.location == .byteOffset(176) && error?.path == "leap.edf", "\(time)")
      #expect(error?.description.contains("leap second") == true, "\(String(describing: error))")
    }
    var file = GeneratedEDF()
    file.time = "23.59.61"
    #expect(inputError { _ = try EDFReader(contents: file.bytes) }?.location == .byteOffset(176))
  }

  @Test(
    "a leap second (second 60) in a WFDB base time is an error naming the file and the record line",
    arguments: ["23:59:60 31/12/2016", "59:60", "60", "60.5", "23:59:60.000", "2016-12-31T23:59:60Z"])
  func wfdbLeapSecond(_ start: String) throws {
    let text = "# a comment\nleap 1 250 1000 \(start)\nleap.dat 16 200 16 0 0 0 0 ECG\n"
    let error = inputError { _ = try WFDBHeader.parse(Array(text.utf8), path: "leap.hea") }
    #expect(error?.location == .line(2) && error?.path == "leap.hea", "\(String(describing: error))")
    #expect(error?.description.contains("leap second") == true, "\(String(describing: error))")
  }

  @Test("an EDF start time beyond the day is an error naming its byte", arguments: ["25.00.00", "12.75.00"])
  func edfTimes(_ time: String) throws {
    var file = GeneratedEDF()
    file.time = time
    #expect(inputError { _ = try EDFReader(contents: file.bytes) }?.location == .byteOffset(176))
  }

  @Test(
    "a WFDB base time or date that is none is an error naming the record line",
    arguments: ["25:00:00 01/01/2000", "12:75:00 01/01/2000", "75:00 01/01/2000", "10:00:00 31/02/2020"])
  func wfdbStart(_ start: String) throws {
    let text = "# a comment\nr 1 250 3000 \(start)\nr.dat 16 200/mV 16 0 0 0 0 A\n"
    let error = inputError { _ = try WFDBHeader.parse(Array(text.utf8), path: "r.hea") }
    #expect(error?.location == .line(2))
    #expect(error?.path == "r.hea")
  }

  @Test("a WFDB base date in a year far beyond Timestamp's range is an error, not a trap")
  func wfdbFarYears() throws {
    for date in ["31/12/9223372036854775807", "31/12/1000000000", "2024-12-31"] {
      let text = "r 1 250 3000 10:00:00 \(date)\nr.dat 16 200/mV 16 0 0 0 0 A\n"
      if date.hasPrefix("2024") {
        #expect(try WFDBHeader.parse(Array(text.utf8), path: "r.hea").baseDate?.day == 31)
      } else {
        let error = inputError { _ = try WFDBHeader.parse(Array(text.utf8), path: "r.hea") }
        #expect(error?.location == .line(1), "\(date)")
      }
    }
    #expect(
      [Int.max, Int.min, 1_000_000_000].map { Timestamp.daysInMonth(year: $0, month: 12) } == [31, 31, 31])
    #expect([-4, 0, -100, -400].map { Timestamp.daysInMonth(year: $0, month: 2) } == [29, 29, 28, 29])
  }

  @Test("WFDB base times within the day still read")
  func wfdbGoodTimes() throws {
    for (start, seconds) in [
      ("23:59:59.5", 86_399.5), ("59:59", 3599.0), ("0:01:00", 60.0), ("59.999", 59.999),
    ] {
      let text = "r 1 250 3000 \(start)\nr.dat 16 200/mV 16 0 0 0 0 A\n"
      #expect(try WFDBHeader.parse(Array(text.utf8), path: "r.hea").baseTimeOfDay == seconds)
    }
  }
}

@Suite("EDF and WFDB: header text that is not UTF-8 reads as Latin-1")
struct LatinOneHeaderTextTests {
  @Test("the byte 0xB5 of a Latin-1 µV reads as µ in EDF and WFDB, as do Latin-1 TAL texts; UTF-8 as UTF-8")
  func microSign() throws {
    var file = GeneratedEDF()
    file.label = "ECG1"
    var latin1 = file.bytes
    // The unit field of the one signal starts at 256 + 96; "uV" → 0xB5 'V'.
    latin1[352] = 0xB5
    #expect(try EDFReader(contents: latin1).availableSignals[0].unit == "µV")
    var utf8 = file.bytes
    utf8.replaceSubrange(352..<355, with: Array("µV".utf8))
    #expect(try EDFReader(contents: utf8).availableSignals[0].unit == "µV")
    var control = file.bytes
    control[352] = 0x07
    #expect(try EDFReader(contents: control).availableSignals[0].unit == "?V")

    let header = Array("r 1 250 3000\nr.dat 16 200/".utf8) + [0xB5] + Array("V 16 0 0 0 0 A\n".utf8)
    #expect(try WFDBHeader.parse(header, path: "r.hea").signals[0].units == "µV")
    // An EDF+ annotation text in Latin-1: "café" with é as the byte 0xE9.
    var tal = edfPlus(
      signals: [("ECG", [[1, 2, 3, 4]])], annotations: [timeKeeping(1, [0: "+0.5\u{14}cafX\u{14}\u{0}"])])
    tal[tal.firstRange(of: Array("cafX".utf8))!.upperBound - 1] = 0xE9
    #expect(try EDFReader(contents: tal).readAnnotations().annotations.map(\.text) == ["café"])
    let utf8Header = Array("r 1 250 3000\nr.dat 16 200/µV 16 0 0 0 0 A\n".utf8)
    #expect(try WFDBHeader.parse(utf8Header, path: "r.hea").signals[0].units == "µV")
  }
}

@Suite("WFDB: header text is decoded line by line")
struct WFDBLineByLineTextTests {
  @Test("a Latin-1 µ on one line leaves the UTF-8 of the other lines as it is")
  func mixedLines() throws {
    let header =
      Array("# Ärztin: Zoë, 5 µm\nr 2 250 3000\nr.dat 16 200/".utf8) + [0xB5]
      + Array("V 16 0 0 0 0 A\nr.dat 16 200/µV 16 0 0 0 0 Δ\n".utf8)
    let parsed = try WFDBHeader.parse(header, path: "r.hea")
    #expect(parsed.comments == [" Ärztin: Zoë, 5 µm"])
    #expect(parsed.signals.map(\.units) == ["µV", "µV"])
    #expect(parsed.signals.map(\.description) == ["A", "Δ"])
  }

  @Test(
    "LF, CR LF and CR each end one line: errors name the same line as before",
    arguments: ["\n", "\r\n", "\r"])
  func lineNumbers(_ end: String) throws {
    // Line 4 (after a comment, the record line and a blank line) is the bad signal line.
    let text = ["# c", "r 1 250 3000", "", "r.dat 16 200/µV x 0 0 0 0 A", ""].joined(separator: end)
    var bytes = Array(text.utf8)
    bytes.remove(at: bytes.firstIndex(of: 0xC2)!)  // µ as the Latin-1 byte 0xB5 alone
    let error = inputError { _ = try WFDBHeader.parse(bytes, path: "r.hea") }
    #expect(error?.location == .line(4), "\(String(describing: error))")
    #expect(error?.description.contains("found 'x'") == true, "\(String(describing: error))")
    let mixed = Array("r 1 250\r\n\r\rr.dat 16 200/mV 16 0 0 0 0 A\n".utf8)
    #expect(try WFDBHeader.parse(mixed, path: "r.hea").signalLineNumbers == [4])
  }
}

@Suite("EDF → WFDB: every value and every annotation kept")
struct EDFToWFDBExactTests {
  /// Converts `bytes` (written as `NAME.edf` in a fresh directory) to `NAME.hea`; returns the
  /// directory, the notes and the paths.
  private func convert(_ bytes: [UInt8], name: String = "e") throws -> (
    directory: URL, notes: [String], edf: String, record: String
  ) {
    let directory = try makeTemporaryDirectory("edf-exact")
    let edf = directory.appendingPathComponent(name + ".edf").path
    try Data(bytes).write(to: URL(fileURLWithPath: edf))
    let record = directory.appendingPathComponent(name + ".hea").path
    let notes = try RecordingConversion.convert(
      path: edf, options: RecordingOptions(), to: record, chunkSize: 7)
    return (directory, notes, edf, record)
  }

  @Test("symmetric ranges (baseline −0.5): two WFDB steps per EDF step, every digital value kept")
  func halfStepBaseline() throws {
    let digital: [[Int16]] = [[-32768, -32767, -1, 0], [1, 2, 32766, 32767], [-12345, 12345, -2, 3]]
    let bytes = edfPlus(
      signals: [("ECG", digital)], physical: ("-3276.8", "3276.8"), annotations: [timeKeeping(3)])
    let (directory, _, edf, record) = try convert(bytes)
    defer { try? FileManager.default.removeItem(at: directory) }
    let reader = try WFDBRecordReader(path: record)
    let spec = reader.header.signals[0]
    #expect(spec.baseline == -1 && spec.format == .int24)
    #expect(spec.gain == 2 * 65535 / 6553.6)
    let written = try reader.nextDigitalChunk(maxFrames: 100)!
    #expect(written[0] == digital.flatMap { $0.map { 2 * Int32($0) } })
    let a = try readAll(EDFReader(path: edf)).channels[0]
    let b = try readAll(WFDBRecordReader(path: record)).channels[0]
    #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 1e-6 * 3276.8 }, "\(a) \(b)")
  }

  @Test("an integer baseline keeps one WFDB step per EDF step")
  func integerBaseline() throws {
    let bytes = edfPlus(
      signals: [("ECG", [[-5, 0, 5, 7]])], physical: ("-32768", "32767"), annotations: [timeKeeping(1)])
    let (directory, _, _, record) = try convert(bytes)
    defer { try? FileManager.default.removeItem(at: directory) }
    let reader = try WFDBRecordReader(path: record)
    #expect(reader.header.signals[0].gain == 1 && reader.header.signals[0].baseline == 0)
    #expect(try reader.nextDigitalChunk(maxFrames: 10)![0] == [-5, 0, 5, 7])
  }

  @Test("annotations at onset 0, within half a sample of it and before it survive as code 42 at sample 0")
  func startAnnotations() throws {
    let tals = timeKeeping(
      2,
      [
        0: "+0\u{14}Recording starts\u{14}\u{0}+0.001\u{14}Lights off\u{14}\u{0}+0.5\u{14}Mid\u{14}\u{0}",
        1: "-0.5\u{14}neg\u{14}\u{0}",
      ])
    let bytes = edfPlus(signals: [("ECG", [[1, 2, 3, 4], [5, 6, 7, 8]])], annotations: [tals])
    let (directory, notes, _, _) = try convert(bytes, name: "starts")
    defer { try? FileManager.default.removeItem(at: directory) }
    let annotations = try WFDBAnnotationFile.read(path: directory.appendingPathComponent("starts.ann").path)
    #expect(annotations.map(\.sample) == [0, 0, 0, 2])
    #expect(annotations.map(\.code) == [42, 42, 42, 22])
    #expect(
      annotations.map(\.aux) == [
        "Recording starts", "Lights off", "neg (onset -0.5 s, before the first sample)", "Mid",
      ])
    #expect(notes.count == 1)
    #expect(notes.first?.contains("starts.edf: annotation \"neg\" at -0.5 s") == true, "\(notes)")
  }

  @Test("without an annotation at sample 0 the file is NOTEs alone, without definitions")
  func noStartAnnotation() throws {
    let bytes = edfPlus(
      signals: [("ECG", [[1, 2, 3, 4]])], annotations: [timeKeeping(1, [0: "+0.5\u{14}Mid\u{14}\u{0}"])])
    let (directory, notes, _, _) = try convert(bytes, name: "mid")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("mid.ann").path
    #expect(try WFDBAnnotationFile.read(path: path) == [WFDBAnnotation(sample: 2, code: 22, aux: "Mid")])
    #expect(
      Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        == WFDBAnnotationFile.encode([WFDBAnnotation(sample: 2, code: 22, aux: "Mid")]))
    #expect(notes.isEmpty)
  }

  @Test("a definitions table round-trips: the NOTEs and the null annotation are not annotations")
  func definitionsTable() throws {
    let annotations = [
      WFDBAnnotation(sample: 0, code: 42, aux: "start"), WFDBAnnotation(sample: 1500, code: 22, aux: "x"),
    ]
    let bytes = WFDBAnnotationFile.encode(annotations, definitions: [RecordingConversion.startNote])
    #expect(try WFDBAnnotationFile.parse(bytes, path: "t.ann") == annotations)
  }
}

@Suite("WFDB: signals of several samples per frame are named")
struct WFDBSamplesPerFrameNoteTests {
  @Test("info's metadata and convert's notes name the averaged signal, its rate and the frame rate")
  func averagedSignal() throws {
    let directory = try makeTemporaryDirectory("spf")
    defer { try? FileManager.default.removeItem(at: directory) }
    let header = "spf 2 250 4\nspf.dat 16x2 200/mV 16 0 0 0 0 A\nspf.dat 16 200/mV 16 0 0 0 0 B\n"
    try Data(header.utf8).write(to: directory.appendingPathComponent("spf.hea"))
    // Frames of A, A, B: 4 frames of 3 samples.
    let samples: [Int16] = [2, 4, 10, 6, 8, 20, 0, 0, 30, -2, -4, 40]
    try Data(samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] })
      .write(to: directory.appendingPathComponent("spf.dat"))
    let path = directory.appendingPathComponent("spf.hea").path
    let expected =
      "signal 0 (A) has 2 samples per frame (500 Hz): read at the frame rate, 250 Hz, each frame's samples averaged"
    #expect(try WFDBRecordReader(path: path).averagedSignalNotes == [expected])
    #expect(try RecordingOpener.summarize(path: path).metadata["samples_per_frame"] == expected)
    let csv = directory.appendingPathComponent("spf.csv").path
    let notes = try RecordingConversion.convert(
      path: path, options: RecordingOptions(), to: csv, chunkSize: 3)
    #expect(notes == [path + ": " + expected])
    let copy = directory.appendingPathComponent("copy.hea").path
    #expect(
      try RecordingConversion.convert(path: path, options: RecordingOptions(), to: copy, chunkSize: 3).isEmpty
    )
    let selected = try RecordingConversion.convert(
      path: path, options: RecordingOptions(channels: [.name("B")]), to: csv, chunkSize: 3)
    #expect(selected.isEmpty)
  }
}
