#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of one WFDB file: an open file read with `pread` (the reader's streaming path), or
/// bytes already in memory. Owns its descriptor and closes it in `deinit`. Not thread-safe.
final class WFDBByteSource {
  private enum Storage {
    case descriptor(Int32)
    case memory([UInt8])
  }

  private let storage: Storage
  /// The path named in errors.
  let path: String
  /// Length in bytes.
  let size: Int64

  init(memory bytes: [UInt8], path: String) {
    storage = .memory(bytes)
    self.path = path
    size = Int64(bytes.count)
  }

  init(path: String) throws(InputError) {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw InputError(path: path, "cannot open: \(String(cString: strerror(errno)))")
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      close(descriptor)
      throw InputError(path: path, "not a regular file")
    }
    storage = .descriptor(descriptor)
    self.path = path
    size = Int64(info.st_size)
  }

  deinit {
    if case .descriptor(let descriptor) = storage { close(descriptor) }
  }

  /// Reads the whole file (headers, annotation files).
  func readAll() throws(InputError) -> [UInt8] {
    var bytes: [UInt8] = []
    try read(at: 0, count: Int(size), into: &bytes)
    return bytes
  }

  /// Reads `count` bytes at `offset` into the start of `array`, growing it when it is shorter.
  func read(at offset: Int64, count: Int, into array: inout [UInt8]) throws(InputError) {
    if array.count < count { array = [UInt8](repeating: 0, count: count) }
    let result = array.withUnsafeMutableBytes { buffer -> Result<Void, InputError> in
      do throws(InputError) {
        try read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]))
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }

  /// Fills `buffer` with the bytes at `offset`, or throws when the file ends first.
  func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(InputError) {
    guard offset >= 0, offset + Int64(buffer.count) <= size else {
      throw InputError(
        path: path, location: .byteOffset(size),
        "truncated: expected \(buffer.count) bytes at byte \(offset), the file holds \(size)")
    }
    guard let target = buffer.baseAddress, !buffer.isEmpty else { return }
    switch storage {
    case .memory(let bytes):
      bytes.withUnsafeBytes { source in
        target.copyMemory(from: source.baseAddress! + Int(offset), byteCount: buffer.count)
      }
    case .descriptor(let descriptor):
      var done = 0
      while done < buffer.count {
        let got = pread(descriptor, target + done, buffer.count - done, off_t(offset) + off_t(done))
        if got < 0 && errno == EINTR { continue }
        guard got > 0 else {
          throw InputError(
            path: path, location: .byteOffset(offset + Int64(done)),
            got == 0
              ? "truncated: the file ended while reading" : "read failed: \(String(cString: strerror(errno)))"
          )
        }
        done += got
      }
    }
  }
}
