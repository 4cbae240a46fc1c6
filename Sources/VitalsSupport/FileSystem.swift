import SystemPackage

/// The file-system questions readers and writers ask, path names taken apart, and whole writes to
/// descriptors: the C library's calls (through swift-system), so that no module needs Foundation for them.
package enum FileSystem {
  /// Whether `path` names a regular file (following symbolic links).
  package static func isRegularFile(_ path: String) -> Bool {
    status(path)?.type == .regular
  }

  /// Whether `path` names a directory (following symbolic links).
  package static func isDirectory(_ path: String) -> Bool {
    status(path)?.type == .directory
  }

  /// Whether anything exists at `path` (following symbolic links: a dangling link does not count).
  package static func exists(_ path: String) -> Bool { status(path) != nil }

  /// The size in bytes of the file at `path` (following symbolic links), nil when it cannot be read.
  package static func size(_ path: String) -> Int64? { status(path)?.size }

  /// When the file at `path` was last modified (following symbolic links), in ns since the Unix
  /// epoch; nil when it cannot be read.
  package static func modificationTime(_ path: String) -> Int64? {
    status(path).map { Int64($0.st_mtim.tv_sec) * 1_000_000_000 + Int64($0.st_mtim.tv_nsec) }
  }

  private static func status(_ path: String, followingLinks: Bool = true) -> Stat? {
    try? Stat(FilePath(path), followTargetSymlink: followingLinks)
  }

  /// The bytes of the regular file at `path` (following symbolic links), nil when it cannot be read
  /// whole or is not a regular file.
  package static func contents(ofRegularFile path: String) -> [UInt8]? {
    guard let file = try? FileDescriptor.open(FilePath(path), .readOnly) else { return nil }
    defer { try? file.close() }
    guard let status = try? file.stat(), status.type == .regular else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(status.size))
    var count = 0
    while count < bytes.count {
      let n = bytes.withUnsafeMutableBytes {
        try? file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...]))
      }
      guard let n, n > 0 else { return nil }
      count += n
    }
    return bytes
  }

  /// The names of the entries of `directory` (without `.` and `..`), or none when it cannot be read.
  package static func entries(of directory: String) -> [String] {
    entriesWithKinds(of: directory).map(\.name)
  }

  /// The paths of everything below `directory`, relative to it (`sub/file.csv`), depth first in
  /// directory order: directories are listed and descended into; symbolic links are listed and not
  /// followed. Unreadable directories contribute nothing below them.
  package static func descendants(of directory: String) -> [String] {
    var found: [String] = []
    func walk(_ relative: String) {
      let path = relative.isEmpty ? directory : directory + "/" + relative
      for (name, isDirectory) in entriesWithKinds(of: path) {
        let child = relative.isEmpty ? name : relative + "/" + name
        found.append(child)
        if isDirectory { walk(child) }
      }
    }
    walk("")
    return found
  }

  /// The entries of `directory` (without `.` and `..`), each with whether it is a directory itself
  /// (a symbolic link is not).
  private static func entriesWithKinds(of directory: String) -> [(name: String, isDirectory: Bool)] {
    let base = directory.isEmpty ? "." : directory
    guard let handle = opendir(base) else { return [] }
    defer { closedir(handle) }
    var entries: [(name: String, isDirectory: Bool)] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name != "." && name != ".." else { continue }
      var isDirectory = Int32(entry.pointee.d_type) == DT_DIR
      if Int32(entry.pointee.d_type) == DT_UNKNOWN {
        isDirectory = status(base + "/" + name, followingLinks: false)?.type == .directory
      }
      entries.append((name, isDirectory))
    }
    return entries
  }

  /// The last component of `path` (`a/b.csv` → `b.csv`), trailing slashes ignored; `/` for the root
  /// (as `NSString.lastPathComponent`).
  package static func lastPathComponent(_ path: String) -> String {
    let trimmed = path.reversed().drop { $0 == "/" }.reversed()
    if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
    return String(trimmed.split(separator: "/", omittingEmptySubsequences: false).last!)
  }

  /// The extension of the last component of `path` (`a/b.tar.gz` → `gz`), without the dot; empty
  /// when there is none or the only dot leads the name (`.hidden`) or ends it (as
  /// `NSString.pathExtension`).
  package static func pathExtension(_ path: String) -> String {
    let name = lastPathComponent(path)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return String(name[name.index(after: dot)...])
  }

  /// `path` without trailing slashes and without the extension of its last component, dot included
  /// (`a/b.tar.gz` → `a/b.tar`; `a/.hidden` and `..` unchanged) (as `NSString.deletingPathExtension`).
  package static func deletingPathExtension(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
    let nameStart = trimmed.lastIndex(of: "/").map { trimmed.index(after: $0) } ?? trimmed.startIndex
    guard trimmed[nameStart...] != "..", let dot = trimmed[nameStart...].lastIndex(of: "."), dot != nameStart
    else { return String(trimmed) }
    return String(trimmed[..<dot])
  }

  /// Writes all of `bytes` to the open descriptor `descriptor` (retrying short and interrupted
  /// writes); on failure returns the system's reason (`strerror`), else nil.
  @discardableResult
  package static func writeAll(_ bytes: UnsafeRawBufferPointer, toDescriptor descriptor: Int32) -> String? {
    do {
      try FileDescriptor(rawValue: descriptor).writeAll(bytes)
      return nil
    } catch {
      return "\(error)"
    }
  }
}
