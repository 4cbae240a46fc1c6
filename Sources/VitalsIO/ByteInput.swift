import SystemPackage
import VitalsSupport

/// The bytes of a file, of standard input (`-`), or of an in-memory buffer, read in blocks.
///
/// Readers hold one of these and never the whole file: sequential text formats call ``read(into:)``,
/// EDF and WFDB read at byte offsets with ``read(at:into:)`` (or ``readExactly(at:into:)`` where the
/// file must hold the bytes). Owns its descriptor and closes it in `deinit`. Not thread-safe: one
/// reader owns it.
package final class ByteInput {
  /// The path as given (`-` for standard input), used in error messages.
  package let path: String
  private let descriptor: FileDescriptor
  private let closesDescriptor: Bool
  private let memory: [UInt8]?
  private var memoryPosition = 0

  /// Opens `path` for reading (`-` is standard input).
  package init(path: String) throws(InputError) {
    self.path = path
    self.memory = nil
    if path == "-" {
      descriptor = .standardInput
      closesDescriptor = false
      return
    }
    let file: FileDescriptor
    do {
      file = try FileDescriptor.open(FilePath(path), .readOnly)
    } catch {
      // The command line replaces bytes that are not UTF-8 by U+FFFD, so such a path names no file.
      let encoding =
        path.contains("\u{FFFD}")
        ? " (the path holds bytes that are not UTF-8, which Vitals cannot pass on)" : ""
      throw InputError(path: path, "cannot open: \(error)\(encoding)")
    }
    if (try? file.stat())?.type == .directory {
      try? file.close()
      throw InputError(path: path, "expected a file, found a directory")
    }
    descriptor = file
    closesDescriptor = true
  }

  /// Reads from `bytes` instead of a file; `name` stands for the path in errors.
  package init(bytes: [UInt8], name: String) {
    path = name
    memory = bytes
    descriptor = FileDescriptor(rawValue: -1)
    closesDescriptor = false
  }

  deinit {
    if closesDescriptor { try? descriptor.close() }
  }

  /// Size in bytes for regular files and memory; `nil` for pipes and standard input.
  var size: Int64? {
    if let memory { return Int64(memory.count) }
    guard let status = try? descriptor.stat(), status.type == .regular else { return nil }
    return status.size
  }

  /// Reads sequentially until `buffer` is full or the input ends; returns the bytes read (0 at the end).
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    if let memory {
      let n = min(buffer.count, memory.count - memoryPosition)
      memory.withUnsafeBytes { source in
        buffer.baseAddress!.copyMemory(from: source.baseAddress! + memoryPosition, byteCount: n)
      }
      memoryPosition += n
      return n
    }
    var total = 0
    while total < buffer.count {
      let n: Int
      do {
        n = try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]))
      } catch {
        throw InputError(path: path, "read failed: \(error)")
      }
      if n == 0 { break }
      total += n
    }
    return total
  }

  /// Reads at byte `offset` until `buffer` is full or the file ends; returns the bytes read.
  func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
    if let memory {
      guard offset < memory.count else { return 0 }
      let start = Int(offset)
      let n = min(buffer.count, memory.count - start)
      memory.withUnsafeBytes { source in
        buffer.baseAddress!.copyMemory(from: source.baseAddress! + start, byteCount: n)
      }
      return n
    }
    var total = 0
    while total < buffer.count {
      let n: Int
      do {
        n = try descriptor.read(
          fromAbsoluteOffset: offset + Int64(total),
          into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]))
      } catch  where (error as? Errno) == .illegalSeek {
        throw InputError(
          path: path,
          "is a pipe or FIFO, which cannot be read by path (files are read at byte offsets): save it to a"
            + " file, or give CSV on standard input as -")
      } catch {
        throw InputError(path: path, location: .byteOffset(offset + Int64(total)), "read failed: \(error)")
      }
      if n == 0 { break }
      total += n
    }
    return total
  }
}

extension ByteInput {
  /// Up to `count` bytes at `offset` (fewer at the end of the file).
  func bytes(at offset: Int64, count: Int) throws(InputError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let n = try read(at: offset, into: &bytes, count: count)
    bytes.removeSubrange(n...)
    return bytes
  }

  /// Reads up to `count` bytes at `offset` into the start of `array` (which holds at least `count`).
  func read(at offset: Int64, into array: inout [UInt8], count: Int) throws(InputError) -> Int {
    precondition(count <= array.count, "the array must hold the bytes to read")
    var result: Result<Int, InputError> = .success(0)
    array.withUnsafeMutableBytes { b in
      result = Result { () throws(InputError) in
        try read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: b[0..<count]))
      }
    }
    return try result.get()
  }

  /// Fills `buffer` with the bytes at `offset`, or throws when the file ends first.
  func readExactly(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(InputError) {
    let count = try read(at: offset, into: buffer)
    guard count == buffer.count else { throw truncated(expected: buffer.count, at: offset) }
  }

  /// Reads `count` bytes at `offset` into the start of `array` (grown when shorter), or throws when
  /// the file ends first.
  func readExactly(at offset: Int64, count: Int, into array: inout [UInt8]) throws(InputError) {
    if array.count < count { array = [UInt8](repeating: 0, count: count) }
    guard try read(at: offset, into: &array, count: count) == count else {
      throw truncated(expected: count, at: offset)
    }
  }

  /// The whole input from byte 0 (headers, annotation files).
  package func readAll() throws(InputError) -> [UInt8] {
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = try read(at: Int64(bytes.count), into: &block, count: block.count)
      if count == 0 { return bytes }
      bytes += block[..<count]
    }
  }

  private func truncated(expected count: Int, at offset: Int64) -> InputError {
    let held = size ?? offset
    return InputError(
      path: path, location: .byteOffset(held),
      "truncated: expected \(count) bytes at byte \(offset), the file holds \(held)")
  }
}
