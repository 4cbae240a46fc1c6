import Foundation
import Testing
import VitalsCore
import VitalsIO
import VitalsTestSupport

/// Every value of `path` read whole, per signal.
private func readValues(_ path: String, options: RecordingOptions = RecordingOptions()) throws -> [[Float]] {
  var reader = try RecordingOpener.open(path: path, options: options)
  var channels = [[Float]](repeating: [], count: reader.signals.count)
  while let chunk = try reader.nextChunk(maxSamples: 65_536) {
    for (index, channel) in chunk.channels.enumerated() { channels[index] += channel }
  }
  return channels
}

/// Whether `a` and `b` agree within half a step of `gain` (NaN with NaN), the `Float` rounding of
/// either value allowed besides.
private func withinHalfStep(_ a: Float, _ b: Float, gain: Double) -> Bool {
  if a.isNaN || b.isNaN { return a.isNaN && b.isNaN }
  return abs(Double(a) - Double(b)) <= 0.5 / abs(gain) + Double(max(a.ulp, b.ulp))
}

/// A copy of the recording at `source` cut to about its first `frames` frames, in `directory`: a CSV's
/// first lines; a WFDB header whose length is `frames`, beside links to the record's other files
/// (signal and annotation files); an EDF file's header and first data records (the record count
/// rewritten). Keeps the shared-data tests fast in debug builds.
private func capped(_ source: String, frames: Int, in directory: URL) throws -> String {
  let url = URL(fileURLWithPath: source)
  switch try RecordingOpener.detectKind(path: source) {
  case .wfdb:
    let header = source.hasSuffix(".hea") ? source : source + ".hea"
    let name = URL(fileURLWithPath: header).deletingPathExtension().lastPathComponent
    let folder = URL(fileURLWithPath: header).deletingLastPathComponent()
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
    where file.hasPrefix(name + ".") && !file.hasSuffix(".hea") {
      try FileManager.default.createSymbolicLink(
        at: directory.appendingPathComponent(file), withDestinationURL: folder.appendingPathComponent(file))
    }
    let parsed = try WFDBHeader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: header))), path: header)
    var lines = try String(contentsOfFile: header, encoding: .utf8).split(
      omittingEmptySubsequences: false, whereSeparator: \.isNewline
    ).map(String.init)
    if let stated = parsed.frameCount, stated > frames,
      let line = lines.firstIndex(where: { !$0.hasPrefix("#") && !$0.isEmpty })
    {
      var fields = lines[line].split(whereSeparator: \.isWhitespace).map(String.init)
      fields[3] = String(frames)
      lines[line] = fields.joined(separator: " ")
    }
    let copy = directory.appendingPathComponent(name + ".hea")
    try lines.joined(separator: "\n").write(to: copy, atomically: false, encoding: .utf8)
    return directory.appendingPathComponent(name).path
  case .edf:
    let header = try EDFReader(path: source).header
    let records = min(header.recordCount, max(1, frames / max(1, header.signals[0].samplesPerRecord)))
    var bytes = try Data(contentsOf: url).prefix(header.headerBytes + records * header.recordBytes)
    let count = Array(String(records).padding(toLength: 8, withPad: " ", startingAt: 0).utf8)
    bytes.replaceSubrange(236..<244, with: count)
    let copy = directory.appendingPathComponent(url.lastPathComponent)
    try bytes.write(to: copy)
    return copy.path
  case .csv, .appleHealthECG:
    let text = try String(contentsOfFile: source, encoding: .utf8)
    let lines = text.split(
      maxSplits: frames + 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline
    ).prefix(frames + 1)
    let copy = directory.appendingPathComponent(url.lastPathComponent)
    try (lines.joined(separator: "\n") + "\n").write(to: copy, atomically: false, encoding: .utf8)
    return copy.path
  }
}

/// Frames of each shared recording the round trips read (10 s of MIT-BIH, 5 s of the 1 kHz EDF
/// files, 40 s of the 250 Hz records), so that they take seconds in a debug build.
private let cappedFrames = 5_000

/// The recordings of `../shared/data` the round trips cover, with the options to read them: one of
/// every folder (every WFDB storage format of `wfdb-formats`), every signal of each.
private let sharedRecordings: [(path: String, options: RecordingOptions)] = {
  guard TestData.hasSharedData else { return [] }
  var found: [(String, RecordingOptions)] = [("mitdb/101", RecordingOptions())]
  let formats = TestData.sharedData("wfdb-formats").path
  for name in (try? FileManager.default.contentsOfDirectory(atPath: formats)) ?? []
  where name.hasSuffix(".hea") {
    found.append(("wfdb-formats/" + String(name.dropLast(4)), RecordingOptions()))
  }
  found += [
    ("edf/r01.edf", RecordingOptions()), ("edf/r04.edf", RecordingOptions()),
    ("heartpy-ppg/data.csv", RecordingOptions(csv: CSVOptions(hasHeader: false, sampleRate: 100))),
    ("heartpy-ppg/data2.csv", RecordingOptions()), ("heartpy-ppg/data3.csv", RecordingOptions()),
    ("ieee-spc2015/DATA_01_TYPE01.csv", RecordingOptions(csv: CSVOptions(sampleRate: 125))),
    ("cinc2017/A00001", RecordingOptions()), ("ludb/1", RecordingOptions()),
    ("cpsc2021/data_101_6", RecordingOptions()), ("nstdb-noise/bw", RecordingOptions()),
    ("cpsc2019/data_00014.csv", RecordingOptions(csv: CSVOptions(sampleRate: 500))),
    ("nstdb-118/118e24.csv", RecordingOptions(csv: CSVOptions(hasHeader: false, sampleRate: 360))),
    ("bami-ppg/BAMI1_1.csv", RecordingOptions(csv: CSVOptions(sampleRate: 50))),
    ("oxford-steps/user1_armband_1506423438471.csv", RecordingOptions(csv: CSVOptions(hasHeader: false))),
    (
      "clemson-steps/P001_Regular.txt",
      RecordingOptions(csv: CSVOptions(delimiter: 0x20, hasHeader: false, sampleRate: 15))
    ),
  ]
  return found.sorted { $0.0 < $1.0 }.map { (TestData.sharedData($0.0).path, $0.1) }
}()

/// The sample records of `wfdb-formats` whose signal files are not in the folder (their headers are
/// there for the header tests): the only recordings the round trips may find unreadable.
private let recordsWithoutSignalFiles: Set<String> = ["100-no-len", "100skew", "s0010_re"]

/// Records that `source` could not be read, failing the test unless it is one of
/// ``recordsWithoutSignalFiles``.
private func noteUnreadable(_ source: String, _ error: InputError) {
  let name = URL(fileURLWithPath: source).lastPathComponent
  #expect(recordsWithoutSignalFiles.contains(name), "\(source) is unreadable: \(error)")
}

@Suite("Conversion keeps the values")
struct ConversionRoundTripTests {
  @Test(
    "CSV → WFDB → CSV within half an ADC step, every signal of every shared recording",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func csvRoundTrip() throws {
    let directory = try makeTemporaryDirectory("round-trip")
    defer { try? FileManager.default.removeItem(at: directory) }
    var checked = 0
    for (original, options) in sharedRecordings {
      let sources = directory.appendingPathComponent(
        "source-" + URL(fileURLWithPath: original).lastPathComponent)
      try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
      let source: String
      do { source = try capped(original, frames: cappedFrames, in: sources) } catch let error as InputError {
        noteUnreadable(original, error)
        continue
      }
      let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
      let csv = directory.appendingPathComponent(name + ".csv").path
      let record = directory.appendingPathComponent(name + ".hea").path
      let back = directory.appendingPathComponent(name + ".back.csv").path
      do {
        try RecordingConversion.convert(path: source, options: options, to: csv, chunkSize: 65_536)
      } catch let error as InputError {
        noteUnreadable(source, error)
        continue
      }
      try RecordingConversion.convert(path: csv, options: RecordingOptions(), to: record, chunkSize: 65_536)
      try RecordingConversion.convert(path: record, options: RecordingOptions(), to: back, chunkSize: 65_536)
      let gains = try WFDBRecordReader(path: record).header.signals.map(\.gain)
      let original = try readValues(csv)
      let roundTrip = try readValues(back)
      #expect(original.count == roundTrip.count, "\(source): signal count")
      for (signal, (a, b)) in zip(original, roundTrip).enumerated() {
        #expect(a.count == b.count, "\(source) signal \(signal): sample count")
        let bad = zip(a, b).enumerated().first { !withinHalfStep($1.0, $1.1, gain: gains[signal]) }
        #expect(
          bad == nil,
          "\(source) signal \(signal) sample \(bad?.offset ?? -1): \(bad?.element.0 ?? 0) → \(bad?.element.1 ?? 0), gain \(gains[signal])"
        )
      }
      checked += 1
      for path in [csv, record, back, String(record.dropLast(4)) + ".dat"] {
        try? FileManager.default.removeItem(atPath: path)
      }
    }
    #expect(checked >= 12)
  }

  @Test(
    "WFDB → WFDB keeps the digital values, scales and comments; annotation files are copied",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func wfdbDigitalExact() throws {
    let directory = try makeTemporaryDirectory("wfdb-copy")
    defer { try? FileManager.default.removeItem(at: directory) }
    var checked = 0
    for (shared, options) in sharedRecordings where RecordingOpener.detectKindIsWFDB(shared) {
      let sources = directory.appendingPathComponent(
        "source-" + URL(fileURLWithPath: shared).lastPathComponent)
      try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
      let output = directory.appendingPathComponent("copy.hea").path
      let source: String
      let original: WFDBRecordReader
      do {
        source = try capped(shared, frames: cappedFrames, in: sources)
        original = try WFDBRecordReader(path: source)
      } catch let error as InputError {
        noteUnreadable(shared, error)
        continue
      }
      try RecordingConversion.convert(path: source, options: options, to: output, chunkSize: 10_000)
      let copy = try WFDBRecordReader(path: output)
      let specs = original.header.signals
      #expect(copy.header.signals.map(\.gain) == specs.map(\.gain), "\(source)")
      #expect(copy.header.signals.map(\.baseline) == specs.map(\.baseline), "\(source)")
      #expect(copy.header.signals.map(\.units) == specs.map(\.units), "\(source)")
      #expect(copy.header.signals.map(\.adcResolution) == specs.map(\.adcResolution), "\(source)")
      #expect(copy.header.signals.map(\.samplesPerFrame) == specs.map(\.samplesPerFrame), "\(source)")
      #expect(copy.header.comments == original.header.comments, "\(source)")
      #expect(copy.header.frameRate == original.header.frameRate, "\(source)")
      #expect(copy.frameCount == original.frameCount, "\(source)")
      while let expected = try original.nextDigitalChunk(maxFrames: 50_000) {
        let actual = try #require(try copy.nextDigitalChunk(maxFrames: 50_000))
        for (signal, spec) in specs.enumerated() {
          let written = copy.header.signals[signal].format.invalidSample
          let mapped = expected[signal].map { $0 == spec.format.invalidSample ? written! : $0 }
          #expect(actual[signal] == mapped, "\(source) signal \(signal)")
        }
      }
      #expect(try copy.mismatchedChecksums() == [], "\(source)")
      let record = String(source.hasSuffix(".hea") ? source.dropLast(4) : source[...])
      for (annotator, _) in WFDBAnnotationFile.annotators(besideRecord: source) {
        let copied = directory.appendingPathComponent("copy." + annotator).path
        #expect(
          FileManager.default.contents(atPath: copied)
            == FileManager.default.contents(atPath: record + "." + annotator),
          "\(source).\(annotator) copied")
      }
      checked += 1
      for name in try entries(directory) where name.hasPrefix("copy.") {
        try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
      }
    }
    #expect(checked >= 6)
  }

  @Test(
    "HeartPy data.csv keeps its values (not a flat line); v102s RESP keeps its 4080 levels",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func valuesKept() throws {
    let directory = try makeTemporaryDirectory("values-kept")
    defer { try? FileManager.default.removeItem(at: directory) }
    let heartpy = TestData.sharedData("heartpy-ppg/data.csv").path
    let options = RecordingOptions(csv: CSVOptions(hasHeader: false, sampleRate: 100))
    let record = directory.appendingPathComponent("data.hea").path
    try RecordingConversion.convert(path: heartpy, options: options, to: record, chunkSize: 65_536)
    let source = try readValues(heartpy, options: options)[0]
    let written = try readValues(record)[0]
    #expect(written.count == source.count)
    #expect(zip(written, source).allSatisfy { withinHalfStep($0, $1, gain: 100) })
    #expect(Set(written).count == Set(source).count)  // every level kept: not a flat line
    #expect(abs(written.min()! - 359) < 0.001 && abs(written.max()! - 854) < 0.001)

    let v102s = TestData.sharedData("wfdb-formats/v102s").path
    let csv = directory.appendingPathComponent("v102s.csv").path
    let resp = directory.appendingPathComponent("v102s.hea").path
    try RecordingConversion.convert(path: v102s, options: RecordingOptions(), to: csv, chunkSize: 65_536)
    try RecordingConversion.convert(path: csv, options: RecordingOptions(), to: resp, chunkSize: 65_536)
    let levels = Set(try readValues(v102s)[3].filter { !$0.isNaN }).count
    #expect(levels >= 4000)
    #expect(Set(try readValues(resp)[3].filter { !$0.isNaN }).count == levels)
  }

  @Test(
    "EDF → WFDB: two steps per EDF step, every digital value exact; EDF+ annotations as an annotation file",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func edfToWFDB() throws {
    let directory = try makeTemporaryDirectory("edf-wfdb")
    defer { try? FileManager.default.removeItem(at: directory) }
    let edf = try capped(TestData.sharedData("edf/r01.edf").path, frames: 20_000, in: directory)
    let record = directory.appendingPathComponent("r01.hea").path
    try RecordingConversion.convert(path: edf, options: RecordingOptions(), to: record, chunkSize: 65_536)
    let header = try EDFReader(path: edf).header
    let written = try WFDBRecordReader(path: record)
    #expect(written.formatName == "WFDB 24")  // full-range 16-bit EDF: −32768 is a value
    // Symmetric ranges: EDF's baseline is −0.5, so two WFDB steps per EDF step, baseline −1.
    for (signal, spec) in written.header.signals.enumerated() {
      #expect(spec.gain == 2 * (1 / header.signals[signal].scale) && spec.baseline == -1)
    }
    let a = try readValues(edf)
    let b = try readValues(record)
    for signal in a.indices {
      let fullScale = abs(header.signals[signal].physicalMaximum)
      #expect(a[signal].count == b[signal].count)
      #expect(zip(a[signal], b[signal]).allSatisfy { abs(Double($0) - Double($1)) <= 1e-6 * fullScale })
    }
    // Digital terms: WFDB sample = 2 × the EDF sample, every one.
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: edf)))
    let digital = try WFDBRecordReader(path: record).nextDigitalChunk(maxFrames: 1 << 20)!
    let fileIndices = try EDFReader(path: edf).selectedSignals
    for signal in digital.indices {
      let perRecord = header.signals[fileIndices[signal]].samplesPerRecord
      let offset = header.signals[..<fileIndices[signal]].reduce(0) { $0 + 2 * $1.samplesPerRecord }
      let expected = (0..<header.recordCount * perRecord).map { i in
        let at = header.headerBytes + (i / perRecord) * header.recordBytes + offset + 2 * (i % perRecord)
        return 2 * Int32(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8))
      }
      #expect(digital[signal] == expected)
    }
    let annotations = try WFDBAnnotationFile.read(path: directory.appendingPathComponent("r01.ann").path)
    #expect(annotations.count > 10)
    let expected = try EDFReader(path: edf).readAnnotations().annotations
    #expect(annotations.count == expected.count && !expected.isEmpty)
    #expect(annotations.first?.aux == expected.first?.text)
    #expect(annotations.first?.sample == Int64((expected[0].onset * 1000).rounded()))
  }
}

extension RecordingOpener {
  /// Whether `path` names a WFDB record.
  fileprivate static func detectKindIsWFDB(_ path: String) -> Bool { (try? detectKind(path: path)) == .wfdb }
}
