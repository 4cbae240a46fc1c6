import VitalsSupport

/// One annotation of a WFDB annotation file (`.atr`, `.qrs`, …), as PhysioNet's `annot(5)` and
/// wfdb-python's `rdann` define its fields.
public struct WFDBAnnotation: Sendable, Equatable, Codable {
  /// Sample index (at the record's frame rate) the annotation refers to.
  public var sample: Int64
  /// Annotation code (1–49; see ``WFDBAnnotation/symbols``).
  public var code: Int
  /// Subtype (`SUB`), a signed byte; 0 when absent.
  public var subtype: Int
  /// Signal number (`CHN`), an unsigned byte; carried over from the previous annotation.
  public var channel: Int
  /// Annotator number (`NUM`), a signed byte; carried over from the previous annotation.
  public var number: Int
  /// Auxiliary text (`AUX`), e.g. rhythm changes `(AFIB`; empty when absent.
  public var aux: String

  /// An annotation of `code` at `sample`; modifiers default to absent (0, empty).
  public init(sample: Int64, code: Int, subtype: Int = 0, channel: Int = 0, number: Int = 0, aux: String = "")
  {
    self.sample = sample
    self.code = code
    self.subtype = subtype
    self.channel = channel
    self.number = number
    self.aux = aux
  }

  /// Creates an annotation from its mnemonic (`N`, `V`, `+`); `nil` for an unknown symbol.
  public init?(
    sample: Int64, symbol: String, subtype: Int = 0, channel: Int = 0, number: Int = 0, aux: String = ""
  ) {
    guard let code = Self.symbols.firstIndex(of: symbol), !symbol.isEmpty else { return nil }
    self.init(sample: sample, code: code, subtype: subtype, channel: channel, number: number, aux: aux)
  }

  /// The mnemonic of ``code`` (WFDB `ecgcodes.h`; `[n]` for codes without one).
  public var symbol: String {
    Self.symbols.indices.contains(code) && !Self.symbols[code].isEmpty ? Self.symbols[code] : "[\(code)]"
  }

  /// Whether the code is a beat for scoring (`N L R B A a J S V r F e j n E / f Q ?`, as ANSI/AAMI EC57 and WFDB `bxb` count them).
  public var isBeat: Bool { Self.beatCodes.contains(code) }

  /// Mnemonics indexed by code, as WFDB's `ecgcodes.h` and wfdb-python's `ann_label_table`
  /// (0 is `NOTQRS`, printed as a space; 15 and 17 are unassigned).
  public static let symbols: [String] = [
    " ", "N", "L", "R", "a", "V", "F", "J", "A", "S", "E", "j", "/", "Q", "~", "", "|", "", "s", "T", "*",
    "D",
    "\"", "=", "p", "B", "^", "t", "+", "u", "?", "!", "[", "]", "e", "n", "@", "x", "f", "(", ")", "r",
  ]

  /// Codes of the beat annotations counted in beat-detection scoring.
  public static let beatCodes: Set<Int> = [1, 2, 3, 25, 8, 4, 7, 9, 5, 41, 6, 34, 11, 35, 10, 12, 38, 13, 30]
}

/// Reading and writing MIT-format annotation files (`annot(5)`): 16-bit little-endian words of a
/// 6-bit code and a 10-bit sample difference, with `SKIP` (59) for longer gaps, `NUM` (60),
/// `SUB` (61), `CHN` (62) and `AUX` (63) modifying the annotation before them.
public enum WFDBAnnotationFile {
  // Pseudo-annotation codes (computed, so the parser's switch compares constants).
  static var skip: Int { 59 }
  static var num: Int { 60 }
  static var sub: Int { 61 }
  static var chn: Int { 62 }
  static var aux: Int { 63 }

  /// Reads the annotation file at `path`.
  public static func read(path: String) throws(InputError) -> [WFDBAnnotation] {
    try parse(try ByteInput(path: path).readAll(), path: path)
  }

  /// The annotation files beside the record at `recordPath` (`dir/100` or `dir/100.hea`): every
  /// `dir/100.EXT` other than headers and signal files that reads as an MIT annotation file (so ends
  /// with the end-of-file word `0x0000`), by annotator name (`atr`, `qrs`, …) with its number of
  /// annotations, sorted by name.
  public static func annotators(besideRecord recordPath: String) -> [(annotator: String, count: Int)] {
    filesBeside(record: recordPath).compactMap { file in
      (try? file.annotations.get()).map { (file.annotator, $0) }
    }
  }

  /// Every `dir/100.EXT` beside the record at `recordPath` other than headers and signal files, by
  /// annotator name (sorted), with its number of annotations or why it does not read as an MIT
  /// annotation file (cut short, or not one at all).
  public static func filesBeside(record recordPath: String)
    -> [(annotator: String, annotations: Result<Int, InputError>)]
  {
    let record = recordPath.hasSuffix(".hea") ? String(recordPath.dropLast(4)) : recordPath
    let slash = record.lastIndex(of: "/")
    let directory = slash.map { String(record[...$0]) } ?? ""
    let prefix = (slash.map { String(record[record.index(after: $0)...]) } ?? record) + "."
    let signalFiles = ["hea", "dat", "mat", "xyz", "flac"]
    var found: [(annotator: String, annotations: Result<Int, InputError>)] = []
    for name in FileSystem.entries(of: directory) where name.hasPrefix(prefix) {
      let annotator = String(name.dropFirst(prefix.count))
      guard !annotator.isEmpty, !signalFiles.contains(annotator) else { continue }
      found.append(
        (
          annotator,
          Result { () throws(InputError) in
            try parse(try ByteInput(path: directory + name).readAll(), path: directory + name).count
          }
        ))
    }
    return found.sorted { $0.annotator < $1.annotator }
  }

  /// The largest annotation time accepted, in samples: 2^53, the integers a `Double` holds exactly.
  public static let maximumTime: Int64 = 1 << 53

  /// Parses annotation bytes as wfdb-python's `rdann` does (NUM and SUB as signed bytes, CHN
  /// unsigned; NUM and CHN carried over), checking the structure `annot(5)` gives the file. Drops
  /// code-0 entries (a word of code 0 and a non-zero time difference, which WFDB writes after the
  /// file's definitions) and NOTE (`"`) entries at sample 0 — the file's own definitions, e.g.
  /// `## time resolution` or the writing program — as `rdann` does. `path` names the file in errors.
  ///
  /// Throws an ``InputError`` naming the byte offset when the bytes are not such a file: an empty
  /// file or an odd number of bytes; no end-of-file word `0x0000`, or bytes after it (a truncated
  /// file, or another kind of file); a code of 50–58; `SKIP` without its 4-byte interval, or `AUX`
  /// without the text its byte count announces; `NUM`, `SUB`, `CHN` or `AUX` before any annotation;
  /// an annotation at a negative time, earlier than the one before it, or after ``maximumTime``.
  public static func parse(_ bytes: [UInt8], path: String) throws(InputError) -> [WFDBAnnotation] {
    var decoder = AnnotationDecoder(bytes: bytes, path: path)
    if bytes.isEmpty { throw InputError(path: path, "empty annotation file") }
    guard bytes.count % 2 == 0 else {
      throw decoder.fail(
        bytes.count - 1,
        "odd number of bytes (\(bytes.count)): an MIT annotation file is a sequence of 16-bit words")
    }
    while decoder.index < bytes.count {
      let index = decoder.index
      if decoder.word(index) == 0 {
        guard index + 2 == bytes.count else {
          throw decoder.fail(
            index + 2,
            "\(bytes.count - index - 2) bytes after the end-of-file word 0x0000 at byte \(index): "
              + "not an MIT annotation file")
        }
        // Not annotations: code 0 (NOTQRS) and NOTEs at sample 0, which hold the file's own
        // definitions (time resolution, label tables, the writing program), as `rdann` drops them.
        decoder.annotations.removeAll { $0.code == 0 || ($0.code == 22 && $0.sample == 0) }
        return decoder.annotations
      }
      try decoder.decodeWord()
    }
    throw decoder.fail(
      bytes.count,
      "no end-of-file word 0x0000: the annotation file is truncated (or is not an MIT annotation file)")
  }

  /// An annotation type a file defines for itself: a code of 1–49 that `ecgcodes.h` leaves
  /// unassigned (42–49), its mnemonic (1–3 characters, as wfdb-python allows) and description.
  public struct TypeDefinition: Sendable, Equatable {
    public var code: Int
    public var mnemonic: String
    public var description: String

    public init(code: Int, mnemonic: String, description: String) {
      self.code = code
      self.mnemonic = mnemonic
      self.description = description
    }
  }

  /// The bytes of an annotation file holding `annotations` (sorted by sample), as wfdb-python's
  /// `wrann` writes them: SKIP for differences over 1023, NUM and CHN only when they change,
  /// SUB when non-zero, AUX when non-empty (padded to an even length), then `0x0000`.
  ///
  /// With `definitions`, the file starts as the WFDB library's `annopen` writes one with modified
  /// annotation types: NOTE (`"`) annotations at sample 0 holding `## annotation type definitions`,
  /// `CODE MNEMONIC DESCRIPTION` per type and `## end of definitions`, then a null annotation (code
  /// 0) at sample 0; readers (WFDB's `getann`, wfdb-python's `rdann`, ``parse(_:path:)``) take them
  /// for the table, not for annotations.
  ///
  /// - Precondition: samples are non-decreasing and non-negative; codes are 1–49; subtype and
  ///   number fit a signed byte, channel an unsigned byte; aux text is at most 255 UTF-8 bytes.
  public static func encode(_ annotations: [WFDBAnnotation], definitions: [TypeDefinition] = []) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(annotations.count * 2 + 2)
    func append(_ code: Int, _ low: Int) {
      bytes.append(UInt8(low & 0xFF))
      bytes.append(UInt8(code << 2 | (low >> 8) & 3))
    }
    func appendSkip(_ step: Int64) {
      append(skip, 0)
      bytes += [
        UInt8(step >> 16 & 0xFF), UInt8(step >> 24 & 0xFF), UInt8(step & 0xFF), UInt8(step >> 8 & 0xFF),
      ]
    }
    func appendAux(_ aux: String) {
      let text = Array(aux.utf8)
      precondition(text.count <= 255, "aux text longer than 255 bytes")
      append(Self.aux, text.count)
      bytes += text
      if text.count % 2 == 1 { bytes.append(0) }
    }
    if !definitions.isEmpty {
      let table =
        ["## annotation type definitions"]
        + definitions.map { "\($0.code) \($0.mnemonic) \($0.description)" } + ["## end of definitions"]
      for line in table {
        append(22, 0)
        appendAux(line)
      }
      // A null annotation at sample 0: a SKIP to −1, then code 0 one sample later.
      appendSkip(-1)
      append(0, 1)
    }
    var previous: Int64 = 0
    var channel = 0
    var number = 0
    for annotation in annotations {
      precondition((1...49).contains(annotation.code), "annotation code \(annotation.code) is not 1–49")
      precondition(annotation.sample >= previous, "annotations must be sorted by sample")
      precondition((-128...127).contains(annotation.subtype) && (-128...127).contains(annotation.number))
      precondition((0...255).contains(annotation.channel), "channel must fit an unsigned byte")
      var difference = annotation.sample - previous
      previous = annotation.sample
      while difference > 1023 {
        let step = min(difference, Int64(Int32.max))
        appendSkip(step)
        difference -= step
      }
      append(annotation.code, Int(difference))
      if annotation.number != number {
        number = annotation.number
        append(num, number & 0xFF)
      }
      if annotation.subtype != 0 { append(sub, annotation.subtype & 0xFF) }
      if annotation.channel != channel {
        channel = annotation.channel
        append(chn, channel)
      }
      if !annotation.aux.isEmpty { appendAux(annotation.aux) }
    }
    bytes += [0, 0]
    return bytes
  }
}

/// The state of ``WFDBAnnotationFile/parse(_:path:)`` between words: the annotations so far, the
/// running time, NUM and CHN (carried over to the next annotations), and the byte index.
private struct AnnotationDecoder {
  let bytes: [UInt8]
  let path: String
  var annotations: [WFDBAnnotation] = []
  var time: Int64 = 0
  var channel = 0
  var number = 0
  var index = 0

  init(bytes: [UInt8], path: String) {
    self.bytes = bytes
    self.path = path
    // At most one annotation per word; bounded, as the bytes may be any file.
    annotations.reserveCapacity(min(bytes.count / 2, 1 << 20))
  }

  @inline(__always)
  func word(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }

  func fail(_ at: Int, _ message: String) -> InputError {
    InputError(path: path, location: .byteOffset(Int64(at)), message)
  }

  /// Decodes the non-zero word at ``index`` (with the bytes a SKIP or AUX takes) and moves past it.
  @inline(__always)
  mutating func decodeWord() throws(InputError) {
    let value = word(index)
    let code = value >> 10
    let low = value & 0x3FF
    switch code {
    case WFDBAnnotationFile.skip:
      guard index + 6 <= bytes.count else { throw fail(index, "truncated SKIP: expected 4 more bytes") }
      let interval = UInt32(word(index + 2)) << 16 | UInt32(word(index + 4))
      time += Int64(Int32(bitPattern: interval))
      index += 6
    case WFDBAnnotationFile.num, WFDBAnnotationFile.sub, WFDBAnnotationFile.chn:
      try modify(code: code, byte: low & 0xFF)
      index += 2
    case WFDBAnnotationFile.aux:
      let length = low & 0xFF
      guard index + 2 + length <= bytes.count else {
        throw fail(index, "truncated AUX: expected \(length) bytes of text")
      }
      guard let last = annotations.indices.last else { throw fail(index, "AUX before any annotation") }
      annotations[last].aux = String(decoding: bytes[(index + 2)..<(index + 2 + length)], as: UTF8.self)
      index += 2 + (length + 1) / 2 * 2
    case 0...49:
      try append(code: code, difference: low)
      index += 2
    default:
      throw fail(
        index,
        "invalid annotation code \(code): expected 1–49, or 59–63 (SKIP, NUM, SUB, CHN, AUX), "
          + "or the end-of-file word 0x0000")
    }
  }

  /// Sets the NUM, SUB or CHN field `code` of the last annotation to `byte` (NUM and SUB signed).
  private mutating func modify(code: Int, byte: Int) throws(InputError) {
    guard let last = annotations.indices.last else {
      let name =
        code == WFDBAnnotationFile.num ? "NUM" : code == WFDBAnnotationFile.sub ? "SUB" : "CHN"
      throw fail(index, "\(name) before any annotation")
    }
    switch code {
    case WFDBAnnotationFile.num:
      number = Int(Int8(truncatingIfNeeded: byte))
      annotations[last].number = number
    case WFDBAnnotationFile.sub: annotations[last].subtype = Int(Int8(truncatingIfNeeded: byte))
    default:
      channel = byte
      annotations[last].channel = channel
    }
  }

  /// Appends an annotation of `code` `difference` samples after the previous one, refusing a time
  /// outside 0–``WFDBAnnotationFile/maximumTime`` or before the previous annotation's.
  @inline(__always)
  private mutating func append(code: Int, difference: Int) throws(InputError) {
    time += Int64(difference)
    guard (0...WFDBAnnotationFile.maximumTime).contains(time) else {
      throw fail(index, "annotation at sample \(time): expected a time from 0 to 2^53 samples")
    }
    if let previous = annotations.last?.sample, time < previous {
      throw fail(index, "annotation at sample \(time) after one at \(previous): expected time order")
    }
    annotations.append(WFDBAnnotation(sample: time, code: code, channel: channel, number: number))
  }
}
