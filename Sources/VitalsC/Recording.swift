import Vitals
import VitalsCLI

/// A recording opened through the C interface (`vitals_recording`): its reader and path.
final class RecordingHandle {
  /// The reader, positioned at the next chunk.
  var reader: any SignalReader
  /// The path it was opened from.
  let path: String

  init(reader: any SignalReader, path: String) {
    self.reader = reader
    self.path = path
  }

  /// The handle behind `pointer` (not retained); an argument error when it is NULL.
  static func from(_ pointer: OpaquePointer?) throws(CallFailure) -> RecordingHandle {
    guard let pointer else { throw .argument("recording is NULL") }
    return Unmanaged<RecordingHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
  }
}

/// The most samples per channel one ``vitals_recording_read(_:_:_:_:_:)`` call reads: 2²⁰, as
/// `--chunk-size` allows.
private let largestRead = 1 << 20

/// Opens the recording at `path` with the input options of every reading command (`InputOptions`);
/// `*recording` receives a handle the caller closes with ``vitals_recording_close(_:)``.
@_cdecl("vitals_recording_open")
public func vitals_recording_open(
  _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<UnsafePointer<CChar>?>?, _ optionCount: Int32,
  _ recording: UnsafeMutablePointer<OpaquePointer?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let result = try out(recording, "recording")
    let path = try inputPath(path, "path")
    let input = try parse(InputOptions.self, try strings(options, count: optionCount, "options"))
    let reader = try RecordingOpener.open(path: path, options: input.recordingOptions)
    let handle = RecordingHandle(reader: reader, path: path)
    result.pointee = OpaquePointer(Unmanaged.passRetained(handle).toOpaque())
  }
}

/// Closes a recording opened with ``vitals_recording_open(_:_:_:_:_:)``; NULL is accepted.
@_cdecl("vitals_recording_close")
public func vitals_recording_close(_ recording: OpaquePointer?) {
  guard let recording else { return }
  Unmanaged<RecordingHandle>.fromOpaque(UnsafeRawPointer(recording)).release()
}

/// The recording's description as JSON (see `vitals.h`); `*json` is the caller's.
@_cdecl("vitals_recording_describe")
public func vitals_recording_describe(
  _ recording: OpaquePointer?, _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let result = try out(json, "json")
    let handle = try RecordingHandle.from(recording)
    result.pointee = mallocString(compactJSON(RecordingDescription(handle)))
  }
}

/// The number of channels of every chunk; -1 when `recording` is NULL.
@_cdecl("vitals_recording_channel_count")
public func vitals_recording_channel_count(_ recording: OpaquePointer?) -> Int32 {
  guard let handle = try? RecordingHandle.from(recording) else { return -1 }
  return Int32(clamping: handle.reader.signals.count)
}

/// Reads the next samples of every channel into `samples`, channel-major with `capacity` samples of room
/// per channel; `*count` receives the number read per channel, 0 at the end of the recording.
@_cdecl("vitals_recording_read")
public func vitals_recording_read(
  _ recording: OpaquePointer?, _ samples: UnsafeMutablePointer<Float>?, _ capacity: Int64,
  _ count: UnsafeMutablePointer<Int64>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let handle = try RecordingHandle.from(recording)
    let read = try out(count, "count")
    let samples = try out(samples, "samples")
    let channels = handle.reader.signals.count
    guard capacity > 0, let room = Int(exactly: capacity),
      !room.multipliedReportingOverflow(by: channels).overflow
    else { throw CallFailure.argument("capacity must be more than 0 (per channel), got \(capacity)") }
    guard let chunk = try handle.reader.nextChunk(maxSamples: min(room, largestRead)) else {
      read.pointee = 0
      return
    }
    for (c, channel) in chunk.channels.enumerated() {
      channel.withUnsafeBufferPointer { values in
        if let first = values.baseAddress { (samples + c * room).update(from: first, count: values.count) }
      }
    }
    read.pointee = Int64(chunk.sampleCount)
  }
}

/// The annotations of the WFDB annotation file `record_path.extension` as JSON (see `vitals.h`).
@_cdecl("vitals_annotations_read")
public func vitals_annotations_read(
  _ recordPath: UnsafePointer<CChar>?, _ extension: UnsafePointer<CChar>?,
  _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let result = try out(json, "json")
    var record = try inputPath(recordPath, "record_path")
    if record.hasSuffix(".hea") { record.removeLast(4) }
    let annotator = try string(`extension`, "extension")
    guard !annotator.isEmpty, !annotator.contains("/") else {
      throw CallFailure.argument("extension must be an annotator name such as atr, got '\(annotator)'")
    }
    let annotations = try WFDBAnnotationFile.read(path: record + "." + annotator)
    result.pointee = mallocString(compactJSON(AnnotationColumns(annotations)))
  }
}

/// The path argument `name` of a function that reads a file: an argument error when it is NULL, empty
/// or `-` (standard input, which the library does not read).
func inputPath(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(CallFailure) -> String {
  let path = try string(pointer, name)
  guard !path.isEmpty, path != "-" else { throw .argument("\(name) must name a file, got '\(path)'") }
  return path
}

/// A recording as ``vitals_recording_describe(_:_:_:)`` encodes it.
private struct RecordingDescription: Encodable {
  var handle: RecordingHandle

  init(_ handle: RecordingHandle) { self.handle = handle }

  private enum Key: String, CodingKey {
    case path, format, sample_rate, start_time, start_unix_s, signals, annotation_files
    case name, unit, sample_count
  }

  func encode(to encoder: any Encoder) throws {
    let reader = handle.reader
    var c = encoder.container(keyedBy: Key.self)
    try c.encode(handle.path, forKey: .path)
    try c.encode(reader.formatName, forKey: .format)
    try c.encode(reader.chunkSampleRate, forKey: .sample_rate)
    try c.encode(reader.startTime?.iso8601, forKey: .start_time)
    try c.encode(reader.startTime?.secondsSinceEpoch, forKey: .start_unix_s)
    var signals = c.nestedUnkeyedContainer(forKey: .signals)
    for signal in reader.signals {
      var s = signals.nestedContainer(keyedBy: Key.self)
      try s.encode(signal.name, forKey: .name)
      try s.encode(signal.unit, forKey: .unit)
      try s.encode(signal.sampleRate, forKey: .sample_rate)
      try s.encode(signal.sampleCount, forKey: .sample_count)
    }
    let annotators = WFDBAnnotationFile.annotators(besideRecord: handle.path).map(\.annotator)
    try c.encode(annotators, forKey: .annotation_files)
  }
}

/// Annotations as ``vitals_annotations_read(_:_:_:_:)`` encodes them: one array per field.
private struct AnnotationColumns: Encodable {
  var samples: [Int64]
  var symbols: [String]
  var subtypes: [Int]
  var channels: [Int]
  var aux: [String]

  init(_ annotations: [WFDBAnnotation]) {
    samples = annotations.map(\.sample)
    symbols = annotations.map(\.symbol)
    subtypes = annotations.map(\.subtype)
    channels = annotations.map(\.channel)
    aux = annotations.map(\.aux)
  }
}
