import Foundation
import Testing
import VitalsCore
import VitalsIO

/// Values read from files that no arithmetic may take beyond its range: sample rates, annotation
/// onsets, beat positions and segment lengths are refused with the file and place.
@Suite("File values within bounds")
struct FileValueBoundsTests {
  /// A fresh directory holding `files` (name → bytes); the caller removes it.
  private func directory(_ files: [String: [UInt8]]) throws -> URL {
    let directory = try makeTemporaryDirectory("bounds")
    for (name, bytes) in files {
      try Data(bytes).write(to: directory.appendingPathComponent(name))
    }
    return directory
  }

  @Test(
    "a WFDB header's sampling frequency outside 1 Hz–1 MHz is refused at its line",
    arguments: ["1e300", "0.5", "1000001"])
  func wfdbRate(rate: String) throws {
    let text = "# comment\nrec 1 \(rate) 10\nrec.dat 16 200 16 0 0 0 0 ECG\n"
    let error = try #require(throws: InputError.self) {
      _ = try WFDBHeader.parse(Array(text.utf8), path: "rec.hea")
    }
    #expect(error.path == "rec.hea" && error.location == .line(2), "\(error)")
    #expect(
      error.message.contains("sampling frequency") && error.message.contains("1 to 1000000 Hz"), "\(error)")
    // The limits themselves are read.
    for rate in ["1", "1000000"] {
      let header = try WFDBHeader.parse(Array("rec 1 \(rate) 10\nrec.dat 16\n".utf8), path: "rec.hea")
      #expect(header.frameRate == Double(rate))
    }
  }

  @Test("segments whose lengths add up beyond 2^48 frames are refused at the segment line")
  func wfdbSegmentTotal() throws {
    // Each length is allowed; 40 000 of them exceed Int64 in sum.
    let segment = "seg 281474976710656\n"
    let text = "multi/40000 1 360 0\n" + String(repeating: segment, count: 40_000)
    let error = try #require(throws: InputError.self) {
      _ = try WFDBHeader.parse(Array(text.utf8), path: "multi.hea")
    }
    #expect(error.location == .line(3) && error.message.contains("2^48"), "\(error)")
  }

  @Test("an EDF signal's rate (samples per record / record duration) outside 1 Hz–1 MHz is refused")
  func edfRate() throws {
    for duration in ["0.000001", "5"] {
      var file = GeneratedEDF()
      file.recordDuration = duration
      let error = try #require(throws: InputError.self) {
        _ = try EDFReader(contents: file.bytes, name: "a.edf")
      }
      // The samples-per-record field of signal 0: 256 + 216 bytes of signal fields before it.
      #expect(error.path == "a.edf" && error.location == .byteOffset(472), "\(duration): \(error)")
      #expect(error.message.contains("1 to 1000000 Hz"), "\(error)")
    }
  }

  @Test("an EDF file declaring more than 366 days of records is refused at the record count")
  func edfLength() throws {
    var file = GeneratedEDF()
    file.recordDuration = "2e7"
    let error = try #require(throws: InputError.self) {
      _ = try EDFReader(contents: file.bytes, name: "a.edf")
    }
    #expect(error.location == .byteOffset(236) && error.message.contains("366 days"), "\(error)")
  }

  @Test(
    "an EDF+ onset beyond 366 days is refused at its byte offset (it overflowed the start time)",
    arguments: [0, 1])
  func edfOnset(record: Int) throws {
    var file = GeneratedEDF()
    var tals = GeneratedEDF.timeKeeping(["", "", ""])
    tals[record] = "+100000000000\u{14}\u{14}\u{0}"
    file.annotations = tals
    let error = try #require(throws: InputError.self) {
      var reader = try EDFReader(contents: file.bytes, name: "a.edf")
      while try reader.nextChunk(maxSamples: 4) != nil {}
    }
    // Record r's annotation bytes follow its 4 ECG samples; the TAL starts there.
    let recordBytes = 8 + file.annotationBytes
    #expect(error.location == .byteOffset(Int64(file.headerBytes + record * recordBytes + 8)), "\(error)")
    #expect(error.message.contains("onset") && error.message.contains("366 days"), "\(error)")
    // 366 days itself is read: in an EDF+D file whose records up to this one keep time order (EDF+C
    // records must follow one another).
    tals[record] = "+31622400\u{14}\u{14}\u{0}"
    file.reserved = "EDF+D"
    file.annotations = Array(tals.prefix(record + 1))
    file.records = Array(file.records.prefix(record + 1))
    #expect(throws: Never.self) { _ = try EDFReader(contents: file.bytes).readAnnotations() }
  }

  @Test("a CSV rate from the preamble or the time stamps outside 1 Hz–1 MHz is refused at its line")
  func csvRate() throws {
    let stated = "Acquisition frequency: 2000000 Hz\nDevice;demo\nx;y\n0,1;0,2\n0,3;0,4\n0,5;0,6\n"
    let error = try #require(throws: InputError.self) {
      _ = try CSVSignalReader(contents: Array(stated.utf8), name: "a.csv")
    }
    #expect(error.path == "a.csv" && error.location == .line(1), "\(error)")
    #expect(error.message.contains("preamble") && error.message.contains("1 to 1000000 Hz"), "\(error)")

    let slow = "time_s,ecg\n0,1\n10,2\n20,3\n30,4\n"
    let measured = try #require(throws: InputError.self) {
      _ = try CSVSignalReader(contents: Array(slow.utf8), name: "b.csv")
    }
    // The unit the name states gives the rate: the error names the header's line and the unit.
    #expect(measured.path == "b.csv" && measured.location == .line(1), "\(measured)")
    #expect(measured.message.contains("read in s, as its name states"), "\(measured)")
    #expect(measured.message.contains("give 0.1 Hz"), "\(measured)")
    let unnamed = try #require(throws: InputError.self) {
      _ = try CSVSignalReader(
        contents: Array("time,ecg\n0,1\n0.0000001,2\n0.0000002,3\n".utf8), name: "c.csv")
    }
    #expect(unnamed.location == .line(2), "\(unnamed)")
    #expect(unnamed.message.contains("time stamps") && unnamed.message.contains("Hz"), "\(unnamed)")
  }

  @Test("an Apple Health ECG Sample Rate outside 1 Hz–1 MHz is refused at its line")
  func appleRate() throws {
    for rate in ["0.5", "5000000"] {
      let text = "Recorded Date,2020-01-01 00:00:00 +0000\nSample Rate,\(rate) hertz\n\n1\n2\n"
      let error = try #require(throws: InputError.self) {
        _ = try AppleHealthECGReader(contents: Array(text.utf8), name: "ecg.csv")
      }
      #expect(error.path == "ecg.csv" && error.location == .line(2), "\(error)")
      #expect(error.message.contains("Sample Rate") && error.message.contains("1 to 1000000 Hz"), "\(error)")
    }
  }

  @Test("beat files: beats beyond 366 days at the file's rate, and a header beside at 1e300 Hz, are refused")
  func beatFiles() throws {
    let annotations = [WFDBAnnotation(sample: 10, code: 1), WFDBAnnotation(sample: 1 << 40, code: 1)]
    let folder = try directory([
      "far.csv": Array("sample\n0\n1000\n9000000000000000000\n".utf8),
      "edge.csv": Array("sample\n0\n31622400\n".utf8),
      "far.atr": WFDBAnnotationFile.encode(annotations),
      "fast.csv": Array("sample\n0\n1000\n".utf8),
      "fast.hea": Array("fast 1 1e300\n".utf8),
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    let csv = try #require(throws: InputError.self) { _ = try BeatFile(path: path("far.csv"), rate: 1) }
    #expect(csv.path == path("far.csv") && csv.location == .field(line: 4, column: 1), "\(csv)")
    #expect(csv.message.contains("366 days"), "\(csv)")
    // The last sample of 366 days at 1 Hz is read.
    #expect(try BeatFile(path: path("edge.csv"), rate: 1).samples == [0, 31_622_400])

    let mit = try #require(throws: InputError.self) { _ = try BeatFile(path: path("far.atr"), rate: 250) }
    #expect(mit.path == path("far.atr") && mit.message.contains("beat 2"), "\(mit)")

    let header = try #require(throws: InputError.self) { _ = try BeatFile(path: path("fast.csv")) }
    #expect(header.path == path("fast.hea") && header.location == .line(1), "\(header)")

    let given = try #require(throws: InputError.self) {
      _ = try BeatFile(path: path("edge.csv"), rate: 1e300)
    }
    #expect(given.message.contains("1 to 1000000 Hz"), "\(given)")
  }
}
