import VitalsCore

/// How a WFDB signal file stores its samples: the `format` field of a header's signal line
/// (PhysioNet `signal(5)` manual page).
public enum WFDBStorageFormat: Int, Sendable, Equatable, Codable, CaseIterable {
  /// First differences as signed bytes, starting from the signal's initial value.
  case difference8 = 8
  /// Two's-complement 16-bit little-endian.
  case int16 = 16
  /// Two's-complement 16-bit big-endian.
  case int16BigEndian = 61
  /// Offset-binary 8-bit (stored byte − 128).
  case offset8 = 80
  /// Offset-binary 16-bit little-endian (stored word − 32768).
  case offset16 = 160
  /// Two 12-bit samples packed in three bytes (the MIT-BIH format).
  case packed212 = 212
  /// Two's-complement 24-bit little-endian.
  case int24 = 24
  /// Two's-complement 32-bit little-endian.
  case int32 = 32
  /// Three 10-bit samples in two little-endian 16-bit words (bit 0 of each word unused).
  case packed310 = 310
  /// Three 10-bit samples in one little-endian 32-bit word (top two bits unused).
  case packed311 = 311

  /// Samples in one packing group (the unit the file is read in).
  @inlinable
  public var samplesPerGroup: Int {
    switch self {
    case .packed212: 2
    case .packed310, .packed311: 3
    default: 1
    }
  }

  /// Bytes in one packing group.
  @inlinable
  public var bytesPerGroup: Int {
    switch self {
    case .difference8, .offset8: 1
    case .int16, .int16BigEndian, .offset16: 2
    case .packed212, .int24: 3
    case .int32, .packed310, .packed311: 4
    }
  }

  /// The digital value that marks an invalid sample (WFDB `WFDB_INVALID_SAMPLE` per format, as
  /// wfdb-python's `_digi_nan`), or `nil` for the difference format, which has none.
  @inlinable
  public var invalidSample: Int32? {
    switch self {
    case .difference8: nil
    case .offset8: -128
    case .int16, .int16BigEndian, .offset16: -32768
    case .packed212: -2048
    case .int24: -8_388_608
    case .int32: Int32.min
    case .packed310, .packed311: -512
    }
  }

  /// Bytes needed to hold `samples` samples: whole groups, and the bytes a final partial group
  /// needs for the samples it holds.
  @inlinable
  public func byteCount(forSamples samples: Int64) -> Int64 {
    let groups = samples / Int64(samplesPerGroup)
    let rest = samples % Int64(samplesPerGroup)
    let partial: Int64 =
      switch (self, rest) {
      case (_, 0): 0
      case (.packed212, _): 2
      case (.packed310, 1), (.packed311, 1): 2
      case (.packed310, _): 4
      case (.packed311, _): 3
      default: 0
      }
    return groups * Int64(bytesPerGroup) + partial
  }

  /// Whole samples held by `bytes` bytes (the inverse of ``byteCount(forSamples:)``).
  @inlinable
  public func sampleCount(forBytes bytes: Int64) -> Int64 {
    var samples = bytes / Int64(bytesPerGroup) * Int64(samplesPerGroup)
    while byteCount(forSamples: samples + 1) <= bytes { samples += 1 }
    return samples
  }
}

/// One signal line of a WFDB header (`header(5)`), with WFDB's defaults applied.
public struct WFDBSignalSpec: Sendable, Equatable {
  /// The signal file, relative to the header's directory (`100.dat`); `-` means standard input.
  public var fileName: String
  /// How the file stores the samples (the number before `x`, `:` and `+`).
  public var format: WFDBStorageFormat
  /// Samples of this signal in each frame (`212x4` → 4); at least 1.
  public var samplesPerFrame: Int
  /// Frames by which this signal's samples are delayed in the file (`:skew`); at least 0.
  public var skew: Int
  /// Bytes before the first sample in the file (`+offset`).
  public var byteOffset: Int64
  /// Digital units (adu) per physical unit; a header gain of 0 (or none) means 200.
  public var gain: Double
  /// Digital value of physical zero; a missing baseline means ``adcZero``.
  public var baseline: Int
  /// Physical unit (`mV` when the header names none).
  public var units: String
  /// ADC resolution in bits (0 when not stated).
  public var adcResolution: Int
  /// Digital value of the ADC's mid-range.
  public var adcZero: Int
  /// Value of the first sample (defaults to ``adcZero``); the start of format 8's differences.
  public var initialValue: Int
  /// The 16-bit sum of all digital samples, when the header states it.
  public var checksum: Int?
  /// Block size in bytes for devices that need it (0: none).
  public var blockSize: Int
  /// The signal's name (the description field; `record NAME, signal N` when absent).
  public var description: String

  /// Physical value of digital sample `digital`: `(digital − baseline) / gain`.
  @inlinable
  public func physical(_ digital: Int32) -> Double {
    (Double(digital) - Double(baseline)) / gain
  }
}

/// One segment of a multi-segment record: a single-segment record read for `frameCount` frames.
public struct WFDBSegment: Sendable, Equatable {
  /// The segment's record name (its header is `NAME.hea` beside the master header); `~` is a
  /// null segment, `frameCount` frames of missing signal.
  public var name: String
  /// Frames of the segment that belong to the record (0 for a variable layout's layout segment).
  public var frameCount: Int64

  /// Whether this is a null segment (`~`).
  public var isNull: Bool { name == "~" }
}

/// A parsed WFDB header file (`NAME.hea`), following PhysioNet's `header(5)` manual page.
public struct WFDBHeader: Sendable, Equatable {
  /// The record's name (the first field of the record line).
  public var recordName: String
  /// Frames per second (the record's base sampling frequency; 250 when the header omits it), within
  /// `SignalChunk/supportedSampleRates`.
  public var frameRate: Double
  /// Counter ticks per second (equal to ``frameRate`` when not stated).
  public var counterFrequency: Double
  /// Counter value of the first sample (0 when not stated).
  public var baseCounter: Double
  /// Frames in the record (`nsamp`), or `nil` when the header does not state it (then the
  /// length of the signal file decides).
  public var frameCount: Int64?
  /// Time of day of the first sample, in seconds after midnight, when stated.
  public var baseTimeOfDay: Double?
  /// Calendar date of the first sample (`year`, `month`, `day`), when stated.
  public var baseDate: (year: Int, month: Int, day: Int)?
  /// One entry per signal line, in header order (empty for a multi-segment header).
  public var signals: [WFDBSignalSpec]
  /// Signals declared by the record line (`signals.count` for a single-segment header).
  public var signalCount: Int
  /// The segments of a multi-segment header (`name/nseg`), in order; empty otherwise. A first
  /// segment of length 0 is the layout segment of a variable-layout record.
  public var segments: [WFDBSegment]
  /// Text of the `#` comment lines, without the `#`, in order.
  public var comments: [String]
  /// What the parser assumed where the header departs from `header(5)` (an ISO 8601 date, a date
  /// without a time, no sample count before the time, …), one sentence each, for `vitals info`;
  /// empty for a header that follows the manual page.
  public var notes: [String]
  /// The 1-based line of the record line in the header file (after any leading comments), for errors.
  public var recordLineNumber: Int = 1
  /// The 1-based line of each signal line, parallel to ``signals``, for errors.
  public var signalLineNumbers: [Int] = []
  /// The 1-based line of each segment line, parallel to ``segments``, for errors.
  public var segmentLineNumbers: [Int] = []

  /// Field-by-field equality of what the header declares (the base date is a tuple, so it is spelled
  /// out); the line numbers, where the declarations stand in the file, are not compared.
  public static func == (lhs: WFDBHeader, rhs: WFDBHeader) -> Bool {
    lhs.recordName == rhs.recordName && lhs.frameRate == rhs.frameRate
      && lhs.counterFrequency == rhs.counterFrequency && lhs.baseCounter == rhs.baseCounter
      && lhs.frameCount == rhs.frameCount && lhs.baseTimeOfDay == rhs.baseTimeOfDay
      && lhs.baseDate?.year == rhs.baseDate?.year && lhs.baseDate?.month == rhs.baseDate?.month
      && lhs.baseDate?.day == rhs.baseDate?.day && lhs.signals == rhs.signals
      && lhs.signalCount == rhs.signalCount && lhs.segments == rhs.segments && lhs.comments == rhs.comments
      && lhs.notes == rhs.notes
  }

  /// Absolute time of the first sample: base date and time read as UTC (WFDB stores no time
  /// zone); the time of day after the epoch when only the time is given; the epoch otherwise.
  public var startTime: Timestamp {
    // In whole nanoseconds: the time of day's fraction survives (a Double of nanoseconds since the
    // epoch keeps only 256-ns steps).
    var nanoseconds = Int64(((baseTimeOfDay ?? 0) * 1e9).rounded())
    if let date = baseDate {
      nanoseconds +=
        Timestamp.daysSinceEpoch(year: date.year, month: date.month, day: date.day) * 86_400_000_000_000
    }
    return Timestamp(nanosecondsSinceEpoch: nanoseconds)
  }

  /// Parses the text of a header file. `path` names the file in errors.
  ///
  /// Lines end at LF, CR LF or CR. Each line is UTF-8, or Latin-1 (each byte the character of its code
  /// point) when its bytes are not valid UTF-8: the byte 0xB5 of `µV` reads as µ, and one such line
  /// does not change how the others read. Accepts spaces or tabs between fields, trailing blanks, blank
  /// lines and `#` comments anywhere, and multi-segment headers (`name/nseg` followed by one `segment
  /// nsamp` line per segment). The record line's base time and date may also be written as other tools
  /// write them (see ``notes``): an ISO 8601 date before or after the time (`2014-05-08 05:05:15`,
  /// `05:05:15 2014-05-08`), one ISO date-time field (`2014-05-08T05:05:15`, optionally ending in `Z`),
  /// a date without a time (midnight), a time without the sample count before it, and `MM/DD/YYYY` when
  /// the middle number cannot be a month. Every malformed field throws an ``InputError`` naming its
  /// line, as do more or fewer signal (or segment) lines than the record line declares and a
  /// multi-segment record line whose sample count differs from the sum of its segments' lengths. A
  /// record line may declare no signals (a record of annotations only); the signal reader refuses such
  /// a record.
  public static func parse(_ bytes: some Collection<UInt8>, path: String) throws(InputError) -> WFDBHeader {
    if bytes.isEmpty { throw InputError(path: path, "empty header file: expected a WFDB record line") }
    var comments: [String] = []
    var lines: [(number: Int, text: Substring)] = []
    for (index, rawLine) in splitLines(bytes).enumerated() {
      var line = decodeHeaderText(rawLine)[...]
      while let last = line.last, last.isWhitespace { line.removeLast() }
      let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
      if trimmed.isEmpty { continue }
      if trimmed.first == "#" {
        comments.append(String(trimmed.dropFirst()))
        continue
      }
      lines.append((index + 1, trimmed))
    }
    guard let recordLine = lines.first else {
      throw InputError(path: path, "no record line: the header holds only comments or blank lines")
    }
    var (header, segmentCount) = try parseRecordLine(recordLine.text, line: recordLine.number, path: path)
    header.comments = comments
    header.recordLineNumber = recordLine.number
    if let segmentCount {
      let segmentLines = lines.dropFirst()
      guard segmentLines.count == segmentCount else {
        // Too few: the last line; too many: the first line beyond the declared ones.
        let line = segmentLines.count < segmentCount ? lines.last! : lines[1 + segmentCount]
        throw InputError(
          path: path, location: .line(line.number),
          "the record line declares \(segmentCount) segments but \(segmentLines.count) segment lines follow")
      }
      var totalFrames: Int64 = 0
      for line in segmentLines.prefix(segmentCount) {
        let fields = line.text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 2, let frames = Int64(fields[1]), (0...1 << 48).contains(frames) else {
          throw InputError(
            path: path, location: .line(line.number),
            "expected a segment line 'name frames', found '\(line.text)'")
        }
        totalFrames += frames
        guard totalFrames <= 1 << 48 else {
          throw InputError(
            path: path, location: .line(line.number),
            "the segments up to this line hold \(totalFrames) frames: expected at most 2^48 in all")
        }
        header.segments.append(WFDBSegment(name: String(fields[0]), frameCount: frames))
        header.segmentLineNumbers.append(line.number)
      }
      if let stated = header.frameCount, stated != totalFrames {
        throw InputError(
          path: path, location: .line(recordLine.number),
          "the record line declares \(stated) samples per signal but its segments hold \(totalFrames)")
      }
      return header
    }
    let signalCount = header.signalCount
    let signalLines = lines.dropFirst()
    guard signalLines.count == signalCount else {
      // Too few: the last line; too many: the first line beyond the declared ones.
      let line = signalLines.count < signalCount ? lines.last! : lines[1 + signalCount]
      throw InputError(
        path: path, location: .line(line.number),
        "the record line declares \(signalCount) signals but \(signalLines.count) signal lines follow")
    }
    for (index, line) in signalLines.enumerated() {
      header.signals.append(
        try parseSignalLine(
          line.text, line: line.number, path: path, recordName: header.recordName, index: index))
      header.signalLineNumbers.append(line.number)
    }
    return header
  }

  /// The lines of `bytes`, split at LF, CR LF or CR (one line break each), without the breaks: one
  /// more line than breaks, the last empty when the bytes end with a break.
  private static func splitLines(_ bytes: some Collection<UInt8>) -> [ArraySlice<UInt8>] {
    let bytes = Array(bytes)
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    var i = 0
    while i < bytes.count {
      guard bytes[i] == 0x0A || bytes[i] == 0x0D else {
        i += 1
        continue
      }
      lines.append(bytes[start..<i])
      i += bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
      start = i
    }
    lines.append(bytes[start...])
    return lines
  }

  private static func parseRecordLine(_ text: Substring, line: Int, path: String) throws(InputError)
    -> (WFDBHeader, segmentCount: Int?)
  {
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    func fail(_ message: String) -> InputError { InputError(path: path, location: .line(line), message) }
    var nameField = fields[0]
    var segmentCount: Int?
    if let slash = nameField.firstIndex(of: "/") {
      guard let count = Int(nameField[nameField.index(after: slash)...]), (1...1_000_000).contains(count)
      else {
        throw fail("expected the number of segments after '/' in '\(nameField)'")
      }
      segmentCount = count
      nameField = nameField[..<slash]
    }
    guard fields.count >= 2 else { throw fail("expected the number of signals after the record name") }
    guard let signalCount = Int(fields[1]), (0...100_000).contains(signalCount) else {
      throw fail("expected the number of signals as a non-negative integer, found '\(fields[1])'")
    }
    var frameRate = 250.0
    var counterFrequency: Double?
    var baseCounter = 0.0
    if fields.count >= 3 {
      var spec = fields[2]
      if let open = spec.firstIndex(of: "(") {
        guard spec.last == ")",
          let value = finite(spec[spec.index(after: open)..<spec.index(before: spec.endIndex)])
        else { throw fail("expected '(base counter)' after the frequency, found '\(fields[2])'") }
        baseCounter = value
        spec = spec[..<open]
      }
      var rateText = spec
      if let slash = spec.firstIndex(of: "/") {
        guard let value = finite(spec[spec.index(after: slash)...]), value > 0 else {
          throw fail("expected a positive counter frequency after '/', found '\(fields[2])'")
        }
        counterFrequency = value
        rateText = spec[..<slash]
      }
      guard let rate = finite(rateText), rate >= 0 else {
        throw fail("expected the sampling frequency in Hz, found '\(fields[2])'")
      }
      if rate > 0 {
        frameRate = try supportedSampleRate(
          rate, field: "sampling frequency", path: path, location: .line(line))
      }
    }
    let (frameCount, baseTime, baseDate, notes) = try parseLengthAndStart(fields.dropFirst(3), fail: fail)
    let header = WFDBHeader(
      recordName: String(nameField), frameRate: frameRate, counterFrequency: counterFrequency ?? frameRate,
      baseCounter: baseCounter, frameCount: frameCount, baseTimeOfDay: baseTime,
      baseDate: baseDate, signals: [], signalCount: signalCount, segments: [], comments: [], notes: notes)
    return (header, segmentCount)
  }

  /// The record line's fields after the frequency: `[nsamp [basetime [basedate]]]`, in the forms
  /// ``parse(_:path:)`` accepts, with a note for each departure from `header(5)`.
  private static func parseLengthAndStart(
    _ fields: ArraySlice<Substring>, fail: (String) -> InputError
  ) throws(InputError) -> (
    frameCount: Int64?, baseTime: Double?, baseDate: (year: Int, month: Int, day: Int)?, notes: [String]
  ) {
    var rest = fields
    var notes: [String] = []
    var frameCount: Int64?
    if let first = rest.first {
      if let count = Int64(first) {
        guard count >= 0 else {
          throw fail("expected the number of samples per signal as a non-negative integer, found '\(first)'")
        }
        frameCount = count > 0 ? count : nil
        rest = rest.dropFirst()
      } else if !first.contains(where: { $0 == ":" || $0 == "/" || $0 == "-" }) {
        throw fail("expected the number of samples per signal as a non-negative integer, found '\(first)'")
      } else {
        notes.append("no sample count before the base time '\(first)': the length comes from the signal file")
      }
    }
    var time: Double?
    var date: StartDate?
    // How the start departs from `HH:MM:SS DD/MM/YYYY`, for the note.
    var readings: [String] = []
    for field in rest {
      let parts: [(text: Substring, isDate: Bool)]
      if let t = field.firstIndex(of: "T"), field[..<t].contains("-") {
        var timeText = field[field.index(after: t)...]
        if timeText.last == "Z" { timeText = timeText.dropLast() }
        parts = [(field[..<t], true), (timeText, false)]
      } else {
        parts = [(field, field.contains("/") || field.contains("-"))]
      }
      for part in parts {
        if part.isDate {
          guard date == nil else { throw fail("expected one base date, found a second: '\(field)'") }
          date = try startDate(part.text, fail: fail)
          if time == nil && parts.count == 1 && rest.count == 2 {
            readings.append("the date before the time")
          }
        } else {
          guard time == nil else {
            throw fail("expected the base date as DD/MM/YYYY, found '\(field)'")
          }
          guard let value = parseTime(part.text) else {
            throw fail(
              "expected the base time as [[HH:]MM:]SS[.sss] within the day (hours 0–23, minutes 0–59, "
                + "seconds below 60: a leap second is not counted by Unix time), found '\(field)'")
          }
          time = value
        }
      }
    }
    if let reading = date?.reading { readings.append(reading) }
    if date != nil && time == nil { readings.append("no time (the record starts at midnight)") }
    if !readings.isEmpty {
      notes.append(
        "the start '\(rest.joined(separator: " "))' is read with \(readings.joined(separator: ", ")) "
          + "(header(5) writes HH:MM:SS DD/MM/YYYY)")
    }
    return (frameCount, time, date.map { ($0.year, $0.month, $0.day) }, notes)
  }

  /// A base date, with how it was read when that is not `header(5)`'s form.
  private struct StartDate {
    var year: Int, month: Int, day: Int
    var reading: String?
  }

  /// `DD/MM/YYYY` (or `MM/DD/YYYY` when the middle number exceeds 12 and the first does not) or ISO
  /// 8601 `YYYY-MM-DD`; years within `Timestamp`'s range.
  private static func startDate(_ text: Substring, fail: (String) -> InputError) throws(InputError)
    -> StartDate
  {
    let iso = text.contains("-")
    let parts = text.split(separator: iso ? "-" : "/", omittingEmptySubsequences: false)
    let numbers = parts.map { part in part.allSatisfy(\.isASCII) ? Int(part) : nil }
    guard numbers.count == 3, let a = numbers[0], let b = numbers[1], let c = numbers[2] else {
      throw fail("expected the base date as DD/MM/YYYY or YYYY-MM-DD, found '\(text)'")
    }
    var date = StartDate(year: c, month: b, day: a, reading: nil)
    if iso {
      date = StartDate(year: a, month: b, day: c, reading: "an ISO 8601 date (year-month-day)")
    } else if b > 12, (1...12).contains(a) {
      date = StartDate(year: c, month: a, day: b, reading: "the date as MM/DD/YYYY (\(b) cannot be a month)")
    }
    guard (1...12).contains(date.month),
      (1...Timestamp.daysInMonth(year: date.year, month: date.month)).contains(date.day)
    else { throw fail("expected the base date as DD/MM/YYYY or YYYY-MM-DD, found '\(text)'") }
    // Timestamp's Int64 nanoseconds span 1677-09-21 to 2262-04-11.
    guard (1678...2261).contains(date.year) else {
      throw fail("expected a base date between the years 1678 and 2261, found '\(text)'")
    }
    return date
  }

  private static func parseSignalLine(
    _ text: Substring, line: Int, path: String, recordName: String, index: Int
  ) throws(InputError) -> WFDBSignalSpec {
    func fail(_ message: String) -> InputError { InputError(path: path, location: .line(line), message) }
    let (fields, description) = signalFields(text)
    guard fields.count >= 2 else { throw fail("expected a signal file name and a storage format") }
    let storage = try parseStorage(fields[1], fail: fail)
    let scale = try parseGain(fields.count > 2 ? fields[2] : nil, fail: fail)
    func integer(_ position: Int, _ name: String) throws(InputError) -> Int? {
      guard fields.count > position else { return nil }
      guard let value = Int(fields[position]) else {
        throw fail("expected the \(name) as an integer, found '\(fields[position])'")
      }
      return value
    }
    let adcResolution = try integer(3, "ADC resolution") ?? 0
    guard (0...32).contains(adcResolution) else {
      throw fail("expected the ADC resolution in bits, 0 (unknown) to 32, found \(adcResolution)")
    }
    let adcZero = try integer(4, "ADC zero") ?? 0
    let initialValue = try integer(5, "initial value") ?? adcZero
    let checksum = try integer(6, "checksum")
    let blockSize = try integer(7, "block size") ?? 0
    return WFDBSignalSpec(
      fileName: String(fields[0]), format: storage.format, samplesPerFrame: storage.samplesPerFrame,
      skew: storage.skew, byteOffset: storage.byteOffset, gain: scale.gain,
      baseline: scale.baseline ?? adcZero, units: scale.units,
      adcResolution: adcResolution, adcZero: adcZero, initialValue: initialValue, checksum: checksum,
      blockSize: blockSize,
      description: description.isEmpty ? "record \(recordName), signal \(index)" : String(description))
  }

  /// The first 8 words of a signal line (fields up to the block size) and the rest of the line (the
  /// description), split at spaces and tabs.
  private static func signalFields(_ text: Substring) -> (fields: [Substring], description: Substring) {
    var fields: [Substring] = []
    var rest = text[...]
    while fields.count < 8 {
      rest = rest.drop(while: { $0 == " " || $0 == "\t" })
      if rest.isEmpty { break }
      let end = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? rest.endIndex
      fields.append(rest[..<end])
      rest = rest[end...]
    }
    return (fields, rest.drop(while: { $0 == " " || $0 == "\t" }))
  }

  /// The storage field `format[xSPF][:skew][+offset]`; unsupported and unknown formats are refused.
  private static func parseStorage(_ field: Substring, fail: (String) -> InputError) throws(InputError) -> (
    format: WFDBStorageFormat, samplesPerFrame: Int, skew: Int, byteOffset: Int64
  ) {
    var spec = field
    var byteOffset: Int64 = 0
    if let plus = spec.firstIndex(of: "+") {
      guard let value = Int64(spec[spec.index(after: plus)...]), (0...1 << 48).contains(value) else {
        throw fail("expected a byte offset from 0 to 2^48 after '+', found '\(field)'")
      }
      byteOffset = value
      spec = spec[..<plus]
    }
    var skew = 0
    if let colon = spec.firstIndex(of: ":") {
      guard let value = Int(spec[spec.index(after: colon)...]), (0...1 << 30).contains(value) else {
        throw fail("expected a non-negative skew after ':', found '\(field)'")
      }
      skew = value
      spec = spec[..<colon]
    }
    var samplesPerFrame = 1
    if let times = spec.firstIndex(of: "x") {
      guard let value = Int(spec[spec.index(after: times)...]), (1...1 << 20).contains(value) else {
        throw fail("expected a positive number of samples per frame after 'x', found '\(field)'")
      }
      samplesPerFrame = value
      spec = spec[..<times]
    }
    guard let code = Int(spec) else { throw fail("expected a numeric storage format, found '\(field)'") }
    guard let format = WFDBStorageFormat(rawValue: code) else {
      switch code {
      case 508, 516, 524:
        throw fail(
          "FLAC-compressed storage format \(code) is not supported: convert the record to format 16 "
            + "(e.g. WFDB's `xform -f 16`)")
      case 0:
        throw fail("null signals (format 0) are not supported")
      default:
        throw fail("unknown storage format \(code): expected 8, 16, 24, 32, 61, 80, 160, 212, 310 or 311")
      }
    }
    return (format, samplesPerFrame, skew, byteOffset)
  }

  /// The gain field `gain[(baseline)][/units]`: adu per physical unit (200 when 0 or absent), the
  /// baseline if stated, the units (`mV` when not stated).
  private static func parseGain(_ field: Substring?, fail: (String) -> InputError) throws(InputError) -> (
    gain: Double, baseline: Int?, units: String
  ) {
    var gain = 200.0
    var baseline: Int?
    var units = "mV"
    guard let field else { return (gain, baseline, units) }
    var gainSpec = field
    if let slash = gainSpec.firstIndex(of: "/") {
      units = String(gainSpec[gainSpec.index(after: slash)...])
      gainSpec = gainSpec[..<slash]
    }
    if let open = gainSpec.firstIndex(of: "(") {
      guard gainSpec.last == ")",
        let value = Int(gainSpec[gainSpec.index(after: open)..<gainSpec.index(before: gainSpec.endIndex)])
      else { throw fail("expected '(baseline)' as an integer after the gain, found '\(field)'") }
      baseline = value
      gainSpec = gainSpec[..<open]
    }
    guard let value = finite(gainSpec) else {
      throw fail("expected the gain in adu per physical unit, found '\(field)'")
    }
    if value != 0 { gain = value }
    return (gain, baseline, units)
  }

  /// A finite number, or `nil` (rejects `nan`, `inf` and anything `Double` cannot parse).
  private static func finite(_ text: Substring) -> Double? {
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }

  /// `[[HH:]MM:]SS[.sss]` as seconds; nil for a time that is not one of the day (hours above 23,
  /// minutes above 59, seconds from 60: a leap second, which Unix time does not count).
  private static func parseTime(_ text: Substring) -> Double? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count), let seconds = finite(parts.last!), seconds >= 0, seconds < 60 else {
      return nil
    }
    var total = seconds
    var scale = 60.0
    // Minutes, then hours: within the day, never carried over (12:75:00 is not 13:15).
    for (part, limit) in zip(parts.dropLast().reversed(), [60, 24]) {
      guard part.allSatisfy(\.isASCII), let value = Int(part), value >= 0, value < limit else { return nil }
      total += Double(value) * scale
      scale *= 60
    }
    return total
  }
}
