import VitalsSupport

/// Hands out the lines of a text input one at a time from a fixed block buffer (1 MiB, or the size
/// of a smaller file; grown only for a longer line, up to 64 MiB), so text readers never hold the
/// whole file. The block is followed by ``padding`` readable bytes, so scanners may load whole words
/// or vectors that start in the unread bytes and run past their end.
package final class LineBuffer {
  /// Readable bytes after the end of the unread bytes (their values are unspecified).
  package static let padding = 64
  package let input: ByteInput
  /// The block: `capacity` bytes for the input, then `padding`.
  private var storage: UnsafeMutableRawPointer
  private var capacity: Int
  private var start = 0
  private var end = 0
  private var atEnd = false
  /// Bytes of the input dropped from the front of the block so far.
  private var dropped: Int64 = 0
  /// 1-based number of the line most recently returned by ``nextLine()``.
  package private(set) var lineNumber = 0

  /// A buffer over `input`; `capacity` (bytes) sets the initial block size instead of the default.
  package init(input: ByteInput, capacity: Int? = nil) {
    self.input = input
    let capacity = capacity ?? input.size.map { min(1 << 20, max(4096, Int($0) + 1)) } ?? 1 << 20
    precondition(capacity > 0, "the block size must be positive")
    self.capacity = capacity
    storage = Self.allocateBlock(capacity)
  }

  /// A zeroed block of `capacity` bytes plus the padding.
  private static func allocateBlock(_ capacity: Int) -> UnsafeMutableRawPointer {
    let block = UnsafeMutableRawPointer.allocate(byteCount: capacity + padding, alignment: 64)
    block.initializeMemory(as: UInt8.self, repeating: 0, count: capacity + padding)
    return block
  }

  deinit { storage.deallocate() }

  /// Fills the buffer from the input, keeping unread bytes; returns whether bytes were added.
  private func refill() throws(InputError) -> Bool {
    if atEnd { return false }
    if start > 0 {
      let unread = end - start
      if unread > 0 { storage.copyMemory(from: storage + start, byteCount: unread) }
      dropped += Int64(start)
      start = 0
      end = unread
    }
    if end == capacity {
      guard capacity < 64 << 20 else {
        throw InputError(
          path: input.path, location: .line(lineNumber + 1), "expected a line shorter than 64 MiB")
      }
      let larger = Self.allocateBlock(2 * capacity)
      larger.copyMemory(from: storage, byteCount: end)
      storage.deallocate()
      storage = larger
      capacity *= 2
    }
    let n = try input.read(into: UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end))
    if n == 0 { atEnd = true }
    end += n
    return n > 0
  }

  /// The next line without its `\n` (a trailing `\r` is left for the caller, who treats it as
  /// space), or `nil` at the end of the input. Valid until the next call.
  package func nextLine() throws(InputError) -> UnsafeBufferPointer<UInt8>? {
    var searchFrom = start
    while true {
      let base = storage.assumingMemoryBound(to: UInt8.self)
      if searchFrom < end, let hit = memchr(base + searchFrom, 0x0A, end - searchFrom) {
        let newline = hit.assumingMemoryBound(to: UInt8.self) - base
        let line = UnsafeBufferPointer(start: base + start, count: newline - start)
        start = newline + 1
        lineNumber += 1
        return line
      }
      let scanned = end - start
      if try !refill() {
        guard start < end else { return nil }
        let base = storage.assumingMemoryBound(to: UInt8.self)
        let line = UnsafeBufferPointer(start: base + start, count: end - start)
        start = end
        lineNumber += 1
        return line
      }
      searchFrom = start + scanned
    }
  }

  // Block access, for scanners of formats that are not line-based (Apple Health export.xml).

  /// The bytes read but not consumed (by ``nextLine()`` or ``consume(_:)``), and the input offset of
  /// the first. Valid until the next call that reads or consumes.
  package var unread: (bytes: UnsafeBufferPointer<UInt8>, offset: Int64) {
    let base = storage.assumingMemoryBound(to: UInt8.self)
    return (UnsafeBufferPointer(start: base + start, count: end - start), dropped + Int64(start))
  }

  /// Marks the first `count` unread bytes as consumed; they held `lines` whole lines (each ending in
  /// `\n`), which ``lineNumber`` counts as returned.
  package func consume(_ count: Int, lines: Int = 0) {
    precondition(count >= 0 && count <= end - start, "cannot consume more than the unread bytes")
    precondition(lines >= 0, "the line count cannot be negative")
    start += count
    lineNumber += lines
  }

  /// Reads more of the input after the unread bytes (which move to the front of the block; the block
  /// grows when they fill it); returns whether bytes were added (false at the end of the input).
  package func readMore() throws(InputError) -> Bool { try refill() }
}
