import Foundation
import Testing
import VitalsIO
import VitalsTestSupport

/// A temporary directory that tests write beat files into.
private struct Scratch {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "vitals-beats-\(UUID().uuidString)"
  )
  .path

  init() throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  /// Writes `bytes` to `directory/name` and returns its path.
  func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    let path = directory + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

@Suite("Beat files")
struct BeatFileTests {
  @Test("CSV: the sample column, any case, quotes and blanks, BOM, CRLF, blank lines, 180.0")
  func csv() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let path = try scratch.write("b.csv", "\u{FEFF}time_s;\"Sample\"\r\n0.5; 180 \r\n\r\n1.25;\"450.0\"\r\n")
    let file = try BeatFile(path: path, rate: 360)
    #expect(file.kind == .csv && file.samples == [180, 450] && file.sampleRate == 360 && file.labels == nil)
  }

  @Test("CSV: a label column of EC57 letters or MIT beat codes; an unknown or missing label names the line")
  func csvLabels() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let path = try scratch.write("l.csv", "sample;Label\n100;N\n200; \"V\" \n300;S\n400;A\n500;/\n600;?\n")
    let file = try BeatFile(path: path, rate: 360)
    #expect(file.samples == [100, 200, 300, 400, 500, 600] && file.labels == ["N", "V", "S", "A", "/", "?"])
    let wrongLabels = [
      ("sample,label\n100,N\n200,X\n", 3, "'X'"), ("label,sample\nV,10\n,20\n", 3, "''"),
      ("sample,label\n100,N\n200\n", 3, "''"), ("sample,label\n100,+\n", 2, "'+'"),
    ]
    for (text, line, found) in wrongLabels {
      let bad = try scratch.write("bad.csv", text)
      let error = try #require(throws: InputError.self) { _ = try BeatFile(path: bad, rate: 360) }
      #expect(
        error.path == bad && error.message.contains("expected a beat label") && error.message.contains(found))
      guard case .field(line: line, column: _) = error.location else {
        Issue.record("\(text): \(error)")
        continue
      }
    }
  }

  static let malformedCSV: [(text: String, location: InputError.Location, message: String)] = [
    ("sample\n100\n50\n", .field(line: 3, column: 1), "comes after 100 (line 2)"),
    ("sample\n100\n100\n", .field(line: 3, column: 1), "repeats line 2"),
    ("time,sample\n0,100\n1,x\n", .field(line: 3, column: 2), "found 'x'"),
    ("sample\n-20\n", .field(line: 2, column: 1), "found '-20'"),
    ("sample\n12.5\n", .field(line: 2, column: 1), "found '12.5'"),
    ("sample\n1e3\n", .field(line: 2, column: 1), "found '1e3'"),
    ("a,sample\n1\n", .field(line: 2, column: 2), "found none"),
    ("time\n1\n", .line(1), "column named sample"),
    ("\n \n", .file, "empty file"),
  ]

  @Test("CSV errors name the line and column", arguments: malformedCSV)
  func badCSV(_ example: (text: String, location: InputError.Location, message: String)) throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let path = try scratch.write("b.csv", example.text)
    let error = try #require(throws: InputError.self) { _ = try BeatFile(path: path, rate: 250) }
    #expect(error.path == path && error.location == example.location, "\(error)")
    #expect(error.message.contains(example.message), "\(error)")
  }

  @Test("the header beside the file gives the rate and the length; a different rate is an error")
  func headerBeside() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    _ = try scratch.write("r.hea", "r 1 360 1000\nr.dat 16\n")
    let good = try scratch.write("r.csv", "sample\n10\n999\n")
    let file = try BeatFile(path: good)
    #expect(file.sampleRate == 360 && file.recordLength == 1000 && file.samples == [10, 999])
    #expect(try BeatFile(path: good, rate: 360).sampleRate == 360)
    let contradiction = try #require(throws: InputError.self) { _ = try BeatFile(path: good, rate: 250) }
    #expect(contradiction.message.contains("gives 360.0 Hz, but a rate of 250.0 Hz"))
    let beyond = try scratch.write("r.txt", "sample\n10\n1000\n")
    let error = try #require(throws: InputError.self) { _ = try BeatFile(path: beyond) }
    #expect(error.location == .field(line: 3, column: 1) && error.message.contains("beyond the record's end"))
    // The same for a WFDB annotation file: a beat at the record's length lies beyond its end.
    let annotations = scratch.directory + "/r.atr"
    try Data(
      WFDBAnnotationFile.encode([WFDBAnnotation(sample: 10, code: 1), WFDBAnnotation(sample: 1000, code: 1)])
    )
    .write(to: URL(fileURLWithPath: annotations))
    let late = try #require(throws: InputError.self) { _ = try BeatFile(path: annotations) }
    #expect(
      late.message.contains("beat 2 lies at sample 1000, beyond the record's end (1000 samples)"), "\(late)")
    let alone = try scratch.write("other.csv", "sample\n1\n")
    #expect(throws: InputError.self) { _ = try BeatFile(path: alone) }  // no rate at all
  }

  @Test("an annotation file: beats only, labels, every annotation kept")
  func annotations() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let written = [
      WFDBAnnotation(sample: 0, code: 28, aux: "(N"), WFDBAnnotation(sample: 100, code: 1),
      WFDBAnnotation(sample: 400, code: 5),
    ]
    let path = try scratch.write("r.atr", WFDBAnnotationFile.encode(written))
    let file = try BeatFile(path: path, rate: 250)
    #expect(file.kind == .wfdbAnnotations && file.samples == [100, 400] && file.labels == ["N", "V"])
    #expect(file.annotations == written)
  }

  @Test("a program binary, a truncated annotation file and text named .atr are refused with a byte offset")
  func notAnnotations() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    var files = [
      try scratch.write(
        "cut.atr", Array(WFDBAnnotationFile.encode([WFDBAnnotation(sample: 5, code: 1)]).dropLast(2))),
      try scratch.write("text.atr", "sample\n10\n20\n"),
    ]
    if let program = FileManager.default.contents(atPath: "/bin/true") {
      files.append(try scratch.write("true.atr", [UInt8](program)))
    }
    for path in files {
      let error = try #require(throws: InputError.self) { _ = try BeatFile(path: path, rate: 360) }
      #expect(error.path == path)
      guard case .byteOffset = error.location else {
        Issue.record("no byte offset: \(error)")
        continue
      }
    }
    let text = try #require(throws: InputError.self) { _ = try BeatFile(path: files[1], rate: 360) }
    #expect(text.message.contains("looks like text"))
  }

  @Test("EDF+: annotation onsets at the signal's rate; beat-like texts when there are several kinds")
  func edfAnnotations() throws {
    let mixed = try BeatFile(path: ioFixture("edf/mixed.edf"))
    // R at 0.7 s and 2.9 s among Arousal and Spindle, at 200 Hz.
    #expect(mixed.kind == .edfAnnotations && mixed.sampleRate == 200 && mixed.samples == [140, 580])
    #expect(mixed.labels == nil && mixed.recordLength == 600)
    #expect(mixed.notes.contains { $0.contains("other texts left out: Arousal, Spindle") })
    // The Pleth signal's rate instead.
    let pleth = try BeatFile(path: ioFixture("edf/mixed.edf"), channels: [.name("Pleth")])
    #expect(pleth.sampleRate == 100 && pleth.samples == [70, 290])
    // EDF+D: a beat at 5.5 s lies in record 2 (onset 5 s, after a 3-s gap) of 20 samples: sample 110 on
    // the grid of record 0, as the reader yields the record with its gap.
    let discontinuous = try BeatFile(path: ioFixture("edf/discontinuous.edf"))
    #expect(discontinuous.samples == [110] && discontinuous.labels == nil)
    // Its header says 02.03.99, its Startdate 02-MAR-2099.
    #expect(discontinuous.notes.count == 1 && discontinuous.notes[0].contains("Startdate is used"))

    let contradiction = try #require(throws: InputError.self) {
      _ = try BeatFile(path: ioFixture("edf/mixed.edf"), rate: 1000)
    }
    #expect(contradiction.message.contains("sampled at 200.0 Hz, but a rate of 1000.0 Hz"))
    let plain = try #require(throws: InputError.self) { _ = try BeatFile(path: ioFixture("edf/plain.edf")) }
    #expect(plain.location == .byteOffset(192) && plain.message.contains("no beats"))
  }

  @Test("EDF+: several texts none of which is a beat is an error; one text of any name is the beats")
  func edfTexts() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    var file = GeneratedEDF()
    file.annotations = GeneratedEDF.timeKeeping([
      "+0.5\u{14}Apnea\u{14}\u{0}", "+1.25\u{14}Arousal\u{14}\u{0}", "",
    ])
    let error = try #require(throws: InputError.self) {
      _ = try BeatFile(path: scratch.write("a.edf", file.bytes))
    }
    #expect(
      error.message.contains("no EDF+ annotation names a beat") && error.message.contains("Apnea, Arousal"))
    file.annotations = GeneratedEDF.timeKeeping([
      "+0.5\u{14}peak\u{14}\u{0}", "+1.25\u{14}peak\u{14}\u{0}", "",
    ])
    let one = try BeatFile(path: scratch.write("b.edf", file.bytes))
    #expect(one.samples == [2, 5] && one.sampleRate == 4 && one.notes.isEmpty)
    file.annotations = GeneratedEDF.timeKeeping(["+0.5\u{14}N\u{14}\u{0}", "+0.5\u{14}N\u{14}\u{0}", ""])
    let twice = try #require(throws: InputError.self) {
      _ = try BeatFile(path: scratch.write("c.edf", file.bytes))
    }
    #expect(twice.message.contains("two beats at sample 2"))
    file.annotations = GeneratedEDF.timeKeeping(["+9\u{14}N\u{14}\u{0}", "", ""])
    let outside = try #require(throws: InputError.self) {
      _ = try BeatFile(path: scratch.write("d.edf", file.bytes))
    }
    #expect(outside.message.contains("outside the data records"))
  }

  @Test(
    "EDF+ r01: the annotation channel's QRS times are the beats of r01.edf.qrs",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func sharedEDF() throws {
    let edf = try BeatFile(path: TestData.sharedData("edf/r01.edf").path)
    let qrs = try BeatFile(path: TestData.sharedData("edf/r01.edf.qrs").path, rate: 1000)
    #expect(edf.sampleRate == 1000 && edf.samples.count == qrs.samples.count && !edf.samples.isEmpty)
    // edf2mit truncated onset × rate in floating point (32.175 s → 32174); the reader rounds.
    #expect(zip(edf.samples, qrs.samples).allSatisfy { $0 - $1 == 0 || $0 - $1 == 1 })
  }
}
