import Foundation
import Testing
import VitalsIO

@Suite("Input protection")
struct InputProtectionTests {
  @Test("a record's files: header, the signal files its header names, annotation files beside it")
  func recordFiles() throws {
    let directory = try makeTemporaryDirectory("protect-files")
    defer { try? FileManager.default.removeItem(at: directory) }
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    try "rec 2 100 2\nshared.dat 16 200 16 0 0 0 0 a\nrec.dat 16 200 16 0 0 0 0 b\n".write(
      toFile: path("rec.hea"), atomically: false, encoding: .utf8)
    for name in ["shared.dat", "rec.dat"] {
      try Data([0, 0, 0, 0]).write(to: URL(fileURLWithPath: path(name)))
    }
    try Data([0x64, 0x04, 0x00, 0x00]).write(to: URL(fileURLWithPath: path("rec.atr")))
    try "notes\n".write(toFile: path("rec.txt"), atomically: false, encoding: .utf8)
    try "x\n".write(toFile: path("record.csv"), atomically: false, encoding: .utf8)
    let files = Set(InputProtection.files(ofRecording: path("rec")))
    #expect(files.isSuperset(of: [path("rec.hea"), path("shared.dat"), path("rec.dat"), path("rec.atr")]))
    #expect(!files.contains(path("rec.txt")) && !files.contains(path("record.csv")))
    #expect(!InputProtection.files(ofRecording: path("rec"), annotations: false).contains(path("rec.atr")))
    #expect(InputProtection.files(ofRecording: path("record.csv")) == [path("record.csv")])
    #expect(InputProtection.files(ofRecording: "-").isEmpty)

    let sharedSignals = InputOverwriteError(
      output: path("shared.dat"), input: path("shared.dat"), recording: path("rec"))
    #expect(throws: sharedSignals) {
      try InputProtection.refuseOverwritingInputs(outputs: [path("shared.dat")], inputs: [path("rec")])
    }
    // A hard link to an input is the input.
    try FileManager.default.linkItem(atPath: path("rec.atr"), toPath: path("copy.qrs"))
    let linked = InputOverwriteError(output: path("copy.qrs"), input: path("rec.atr"), recording: path("rec"))
    #expect(throws: linked) {
      try InputProtection.refuseOverwritingInputs(
        outputs: [path("new.csv"), path("copy.qrs")], inputs: [path("rec")])
    }
    #expect(linked.description.contains(path("copy.qrs")) && linked.description.contains(path("rec.atr")))
    try InputProtection.refuseOverwritingInputs(
      outputs: [path("new.csv"), path("rec.txt"), "-"], inputs: [path("rec"), path("record.csv"), "-"])
  }
}
