import VitalsCore
import VitalsSupport

/// The header of an EDF or EDF+ file (Kemp et al. 1992; Kemp & Olivan 2003), as declared.
///
/// Parsing is tolerant where real files break the rules without ambiguity, as pyedflib (edflib) and
/// MNE are, and ``notes`` says what was assumed: fields padded with leading spaces or NULs, labels
/// with trailing spaces, two-digit years (`01.01.11`: 1985–2084, the spec's clipping rule; `yy` and
/// years after 2084 from the EDF+ `Startdate`), date and time separators other than `.`, anonymized
/// `Startdate X X X X`, a `Startdate` that differs from the header's date or a header date that is
/// not a date beside a `Startdate` that is (the `Startdate` is used, as EDF+ makes it authoritative),
/// a `Startdate` that is not a date beside a header date that is (the header's date is used), `,` as
/// a decimal separator, integers written as `1.0`, a record count of `-1` (recording not closed:
/// counted from the file size), and a reserved field holding something other than `EDF+C`/`EDF+D`
/// (read as plain EDF). Refused with the byte offset of the field: a start date when neither it nor
/// the `Startdate` is a date of 1800–2200, a start time that is not one of the day (a leap second
/// included), and, as edflib refuses them, a digital minimum not below the maximum, a digital limit
/// outside the 16-bit range (−32768…32767), a physical minimum equal to the maximum (no scale), a size
/// that does not match the signal count and unreadable fields; with the byte offset where the data
/// departs from the header: a count of records the file does not hold, bytes after the declared
/// records, and, for a count of `-1`, a file that ends inside a record.
public struct EDFHeader: Sendable, Equatable {
  /// One signal's declaration.
  public struct Signal: Sendable, Equatable {
    /// Label with surrounding spaces removed (`Fp1`, `EDF Annotations`).
    public var label: String
    /// Transducer type (`AgAgCl electrode`).
    public var transducer: String
    /// Physical dimension (`uV`, `mV`, `degC`).
    public var physicalDimension: String
    /// Physical value of ``digitalMinimum``, in ``physicalDimension``.
    public var physicalMinimum: Double
    /// Physical value of ``digitalMaximum``, in ``physicalDimension``.
    public var physicalMaximum: Double
    /// Smallest digital value (−32768 for full-range 16-bit).
    public var digitalMinimum: Int
    /// Largest digital value (32767 for full-range 16-bit).
    public var digitalMaximum: Int
    /// Filters applied before digitizing (`HP:0.1Hz LP:75Hz`).
    public var prefiltering: String
    /// Samples of this signal in each data record.
    public var samplesPerRecord: Int

    /// Whether this is the EDF+ annotation signal.
    public var isAnnotation: Bool { label == "EDF Annotations" }

    /// Whether the physical minimum and maximum differ (a range samples can be scaled to).
    public var hasPhysicalRange: Bool { physicalMinimum != physicalMaximum }

    /// Physical value per digital step: `(pmax − pmin) / (dmax − dmin)`; 1 without a physical range.
    public var scale: Double {
      hasPhysicalRange ? (physicalMaximum - physicalMinimum) / Double(digitalMaximum - digitalMinimum) : 1
    }

    /// Physical value of digital 0: physical = digital × ``scale`` + ``offset`` (edflib's mapping); 0
    /// without a physical range.
    public var offset: Double { hasPhysicalRange ? physicalMaximum - scale * Double(digitalMaximum) : 0 }
  }

  /// `EDF`, `EDF+C` or `EDF+D`.
  public var variant: String
  /// Local patient identification (personal data: not printed by the CLI).
  public var patient: String
  /// Local recording identification.
  public var recording: String
  /// Start of the recording (the header's local date and time read as UTC; EDF has no zone).
  public var startTime: Timestamp
  /// Bytes of header: 256 × (signals + 1).
  public var headerBytes: Int
  /// Number of data records.
  public var recordCount: Int
  /// Seconds per data record (0 for annotation-only files).
  public var recordDuration: Double
  /// Every signal, in file order, the annotation signal included.
  public var signals: [Signal]
  /// What the parser assumed where the header departs from the EDF/EDF+ specification, one
  /// sentence each, for `vitals info`; empty for a header that follows it.
  public var notes: [String] = []

  /// Bytes per data record (2 per sample).
  public var recordBytes: Int { signals.reduce(0) { $0 + 2 * $1.samplesPerRecord } }

  /// Whether the file is EDF+ (has TALs in an annotation signal).
  public var isPlus: Bool { variant != "EDF" }

  /// Parses the fixed 256-byte part and the signal part.
  ///
  /// - Parameters:
  ///   - bytes: at least the whole header (256 × (ns + 1) bytes); call with the first 256 bytes to
  ///     learn the size with ``declaredHeaderBytes(_:path:)``.
  ///   - fileSize: the file's size, to count records when the header says `-1` and to detect truncation.
  init(bytes: [UInt8], path: String, fileSize: Int64?) throws(InputError) {
    var reader = FieldReader(bytes: bytes, path: path)
    let fixed = try FixedPart(reading: &reader, byteCount: bytes.count)
    patient = fixed.patient
    recording = fixed.recording
    headerBytes = fixed.headerBytes
    recordDuration = fixed.recordDuration
    variant = Self.variant(reserved: fixed.reserved, notes: &notes)
    let countsOffset: Int
    (signals, countsOffset) = try Self.readSignals(&reader, count: fixed.signalCount)
    try Self.checkSignals(signals, path: path, countsOffset: countsOffset)
    if variant != "EDF", !signals.contains(where: \.isAnnotation) {
      notes.append("\(variant) without an \"EDF Annotations\" signal: records taken to follow one another")
    }
    recordCount = try Self.recordCount(
      declared: fixed.declaredRecords, at: fixed.recordsOffset, headerBytes: fixed.headerBytes,
      recordBytes: signals.reduce(0) { $0 + 2 * $1.samplesPerRecord }, fileSize: fileSize, path: path,
      notes: &notes)
    let day = try Self.startDate(
      fixed.date, recording: recording, path: path, offset: fixed.dateOffset, notes: &notes)
    let seconds = try Self.clockSeconds(fixed.time, path: path, offset: fixed.dateOffset + 8, notes: &notes)
    startTime = Timestamp(nanosecondsSinceEpoch: (day * 86_400 + seconds) * 1_000_000_000)
    if reader.sawNUL { notes.append("header fields padded with NUL bytes: read as spaces") }
  }

  /// `EDF+D` or `EDF+C` when the reserved field starts so, else `EDF` (with a note when the field
  /// holds something else).
  private static func variant(reserved: String, notes: inout [String]) -> String {
    if reserved.hasPrefix("EDF+D") { return "EDF+D" }
    if reserved.hasPrefix("EDF+C") { return "EDF+C" }
    if !reserved.isEmpty {
      notes.append("the reserved header field holds \"\(reserved)\", not EDF+C or EDF+D: read as plain EDF")
    }
    return "EDF"
  }

  /// The `count` signal declarations of the signal part (each field for every signal in turn), and
  /// the byte offset of the samples-per-record fields.
  private static func readSignals(_ reader: inout FieldReader, count ns: Int) throws(InputError) -> (
    signals: [Signal], countsOffset: Int
  ) {
    var labels = [String]()
    var transducers = [String]()
    var dimensions = [String]()
    var pmins = [Double]()
    var pmaxs = [Double]()
    var dmins = [Int]()
    var dmaxs = [Int]()
    var filters = [String]()
    var counts = [Int]()
    for _ in 0..<ns { labels.append(try reader.text(16, "label")) }
    for _ in 0..<ns { transducers.append(try reader.text(80, "transducer")) }
    for _ in 0..<ns { dimensions.append(try reader.text(8, "physical dimension")) }
    for _ in 0..<ns { pmins.append(try reader.number(8, "physical minimum")) }
    for _ in 0..<ns { pmaxs.append(try reader.number(8, "physical maximum")) }
    for _ in 0..<ns { dmins.append(try reader.integer(8, "digital minimum")) }
    for _ in 0..<ns { dmaxs.append(try reader.integer(8, "digital maximum")) }
    for _ in 0..<ns { filters.append(try reader.text(80, "prefiltering")) }
    let countsOffset = reader.offset
    for _ in 0..<ns { counts.append(try reader.integer(8, "samples per record")) }
    let signals = (0..<ns).map { i in
      Signal(
        label: labels[i], transducer: transducers[i], physicalDimension: dimensions[i],
        physicalMinimum: pmins[i], physicalMaximum: pmaxs[i], digitalMinimum: dmins[i],
        digitalMaximum: dmaxs[i], prefiltering: filters[i], samplesPerRecord: counts[i])
    }
    return (signals, countsOffset)
  }

  /// Refuses a sample count outside 1–10⁷ and, annotation signals excepted, digital limits outside
  /// the 16-bit range, a digital minimum not below the maximum and a physical minimum equal to the
  /// maximum, each naming its field's byte offset.
  private static func checkSignals(
    _ signals: [Signal], path: String, countsOffset: Int
  ) throws(InputError) {
    let ns = signals.count
    for (i, s) in signals.enumerated() {
      func fail(_ field: Int, _ message: String) -> InputError {
        InputError(
          path: path, location: .byteOffset(Int64(256 + ns * field + 8 * i)),
          "signal \(i) (\(s.label)): " + message)
      }
      guard s.samplesPerRecord >= 1, s.samplesPerRecord <= 10_000_000 else {
        throw InputError(
          path: path, location: .byteOffset(Int64(countsOffset + 8 * i)),
          "signal \(i) (\(s.label)): expected 1 to 10000000 samples per record, found \(s.samplesPerRecord)")
      }
      if s.isAnnotation { continue }
      // The signal part's fields start at 256 + ns × (16, 96, 104, 112, 120, 128) bytes.
      for (value, field, name) in [(s.digitalMinimum, 120, "minimum"), (s.digitalMaximum, 128, "maximum")]
      where !(-32768...32767).contains(value) {
        throw fail(
          field, "expected the digital \(name) within the 16-bit range -32768...32767, found \(value)")
      }
      guard s.digitalMinimum < s.digitalMaximum else {
        throw fail(
          120,
          "expected the digital minimum (\(s.digitalMinimum)) below the digital maximum (\(s.digitalMaximum))"
        )
      }
      guard s.hasPhysicalRange else {
        throw fail(
          112,
          "expected the physical maximum to differ from the physical minimum (both \(s.physicalMinimum)): "
            + "the samples have no scale")
      }
    }
  }

  /// The number of data records: the declared count (`-1`: counted from the file size, with a
  /// note), refused when negative or more than the file holds, and when bytes follow the last record
  /// (a partial record for `-1`), naming the byte where they start. Without a file size, the declared
  /// count (0 for `-1`).
  private static func recordCount(
    declared: Int, at recordsOffset: Int, headerBytes: Int, recordBytes: Int, fileSize: Int64?,
    path: String, notes: inout [String]
  ) throws(InputError) -> Int {
    guard let fileSize else { return max(declared, 0) }
    let dataBytes = max(0, fileSize - Int64(headerBytes))
    let available = dataBytes / Int64(recordBytes)
    let recordCount: Int
    if declared == -1 {
      recordCount = Int(available)
      notes.append(
        "the number of data records is -1 (not stated): \(available) records of \(recordBytes) bytes "
          + "counted from the file size")
    } else {
      guard declared >= 0 else {
        throw InputError(
          path: path, location: .byteOffset(Int64(recordsOffset)),
          "expected a record count ≥ 0 or -1, found \(declared)")
      }
      guard Int64(declared) <= available else {
        throw InputError(
          path: path, location: .byteOffset(fileSize),
          "truncated data: the header declares \(declared) records of \(recordBytes) bytes, the file holds \(available) whole records"
        )
      }
      recordCount = declared
    }
    let end = Int64(headerBytes) + Int64(recordCount) * Int64(recordBytes)
    let extra = dataBytes - Int64(recordCount) * Int64(recordBytes)
    if extra > 0 && declared == -1 {
      throw InputError(
        path: path, location: .byteOffset(end),
        "the file ends inside data record \(recordCount): \(extra) of its \(recordBytes) bytes (the record count "
          + "is -1: the file's size gives it)")
    }
    if extra > 0 {
      throw InputError(
        path: path, location: .byteOffset(end),
        "\(extra) bytes after the \(recordCount) data records the header declares (\(extra / Int64(recordBytes)) "
          + "whole records of \(recordBytes) bytes and \(extra % Int64(recordBytes)) bytes): expected the file "
          + "to end there")
    }
    return recordCount
  }

  /// The header size the first 256 bytes declare (so the caller reads exactly that much).
  static func declaredHeaderBytes(_ first: [UInt8], path: String) throws(InputError) -> Int {
    guard first.count >= 256 else {
      throw InputError(
        path: path, location: .byteOffset(Int64(first.count)),
        first.isEmpty ? "empty file" : "truncated header: expected 256 bytes, found \(first.count)")
    }
    var reader = FieldReader(bytes: first, path: path)
    reader.offset = 184
    let size = try reader.integer(8, "header bytes")
    guard size >= 512, size <= 256 * 4097 else {
      throw InputError(
        path: path, location: .byteOffset(184), "expected a header size of 512 or more, found \(size)")
    }
    return size
  }

  /// Days since the epoch of the recording's start date, from the header's `dd.mm.yy` (any
  /// non-digit separator, with a note when not `.`; years 85–99 are 1985–1999, 00–84 are 2000–2084)
  /// and the EDF+ recording field's `Startdate dd-MMM-yyyy`, which carries the century.
  ///
  /// A `Startdate` that is a date of 1800–2200 is used, as EDF+ makes it authoritative: with a note
  /// when the header's date differs from it or is not a date (`31.02.20`, unreadable, a year outside
  /// 1800–2200), without one when the header's year is `yy` (years after 2084). Otherwise the header's
  /// date is used, with a note when a `Startdate` other than the anonymous `X` is not such a date
  /// (`30-FEB-2020`, `01-JAN-1700`, not `dd-MMM-yyyy`). When neither is a date, the header's date is
  /// refused, naming its byte: a day is never carried into the next month, and a year outside
  /// 1800–2200 would overflow `Timestamp`.
  private static func startDate(
    _ text: String, recording: String, path: String, offset: Int, notes: inout [String]
  ) throws(InputError) -> Int64 {
    let words = recording.split(separator: " ")
    // The Startdate's text, unless absent or anonymous (`Startdate X`).
    let stated = words.count >= 2 && words[0] == "Startdate" && words[1] != "X" ? String(words[1]) : nil
    let startdate = stated.map(CivilDate.startdate)
    let header = CivilDate.headerDate(text)
    if case .success(let used) = startdate {
      switch header {
      case .success(let date) where date != used:
        notes.append(
          "the start date \"\(text)\" (\(date.year)) differs from the recording field's Startdate "
            + "\(stated!): the Startdate is used")
      case .failure(let problem) where !problem.leavesYearToStartdate:
        notes.append(
          "the start date \"\(text)\" is not a date (\(problem.reason)): the recording field's Startdate "
            + "\(stated!) is used")
      default: break
      }
      return used.daysSinceEpoch
    }
    switch header {
    case .success(let date):
      if case .failure(let problem) = startdate {
        notes.append(
          "the recording field's Startdate \(stated!) is not a date (\(problem.reason)): the start date "
            + "\"\(text)\" is used")
      }
      if text.contains(where: { !$0.isNumber && $0 != "." }) {
        notes.append("the start date \"\(text)\" is not separated by '.': read as dd.mm.yy")
      }
      return date.daysSinceEpoch
    case .failure(let problem):
      var message = problem.error
      if case .failure(let other) = startdate {
        message += "; nor is the recording field's Startdate \(stated!) a date (\(other.reason))"
      }
      throw InputError(path: path, location: .byteOffset(Int64(offset)), message)
    }
  }

  /// Seconds since midnight of `hh.mm.ss` (any non-digit separator, with a note when not `.`); hours
  /// above 23, minutes above 59 and seconds above 59 are refused, never carried over: second 60, a
  /// leap second, is not counted by Unix time (and so `Timestamp`).
  private static func clockSeconds(_ text: String, path: String, offset: Int, notes: inout [String])
    throws(InputError) -> Int64
  {
    let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    guard numbers.count == 3, numbers[0] < 24, numbers[1] < 60, numbers[2] < 60 else {
      let leap = numbers.count == 3 && numbers[2] == 60
      throw InputError(
        path: path, location: .byteOffset(Int64(offset)),
        leap
          ? "the start time \"\(text)\" is a leap second (second 60), which Unix time (and so Vitals) "
            + "does not count"
          : "expected a start time hh.mm.ss within the day, found \"\(text)\"")
    }
    if text.contains(where: { !$0.isNumber && $0 != "." }) {
      notes.append("the start time \"\(text)\" is not separated by '.': read as hh.mm.ss")
    }
    return Int64(numbers[0] * 3600 + numbers[1] * 60 + numbers[2])
  }
}

/// A day of the proleptic Gregorian calendar, as an EDF header or `Startdate` states it.
private struct CivilDate: Equatable {
  var year: Int
  var month: Int
  var day: Int

  /// Why a date field is not a date: `reason` for a note, `error` for an error naming the field.
  struct Problem: Error {
    var reason: String
    var error: String
    /// Whether the field is `dd.mm.yy` with the letters `yy`: the year is the `Startdate`'s.
    var leavesYearToStartdate = false
  }

  var daysSinceEpoch: Int64 { Timestamp.daysSinceEpoch(year: year, month: month, day: day) }

  /// Why `day` is not a day of `month` (1–12) of `year`, or nil when it is.
  private static func dayProblem(day: Int, month: Int, year: Int) -> String? {
    let days = Timestamp.daysInMonth(year: year, month: month)
    guard !(1...days).contains(day) else { return nil }
    return "\(month == 2 ? "February \(year)" : "month \(month)") has \(days) days"
  }

  /// The EDF+ `Startdate` field `dd-MMM-yyyy` (`02-MAR-2002`, the month in any case), a day of
  /// 1800–2200.
  static func startdate(_ text: String) -> Result<CivilDate, Problem> {
    let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, let d = Int(parts[0]), let y = Int(parts[2]),
      let m = months.firstIndex(of: parts[1].uppercased())
    else {
      let reason = "expected dd-MMM-yyyy"
      return .failure(Problem(reason: reason, error: reason))
    }
    guard (1800...2200).contains(y) else {
      let reason = "expected a year in 1800–2200"
      return .failure(Problem(reason: reason, error: reason))
    }
    if let reason = dayProblem(day: d, month: m + 1, year: y) {
      return .failure(Problem(reason: reason, error: reason))
    }
    return .success(CivilDate(year: y, month: m + 1, day: d))
  }

  /// The header's start date `dd.mm.yy` (any non-digit separator; years 85–99 are 1985–1999, 00–84
  /// 2000–2084, larger numbers the year itself), a day of 1800–2200.
  static func headerDate(_ text: String) -> Result<CivilDate, Problem> {
    let pieces = text.split(whereSeparator: { !$0.isNumber && !$0.isLetter })
    let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    guard numbers.count == 3, (1...31).contains(numbers[0]), (1...12).contains(numbers[1]) else {
      return .failure(
        Problem(
          reason: "expected dd.mm.yy", error: "expected a start date dd.mm.yy, found \"\(text)\"",
          leavesYearToStartdate: pieces.count == 3 && pieces[2].lowercased() == "yy"))
    }
    let yy = numbers[2]
    let year = yy >= 100 ? yy : (yy >= 85 ? 1900 + yy : 2000 + yy)
    guard (1800...2200).contains(year) else {
      return .failure(
        Problem(
          reason: "expected a year in 1800–2200",
          error: "expected a start year in 1800–2200, found \"\(text)\""))
    }
    if let reason = dayProblem(day: numbers[0], month: numbers[1], year: year) {
      return .failure(Problem(reason: reason, error: "the start date \"\(text)\" is not a date: " + reason))
    }
    return .success(CivilDate(year: year, month: numbers[1], day: numbers[0]))
  }
}

/// The fixed 256-byte part of an EDF header, read and checked (version, signal count, header size,
/// record duration); the date, time and record count are checked later, with their byte offsets.
private struct FixedPart {
  var patient: String
  var recording: String
  var dateOffset: Int
  var date: String
  var time: String
  var headerBytes: Int
  var reserved: String
  var recordsOffset: Int
  var declaredRecords: Int
  var recordDuration: Double
  var signalCount: Int

  init(reading reader: inout FieldReader, byteCount: Int) throws(InputError) {
    let path = reader.path
    let version = try reader.text(8, "version")
    guard version == "0" else {
      throw InputError(
        path: path, location: .byteOffset(0), "expected EDF version \"0\", found \"\(version)\"")
    }
    patient = try reader.text(80, "patient")
    recording = try reader.text(80, "recording")
    dateOffset = reader.offset
    date = try reader.text(8, "start date")
    time = try reader.text(8, "start time")
    headerBytes = try reader.integer(8, "header bytes")
    reserved = try reader.text(44, "reserved")
    recordsOffset = reader.offset
    declaredRecords = try reader.integer(8, "number of data records")
    recordDuration = try reader.number(8, "data record duration")
    signalCount = try reader.integer(4, "number of signals")
    guard (1...4096).contains(signalCount) else {
      throw InputError(
        path: path, location: .byteOffset(252), "expected 1 to 4096 signals, found \(signalCount)")
    }
    guard headerBytes == 256 * (signalCount + 1) else {
      throw InputError(
        path: path, location: .byteOffset(184),
        "header size \(headerBytes) does not match \(signalCount) signals (expected \(256 * (signalCount + 1)))"
      )
    }
    guard byteCount >= headerBytes else {
      throw InputError(
        path: path, location: .byteOffset(Int64(byteCount)),
        "truncated header: expected \(headerBytes) bytes, found \(byteCount)")
    }
    guard recordDuration >= 0, recordDuration.isFinite else {
      throw InputError(path: path, location: .byteOffset(244), "expected a record duration ≥ 0")
    }
  }
}

/// Reads consecutive fixed-width ASCII header fields.
private struct FieldReader {
  let bytes: [UInt8]
  let path: String
  var offset = 0
  /// Whether a field read so far held a NUL byte (read as a space).
  var sawNUL = false

  /// The next `width` bytes as text (``decodeHeaderText(_:)``), NULs read as spaces, control
  /// characters as `?`, surrounding spaces removed.
  mutating func text(_ width: Int, _ what: String) throws(InputError) -> String {
    guard offset + width <= bytes.count else {
      throw InputError(
        path: path, location: .byteOffset(Int64(bytes.count)), "truncated header: expected the \(what) field")
    }
    let raw = bytes[offset..<offset + width]
    if raw.contains(0) { sawNUL = true }
    offset += width
    let text = decodeHeaderText(raw.map { $0 == 0 ? 0x20 : $0 })
    return String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
      .trimmingSpaces()
  }

  mutating func number(_ width: Int, _ what: String) throws(InputError) -> Double {
    let start = offset
    let field = try text(width, what)
    guard let value = Double(field.replacingCommas()), value.isFinite else {
      throw InputError(
        path: path, location: .byteOffset(Int64(start)),
        "expected a number for the \(what), found \"\(field)\"")
    }
    return value
  }

  mutating func integer(_ width: Int, _ what: String) throws(InputError) -> Int {
    let start = offset
    let field = try text(width, what)
    if let value = Int(field) { return value }
    // Some writers put `1.0` or `1,0` where an integer belongs.
    if let value = Double(field.replacingCommas()), value == value.rounded(), abs(value) < 1e15 {
      return Int(value)
    }
    throw InputError(
      path: path, location: .byteOffset(Int64(start)),
      "expected an integer for the \(what), found \"\(field)\"")
  }
}

extension String {
  /// Without leading and trailing spaces.
  func trimmingSpaces() -> String { trimmingScalars { $0 == " " } }

  /// With `,` replaced by `.` (decimal commas).
  func replacingCommas() -> String { String(map { $0 == "," ? "." : $0 }) }
}

/// Header text of EDF and WFDB files, which their specifications make ASCII: the bytes as UTF-8 when
/// they are valid UTF-8, else as Latin-1 (ISO 8859-1: each byte the character of its code point), so
/// that a unit written by a Latin-1 writer, the byte 0xB5, reads as `µ` (U+00B5) and not as U+FFFD.
func decodeHeaderText(_ bytes: some Collection<UInt8>) -> String {
  if let text = String(validating: bytes, as: UTF8.self) { return text }
  return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
}
