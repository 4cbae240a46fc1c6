import Foundation
import Testing
import VitalsCore
import VitalsIO

/// A fresh directory under the system's temporary directory, removed by the caller.
func makeTemporaryDirectory(_ label: String) throws -> URL {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-\(label)-\(UUID())")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory
}

/// The names in `directory`, hidden ones included, sorted.
func entries(_ directory: URL) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
}

@Suite("Atomic output")
struct AtomicOutputTests {
  @Test("the final name holds the old file until commit, the new one after; no temporary remains")
  func commitReplaces() throws {
    let directory = try makeTemporaryDirectory("atomic")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("out.csv").path
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
    let file = try AtomicFile(path: path)
    try file.write(Array("new\n".utf8))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    let temporary = FileSystemPath.lastComponent(file.temporaryPath)
    #expect(temporary.hasPrefix(".out.csv.") && temporary.hasSuffix(".partial"))
    #expect(try entries(directory) == [temporary, "out.csv"].sorted())
    try file.commit()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    #expect(try entries(directory) == ["out.csv"])
  }

  @Test("a writer dropped without commit leaves nothing: no temporary, no file under the final name")
  func dropDiscards() throws {
    let directory = try makeTemporaryDirectory("atomic-drop")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("beats.csv").path
    do {
      let writer = try CSVSignalWriter(path: path, signalNames: ["a"])
      try writer.write(
        SignalChunk(channels: [[1, 2, 3]], sampleRate: 1, startTime: .epoch, firstSampleIndex: 0))
      #expect(try entries(directory).count == 1)  // the temporary
    }
    #expect(try entries(directory) == [])
  }

  @Test("temporaries of ended processes of this host are removed, those of running ones kept")
  func abandonedTemporaries() throws {
    let directory = try makeTemporaryDirectory("atomic-abandoned")
    defer { try? FileManager.default.removeItem(at: directory) }
    let live = try AtomicFile(path: directory.appendingPathComponent("a.json").path)
    // A name as a process that has ended (pid 2^22 + 1 is above Linux's pid_max default) would leave.
    let tag = FileSystemPath.lastComponent(live.temporaryPath).split(separator: ".")[2]
    let dead = directory.appendingPathComponent(".b.json.\(tag).4194305.1f.partial")
    let otherHost = directory.appendingPathComponent(".c.json.00000000.4194305.1f.partial")
    for url in [dead, otherHost] { try Data("x".utf8).write(to: url) }
    AtomicFile.removeAbandonedTemporaries(in: directory.path)
    let left = try entries(directory)
    #expect(left.contains(FileSystemPath.lastComponent(live.temporaryPath)))
    #expect(!left.contains(dead.lastPathComponent))
    #expect(left.contains(otherHost.lastPathComponent) == (tag != "00000000"))
    live.discard()
  }

  @Test(
    "a full disk: the error names the output file and nothing stays under its name",
    .enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
  func fullDisk() throws {
    let directory = try makeTemporaryDirectory("atomic-full")
    defer { try? FileManager.default.removeItem(at: directory) }
    let mount = Process()
    mount.executableURL = URL(fileURLWithPath: "/bin/mount")
    mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory.path]
    try mount.run()
    mount.waitUntilExit()
    guard mount.terminationStatus == 0 else {
      print("skipped: cannot mount a tmpfs on \(directory.path) (status \(mount.terminationStatus))")
      return
    }
    defer {
      let unmount = Process()
      unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
      unmount.arguments = [directory.path]
      try? unmount.run()
      unmount.waitUntilExit()
    }
    let csv = directory.appendingPathComponent("signal.csv").path
    let record = directory.appendingPathComponent("record.hea").path
    let chunk = SignalChunk(
      channels: [(0..<100_000).map { Float($0) * 0.001 }], sampleRate: 100, startTime: .epoch,
      firstSampleIndex: 0)
    do {
      let writer = try CSVSignalWriter(path: csv, signalNames: ["v"])
      try writer.write(chunk)
      try writer.close()
      Issue.record("expected the CSV write to fail on a 64 KiB file system")
    } catch {
      #expect(error.path == csv)
      #expect(error.message.contains("No space left on device"))
    }
    do {
      let writer = try WFDBRecordWriter(
        path: record, signals: [SignalDescription(name: "v", unit: "mV", sampleRate: 100, sampleCount: nil)],
        frameRate: 100, gains: [100])
      try writer.append(chunk)
      try writer.finish()
      Issue.record("expected the WFDB write to fail on a 64 KiB file system")
    } catch {
      #expect(error.path == directory.appendingPathComponent("record.dat").path)
      #expect(error.message.contains("No space left on device"))
    }
    #expect(try entries(directory) == [])
  }
}

/// Path helpers for the tests.
enum FileSystemPath {
  static func lastComponent(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }
}
