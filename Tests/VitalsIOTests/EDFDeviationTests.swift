import Foundation
import Testing
import VitalsCore
import VitalsIO

/// The bytes of a small EDF/EDF+ file, each header field written as given, for the deviations real
/// files show: one ordinary signal `ECG` (−100…100 uV over the full 16-bit range by default) of
/// `samplesPerRecord` samples, 1-s records, and optionally an annotation signal.
struct GeneratedEDF {
  var recording = "Startdate 01-JAN-2011 X X X"
  var date = "01.01.11"
  var time = "10.20.30"
  /// The reserved field; `EDF+C` with annotations and empty without when `nil`.
  var reserved: String?
  var label = "ECG"
  var physicalMinimum = "-100"
  var physicalMaximum = "100"
  var digitalMinimum = "-32768"
  var digitalMaximum = "32767"
  var samplesPerRecord = 4
  /// The number-of-records field; the number of `records` when `nil`.
  var recordCountField: String?
  /// The record duration field, seconds.
  var recordDuration = "1"
  /// The digital samples of each record.
  var records: [[Int16]] = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
  /// The annotation signal's bytes of each record (`nil`: no annotation signal), padded with NULs to
  /// `annotationBytes`.
  var annotations: [String]?
  var annotationBytes = 40
  /// The byte that pads header fields (a space, as the specification says, or NUL).
  var padding: UInt8 = 0x20
  /// Bytes after the last record.
  var trailing: [UInt8] = []

  var signalCount: Int { annotations == nil ? 1 : 2 }

  /// The byte offset of the first byte of the data records.
  var headerBytes: Int { 256 * (signalCount + 1) }

  var bytes: [UInt8] {
    var out: [UInt8] = []
    func field(_ text: String, _ width: Int) {
      let utf8 = Array(text.utf8.prefix(width))
      out += utf8 + Array(repeating: padding, count: width - utf8.count)
    }
    let withAnnotations = annotations != nil
    field("0", 8)
    field("X X X X", 80)
    field(recording, 80)
    field(date, 8)
    field(time, 8)
    field(String(headerBytes), 8)
    field(reserved ?? (withAnnotations ? "EDF+C" : ""), 44)
    field(recordCountField ?? String(records.count), 8)
    field(recordDuration, 8)
    field(String(signalCount), 4)
    let columns: [(String, String, Int)] = [
      (label, "", 16), ("", "", 80), ("uV", "", 8), (physicalMinimum, "-1", 8), (physicalMaximum, "1", 8),
      (digitalMinimum, "-32768", 8), (digitalMaximum, "32767", 8), ("", "", 80),
      (String(samplesPerRecord), String(annotationBytes / 2), 8), ("", "", 32),
    ]
    for (ordinary, annotation, width) in columns {
      field(ordinary, width)
      if withAnnotations { field(width == 16 ? "EDF Annotations" : annotation, width) }
    }
    precondition(out.count == headerBytes)
    for (r, record) in records.enumerated() {
      for sample in record {
        out += [UInt8(truncatingIfNeeded: sample), UInt8(truncatingIfNeeded: sample >> 8)]
      }
      if let annotations {
        let text = Array(annotations[r].utf8)
        out += text + Array(repeating: 0, count: annotationBytes - text.count)
      }
    }
    return out + trailing
  }

  /// Time-keeping TALs `+r\u{14}\u{14}\u{0}` for each record, followed by `extra[r]`.
  static func timeKeeping(_ extra: [String]) -> [String] {
    extra.enumerated().map { "+\($0.offset)\u{14}\u{14}\u{0}" + $0.element }
  }
}

@Suite("EDF reader: vendor deviations")
struct EDFDeviationTests {
  static let startDates: [(date: String, time: String, recording: String, start: String, notes: [String])] = [
    ("01.01.11", "10.20.30", "Startdate X X X X", "2011-01-01T10:20:30Z", []),
    ("01.01.85", "10.20.30", "Startdate X X X X", "1985-01-01T10:20:30Z", []),
    ("31.12.84", "10.20.30", "Startdate X X X X", "2084-12-31T10:20:30Z", []),
    ("01.01.11", "10.20.30", "Startdate 01-JAN-2011 X X X", "2011-01-01T10:20:30Z", []),
    ("02.03.yy", "10.20.30", "Startdate 02-MAR-2099 X X X", "2099-03-02T10:20:30Z", []),
    ("02.03.99", "10.20.30", "Startdate 02-MAR-2099 X X X", "2099-03-02T10:20:30Z", ["differs"]),
    ("01/01/11", "10:20:30", "Startdate X X X X", "2011-01-01T10:20:30Z", ["start date", "start time"]),
  ]

  @Test(
    "start dates: two-digit years clipped to 1985–2084, Startdate's century, other separators",
    arguments: startDates)
  func startDate(_ example: (date: String, time: String, recording: String, start: String, notes: [String]))
    throws
  {
    var file = GeneratedEDF()
    (file.date, file.time, file.recording) = (example.date, example.time, example.recording)
    let header = try EDFReader(contents: file.bytes).header
    #expect(header.startTime.iso8601 == example.start)
    #expect(header.notes.count == example.notes.count, "\(header.notes)")
    for words in example.notes { #expect(header.notes.contains { $0.contains(words) }, "\(header.notes)") }
  }

  @Test("fields padded with NULs read as with spaces, with a note")
  func nulPadding() throws {
    var file = GeneratedEDF()
    file.label = "ECG   "  // trailing spaces, then the padding
    let spaced = try EDFReader(contents: file.bytes)
    file.padding = 0
    let padded = try EDFReader(contents: file.bytes)
    #expect(padded.header.signals == spaced.header.signals && padded.startTime == spaced.startTime)
    #expect(padded.header.signals[0].label == "ECG")
    #expect(spaced.header.notes.isEmpty && padded.header.notes.count == 1)
    #expect(padded.header.notes.first?.contains("NUL") == true)
    let (paddedChannels, spacedChannels) = (try readAll(padded).channels, try readAll(spaced).channels)
    #expect(paddedChannels == spacedChannels)
  }

  @Test("a record count of -1 is counted from the file size, with a note")
  func unknownRecordCount() throws {
    var file = GeneratedEDF()
    let declared = try readAll(EDFReader(contents: file.bytes)).channels
    file.recordCountField = "-1"
    let reader = try EDFReader(contents: file.bytes)
    #expect(reader.header.recordCount == 3)
    #expect(reader.header.notes.contains { $0.contains("-1") })
    #expect(try readAll(reader).channels == declared)
  }

  @Test(
    "data beyond the declared records, a partial record under a count of -1, missing records: errors at the byte"
  )
  func fileSize() throws {
    var file = GeneratedEDF()
    // Records of 4 samples (8 bytes) after a 512-byte header: record 3 would start at byte 536.
    file.trailing = [1, 2, 3, 4, 5]
    let partial = try #require(inputError { _ = try EDFReader(contents: file.bytes, name: "t.edf") })
    #expect(partial.path == "t.edf" && partial.location == .byteOffset(536), "\(partial)")
    #expect(partial.message.contains("5 bytes after the 3 data records the header declares"), "\(partial)")
    file.trailing = []
    file.recordCountField = "2"
    let extra = try #require(inputError { _ = try EDFReader(contents: file.bytes, name: "t.edf") })
    #expect(extra.location == .byteOffset(528), "\(extra)")
    #expect(extra.message.contains("8 bytes after the 2 data records the header declares (1 whole records"))
    file.recordCountField = "-1"
    file.trailing = [0, 0, 0]
    let cut = try #require(inputError { _ = try EDFReader(contents: file.bytes, name: "t.edf") })
    #expect(cut.location == .byteOffset(536), "\(cut)")
    #expect(cut.message.contains("the file ends inside data record 3: 3 of its 8 bytes"), "\(cut)")
    file.trailing = [UInt8](repeating: 0, count: 8)
    let counted = try EDFReader(contents: file.bytes)
    #expect(counted.header.recordCount == 4 && counted.header.notes.count == 1)
    file.trailing = []
    file.recordCountField = "4"
    let error = try #require(inputError { _ = try EDFReader(contents: file.bytes, name: "t.edf") })
    #expect(error.path == "t.edf" && error.message.contains("truncated data"))
    #expect(error.location == .byteOffset(Int64(file.bytes.count)))
  }

  @Test("physical minimum = maximum: an error naming the signal and the physical maximum's byte (as edflib)")
  func noPhysicalRange() throws {
    var file = GeneratedEDF()
    (file.physicalMinimum, file.physicalMaximum) = ("-3276.8", "-3276.8")
    let error = try #require(inputError { _ = try EDFReader(contents: file.bytes, name: "p.edf") })
    // The physical maximum of signal 0 of 1: 256 + 16 + 80 + 8 + 8.
    #expect(error.path == "p.edf" && error.location == .byteOffset(368), "\(error)")
    #expect(error.message.contains("signal 0 (ECG): expected the physical maximum to differ"), "\(error)")
    // The annotation signal's limits are not a scale: only the ordinary signal's are checked.
    file.annotations = GeneratedEDF.timeKeeping(["", "", ""])
    let plus = try #require(inputError { _ = try EDFReader(contents: file.bytes, name: "p.edf") })
    #expect(plus.location == .byteOffset(256 + 2 * 112), "\(plus)")
  }

  @Test(
    "digital limits outside the 16-bit range: an error naming the signal and the field's byte offset",
    arguments: [("-32768", "99999", 128, "maximum"), ("-40000", "32767", 120, "minimum")])
  func digitalLimits(minimum: String, maximum: String, field: Int, name: String) throws {
    var file = GeneratedEDF()
    (file.digitalMinimum, file.digitalMaximum) = (minimum, maximum)
    let error = try #require(inputError { _ = try EDFReader(contents: file.bytes, name: "d.edf") })
    #expect(error.path == "d.edf" && error.location == .byteOffset(Int64(256 + field)), "\(error)")
    #expect(error.message.contains("signal 0 (ECG): expected the digital \(name) within the 16-bit range"))
  }

  /// Record onsets (TALs of 1-s records) that contradict the variant, and the record that errs.
  static let contradictingOnsets: [(variant: String, onsets: [String], record: Int, message: String)] = [
    ("EDF+D", ["+0", "+1", "+1.5"], 2, "record 2 starts at 1.5 s, before record 1 ends (2.0 s)"),
    ("EDF+D", ["+0", "+5", "+1"], 2, "record 2 starts at 1.0 s, before record 1 ends (6.0 s)"),
    ("EDF+D", ["+10", "+3", "+20"], 1, "record 1 starts at 3.0 s, before record 0 ends (11.0 s)"),
    ("EDF+C", ["+0", "+1", "+3"], 2, "record 2 starts at 3.0 s: expected 2.0 s"),
    ("EDF+C", ["+0.5", "+2.5", "+3.5"], 1, "record 1 starts at 2.5 s: expected 1.5 s"),
  ]

  @Test(
    "contradicting record onsets (EDF+D overlap or going back, EDF+C not contiguous): errors at the TAL's byte",
    arguments: contradictingOnsets)
  func contradictingOnset(_ example: (variant: String, onsets: [String], record: Int, message: String)) throws
  {
    var file = GeneratedEDF()
    file.reserved = example.variant
    file.annotations = example.onsets.map { $0 + "\u{14}\u{14}\u{0}" }
    // Header 768 bytes, records of 8 + 40 bytes, the annotation signal after the 8 bytes of ECG.
    let position = Int64(768 + 48 * example.record + 8)
    let reading = try #require(inputError { _ = try readAll(EDFReader(contents: file.bytes, name: "o.edf")) })
    let indexing = try #require(
      inputError { _ = try EDFReader(contents: file.bytes, name: "o.edf").readAnnotations() })
    for error in [reading, indexing] {
      #expect(error.path == "o.edf" && error.location == .byteOffset(position), "\(error)")
      #expect(error.message.contains(example.message), "\(error)")
    }
    // Chunk by chunk too.
    let small = try #require(
      inputError { _ = try readAll(EDFReader(contents: file.bytes, name: "o.edf"), maxSamples: 3) })
    #expect(small.location == .byteOffset(position), "\(small)")
  }

  @Test("EDF+C records may start after the header's time; EDF+D records may leave gaps")
  func consistentOnsets() throws {
    var file = GeneratedEDF()
    file.annotations = ["+0.5", "+1.5", "+2.5"].map { $0 + "\u{14}\u{14}\u{0}" }
    #expect(try readAll(EDFReader(contents: file.bytes)).chunks.count == 1)
    file.reserved = "EDF+D"
    file.annotations = ["+0", "+1", "+20"].map { $0 + "\u{14}\u{14}\u{0}" }
    let reader = try EDFReader(contents: file.bytes)
    #expect(try reader.readAnnotations().gaps.count == 1)
    // Records of 1 s from 0, 1 and 20 s: 21 s of samples, the 18 s between the second and the third
    // missing.
    let samples = try readAll(reader).channels[0]
    let rate = reader.chunkSampleRate
    #expect(samples.count == Int(21 * rate) && samples.filter(\.isNaN).count == Int(18 * rate))
  }

  /// Gaps of an odd number of half sample periods (1.126 s and 1.134 s at 250 Hz), where rounding could go
  /// either way: the count of missing samples does not depend on the chunking, `sampleCount` is the
  /// number of samples read, and a beat annotated at record 1's onset lands on record 1's first sample.
  @Test("EDF+D gaps round alike in every chunking, in sampleCount and in beat annotations")
  func gapRounding() throws {
    for onset in ["1.126", "1.134"] {
      var file = GeneratedEDF()
      file.samplesPerRecord = 250
      file.records = [[Int16](repeating: 1, count: 250), [Int16](repeating: 2, count: 250)]
      file.reserved = "EDF+D"
      file.annotationBytes = 60
      file.annotations = ["+0\u{14}\u{14}\u{0}", "+\(onset)\u{14}\u{14}\u{0}+\(onset)\u{14}R\u{14}\u{0}"]
      let reader = try EDFReader(contents: file.bytes)
      let whole = try readAll(reader).channels[0]
      #expect(Int64(whole.count) == reader.signals[0].sampleCount, "\(onset)")
      for maxSamples in [1, 7, 251, 282, 283] {
        let split = try readAll(EDFReader(contents: file.bytes), maxSamples: maxSamples).channels[0]
        #expect(split.count == whole.count && split.filter(\.isNaN).count == whole.filter(\.isNaN).count)
      }
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("gap-\(UUID()).edf").path
      try Data(file.bytes).write(to: URL(fileURLWithPath: path))
      defer { try? FileManager.default.removeItem(atPath: path) }
      let firstOfRecord1 = try #require(whole.firstIndex { $0 != whole[0] && !$0.isNaN })
      #expect(try BeatFile(path: path).samples == [Int64(firstOfRecord1)], "\(onset)")
    }
  }

  @Test(
    "digital minimum not below the maximum: an error naming the signal and the field's byte offset",
    arguments: [("100", "100"), ("200", "100")])
  func digitalRange(minimum: String, maximum: String) throws {
    var file = GeneratedEDF()
    (file.digitalMinimum, file.digitalMaximum) = (minimum, maximum)
    file.annotations = GeneratedEDF.timeKeeping(["", "", ""])
    let error = try #require(inputError { _ = try EDFReader(contents: file.bytes, name: "d.edf") })
    // The digital minimum of signal 0 of 2: 256 + 2 × (16 + 80 + 8 + 8 + 8).
    #expect(error.location == .byteOffset(256 + 2 * 120) && error.message.contains("signal 0 (ECG)"))
  }

  @Test("a reserved field with other content reads as plain EDF; EDF+C without annotations as contiguous")
  func reservedField() throws {
    var file = GeneratedEDF()
    file.reserved = "ACME v2"
    let other = try EDFReader(contents: file.bytes)
    #expect(other.formatName == "EDF" && other.header.notes.contains { $0.contains("ACME v2") })
    file.reserved = "EDF+C"
    let plus = try EDFReader(contents: file.bytes)
    #expect(plus.formatName == "EDF+C" && plus.header.notes.contains { $0.contains("without an") })
    #expect(try readAll(plus).channels[0].count == 12)
  }

  /// Broken TALs in record 0 (after its time-keeping TAL, which is 5 bytes long) and the offset
  /// within the record's annotation bytes where the error must point.
  static let brokenTALs: [(tal: String, offset: Int, message: String)] = [
    ("1\u{14}QRS\u{14}\u{0}", 5, "sign"),
    ("+x\u{14}QRS\u{14}\u{0}", 6, "onset"),
    ("+inf\u{14}QRS\u{14}\u{0}", 6, "onset"),
    ("+1\u{15}\u{14}QRS\u{14}\u{0}", 8, "duration"),
    ("+1\u{15}0.5 QRS\u{14}\u{0}", 11, "after the TAL's onset"),
    ("+1 QRS\u{14}\u{0}", 7, "after the TAL's onset"),
    ("+1\u{14}QRS\u{0}", 11, "close the annotation text"),
    ("+1\u{14}" + String(repeating: "Q", count: 32), 5, "end with \\u{0}"),
  ]

  @Test("TAL structure is checked; errors name the byte offset", arguments: brokenTALs)
  func brokenTAL(_ example: (tal: String, offset: Int, message: String)) throws {
    var file = GeneratedEDF()
    file.annotations = GeneratedEDF.timeKeeping([example.tal, "", ""])
    let error = try #require(
      inputError { _ = try EDFReader(contents: file.bytes, name: "a.edf").readAnnotations() })
    // Record 0's annotation bytes follow its 4 ECG samples.
    #expect(error.location == .byteOffset(Int64(file.headerBytes + 8 + example.offset)), "\(error)")
    #expect(error.message.contains(example.message), "\(error)")
  }

  @Test("well-formed TALs: durations, several texts, negative onsets")
  func goodTALs() throws {
    var file = GeneratedEDF()
    file.annotations = GeneratedEDF.timeKeeping([
      "+0.5\u{15}0.25\u{14}A\u{14}B\u{14}\u{0}", "-0,5\u{14}C\u{14}\u{0}", "",
    ])
    let index = try EDFReader(contents: file.bytes).readAnnotations()
    #expect(
      index.annotations == [
        EDFAnnotation(onset: 0.5, duration: 0.25, text: "A"),
        EDFAnnotation(onset: 0.5, duration: 0.25, text: "B"),
        EDFAnnotation(onset: -0.5, duration: nil, text: "C"),
      ])
    #expect(index.recordOnsets == [0, 1, 2])
  }
}
