#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Frees what the library returned through an out-parameter (`free`); NULL is accepted.
@_cdecl("vitals_free")
public func vitals_free(_ pointer: UnsafeMutableRawPointer?) {
  free(pointer)
}

/// `text` as a malloc'd NUL-terminated UTF-8 string, the caller's to free.
func mallocString(_ text: String) -> UnsafeMutablePointer<CChar>? {
  strdup(text)
}

/// `values` in a malloc'd buffer, the caller's to free; NULL when empty.
func mallocBuffer<Element>(_ values: [Element]) -> UnsafeMutablePointer<Element>? {
  guard !values.isEmpty, let raw = malloc(values.count * MemoryLayout<Element>.stride) else { return nil }
  let buffer = raw.bindMemory(to: Element.self, capacity: values.count)
  buffer.initialize(from: values, count: values.count)
  return buffer
}

/// The NUL-terminated UTF-8 string at `pointer` (invalid UTF-8 repaired); an argument error naming
/// `name` when it is NULL.
func string(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(CallFailure) -> String {
  guard let pointer else { throw .argument("\(name) is NULL") }
  return String(cString: pointer)
}

/// The `count` strings of `pointer` (`count` may be 0 with `pointer` NULL); an argument error naming
/// `name` for a negative count or a NULL array or element.
func strings(_ pointer: UnsafePointer<UnsafePointer<CChar>?>?, count: Int32, _ name: String)
  throws(CallFailure)
  -> [String]
{
  let items = try pointers(pointer, count: Int64(count), name)
  var result: [String] = []
  for k in items.indices { result.append(try string(items[k], "\(name)[\(k)]")) }
  return result
}

/// The `count` elements of the array `pointer` (`count` may be 0 with `pointer` NULL); an argument
/// error naming `name` for a negative count or a NULL array.
func pointers<Element>(_ pointer: UnsafePointer<Element>?, count: Int64, _ name: String) throws(CallFailure)
  -> UnsafeBufferPointer<Element>
{
  guard count >= 0 else { throw .argument("the count of \(name) must be 0 or more, got \(count)") }
  guard count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
  guard let pointer else { throw .argument("\(name) is NULL but its count is \(count)") }
  guard let length = Int(exactly: count) else {
    throw .argument("the count of \(name) is too large: \(count)")
  }
  return UnsafeBufferPointer(start: pointer, count: length)
}

/// `pointer`, the out-parameter `name`; an argument error when it is NULL.
func out<Pointee>(_ pointer: UnsafeMutablePointer<Pointee>?, _ name: String) throws(CallFailure)
  -> UnsafeMutablePointer<Pointee>
{
  guard let pointer else { throw .argument("\(name) is NULL") }
  return pointer
}

/// The `count` samples of each channel of `pointer` (`channels` pointers, at least `minimum`), copied;
/// an argument error naming `name` for a NULL array or channel or a count out of range.
func channels(
  _ pointer: UnsafePointer<UnsafePointer<Float>?>?, channels: Int32, minimum: Int32, count: Int64,
  _ name: String
) throws(CallFailure) -> [[Float]] {
  try channelBuffers(pointer, channels: channels, minimum: minimum, count: count, name).map(Array.init)
}

/// The caller's `channels` arrays of `count` samples each, as buffers over them (no copy), as
/// ``channels(_:channels:minimum:count:_:)`` checks them.
func channelBuffers(
  _ pointer: UnsafePointer<UnsafePointer<Float>?>?, channels: Int32, minimum: Int32, count: Int64,
  _ name: String
) throws(CallFailure) -> [UnsafeBufferPointer<Float>] {
  guard channels >= minimum else {
    throw .argument("\(name) must hold at least \(minimum) channel(s), got \(channels)")
  }
  guard count >= 0 else { throw .argument("count must be 0 or more, got \(count)") }
  var result: [UnsafeBufferPointer<Float>] = []
  for (k, channel) in try pointers(pointer, count: Int64(channels), name).enumerated() {
    result.append(try pointers(channel, count: count, "\(name)[\(k)]"))
  }
  return result
}
