import VitalsSupport

/// The process's standard output and standard error, written unbuffered with `write(2)`: each call's
/// bytes go out whole (short and interrupted writes are retried) before it returns, so that lines of a
/// live stream or a progress line show at once. A failed write (a closed pipe) is ignored: there is
/// nowhere left to report it.
public enum StandardStream: Sendable {
  case output
  case error

  private var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }

  /// Whether the stream is a terminal (`isatty`): where a progress line may be redrawn in place.
  public var isTerminal: Bool { isatty(descriptor) == 1 }

  /// Writes `text` as UTF-8.
  public func write(_ text: String) {
    var text = text
    _ = text.withUTF8 { FileSystem.writeAll(UnsafeRawBufferPointer($0), toDescriptor: descriptor) }
  }

  /// Writes `bytes` as they are.
  public func write(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { FileSystem.writeAll($0, toDescriptor: descriptor) }
  }

  /// Reads standard input (or the open file descriptor `descriptor`) to its end, handing each block read
  /// (at most 64 KiB, as it arrives) to `consume`; throws ``InputError`` for `-` with the system's reason
  /// when reading fails, and rethrows what `consume` throws.
  public static func readInput(
    descriptor: Int32 = STDIN_FILENO, _ consume: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count < 0 && errno == EINTR { continue }
      if count < 0 { throw InputError(path: "-", "cannot read: \(String(cString: strerror(errno)))") }
      if count == 0 { return }
      try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
  }
}
