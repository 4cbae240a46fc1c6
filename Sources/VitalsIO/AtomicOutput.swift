import Synchronization
import SystemPackage
import VitalsSupport

/// A file written whole or not at all: the bytes go to a temporary file beside the target, a hidden
/// name `.NAME.HOST.PID.RANDOM.partial` (HOST a hash of the host name, PID the writing process), which
/// ``commit()`` renames over the target. The final name therefore never holds a partial file: it holds
/// the previous file until the rename and the complete new one after it.
///
/// The temporary file is removed when the writer is discarded without a commit (an error on the way,
/// ``discard()``, deinitialization) and when the process ends on `SIGINT`, `SIGTERM`, `SIGHUP` or
/// `SIGPIPE` (a handler installed for each of these signals whose action was the default unlinks the
/// temporaries still open, then lets the signal end the process as it would have). A process killed
/// with `SIGKILL` leaves its temporaries behind; ``removeAbandonedTemporaries(in:)`` removes those of
/// processes of this host that are no longer running.
///
/// Files are not synced to the device before the rename: the guarantee holds against the process
/// ending at any moment, not against the machine losing power. Errors name the final path.
public final class AtomicFile {
  /// The path the file gets when committed.
  public let path: String
  /// Where the bytes are written until then.
  public let temporaryPath: String
  private let descriptor: FileDescriptor
  private var registration: TemporaryRegistry.Slot?
  private var state = State.open

  private enum State { case open, closed, committed, discarded }

  /// Creates the temporary file for `path` (mode 0644 less the umask) in `path`'s folder.
  public init(path: String) throws(OutputError) {
    self.path = path
    temporaryPath = Self.temporaryPath(for: path)
    registration = TemporaryRegistry.register(temporaryPath)
    do {
      descriptor = try FileDescriptor.open(
        FilePath(temporaryPath), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
        permissions: [.ownerReadWrite, .groupRead, .otherRead])
    } catch {
      TemporaryRegistry.unregister(registration)
      throw OutputError(path: path, "cannot create: \(error)")
    }
  }

  deinit { discard() }

  /// Appends `bytes` to the file.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
    precondition(state == .open, "write after close")
    if let reason = FileSystem.writeAll(bytes, toDescriptor: descriptor.rawValue) {
      throw OutputError(path: path, "write failed: \(reason)")
    }
  }

  /// Appends `bytes` to the file.
  public func write(_ bytes: [UInt8]) throws(OutputError) {
    precondition(state == .open, "write after close")
    if let reason = bytes.withUnsafeBytes({ FileSystem.writeAll($0, toDescriptor: descriptor.rawValue) }) {
      throw OutputError(path: path, "write failed: \(reason)")
    }
  }

  /// Closes the temporary file (its bytes complete), leaving the rename to ``commit()``: a group of
  /// files is closed first and renamed after, so that a failure to write any of them renames none.
  public func close() throws(OutputError) {
    guard state == .open else { return }
    state = .closed
    do {
      try descriptor.close()
    } catch {
      throw OutputError(path: path, "write failed: \(error)")
    }
  }

  /// Closes the file if needed and renames it over ``path``.
  public func commit() throws(OutputError) {
    try close()
    precondition(state == .closed, "commit after discard")
    guard rename(temporaryPath, path) == 0 else {
      throw OutputError(
        path: path, "cannot rename the finished file into place: \(String(cString: strerror(errno)))")
    }
    state = .committed
    TemporaryRegistry.unregister(registration)
    registration = nil
  }

  /// Removes the temporary file (nothing is written under ``path``); no effect after ``commit()``.
  public func discard() {
    switch state {
    case .committed, .discarded: return
    case .open: try? descriptor.close()
    case .closed: break
    }
    state = .discarded
    unlink(temporaryPath)
    TemporaryRegistry.unregister(registration)
    registration = nil
  }

  /// Writes `bytes` to `path` atomically.
  public static func write(_ bytes: [UInt8], to path: String) throws(OutputError) {
    let file = try AtomicFile(path: path)
    try file.write(bytes)
    try file.commit()
  }

  /// Writes `text` as UTF-8 to `path` atomically.
  public static func write(_ text: String, to path: String) throws(OutputError) {
    try write(Array(text.utf8), to: path)
  }

  /// Removes the temporary files in `directory` left by processes of this host that have ended
  /// (killed before they could clean up); those of running processes and of other hosts stay.
  public static func removeAbandonedTemporaries(in directory: String) {
    let prefix = directory.isEmpty ? "" : directory.hasSuffix("/") ? directory : directory + "/"
    for name in FileSystem.entries(of: directory) {
      guard let owner = TemporaryName(name), owner.host == hostTag, !isRunning(owner.process) else {
        continue
      }
      unlink(prefix + name)
    }
  }

  /// The temporary path for `path`: in the same folder, hidden, the name cut to stay within file
  /// systems' 255-byte limit.
  static func temporaryPath(for path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var shortened = name
    while shortened.utf8.count > 200 { shortened.removeLast() }
    let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    return folder + "." + shortened + "." + hostTag + "." + String(getpid()) + "." + random + ".partial"
  }

  /// This host's name as 8 hexadecimal digits (FNV-1a), telling apart processes of different hosts
  /// writing into one shared folder.
  static let hostTag: String = {
    var buffer = [CChar](repeating: 0, count: 256)
    gethostname(&buffer, buffer.count - 1)
    var hash: UInt32 = 2_166_136_261
    for byte in buffer.prefix(while: { $0 != 0 }) {
      hash = (hash ^ UInt32(UInt8(bitPattern: byte))) &* 16_777_619
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }()

  private static func isRunning(_ process: pid_t) -> Bool {
    kill(process, 0) == 0 || errno == EPERM
  }
}

/// The owner of a temporary file name made by ``AtomicFile``.
struct TemporaryName {
  var host: String
  var process: pid_t

  /// Parses `.NAME.HOST.PID.RANDOM.partial`; nil for any other name.
  init?(_ name: String) {
    guard name.hasPrefix("."), name.hasSuffix(".partial") else { return nil }
    let parts = name.dropLast(".partial".count).split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count >= 5, let process = pid_t(parts[parts.count - 2]), parts[parts.count - 3].count == 8
    else { return nil }
    host = String(parts[parts.count - 3])
    self.process = process
  }
}

/// The temporary files open in this process, for the signal handler: a fixed table of C strings that
/// the handler reads without locks or allocation (async-signal-safe: `unlink`, `signal`, `raise`).
enum TemporaryRegistry {
  typealias Slot = Int

  private static let capacity = 1024
  nonisolated(unsafe) private static let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
    table.initialize(repeating: nil, count: capacity)
    return table
  }()
  private static let lock = Mutex(())
  private static let handledSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE]

  /// Installs the handlers once, for the signals whose action is the default.
  private static let installed: Bool = {
    _ = paths
    for number in handledSignals {
      var current = sigaction()
      guard sigaction(number, nil, &current) == 0, handler(of: current) == nil else { continue }
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = removeTemporariesAndEnd
      #else
        action.__sigaction_u.__sa_handler = removeTemporariesAndEnd
      #endif
      sigemptyset(&action.sa_mask)
      sigaction(number, &action, nil)
    }
    return true
  }()

  /// The handler of `action` (nil: the default action).
  private static func handler(of action: sigaction) -> (@convention(c) (Int32) -> Void)? {
    #if canImport(Glibc)
      action.__sigaction_handler.sa_handler
    #else
      action.__sigaction_u.__sa_handler
    #endif
  }

  /// The signal handler: unlinks every registered temporary, then ends the process by the signal's
  /// default action.
  private static let removeTemporariesAndEnd: @convention(c) (Int32) -> Void = { number in
    for index in 0..<TemporaryRegistry.capacity {
      if let path = TemporaryRegistry.paths[index] { unlink(path) }
    }
    signal(number, SIG_DFL)
    raise(number)
  }

  /// Records `path` for removal on a signal; nil when the table is full (the file is then still
  /// removed on errors, not on signals).
  static func register(_ path: String) -> Slot? {
    _ = installed
    return lock.withLock { _ in
      guard let slot = (0..<capacity).first(where: { paths[$0] == nil }) else { return nil }
      paths[slot] = strdup(path)
      return slot
    }
  }

  /// Forgets the path of `slot` (before its file is renamed away or after it is removed).
  static func unregister(_ slot: Slot?) {
    guard let slot else { return }
    lock.withLock { _ in
      let path = paths[slot]
      paths[slot] = nil
      free(path)
    }
  }
}
