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
    ([0x05, 0x04, 0x06, 0xFC, 0x28], 2, "truncated AUX"),
    ([0x05, 0xF0], 0, "NUM before any annotation"),
    ([0x02, 0xFC, 0x28, 0x4E], 0, "AUX before any annotation"),
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
}
