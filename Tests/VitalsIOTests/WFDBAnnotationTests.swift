import Foundation
import Testing
import VitalsIO
import VitalsTestSupport

private struct WrittenAnnotations: Decodable {
  struct Row: Decodable {
    var sample: Int64
    var symbol: String
    var subtype: Int
    var chan: Int
    var num: Int
    var aux: String
  }
  var file: String
  var annotations: [Row]

  var expected: [WFDBAnnotation] {
    annotations.map {
      WFDBAnnotation(
        sample: $0.sample, symbol: $0.symbol, subtype: $0.subtype, channel: $0.chan, number: $0.num,
        aux: $0.aux)!
    }
  }
}

@Suite("WFDB annotations")
struct WFDBAnnotationTests {
  @Test("the writer reproduces wfdb.wrann's bytes (SKIP, NUM, SUB, CHN, AUX) and the reader reads them back")
  func writtenByWrann() throws {
    let written = try TestData.decodeFixture(WrittenAnnotations.self, "wfdb/annotations-written.json")
    let bytes = try [UInt8](Data(contentsOf: TestData.fixture("wfdb/" + written.file)))
    #expect(WFDBAnnotationFile.encode(written.expected) == bytes)
    #expect(
      try WFDBAnnotationFile.read(path: TestData.fixture("wfdb/" + written.file).path) == written.expected)
  }

  @Test("symbols, codes and beats")
  func table() throws {
    #expect(WFDBAnnotation(sample: 0, symbol: "N")?.code == 1)
    #expect(WFDBAnnotation(sample: 0, symbol: "+")?.code == 28)
    #expect(WFDBAnnotation(sample: 0, symbol: "zz") == nil)
    #expect(WFDBAnnotation(sample: 0, code: 15).symbol == "[15]")
    let beats = "N L R B A a J S V r F e j n E / f Q ?".split(separator: " ").map {
      WFDBAnnotation(sample: 0, symbol: String($0))!.code
    }
    #expect(Set(beats) == WFDBAnnotation.beatCodes)
    #expect(
      !WFDBAnnotation(sample: 0, symbol: "+")!.isBeat && !WFDBAnnotation(sample: 0, symbol: "~")!.isBeat)
  }

  static let broken: [(bytes: [UInt8], offset: Int64?, message: String)] = [
    ([], nil, "empty"),
    ([0x00, 0xEC, 0x01, 0x00], 0, "truncated SKIP"),
    ([0x05, 0x04, 0x06, 0xFC, 0x28, 0x00], 2, "truncated AUX"),
    ([0x05, 0xF0], 0, "NUM before any annotation"),
    ([0x02, 0xFC, 0x28, 0x4E], 0, "AUX before any annotation"),
    // N at 5, then a stray byte.
    ([0x05, 0x04, 0x00, 0x00, 0x05], 4, "odd number of bytes"),
    // N at 5 and no end-of-file word: a file cut short.
    ([0x05, 0x04, 0x05, 0x04], 4, "no end-of-file word"),
    // Words after the end-of-file word.
    ([0x05, 0x04, 0x00, 0x00, 0x05, 0x04], 4, "after the end-of-file word"),
    // Code 50 (0xC805 = 50 << 10 | 5).
    ([0x05, 0xC8, 0x00, 0x00], 0, "invalid annotation code 50"),
    // SKIP −5, then N at 0: a beat at sample −5.
    ([0x00, 0xEC, 0xFF, 0xFF, 0xFB, 0xFF, 0x00, 0x04, 0x00, 0x00], 6, "from 0 to 2^53"),
    // N at 10, SKIP −5, N at 5: out of time order.
    ([0x0A, 0x04, 0x00, 0xEC, 0xFF, 0xFF, 0xFB, 0xFF, 0x00, 0x04, 0x00, 0x00], 8, "time order"),
  ]

  @Test("malformed annotation files throw InputError with the byte offset", arguments: broken)
  func malformed(_ example: (bytes: [UInt8], offset: Int64?, message: String)) throws {
    let error = try #require(throws: InputError.self) {
      _ = try WFDBAnnotationFile.parse(example.bytes, path: "x.atr")
    }
    #expect(error.location == (example.offset.map { .byteOffset($0) } ?? .file))
    #expect(error.message.contains(example.message), "\(error)")
  }

  static let sharedFiles: [String] = WFDBDigests.shared.keys.sorted().flatMap { name in
    (WFDBDigests.shared[name]!.annotations ?? []).map { "\(name).\($0.extension)" }
  }

  @Test(
    "shared annotation files read as wfdb.rdann reads them",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"),
    arguments: sharedFiles)
  func shared(file: String) throws {
    let record = String(file[..<file.lastIndex(of: ".")!])
    let digest = try #require(
      WFDBDigests.shared[record]!.annotations!.first { file.hasSuffix("." + $0.extension) })
    let annotations = try WFDBAnnotationFile.read(path: TestData.sharedData(file).path)
    let lines = annotations.map(WFDBDigests.line)
    #expect(annotations.count == digest.count)
    #expect(Array(lines.prefix(5)) == digest.first)
    #expect(SHA256.hex(Array(lines.map { $0 + "\n" }.joined().utf8)) == digest.sha256)
    // Re-encoding gives the same annotations back.
    #expect(try WFDBAnnotationFile.parse(WFDBAnnotationFile.encode(annotations), path: file) == annotations)
  }

  @Test(
    "WFDB's null annotation after the file's definitions (SKIP to −1, code 0 at +1) is read and dropped"
  )
  func definitionsThenNullAnnotation() throws {
    // NOTE at 0 with AUX "## time resolution: 1000", SKIP −1, code 0 at +1, N at 183, end.
    let aux = Array("## time resolution: 1000".utf8)
    let bytes: [UInt8] =
      [0x00, 0x58, UInt8(aux.count), 0xFC] + aux + [
        0x00, 0xEC, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x00, 0xB7, 0x04, 0, 0,
      ]
    #expect(try WFDBAnnotationFile.parse(bytes, path: "r.qrs") == [WFDBAnnotation(sample: 183, code: 1)])
  }

  /// A real annotation file: MIT-BIH 100.atr when ../shared/data holds it, else the committed fixture.
  static var realAnnotationFile: String {
    if TestData.hasSharedData,
      FileManager.default.fileExists(atPath: TestData.sharedData("mitdb/100.atr").path)
    {
      return TestData.sharedData("mitdb/100.atr").path
    }
    return TestData.fixture("wfdb/annotations/written.atr").path
  }

  @Test(
    "a real annotation file cut short is refused at its end or the annotation it cuts, never read in part")
  func truncatedCopies() throws {
    let source = Self.realAnnotationFile
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: source)))
    let whole = try WFDBAnnotationFile.parse(bytes, path: source)
    #expect(!whole.isEmpty)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "vitals-atr-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // Without the end-of-file word; halfway on a word boundary; halfway inside a word.
    let cuts = [bytes.count - 2, bytes.count / 4 * 2, bytes.count / 4 * 2 + 1]
    for cut in cuts {
      let path = directory.appendingPathComponent("cut\(cut).atr").path
      try Data(bytes.prefix(cut)).write(to: URL(fileURLWithPath: path))
      let error = try #require(throws: InputError.self) { _ = try WFDBAnnotationFile.read(path: path) }
      #expect(error.path == path)
      guard case .byteOffset(let offset) = error.location else {
        Issue.record("no byte offset: \(error)")
        continue
      }
      if cut % 2 == 1 {
        #expect(offset == Int64(cut - 1) && error.message.contains("odd number of bytes"), "\(error)")
      } else {
        // At the end, or at a SKIP or AUX whose payload the cut removed.
        #expect(offset <= Int64(cut) && offset >= Int64(cut) - 258, "\(error)")
        #expect(
          error.message.contains("no end-of-file word") || error.message.contains("truncated"), "\(error)")
      }
    }
    let error = try #require(throws: InputError.self) {
      _ = try WFDBAnnotationFile.read(path: directory.appendingPathComponent("cut\(cuts[0]).atr").path)
    }
    #expect(error.location == .byteOffset(Int64(bytes.count - 2)))
  }

  @Test("a program binary, an EDF file and CSV text are not annotation files")
  func otherKindsOfFile() throws {
    var files: [(name: String, bytes: [UInt8])] = [
      ("text", Array("sample,time_s\n100,0.28\n460,1.28\n".utf8)),
      ("odd text", Array("sample\n100\n".utf8)),
    ]
    if let program = FileManager.default.contents(atPath: "/bin/true") {
      files.append(("/bin/true", [UInt8](program)))
    }
    files.append(("EDF", try ioFixtureBytes("edf/plain.edf")))
    for file in files {
      let error = try #require(throws: InputError.self, "\(file.name)") {
        _ = try WFDBAnnotationFile.parse(file.bytes, path: "x.atr")
      }
      guard case .byteOffset = error.location else {
        Issue.record("\(file.name): no byte offset: \(error)")
        continue
      }
    }
  }
}
