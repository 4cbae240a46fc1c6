import VitalsCore

/// One EDF+ annotation: a text at an onset, from a time-stamped annotation list (TAL).
public struct EDFAnnotation: Sendable, Equatable, Codable {
  /// Seconds from the file's start time (the header's start date and time).
  public var onset: Double
  /// Seconds, when the TAL states a duration.
  public var duration: Double?
  /// The annotation text, e.g. `QRS`: UTF-8 as EDF+ says, or Latin-1 (each byte the character of its
  /// code point) when the bytes are not valid UTF-8, as pyedflib falls back.
  public var text: String

  /// An annotation at `onset` seconds.
  public init(onset: Double, duration: Double?, text: String) {
    self.onset = onset
    self.duration = duration
    self.text = text
  }
}

/// A stretch of time without data records in an EDF+D file.
public struct EDFGap: Sendable, Equatable, Codable {
  /// Index of the first data record after the gap.
  public var record: Int
  /// Seconds from the file's start time at which the gap begins (end of the previous record).
  public var start: Double
  /// Length of the gap in seconds.
  public var duration: Double
}

/// What the annotation signal of a whole file holds.
public struct EDFAnnotationIndex: Sendable, Equatable {
  /// Annotations with text, in file order (the records' time-keeping TALs left out, as pyedflib
  /// `readAnnotations` does).
  public var annotations: [EDFAnnotation]
  /// Start of each data record in seconds from the file's start time.
  public var recordOnsets: [Double]
  /// Discontinuities: records that start later than the previous record ends (by more than 1 µs).
  public var gaps: [EDFGap]
}

/// Parser of the TALs in one record's annotation signal bytes (EDF+ spec, section 2.2):
/// `+onset[\u{15}duration]\u{14}text\u{14}…\u{14}\u{0}`, padded with NULs.
enum TALParser {
  /// Calls `body(onset, duration, text)` for every annotation text (an empty text for the
  /// time-keeping TAL); returns the onset of the record's first TAL.
  ///
  /// Checks each TAL's structure and throws an ``InputError`` naming the byte offset (`byteOffset` is
  /// that of `slice`'s first byte) where it breaks: an onset that is not a sign (`+` or `-`) and a
  /// decimal number (`.` or `,` before the fraction), a `\u{15}` not followed by such a duration, no
  /// `\u{14}` after the time stamp, no `\u{0}` before the end of the record's annotation bytes, or
  /// a last text not closed by `\u{14}` before the `\u{0}`, or an onset of more than
  /// `SignalChunk/longestRecordingSeconds` either side of the start.
  static func parse(
    _ slice: ArraySlice<UInt8>, path: String, byteOffset: Int64,
    _ body: (Double, Double?, String) -> Void
  ) throws(InputError) -> Double? {
    let tal = TALBytes(bytes: Array(slice), path: path, byteOffset: byteOffset)
    let bytes = tal.bytes
    var first: Double?
    var i = 0
    let n = bytes.count
    while i < n {
      if bytes[i] == 0 {
        i += 1
        continue
      }
      let (onset, duration, textsStart) = try tal.timeStamp(at: i)
      if first == nil { first = onset }
      // Texts, each closed by 0x14, until 0x00.
      var j = textsStart
      var textStart = j
      var texts = 0
      while j < n && bytes[j] != 0 {
        if bytes[j] == 0x14 {
          body(onset, duration, decodeHeaderText(bytes[textStart..<j]))
          texts += 1
          textStart = j + 1
        }
        j += 1
      }
      guard j < n else { throw tal.fail(i, "expected the TAL to end with \\u{0} within the record") }
      guard textStart == j else {
        throw tal.fail(j, "expected \\u{14} to close the annotation text before the TAL's \\u{0}")
      }
      if texts == 0 { body(onset, duration, "") }
      i = j + 1
    }
    return first
  }
}

/// One record's annotation bytes, with the errors that name a byte offset in the file.
private struct TALBytes {
  let bytes: [UInt8]
  let path: String
  /// Byte offset in the file of `bytes[0]`.
  let byteOffset: Int64

  func fail(_ at: Int, _ message: String) -> InputError {
    InputError(path: path, location: .byteOffset(byteOffset + Int64(at)), message)
  }

  func shown(_ at: Int) -> String {
    at < bytes.count ? describe(bytes[at]) : "the end of the record's annotation bytes"
  }

  /// The time stamp `±onset[\u{15}duration]\u{14}` of the TAL at `i`, in seconds, and the index of
  /// its first text.
  func timeStamp(at i: Int) throws(InputError) -> (onset: Double, duration: Double?, textsStart: Int) {
    let n = bytes.count
    let sign = bytes[i]
    guard sign == 0x2B || sign == 0x2D else {
      throw fail(i, "expected a TAL starting with the onset's sign + or -, found \(shown(i))")
    }
    guard let (magnitude, onsetEnd) = number(at: i + 1) else {
      throw fail(i + 1, "expected the TAL's onset in seconds after the sign, found \(shown(i + 1))")
    }
    guard magnitude <= SignalChunk.longestRecordingSeconds else {
      throw fail(
        i,
        "the TAL's onset \(magnitude) s lies beyond the longest recording read, "
          + "\(SignalChunk.longestRecordingSeconds) s (366 days)")
    }
    let onset = sign == 0x2D ? -magnitude : magnitude
    var j = onsetEnd
    var duration: Double?
    if j < n, bytes[j] == 0x15 {
      guard let (value, end) = number(at: j + 1) else {
        throw fail(j + 1, "expected a duration in seconds after \\u{15}, found \(shown(j + 1))")
      }
      duration = value
      j = end
    }
    guard j < n, bytes[j] == 0x14 else {
      throw fail(j, "expected \\u{14} after the TAL's onset and duration, found \(shown(j))")
    }
    return (onset, duration, j + 1)
  }

  /// The decimal number at `start` (digits, at most one `.` or `,`), and the index after it.
  func number(at start: Int) -> (value: Double, end: Int)? {
    var end = start
    var digits = 0
    var separators = 0
    while end < bytes.count {
      let byte = bytes[end]
      if (0x30...0x39).contains(byte) {
        digits += 1
      } else if (byte == 0x2E || byte == 0x2C) && separators == 0 {
        separators += 1
      } else {
        break
      }
      end += 1
    }
    let text = String(decoding: bytes[start..<end], as: UTF8.self).replacingCommas()
    guard digits > 0, let value = Double(text), value.isFinite else { return nil }
    return (value, end)
  }
}

/// `byte` as a message shows it: the character when printable ASCII, else `0xNN`.
private func describe(_ byte: UInt8) -> String {
  if (0x21...0x7E).contains(byte) { return "'\(Character(UnicodeScalar(byte)))'" }
  return "0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
}
