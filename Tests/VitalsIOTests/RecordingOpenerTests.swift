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
    // A path whose bytes were not UTF-8 reaches Vitals with U+FFFD in their place: the message says so.
    let mangled = inputError { _ = try RecordingOpener.detectKind(path: "/tmp/bad\u{FFFD}name.csv") }
    #expect(mangled?.message.contains("bytes that are not UTF-8") == true, "\(String(describing: mangled))")
  }

  @Test("a FIFO is refused with the reason, not with the system's 'Illegal seek'")
  func fifo() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-fifo-\(getpid())").path
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    // The writer's open waits for the reader's; it then closes without writing (no SIGPIPE).
    let writer = Thread {
      let descriptor = Glibc.open(path, O_WRONLY)
      if descriptor >= 0 { close(descriptor) }
    }
    writer.start()
    let error = inputError { _ = try RecordingOpener.detectKind(path: path) }
    #expect(
      error?.message == "is a pipe or FIFO, which cannot be read by path (files are read at byte offsets):"
        + " save it to a file, or give CSV on standard input as -", "\(String(describing: error))")
  }

  @Test("a WFDB record's signal file given for the record is refused, naming the record")
  func signalFileOfRecord() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-dat-\(UUID())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for name in ["r.hea", "r.dat", "r.csv"] {
      try Data("1,2\n3,4\n".utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
    }
    let error = inputError { _ = try RecordingOpener.detectKind(path: directory + "/r.dat") }
    #expect(
      error?.message
        == "is a file of the WFDB record \(directory)/r (its header \(directory)/r.hea is beside it): give the"
        + " record (\(directory)/r) or its header", "\(String(describing: error))")
    // A CSV file of the same name is a recording of its own (`vitals convert r r.csv`).
    #expect(try RecordingOpener.detectKind(path: directory + "/r.csv") == .csv)
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

  @Test(
    "a rule picks among each reader's default signals as the reader opens, and names itself when none fits")
  func rules() throws {
    let last = ChannelRule("the last signal") { $0.indices.last }
    func names(_ path: String, _ selectors: [ChannelSelector]) throws -> [String] {
      try RecordingOpener.open(path: path, options: RecordingOptions(channels: selectors)).signals.map(\.name)
    }
    // EDF: among the first rate group (Fp1 and Fp2 at 200 Hz), not Pleth at 100 Hz.
    #expect(try names(ioFixture("edf/mixed.edf"), [.rule(last)]) == ["Fp2"])
    #expect(try names(ioFixture("csv/seconds.csv"), [.rule(last), .index(0)]) == ["ppg", "ecg"])
    let wfdb = TestData.fixture("wfdb/records/fmt212").path
    #expect(try names(wfdb, [.rule(last)]) == ["RESP"])
    #expect(try names(ioFixture("apple/ecg_english.csv"), [.rule(last)]).count == 1)
    let none = ChannelRule("a pulse") { _ in nil }
    #expect(
      inputError { _ = try names(wfdb, [.rule(none)]) }?.message
        == "no channel is a pulse (channels: ECG, RESP)")
    #expect(ChannelSelector.rule(last) == .rule(ChannelRule("the last signal") { _ in 0 }))
    #expect(ChannelSelector.rule(last) != .rule(none))
  }

  @Test("a name matches exactly, then ignoring case; a name several signals share is refused")
  func names() throws {
    func resolve(_ name: String, _ names: [String]) throws(InputError) -> [Int] {
      try ChannelSelector.resolve([.name(name)], names: names, path: "r.edf")
    }
    #expect(try resolve("ecg", ["ECG", "ecg", "Resp"]) == [1])
    #expect(try resolve("resp", ["ECG", "ecg", "Resp"]) == [2])
    let twice = inputError { _ = try resolve("ECG", ["ECG", "Resp", "ECG"]) }
    #expect(
      twice?.description == "r.edf: 2 channels are named \"ECG\" (0, 2): select one by its index",
      "\(String(describing: twice))")
    let folded = inputError { _ = try resolve("ecg", ["ECG", "Ecg"]) }
    #expect(folded?.message == "2 channels are named \"ecg\" (0, 1): select one by its index")
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

@Suite("WFDB records through the opener")
struct WFDBOpenerTests {
  private let record = TestData.fixture("wfdb/records/fmt212").path

  @Test("a record path or its header path is WFDB")
  func detection() throws {
    #expect(try RecordingOpener.detectKind(path: record) == .wfdb)
    #expect(try RecordingOpener.detectKind(path: record + ".hea") == .wfdb)
  }

  @Test("channel selection narrows and reorders the signals, chunk by chunk")
  func selection() throws {
    var all = try RecordingOpener.open(path: record)
    var narrowed = try RecordingOpener.open(
      path: record, options: RecordingOptions(channels: [.name("RESP"), .index(0)]))
    #expect(narrowed.signals.map(\.name) == ["RESP", "ECG"])
    while let whole = try all.nextChunk(maxSamples: 100) {
      let part = try #require(try narrowed.nextChunk(maxSamples: 100))
      #expect(part.channels[0].elementsEqual(whole.channels[1]) { $0 == $1 || ($0.isNaN && $1.isNaN) })
      #expect(part.channels[1].elementsEqual(whole.channels[0]) { $0 == $1 || ($0.isNaN && $1.isNaN) })
      #expect(part.firstSampleIndex == whole.firstSampleIndex)
    }
    #expect(try narrowed.nextChunk(maxSamples: 100) == nil)
    #expect(
      inputError {
        _ = try RecordingOpener.open(path: record, options: RecordingOptions(channels: [.name("II")]))
      }
        != nil)
  }

  @Test("the summary counts frames and lists the annotation files beside the record")
  func summary() throws {
    let summary = try RecordingOpener.summarize(path: record)
    #expect(summary.kind == .wfdb)
    #expect(summary.signals.map(\.sampleCount) == [257, 257])
    #expect(summary.annotationCount == nil)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-opener-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for file in ["fmt212.hea", "fmt212.dat"] {
      try FileManager.default.copyItem(
        at: TestData.fixture("wfdb/records/\(file)"), to: directory.appendingPathComponent(file))
    }
    let annotations = TestData.fixture("wfdb/annotations/written.atr")
    try FileManager.default.copyItem(at: annotations, to: directory.appendingPathComponent("fmt212.atr"))
    try Data("not annotations".utf8).write(to: directory.appendingPathComponent("fmt212.txt"))
    let annotated = try RecordingOpener.summarize(path: directory.appendingPathComponent("fmt212").path)
    let expected = try WFDBAnnotationFile.read(path: annotations.path).count
    #expect(annotated.annotationCount == expected)
    #expect(annotated.metadata["annotations.atr"] == "\(expected)")
    #expect(annotated.metadata["annotations.txt"] == nil)
  }
}
