import Foundation
import Testing
import VitalsCore
import VitalsTestSupport

@testable import VitalsCLI

/// The built `vitals` binary beside the test bundle, started as a child process.
enum VitalsProcess {
  static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("vitals")

  static var exists: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

  /// Starts `vitals arguments` with standard output and error going to files in the system's temporary
  /// directory (read back by ``finish(_:)``), so that a killed child leaves no pipe to drain.
  static func start(_ arguments: [String]) throws -> (process: Process, out: URL, err: URL) {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-out-\(UUID())")
    let err = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-err-\(UUID())")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    return (process, out, err)
  }

  /// Waits for a started process; returns its status and output.
  static func finish(_ started: (process: Process, out: URL, err: URL)) -> (
    status: Int32, out: String, err: String
  ) {
    started.process.waitUntilExit()
    defer {
      try? FileManager.default.removeItem(at: started.out)
      try? FileManager.default.removeItem(at: started.err)
    }
    let out = (try? String(contentsOf: started.out, encoding: .utf8)) ?? ""
    let err = (try? String(contentsOf: started.err, encoding: .utf8)) ?? ""
    return (started.process.terminationStatus, out, err)
  }

  /// Runs `vitals arguments` to its end.
  static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    finish(try start(arguments))
  }

  /// Starts `vitals arguments` as a shell would, with no signal blocked or ignored (a child of
  /// Foundation's `Process` inherits its spawning thread's blocked signals), output discarded; returns
  /// the child's process id.
  static func spawnWithDefaultSignals(_ arguments: [String]) throws -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child = pid_t()
    let status = posix_spawn(&child, binary.path, &actions, &attributes, argv, environ)
    try #require(status == 0, "posix_spawn: \(String(cString: strerror(status)))")
    return child
  }

  /// The bytes of every file under `directory` (hidden ones too), by relative path.
  static func snapshot(_ directory: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: directory.path)
    while let relative = enumerator?.nextObject() as? String {
      let url = directory.appendingPathComponent(relative)
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
        files[relative] = try Data(contentsOf: url)
      }
    }
    return files
  }
}

@Suite("Outputs never overwrite inputs", .serialized)
struct OutputProtectionTests {
  /// A folder with a WFDB record `rec` (header, signal file, a reference `rec.atr`), a second header
  /// `alias.hea` that reads `rec.dat`, a previous detector's `rec.qrs`, an ECG CSV `ecg.csv`, its hard link `link.svg`, an accelerometer
  /// CSV `acc.csv` and a CSV named `named.json`.
  private func makeInputs() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-protect-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    for (signal, name) in [("ecg", "ecg.csv"), ("acc", "acc.csv")] {
      let result = try VitalsProcess.run([
        "simulate", "--signal", signal, "--duration", "20", "--rate", "250", "-o", path(name),
      ])
      try #require(result.status == 0, "simulate: \(result.err)")
    }
    try FileManager.default.removeItem(atPath: path("ecg.truth.csv"))
    try FileManager.default.removeItem(atPath: path("acc.truth.csv"))
    let converted = try VitalsProcess.run(["convert", path("ecg.csv"), "-o", path("rec.hea")])
    try #require(converted.status == 0, "convert: \(converted.err)")
    try FileManager.default.linkItem(atPath: path("ecg.csv"), toPath: path("link.svg"))
    try FileManager.default.copyItem(atPath: path("ecg.csv"), toPath: path("named.json"))
    let header = try String(contentsOfFile: path("rec.hea"), encoding: .utf8)
    try header.replacingOccurrences(of: "rec 1 ", with: "alias 1 ").write(
      toFile: path("alias.hea"), atomically: false, encoding: .utf8)
    // A reference annotation file: two N beats, the end-of-file word.
    try Data([0x64, 0x04, 0x68, 0x05, 0x00, 0x00]).write(to: URL(fileURLWithPath: path("rec.atr")))
    try FileManager.default.copyItem(atPath: path("rec.atr"), toPath: path("rec.qrs"))
    return directory
  }

  @Test(
    "every writing command given one of its inputs as output exits 2, names both, changes nothing",
    .enabled(if: VitalsProcess.exists, "needs the built vitals binary"))
  func refusesInputsAsOutputs() throws {
    let directory = try makeInputs()
    defer { try? FileManager.default.removeItem(at: directory) }
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    let cases: [(arguments: [String], output: String, input: String)] = [
      (["convert", path("rec"), "-o", path("rec.hea")], path("rec.hea"), path("rec.hea")),
      (["convert", path("alias"), "-o", path("rec.hea")], path("rec.dat"), path("rec.dat")),
      (["convert", path("ecg.csv"), "-o", path("ecg.csv")], path("ecg.csv"), path("ecg.csv")),
      (["beats", path("ecg.csv"), "-o", path("ecg.csv")], path("ecg.csv"), path("ecg.csv")),
      (["beats", path("rec"), "-o", path("rec.atr")], path("rec.atr"), path("rec.atr")),
      (["beats", path("rec"), "-o", path("rec.dat")], path("rec.dat"), path("rec.dat")),
      (
        ["beats", path("rec"), "--out-dir", directory.path, "--format", "wfdb"], path("rec.qrs"),
        path("rec.qrs")
      ),
      (["report", path("ecg.csv"), "-o", path("link.svg")], path("link.svg"), path("ecg.csv")),
      (["steps", path("acc.csv"), "-o", path("acc.csv")], path("acc.csv"), path("acc.csv")),
      (["steps", path("acc.csv"), "--events", path("acc.csv")], path("acc.csv"), path("acc.csv")),
      (["analyze", path("named.json"), "--out", directory.path], path("named.json"), path("named.json")),
    ]
    for (arguments, output, input) in cases {
      let before = try VitalsProcess.snapshot(directory)
      let result = try VitalsProcess.run(arguments)
      #expect(result.status == 2, "\(arguments): \(result.err)")
      #expect(result.err.contains(output) && result.err.contains(input), "\(arguments): \(result.err)")
      // The root command's usage would not help: the message stands alone.
      #expect(!result.err.contains("Usage:"), "\(arguments): \(result.err)")
      #expect(try VitalsProcess.snapshot(directory) == before, "\(arguments) changed the folder")
    }
    // Outputs beside the inputs that are not inputs are written.
    let allowed = try VitalsProcess.run(["convert", path("ecg.csv"), "-o", path("copy.csv")])
    #expect(allowed.status == 0)
    #expect(
      FileManager.default.contents(atPath: path("copy.csv"))
        == FileManager.default.contents(atPath: path("ecg.csv")))
  }

  @Test(
    "SIGTERM during a write leaves neither the output nor a temporary file",
    .enabled(if: VitalsProcess.exists, "needs the built vitals binary"))
  func interruptedWrite() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-term-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("long.csv").path
    let child = try VitalsProcess.spawnWithDefaultSignals([
      "simulate", "--signal", "ecg", "--duration", "86400", "--rate", "500", "-o", output,
    ])
    // Wait until the temporary file exists, then interrupt.
    var waited = 0
    while try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty && waited < 200 {
      usleep(20_000)
      waited += 1
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).first?.hasSuffix(".partial") == true
    )
    kill(child, SIGTERM)
    var status: Int32 = 0
    waitpid(child, &status, 0)
    #expect(status & 0x7F == SIGTERM)  // ended by the signal, after removing the temporary
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
  }
}
