import VitalsCore
import VitalsSupport

/// Beat positions read from a file, checked: an MIT annotation file (`100.atr`, `100.qrs`), a CSV
/// file with a `sample` column, or the annotations of an EDF+ file.
///
/// **Kinds.** An EDF/EDF+ file is recognized from its content (`0` and seven spaces);
/// a file named `.csv`, `.tsv` or `.txt` is CSV; anything else is read as an MIT annotation file.
///
/// - MIT annotation file: the beats are the annotations whose code is a beat
///   (``WFDBAnnotation/isBeat``); the file's structure is checked by
///   ``WFDBAnnotationFile/parse(_:path:)``.
/// - CSV: a header line naming a `sample` column (any case, quotes and blanks around names and
///   values ignored; delimiter tab, else `;` when there is no `,`, else `,`), then one beat per line:
///   a non-negative whole sample index (`180`, or `180.0` with only zeros after the point), strictly
///   increasing, and below the record's length when it is known. Blank lines are skipped. An optional
///   `label` column gives each beat's class: an EC57 letter `N S V F Q` or an MIT beat mnemonic (`N L R
///   B A a J S V r F e j n E / f Q ?`; the letters are mnemonics of their class), kept in ``labels``.
///   Other columns are not read.
/// - Every kind: no beat beyond the longest recording read (`SignalChunk/longestRecordingSeconds`,
///   366 days, at the file's rate; EDF+ onsets are bounded by ``EDFReader``), so that intervals and
///   times computed from the beats stay far inside `Int64` and HRV's grids stay bounded.
/// - EDF+: the onsets of the annotation signal's annotations. When the texts differ, only the
///   beat-like ones count: `QRS`, `R`, `R-peak`, `beat`, `heartbeat` (any case) and the MIT beat
///   mnemonics (`N`, `V`, …); a file with several texts and none of these is refused. An onset
///   becomes the nearest sample of the chosen signal, counted from the first data record (EDF+D: on the
///   grid of the first record, gaps included, as ``EDFReader`` yields them).
///
/// **Rate.** EDF: the rate of the signal `channels` selects (by default the first rate group, as
/// ``EDFReader`` opens it). Otherwise the record header beside the file (`dir/100.atr` →
/// `dir/100.hea`), else `rate`. A `rate` that contradicts the EDF or the header is an error, and so
/// is no rate at all.
///
/// Every error is an ``InputError`` naming the file and the line (CSV) or byte offset.
public struct BeatFile: Sendable {
  /// What kind of file the beats came from.
  public enum Kind: String, Sendable, Equatable {
    case wfdbAnnotations = "WFDB annotations"
    case csv = "CSV"
    case edfAnnotations = "EDF+ annotations"
  }

  /// The kind of file read.
  public var kind: Kind
  /// Beat sample indices at ``sampleRate``, in time order (strictly increasing for CSV and EDF+;
  /// non-decreasing for annotation files, which may mark one sample on two signals).
  public var samples: [Int64]
  /// MIT mnemonics of the beats, one per sample: an annotation file's codes, or a CSV file's `label`
  /// column; `nil` for a CSV file without one and for EDF+ (whose texts, such as `R` for an R peak, are
  /// not MIT classes).
  public var labels: [String]?
  /// Every annotation of an MIT annotation file, beats and others (rhythm changes, flutter episodes
  /// `[` `]`); empty for the other kinds.
  public var annotations: [WFDBAnnotation]
  /// Samples per second of ``samples``.
  public var sampleRate: Double
  /// Samples in the record, when the EDF file or the header beside the file states it.
  public var recordLength: Int64?
  /// What was assumed in reading the file (which EDF+ texts counted as beats, the header's notes).
  public var notes: [String]

  /// Reads and checks the beats of `path`.
  ///
  /// - Parameters:
  ///   - rate: samples per second of the positions when the file does not state it; when it does, a
  ///     different `rate` is an error.
  ///   - recordLength: samples in the record the beats belong to, when the caller knows it (CSV beats
  ///     must lie below it; the header beside the file gives it otherwise).
  ///   - channels: the EDF signal whose rate the onsets are converted at (`nil`: the first rate group).
  public init(
    path: String, rate: Double? = nil, recordLength: Int64? = nil, channels: [ChannelSelector]? = nil
  ) throws(InputError) {
    let input = try ByteInput(path: path)
    notes = []
    annotations = []
    labels = nil
    samples = []
    self.recordLength = recordLength
    if Self.isEDF(head: try input.bytes(at: 0, count: 8)) {
      kind = .edfAnnotations
      let reader = try EDFReader(path: path, channels: channels)
      sampleRate = reader.chunkSampleRate
      self.recordLength = reader.signals[0].sampleCount
      notes = reader.header.notes
      if let rate, rate != sampleRate {
        throw InputError(
          path: path,
          "the EDF signal \(reader.signals[0].name) is sampled at \(sampleRate) Hz, but a rate of \(rate) Hz "
            + "was given")
      }
      try readEDFBeats(reader, path: path)
      return
    }
    let header = try Self.recordHeader(besideFile: path)
    if let header {
      sampleRate = header.frameRate
      notes = header.notes
      if let rate, rate != header.frameRate {
        throw InputError(
          path: path,
          "the record header beside it (\(Self.recordPath(path)).hea) gives \(header.frameRate) Hz, but a "
            + "rate of \(rate) Hz was given")
      }
    } else if let rate {
      sampleRate = try supportedSampleRate(
        rate, field: "rate given for the beats", path: path, location: .file)
    } else {
      throw InputError(
        path: path,
        "no record header beside it (\(Self.recordPath(path)).hea) to give the rate: pass the rate "
          + "(--rate HZ)"
      )
    }
    self.recordLength = recordLength ?? header?.frameCount
    let bytes = try input.readAll()
    let lower = path.lowercased()
    if [".csv", ".tsv", ".txt"].contains(where: { lower.hasSuffix($0) }) {
      kind = .csv
      (samples, labels) = try Self.parseCSV(
        bytes, path: path, recordLength: self.recordLength, sampleRate: sampleRate)
    } else {
      kind = .wfdbAnnotations
      do {
        annotations = try WFDBAnnotationFile.parse(bytes, path: path)
      } catch {
        let looksLikeText = bytes.prefix(4096).allSatisfy {
          $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D
        }
        guard looksLikeText else { throw error }
        throw InputError(
          path: error.path, location: error.location,
          error.message + " (the file looks like text: a CSV beat file needs a .csv, .tsv or .txt name)")
      }
      let beats = annotations.filter(\.isBeat)
      try Self.checkRange(of: beats, recordLength: self.recordLength, sampleRate: sampleRate, path: path)
      samples = beats.map(\.sample)
      labels = beats.map(\.symbol)
    }
  }

  /// Refuses the first of the WFDB annotation file's `beats` at or beyond `recordLength` (when given) or
  /// beyond the longest recording read at `sampleRate` Hz, naming the beat.
  private static func checkRange(
    of beats: [WFDBAnnotation], recordLength: Int64?, sampleRate: Double, path: String
  ) throws(InputError) {
    if let recordLength, let beyond = beats.firstIndex(where: { $0.sample >= recordLength }) {
      throw InputError(
        path: path,
        "beat \(beyond + 1) lies at sample \(beats[beyond].sample), beyond the record's end (\(recordLength) "
          + "samples)")
    }
    let longest = longestRecordingSamples(at: sampleRate)
    if let beyond = beats.firstIndex(where: { $0.sample > longest }) {
      throw InputError(
        path: path,
        "beat \(beyond + 1) lies at sample \(beats[beyond].sample), beyond the longest recording read "
          + "(\(longest) samples: 366 days at \(sampleRate) Hz)")
    }
  }

  /// The path without its last extension (`dir/100.atr` → `dir/100`).
  public static func recordPath(_ path: String) -> String { FileSystem.deletingPathExtension(path) }

  /// The record name for tables: the file name without extension (`dir/100.atr` → `100`).
  public static func recordName(_ path: String) -> String { FileSystem.lastPathComponent(recordPath(path)) }

  /// The header `recordPath(path).hea` beside the file, or `nil` when there is no such file.
  public static func recordHeader(besideFile path: String) throws(InputError) -> WFDBHeader? {
    let headerPath = recordPath(path) + ".hea"
    guard headerPath != path, FileSystem.isRegularFile(headerPath) else { return nil }
    return try WFDBHeader.parse(try ByteInput(path: headerPath).readAll(), path: headerPath)
  }

  /// Whether the file states its own rate (an EDF file, or a record header beside it), so that no
  /// rate need be given.
  public static func statesRate(path: String) throws(InputError) -> Bool {
    if try recordHeader(besideFile: path) != nil { return true }
    return isEDF(head: try ByteInput(path: path).bytes(at: 0, count: 8))
  }

  /// Whether the first 8 bytes of a file are an EDF version field (`0` and seven spaces).
  private static func isEDF(head: [UInt8]) -> Bool {
    head.count == 8 && head[0] == 0x30 && head[1...].allSatisfy { $0 == 0x20 }
  }

  /// Texts of EDF+ annotations taken as beats when a file holds several kinds (compared ignoring case).
  public static let beatTexts: Set<String> = ["qrs", "r", "r-peak", "rpeak", "beat", "heartbeat"]

  /// Whether an EDF+ annotation text names a beat: one of ``beatTexts`` or an MIT beat mnemonic.
  public static func isBeatText(_ text: String) -> Bool {
    let trimmed = text.trimmingSpaces()
    if beatTexts.contains(trimmed.lowercased()) { return true }
    return WFDBAnnotation(sample: 0, symbol: trimmed)?.isBeat ?? false
  }

  /// The beats of an EDF+ file's annotation signal, as the type's documentation states.
  private mutating func readEDFBeats(_ reader: EDFReader, path: String) throws(InputError) {
    guard reader.header.isPlus, reader.header.signals.contains(where: \.isAnnotation) else {
      throw InputError(
        path: path, location: .byteOffset(192),
        "an EDF file without an EDF+ annotation signal holds no beats (the reserved field says "
          + "\(reader.header.variant))")
    }
    let index = try reader.readAnnotations()
    var chosen = index.annotations
    let texts = Set(chosen.map { $0.text.trimmingSpaces() })
    if texts.count > 1 {
      chosen = chosen.filter { Self.isBeatText($0.text) }
      let kept = Set(chosen.map { $0.text.trimmingSpaces() })
      guard !chosen.isEmpty else {
        throw InputError(
          path: path,
          "no EDF+ annotation names a beat (expected QRS, R, R-peak, beat, heartbeat or an MIT beat "
            + "mnemonic), found \(texts.sorted().prefix(10).joined(separator: ", "))")
      }
      notes.append(
        "beats: the \(chosen.count) annotations named \(kept.sorted().joined(separator: ", ")) of "
          + "\(index.annotations.count); other texts left out: "
          + texts.subtracting(kept).sorted().prefix(10).joined(separator: ", "))
    }
    chosen.sort { $0.onset < $1.onset }
    let samplesPerRecord = Int64(reader.header.signals[reader.selectedSignals[0]].samplesPerRecord)
    let onsets = index.recordOnsets
    var samples: [Int64] = []
    samples.reserveCapacity(chosen.count)
    for annotation in chosen {
      // The last record starting at or before the onset.
      var low = 0
      var high = onsets.count
      while low < high {
        let middle = (low + high) / 2
        if onsets[middle] <= annotation.onset + 1e-9 { low = middle + 1 } else { high = middle }
      }
      let within = low == 0 ? -1 : ((annotation.onset - onsets[low - 1]) * sampleRate).rounded()
      // Record r's first sample: EDFReader puts the records of an EDF+D file on one grid from record 0
      // (the gaps read as missing samples); contiguous records give r × samples per record.
      let recordStart =
        low == 0 ? 0 : EDFReader.gridIndex(of: onsets[low - 1], from: onsets[0], rate: sampleRate)
      guard low > 0, within <= Double(samplesPerRecord), recordStart + Int64(within) < recordLength ?? .max
      else {
        throw InputError(
          path: path,
          "the annotation \"\(annotation.text)\" at \(annotation.onset) s lies outside the data records")
      }
      let sample = recordStart + Int64(within)
      if let previous = samples.last, sample <= previous {
        throw InputError(
          path: path,
          "two beats at sample \(sample) (the annotation \"\(annotation.text)\" at \(annotation.onset) s): "
            + "expected one beat per sample")
      }
      samples.append(sample)
    }
    self.samples = samples
  }

  /// The last sample of the longest recording read (`SignalChunk/longestRecordingSeconds`) at `rate`
  /// Hz (a supported rate): beats beyond it are refused.
  public static func longestRecordingSamples(at rate: Double) -> Int64 {
    Int64(saturating: SignalChunk.longestRecordingSeconds * rate)
  }

  /// The `sample` column of the CSV beat file `bytes` and its `label` column when it has one, checked
  /// as the type's documentation states; `path` names the file in errors, and samples must lie below
  /// `recordLength` when it is given and at most ``longestRecordingSamples(at:)`` at `sampleRate` Hz.
  public static func parseCSV(_ bytes: [UInt8], path: String, recordLength: Int64?, sampleRate: Double)
    throws(InputError) -> (samples: [Int64], labels: [String]?)
  {
    let longest = longestRecordingSamples(at: sampleRate)
    let lines = lineRanges(bytes)
    let isBlank = { (line: Range<Int>) in bytes[line].allSatisfy { $0 == 0x20 || $0 == 0x09 } }
    guard let headerNumber = lines.firstIndex(where: { !isBlank($0) }) else {
      throw InputError(path: path, "empty file: expected a header with a sample column")
    }
    let header = bytes[lines[headerNumber]]
    let delimiter: UInt8 =
      header.contains(0x09) ? 0x09 : header.contains(0x3B) && !header.contains(0x2C) ? 0x3B : 0x2C
    let names = fieldRanges(bytes, lines[headerNumber], delimiter: delimiter).map {
      String(decoding: bytes[$0], as: UTF8.self).lowercased()
    }
    guard let column = names.firstIndex(of: "sample") else {
      throw InputError(
        path: path, location: .line(headerNumber + 1),
        "expected a header with a column named sample, found \(names.joined(separator: ", "))")
    }
    let labelColumn = names.firstIndex(of: "label")
    var samples: [Int64] = []
    samples.reserveCapacity(lines.count - headerNumber - 1)
    var labels: [String] = []
    var previousLine = 0
    for number in (headerNumber + 1)..<lines.count where !isBlank(lines[number]) {
      let row = fieldRanges(
        bytes, lines[number], delimiter: delimiter, limit: max(column, labelColumn ?? 0) + 1)
      let place = InputError.Location.field(line: number + 1, column: column + 1)
      guard column < row.count else {
        throw InputError(
          path: path, location: place, "expected a sample index in column \(column + 1), found none")
      }
      let text = String(decoding: bytes[row[column]], as: UTF8.self)
      guard let value = wholeNumber(text) else {
        throw InputError(path: path, location: place, "expected a whole sample index ≥ 0, found '\(text)'")
      }
      if let previous = samples.last, value <= previous {
        throw InputError(
          path: path, location: place,
          value == previous
            ? "sample \(value) repeats line \(previousLine + 1): expected one beat per sample"
            : "sample \(value) comes after \(previous) (line \(previousLine + 1)): expected increasing "
              + "samples"
        )
      }
      try checkRange(
        value, recordLength: recordLength, longest: longest, sampleRate: sampleRate, path: path, place: place)
      samples.append(value)
      if let labelColumn {
        labels.append(try beatLabel(bytes, row, labelColumn, path: path, line: number + 1))
      }
      previousLine = number
    }
    return (samples, labelColumn == nil ? nil : labels)
  }

  /// The beat label in field `column` of `row`: an MIT beat mnemonic (the EC57 letters among them).
  private static func beatLabel(
    _ bytes: [UInt8], _ row: [Range<Int>], _ column: Int, path: String, line: Int
  ) throws(InputError) -> String {
    let text = column < row.count ? String(decoding: bytes[row[column]], as: UTF8.self) : ""
    guard WFDBAnnotation(sample: 0, symbol: text)?.isBeat == true else {
      throw InputError(
        path: path, location: .field(line: line, column: column + 1),
        "expected a beat label (N, S, V, F, Q or an MIT beat code such as L, R, A, E, /), found '\(text)'")
    }
    return text
  }

  /// The byte ranges of the lines of `bytes` (ended by LF, CR, CRLF, VT or FF), a leading UTF-8
  /// byte-order mark (spreadsheet exports) left out.
  private static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var k = start
    while k < bytes.count {
      let byte = bytes[k]
      if byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C {
        lines.append(start..<k)
        if byte == 0x0D && k + 1 < bytes.count && bytes[k + 1] == 0x0A { k += 1 }
        start = k + 1
      }
      k += 1
    }
    lines.append(start..<bytes.count)
    return lines
  }

  /// The fields of `line` split at `delimiter` (up to `limit` of them), without the blanks and
  /// quotes around them.
  @inline(__always)
  private static func fieldRanges(
    _ bytes: [UInt8], _ line: Range<Int>, delimiter: UInt8, limit: Int = .max
  ) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var fieldStart = line.lowerBound
    for end in line.lowerBound...line.upperBound where end == line.upperBound || bytes[end] == delimiter {
      var lower = fieldStart
      var upper = end
      let padding = { (byte: UInt8) in byte == 0x22 || byte == 0x20 || byte == 0x09 }
      while lower < upper && padding(bytes[lower]) { lower += 1 }
      while upper > lower && padding(bytes[upper - 1]) { upper -= 1 }
      result.append(lower..<upper)
      if result.count == limit { break }
      fieldStart = end + 1
    }
    return result
  }

  /// Refuses a beat at `value` samples at or beyond `recordLength` (when given) or beyond `longest`.
  @inline(__always)
  private static func checkRange(
    _ value: Int64, recordLength: Int64?, longest: Int64, sampleRate: Double, path: String,
    place: InputError.Location
  ) throws(InputError) {
    if let recordLength, value >= recordLength {
      throw InputError(
        path: path, location: place,
        "sample \(value) lies beyond the record's end (\(recordLength) samples)")
    }
    if value > longest {
      throw InputError(
        path: path, location: place,
        "sample \(value) lies beyond the longest recording read (\(longest) samples: 366 days at "
          + "\(sampleRate) Hz)")
    }
  }

  /// A non-negative whole number written as digits, optionally followed by `.` and zeros.
  private static func wholeNumber(_ text: String) -> Int64? {
    var digits = Substring(text)
    if let point = digits.firstIndex(of: ".") {
      guard digits[digits.index(after: point)...].allSatisfy({ $0 == "0" }) else { return nil }
      digits = digits[..<point]
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int64(digits)
  }
}
