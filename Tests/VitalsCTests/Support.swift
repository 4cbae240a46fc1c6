import Foundation
import Testing
import Vitals
import VitalsC

/// What a call of the C interface returned: its status and the message it left in `*error`.
struct Outcome {
  var status: Int32
  var message: String?
}

/// A value `*error` holds before a call, to check that success leaves it untouched.
nonisolated(unsafe) let untouchedMarker = strdup("untouched")!

/// Calls `body` with an `error` out-parameter set to ``untouchedMarker``; expects it unchanged on
/// success, and takes (frees) the message on failure.
func call(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32) -> Outcome {
  var error: UnsafeMutablePointer<CChar>? = untouchedMarker
  let status = body(&error)
  if status == 0 {
    #expect(error == untouchedMarker, "*error changed on success")
    return Outcome(status: status, message: nil)
  }
  #expect(error != untouchedMarker && error != nil, "no message on failure")
  return Outcome(status: status, message: error == untouchedMarker ? nil : take(error))
}

/// Expects `outcome` to be a failure with `status` whose message contains every one of `parts`.
func expectFailure(
  _ outcome: Outcome, _ status: Int32, naming parts: String...,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    outcome.status == status, "status \(outcome.status): \(outcome.message ?? "")",
    sourceLocation: sourceLocation)
  for part in parts {
    #expect(
      outcome.message?.contains(part) == true, "\(outcome.message ?? "nil") lacks \(part)",
      sourceLocation: sourceLocation)
  }
}

/// The string `pointer` holds, freed with `vitals_free`.
func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
  defer { vitals_free(pointer) }
  return pointer.map { String(cString: $0) }
}

/// The `count` values at `pointer`, freed with `vitals_free`.
func take<Element>(_ pointer: UnsafeMutablePointer<Element>?, count: Int64) -> [Element] {
  defer { vitals_free(pointer) }
  guard let pointer else { return [] }
  return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
}

/// Calls `body` with `words` as a C array of C strings and its count.
func withCStrings<Result>(
  _ words: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?, Int32) throws -> Result
) rethrows -> Result {
  let copies = words.map { strdup($0) }
  defer { copies.forEach { free($0) } }
  let pointers = copies.map { UnsafePointer($0) }
  return try pointers.withUnsafeBufferPointer { try body($0.baseAddress, Int32(words.count)) }
}

/// Calls `body` with `arrays` as a C array of pointers to copies of them.
func withArrays<Element, Result>(
  _ arrays: [[Element]], _ body: (UnsafePointer<UnsafePointer<Element>?>?) throws -> Result
) rethrows -> Result {
  let copies = arrays.map { array -> UnsafeMutablePointer<Element> in
    let copy = UnsafeMutablePointer<Element>.allocate(capacity: max(1, array.count))
    copy.initialize(from: array, count: array.count)
    return copy
  }
  defer { copies.forEach { $0.deallocate() } }
  let pointers: [UnsafePointer<Element>?] = copies.map { UnsafePointer($0) }
  return try pointers.withUnsafeBufferPointer { try body($0.baseAddress) }
}

/// Calls `body` with `channels` as a C array of sample pointers.
func withChannels<Result>(
  _ channels: [[Float]], _ body: (UnsafePointer<UnsafePointer<Float>?>?) throws -> Result
)
  rethrows -> Result
{
  try withArrays(channels, body)
}

/// A fresh temporary directory, removed by the caller.
func temporaryDirectory() throws -> String {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsc-\(UUID())").path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// Writes `channels` (named `names`, at `rate` Hz) to the CSV file `path` with a time_s column.
func writeCSV(_ channels: [[Float]], names: [String], rate: Double, to path: String) throws {
  let writer = try CSVSignalWriter(path: path, signalNames: names)
  try writer.write(SignalChunk(channels: channels, sampleRate: rate, startTime: .epoch, firstSampleIndex: 0))
  try writer.close()
}

/// Every sample of every channel of the recording at `path`, read through the C interface.
func readAll(_ path: String, options: [String] = []) throws -> [[Float]] {
  var handle: OpaquePointer?
  let opened = withCStrings(options) { words, count in
    call { vitals_recording_open(path, words, count, &handle, $0) }
  }
  try #require(opened.status == 0, "\(opened.message ?? "")")
  defer { vitals_recording_close(handle) }
  let channels = Int(vitals_recording_channel_count(handle))
  let capacity = 1000
  var block = [Float](repeating: 0, count: channels * capacity)
  var result = [[Float]](repeating: [], count: channels)
  while true {
    var count: Int64 = -1
    let read = block.withUnsafeMutableBufferPointer { buffer in
      call { vitals_recording_read(handle, buffer.baseAddress, Int64(capacity), &count, $0) }
    }
    try #require(read.status == 0, "\(read.message ?? "")")
    if count == 0 { return result }
    for c in 0..<channels { result[c] += block[c * capacity..<c * capacity + Int(count)] }
  }
}

/// A JSON object's fields.
func jsonObject(_ text: String?) throws -> [String: Any] {
  let bytes = Data(try #require(text).utf8)
  return try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
}
