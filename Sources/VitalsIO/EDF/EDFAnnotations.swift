/// One EDF+ annotation: a text at an onset, from a time-stamped annotation list (TAL).
public struct EDFAnnotation: Sendable, Equatable, Codable {
  /// Seconds from the file's start time (the header's start date and time).
  public var onset: Double
  /// Seconds, when the TAL states a duration.
  public var duration: Double?
  /// The annotation text (UTF-8), e.g. `QRS`.
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
  static func parse(
    _ slice: ArraySlice<UInt8>, path: String, byteOffset: Int64,
    _ body: (Double, Double?, String) -> Void
  ) throws(InputError) -> Double? {
    let bytes = Array(slice)
    var first: Double?
    var i = 0
    let n = bytes.count
    while i < n {
      if bytes[i] == 0 {
        i += 1
        continue
      }
      let talStart = i
      // Onset and optional duration up to the first 0x14.
      var j = i
      while j < n && bytes[j] != 0x14 && bytes[j] != 0 { j += 1 }
      guard j < n, bytes[j] == 0x14 else {
        throw InputError(
          path: path, location: .byteOffset(byteOffset + Int64(talStart)),
          "expected a TAL \"+onset\\u{14}…\" ending in \\u{14}\\u{0}")
      }
      let stamp = Array(bytes[i..<j])
      let parts = stamp.split(separator: 0x15, omittingEmptySubsequences: false)
      guard let onsetBytes = parts.first, let sign = onsetBytes.first, sign == 0x2B || sign == 0x2D,
        let onset = Double(String(decoding: onsetBytes, as: UTF8.self).replacingCommas())
      else {
        throw InputError(
          path: path, location: .byteOffset(byteOffset + Int64(talStart)),
          "expected a TAL onset like +12.5, found \"\(String(decoding: stamp.prefix(40), as: UTF8.self))\"")
      }
      var duration: Double?
      if parts.count > 1, !parts[1].isEmpty {
        duration = Double(String(decoding: parts[1], as: UTF8.self).replacingCommas())
      }
      if first == nil { first = onset }
      // Texts separated by 0x14 until 0x00.
      j += 1
      var textStart = j
      var texts = 0
      while j < n && bytes[j] != 0 {
        if bytes[j] == 0x14 {
          body(onset, duration, String(decoding: bytes[textStart..<j], as: UTF8.self))
          texts += 1
          textStart = j + 1
        }
        j += 1
      }
      if texts == 0 { body(onset, duration, "") }
      i = j + 1
    }
    return first
  }
}
