import VitalsCore

/// The layout of a delimited text file, recognized from its first lines (rules in ``CSVOptions``).
struct CSVLayout {
  var delimiter: UInt8
  var decimalSeparator: UInt8
  var preamble: Int
  /// Index (among the probed lines) of the first data line.
  var firstDataLine: Int
  /// Column names (header fields, else `col0`, `col1`, …).
  var names: [String]
  /// Column units, from a units row under the header (`""` without one, or for an empty field).
  var units: [String]
  var timeColumn: Int?
  var timeParse: CSVRowParser.TimeParse
  /// A rate stated in the preamble (`Acquisition frequency: 100 Hz`) and its 1-based line, or the
  /// error of a signed one (thrown only where the rate is needed: options and time stamps override it).
  var preambleRate: Result<(value: Double, line: Int), InputError>?

  static func detect(_ lines: [[UInt8]], lineNumbers: [Int], options: CSVOptions, path: String)
    throws(InputError)
    -> CSVLayout
  {
    let tail = lines.suffix(max(1, min(20, lines.count - 1)))
    let delimiter = options.delimiter ?? detectDelimiter(tail)
    let fields = lines.map { splitFields($0, delimiter: delimiter) }
    let separator = detectDecimalSeparator(tail, delimiter: delimiter)
    // The first data line sets the column count; a non-numeric line just before it is the header
    // (or a units row, with the header just before it); anything earlier is preamble.
    let firstData = try firstDataLine(
      fields, separator: separator, lineNumbers: lineNumbers, options: options, path: path)
    let hasHeader = (options.hasHeader ?? true) && firstData > (options.skipLines ?? 0)
    var preamble = options.skipLines ?? (hasHeader ? firstData - 1 : firstData)
    var units: [String]?
    let header = firstData - 2
    if hasHeader, header >= (options.skipLines ?? 0), options.skipLines.map({ $0 == header }) ?? true,
      isUnitsRow(fields[firstData - 1], under: fields[header], separator: separator),
      fields[header].count == fields[firstData - 1].count,
      !isDataLine(fields[header], separator: separator)
    {
      preamble = header
      units = fields[firstData - 1].map(cleanText)
    }
    let columnCount =
      hasHeader
      ? try headerColumnCount(
        header: fields[preamble], dataRows: fields[firstData...],
        lines: (lineNumbers[preamble], lineNumbers[firstData]),
        path: path)
      : fields[firstData].count
    var names = (0..<columnCount).map { "col\($0)" }
    if hasHeader {
      for (j, field) in fields[preamble].prefix(columnCount).enumerated() {
        let name = cleanText(field)
        if !name.isEmpty { names[j] = name }
      }
    }
    let dataFields = Array(fields[firstData...])
    let timeColumn = try detectTimeColumn(
      dataFields, names: names, hasHeader: hasHeader, separator: separator, options: options, path: path)
    let timeParse = try timeColumn.map { t throws(InputError) in
      try detectTimeParse(
        dataFields, column: t, name: names[t], unitText: units.flatMap { t < $0.count ? $0[t] : nil },
        separator: separator, options: options,
        place: (path, lineNumbers[hasHeader ? preamble : firstData]))
    }
    return CSVLayout(
      delimiter: delimiter, decimalSeparator: separator, preamble: preamble,
      firstDataLine: firstData, names: names,
      units: (0..<columnCount).map { j in units.flatMap { j < $0.count ? $0[j] : nil } ?? "" },
      timeColumn: timeColumn, timeParse: timeParse ?? CSVRowParser.TimeParse.none,
      preambleRate: preambleRate(lines.prefix(preamble), lineNumbers: lineNumbers, path: path))
  }

  /// The rate stated in the first preamble line that states one (see ``statedRate(_:line:path:)``),
  /// or the error of a signed one.
  private static func preambleRate(_ lines: ArraySlice<[UInt8]>, lineNumbers: [Int], path: String)
    -> Result<(value: Double, line: Int), InputError>?
  {
    for index in lines.indices {
      do {
        if let rate = try statedRate(lines[index], line: lineNumbers[index], path: path) {
          return .success((rate, lineNumbers[index]))
        }
      } catch {
        return .failure(error)
      }
    }
    return nil
  }

  /// The number of columns a header names, which every line must have (RFC 4180): its field count, or
  /// one less when it ends in a delimiter (an empty last name) and either the first data line has one
  /// field less or every probed data line (`dataRows`) ends in a delimiter too (`a,b,` over `1,2,`:
  /// Shimmer exports). A first data line with another count (other than one more, the last field
  /// empty: a trailing delimiter) is an error naming it and both counts; when it has one field more
  /// and the first fields of the data lines count rows (1, 2, 3), the error adds that the header may
  /// lack a name for that column of row names (R's `write.table` without `col.names = NA`).
  private static func headerColumnCount(
    header: [[UInt8]], dataRows: ArraySlice<[[UInt8]]>, lines: (header: Int, data: Int), path: String
  ) throws(InputError) -> Int {
    let firstData = dataRows.first!
    var count = header.count
    if count > 1, header.last.map(cleanText)?.isEmpty == true,
      count == firstData.count + 1
        || dataRows.allSatisfy({ $0.count == count && $0.last.map(cleanText)?.isEmpty == true })
    {
      count -= 1
    }
    let trailingDelimiter =
      firstData.count == count + 1 && firstData.last.map(cleanText)?.isEmpty == true
    guard firstData.count == count || trailingDelimiter else {
      // Row numbers first (1, 2, 3 or 0, 1, 2), one field more than the header names.
      let numbers = dataRows.prefix(3).map { $0.first.flatMap { Int(cleanText($0)) } }
      let countsRows =
        numbers.allSatisfy { $0 != nil } && zip(numbers, numbers.dropFirst()).allSatisfy { $0! + 1 == $1! }
      let rowNames =
        firstData.count == count + 1 && countsRows
        ? " (the header may lack a name for the first column, row names: R's write.table writes them "
          + "so without col.names = NA)" : ""
      throw InputError(
        path: path, location: .line(lines.data),
        "expected \(count) fields, as the header (line \(lines.header)) names, found \(firstData.count)"
          + rowNames)
    }
    return count
  }

  /// Whether a line is a units row (`s,mV,g` under `time,ppg,acc_x`), at least one of its fields not
  /// empty and either
  /// - every field empty or a unit (a common spelling such as `s`, `ms`, `mV`, `µV`, `g`, `m/s^2`,
  ///   `bpm`, `%`, `°C`, `a.u.`, `kOhm`, `deg`, or any text in brackets: `[mV]`, `(mV)`), or
  /// - under a column that `header` names as time (`isTimeName(_:)`), a time unit (`ms`, `[s]`),
  ///   and every other field empty or short text (at most 16 characters) that is neither a number
  ///   nor a date-time: units this list lacks (`ms,mV,no units` under `Timestamp,ECG,GSR`).
  ///
  /// A header under a preamble line is not one: its time column's name is not a unit.
  static func isUnitsRow(_ fields: [[UInt8]], under header: [[UInt8]], separator: UInt8) -> Bool {
    let texts = fields.map(cleanText)
    guard texts.contains(where: { !$0.isEmpty }) else { return false }
    if texts.allSatisfy(isUnitText) { return true }
    guard let t = header.firstIndex(where: { isTimeName(cleanText($0)) }), t < texts.count,
      nameWords(texts[t]).count == 1, unitFromName(texts[t]) != nil
    else { return false }
    return zip(texts, fields).allSatisfy { text, field in
      text.count <= 16 && (text.isEmpty || !isDataLine([field], separator: separator))
    }
  }

  private static func isUnitText(_ text: String) -> Bool {
    if text.isEmpty { return true }
    if text.count >= 3, (text.first == "[" && text.last == "]") || (text.first == "(" && text.last == ")") {
      return true
    }
    return commonUnits.contains(text.lowercased())
      || timeUnitSpellings.contains { $0.1.contains(text.lowercased()) }
  }

  /// Units recognized in a units row (lowercase), besides the time units.
  private static let commonUnits: Set<String> = [
    "v", "mv", "uv", "µv", "μv", "nv", "g", "mg", "m/s^2", "m/s2", "m/s²", "m/s/s", "bpm", "1/min", "%",
    "degc", "°c", "deg c", "mmhg", "kpa", "pa", "a.u.", "a.u", "au", "adu", "adc", "count", "counts", "rad/s",
    "deg/s", "°/s", "dps", "mt", "ut", "µt", "μt", "lux", "lx", "ohm", "kohm", "ω", "kω", "ma", "ua", "µa",
    "μa", "na", "hz", "min", "h", "mm", "cm", "kg", "ml", "l/min", "ppm", "db", "bool", "ohms", "kohms",
    "mohm", "mohms", "mω", "deg", "degrees", "°", "m/s", "rpm", "mmol/l", "mg/dl", "no units",
  ]

  /// The first of tab, `;`, `,` that splits the last lines consistently; otherwise the one that
  /// splits most often; `,` for a single column.
  private static func detectDelimiter(_ tail: ArraySlice<[UInt8]>) -> UInt8 {
    let candidates: [UInt8] = [0x09, 0x3B, 0x2C]
    let consistent = candidates.first { c in
      let counts = Set(tail.map { splitFields($0, delimiter: c).count })
      return counts.count == 1 && counts.first! > 1
    }
    let splits = { (c: UInt8) in tail.reduce(0) { $0 + splitFields($1, delimiter: c).count } }
    let most = candidates.max { splits($0) < splits($1) }!
    return consistent ?? (splits(most) > tail.count ? most : 0x2C)
  }

  /// `,` when a field of the last lines is a number written with a decimal comma (only possible
  /// when `,` is not the delimiter), else `.`.
  private static func detectDecimalSeparator(_ tail: ArraySlice<[UInt8]>, delimiter: UInt8) -> UInt8 {
    guard delimiter != 0x2C else { return 0x2E }
    let usesComma = tail.contains { line in
      splitFields(line, delimiter: delimiter).contains { field in
        field.contains(0x2C) && isNumber(field, separator: 0x2C)
      }
    }
    return usesComma ? 0x2C : 0x2E
  }

  /// Index of the first data line: the first numeric line after the skipped lines and header when
  /// ``CSVOptions/skipLines`` is set (else the line after them), else the first numeric line.
  private static func firstDataLine(
    _ fields: [[[UInt8]]], separator: UInt8, lineNumbers: [Int], options: CSVOptions, path: String
  ) throws(InputError) -> Int {
    guard let skip = options.skipLines else {
      guard let found = fields.firstIndex(where: { isDataLine($0, separator: separator) }) else {
        throw noDataError(fields, separator: separator, lineNumbers: lineNumbers, path: path)
      }
      return found
    }
    guard skip < fields.count else {
      throw InputError(
        path: path, location: .line(lineNumbers.last!), "expected data after \(skip) skipped lines")
    }
    let start = skip + (options.hasHeader == true ? 1 : 0)
    guard start < fields.count else {
      throw InputError(
        path: path, location: .line(lineNumbers.last!), "expected data rows after the header")
    }
    return (start..<fields.count).first { isDataLine(fields[$0], separator: separator) } ?? start
  }

  /// The error of probed lines none of which is data: it names the first line that looks like one (a
  /// number in one of its fields, as many fields as the last line) and its first field that is
  /// neither a number, a date-time nor empty, or else the last line.
  private static func noDataError(
    _ fields: [[[UInt8]]], separator: UInt8, lineNumbers: [Int], path: String
  ) -> InputError {
    let noRows = "expected numeric data rows in the first \(fields.count) lines"
    guard
      let row = fields.indices.first(where: { i in
        fields[i].count == fields.last!.count && fields[i].contains { isNumber($0, separator: separator) }
      }),
      let column = fields[row].firstIndex(where: { !isDataLine([$0], separator: separator) })
    else { return InputError(path: path, location: .line(lineNumbers.last!), noRows) }
    let text = cleanText(fields[row][column])
    var hint = ""
    if text.contains(","), isNumber(Array(text.utf8), separator: 0x2C) {
      hint = " (a decimal comma needs a ';' or tab delimiter)"
    } else if text.contains("/") || text.contains(":") {
      hint = " (date-times are read as yyyy-mm-dd hh:mm:ss)"
    }
    return InputError(
      path: path, location: .field(line: lineNumbers[row], column: column + 1),
      "expected a number, a date-time or an empty field, found \"\(text)\"\(hint) (no data row in the first "
        + "\(fields.count) lines)")
  }

  /// The time column: the one ``CSVOptions/timeColumn`` selects, else a header name that reads as
  /// time, else the first field of the first row holding a date-time, else (headerless, two columns
  /// or more) a first column of increasing values ≥ 10⁶ (epoch times); `nil` when none is.
  private static func detectTimeColumn(
    _ dataFields: [[[UInt8]]], names: [String], hasHeader: Bool, separator: UInt8, options: CSVOptions,
    path: String
  ) throws(InputError) -> Int? {
    if let selector = options.timeColumn {
      return try ChannelSelector.resolve([selector], names: names, path: path)[0]
    }
    if hasHeader, let byName = names.firstIndex(where: isTimeName) { return byName }
    if let firstRow = dataFields.first,
      let byContent = firstRow.indices.first(where: { j in
        firstRow[j].withUnsafeBufferPointer { parseDateTime($0) } != nil
      })
    {
      return byContent
    }
    if !hasHeader, names.count >= 2 {
      let values = dataFields.compactMap { $0.first.flatMap { numberValue($0, separator: separator) } }
      if values.count == dataFields.count, let v0 = values.first, let vn = values.last, abs(v0) >= 1e6,
        vn > v0,
        zip(values, values.dropFirst()).allSatisfy({ $0 <= $1 })
      {
        return 0
      }
    }
    return nil
  }

  /// How the time column `column` reads: date-times when its first value is one, else numbers in
  /// the unit ``CSVOptions/timeUnit`` states, else the one the units row (`unitText`) or the column's
  /// name states (``unitFromName(_:)``), else the one the intervals suggest
  /// (`unitFromIntervals(_:)`). A stated unit is never overridden; without a rate option, stamps
  /// giving a rate outside `SignalChunk.supportedSampleRates` in it are an error naming the header's
  /// line (`place`) when the unit the intervals suggest is another one that gives a supported rate
  /// (else the reader's rate error names the rate: data slower than 1 Hz is not a unit's fault).
  private static func detectTimeParse(
    _ dataFields: [[[UInt8]]], column t: Int, name: String, unitText: String?, separator: UInt8,
    options: CSVOptions, place: (path: String, line: Int)
  ) throws(InputError) -> CSVRowParser.TimeParse {
    let samples = dataFields.compactMap { $0.count > t ? $0[t] : nil }
    if samples.first.map({ $0.withUnsafeBufferPointer { parseDateTime($0) } != nil }) ?? false {
      return .dateTime
    }
    let values = samples.compactMap { numberValue($0, separator: separator) }
    if let unit = options.timeUnit { return .numeric(exponent: unit.nanosecondExponent) }
    let stated: (unit: CSVTimeUnit, source: String)? =
      if let unit = unitText.flatMap(unitFromName) {
        (unit, "as its units row states")
      } else if let unit = unitFromName(name) {
        (unit, "as its name states")
      } else { nil }
    guard let stated else { return .numeric(exponent: unitFromIntervals(values).nanosecondExponent) }
    // Unsupported: even the shortest interval longer than the longest sample interval, or the median
    // one shorter than the shortest. Only another unit's supported rate makes it the unit's fault;
    // otherwise the data is as slow or fast as it says, and the rate's own error names it.
    let range = SignalChunk.supportedSampleRates
    let suggested = unitFromIntervals(values)
    if options.sampleRate == nil, suggested != stated.unit,
      let median = medianInterval(values, unit: stated.unit),
      let shortest = medianInterval(values, unit: stated.unit, quantile: 0),
      1 / shortest < range.lowerBound || 1 / median > range.upperBound,
      let other = medianInterval(values, unit: suggested), range.contains(1 / other)
    {
      let seconds = 1 / shortest < range.lowerBound ? shortest : median
      throw InputError(
        path: place.path, location: .line(place.line),
        "time column \"\(name)\" read in \(stated.unit.rawValue), \(stated.source): its stamps, \(seconds) s "
          + "apart, give \(1 / seconds) Hz: expected a sample rate from \(Int(range.lowerBound)) to "
          + "\(Int(range.upperBound)) Hz (read in \(suggested.rawValue) they give \(1 / other) Hz: pass "
          + "--time-unit \(suggested.rawValue))")
    }
    return .numeric(exponent: stated.unit.nanosecondExponent)
  }

  /// Splits a line at `delimiter` outside double quotes (a trailing `\r` dropped).
  static func splitFields(_ line: [UInt8], delimiter: UInt8) -> [[UInt8]] {
    var result = [[UInt8]]()
    var field = [UInt8]()
    var quoted = false
    for byte in line {
      if byte == 0x22 {
        quoted.toggle()
        field.append(byte)
      } else if byte == delimiter && !quoted {
        result.append(field)
        field.removeAll(keepingCapacity: true)
      } else if byte != 0x0D {
        field.append(byte)
      }
    }
    result.append(field)
    return result
  }

  /// A field's text without surrounding spaces and quotes.
  static func cleanText(_ field: [UInt8]) -> String {
    field.withUnsafeBufferPointer { fieldText($0.baseAddress!, count: $0.count) }.trimmingSpaces()
  }

  static func isNumber(_ field: [UInt8], separator: UInt8) -> Bool {
    numberValue(field, separator: separator) != nil
  }

  static func numberValue(_ field: [UInt8], separator: UInt8) -> Double? {
    field.withUnsafeBufferPointer { b -> Double? in
      guard let base = b.baseAddress,
        let d = DecimalNumber.scan(base, count: b.count, separator: separator)
      else { return nil }
      return d.doubleValue { fieldText(base, count: b.count, separator: separator) }
    }
  }

  /// Whether every field is a number, a date-time or empty/NaN-like.
  static func isDataLine(_ fields: [[UInt8]], separator: UInt8) -> Bool {
    fields.allSatisfy { field in
      let text = cleanText(field).lowercased()
      return text.isEmpty || ["nan", "na", "null"].contains(text) || isNumber(field, separator: separator)
        || field.withUnsafeBufferPointer { parseDateTime($0) } != nil
    }
  }

  static func isTimeName(_ name: String) -> Bool {
    let n = name.lowercased()
    let word = String(n.prefix { $0.isLetter })
    return n.hasPrefix("time") || n.contains("datetime")
      || ["t", "ts", "date", "stamp", "seconds", "sec", "elapsed"].contains(word)
  }

  /// The time unit a column name states, read from its words (split at every character that is not
  /// a letter or digit, and between a lowercase letter and an uppercase one: `Time (msec)`,
  /// `timestamp_usec`, `timeMs`): a word that is a unit (`ns`, `nsec`, `nanos`, `nanoseconds`; `us`,
  /// `µs`, `usec`, `micros`; `ms`, `msec`, `millis`; `s`, `sec`, `secs`, `seconds`, and the like), or
  /// that ends in a unit spelled with four letters or more (`timemsec`). Words, not substrings:
  /// `time_msec` is milliseconds, never seconds. `nil` when no word names a unit.
  static func unitFromName(_ name: String) -> CSVTimeUnit? {
    let words = nameWords(name)
    for (unit, spellings) in timeUnitSpellings {
      if words.contains(where: { word in
        spellings.contains(word) || spellings.contains { $0.count >= 4 && word.hasSuffix($0) }
      }) {
        return unit
      }
    }
    return nil
  }

  /// Spellings of each time unit in names and units rows, lowercase; the finer units first, so that
  /// a word ending in `usec` is microseconds before it is seconds.
  private static let timeUnitSpellings: [(CSVTimeUnit, Set<String>)] = [
    (.nanoseconds, ["ns", "nsec", "nsecs", "nano", "nanos", "nanosec", "nanosecond", "nanoseconds"]),
    (
      .microseconds,
      [
        "us", "µs", "μs", "usec", "usecs", "micro", "micros", "microsec", "microsecond", "microseconds",
      ]
    ),
    (.milliseconds, ["ms", "msec", "msecs", "milli", "millis", "millisec", "millisecond", "milliseconds"]),
    (.seconds, ["s", "sec", "secs", "second", "seconds"]),
  ]

  /// The lowercase words of a name: split at every character that is not a letter or digit and
  /// between a lowercase letter and an uppercase one.
  static func nameWords(_ name: String) -> [String] {
    var words = [String]()
    var word = ""
    var previousIsLower = false
    for character in name {
      guard character.isLetter || character.isNumber else {
        if !word.isEmpty { words.append(word.lowercased()) }
        word = ""
        previousIsLower = false
        continue
      }
      if character.isUppercase && previousIsLower {
        words.append(word.lowercased())
        word = ""
      }
      word.append(character)
      previousIsLower = character.isLowercase
    }
    if !word.isEmpty { words.append(word.lowercased()) }
    return words
  }

  /// The median positive interval of `values` (or another quantile) read in `unit`, in seconds; `nil`
  /// without one.
  static func medianInterval(_ values: [Double], unit: CSVTimeUnit, quantile: Double = 0.5) -> Double? {
    let intervals = zip(values, values.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
    guard !intervals.isEmpty else { return nil }
    var seconds = intervals[min(intervals.count - 1, Int(quantile * Double(intervals.count)))]
    for _ in 0..<(9 - unit.nanosecondExponent) { seconds /= 10 }
    return seconds
  }

  /// The first unit in which the median positive interval gives a rate in 0.5–5000 Hz (seconds
  /// when none does or there is no interval).
  static func unitFromIntervals(_ values: [Double]) -> CSVTimeUnit {
    CSVTimeUnit.allCases.first { unit in
      medianInterval(values, unit: unit).map { (0.5...5000).contains(1 / $0) } ?? false
    } ?? .seconds
  }

  /// A rate stated as `… N Hz` / `N hertz` in a line (`line` of `path`, for errors): the number
  /// before the first `hz`; `nil` when there is none or it is 0. A signed number (`-100 Hz`, a `-` or
  /// `−` just before the digits, not after a digit as in a range `0.5-40 Hz`) is an error naming the
  /// line.
  static func statedRate(_ line: [UInt8], line number: Int, path: String) throws(InputError) -> Double? {
    let lower = line.map { $0 | 0x20 }
    guard
      let unit = lower.indices.first(where: {
        lower[$0...].starts(with: Array("hz".utf8)) || lower[$0...].starts(with: Array("hertz".utf8))
      })
    else { return nil }
    let before = line[..<unit].reversed().drop { $0 == 0x20 }
    let digits = before.prefix { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2C }
    let written = String(decoding: digits.reversed(), as: UTF8.self)
    guard let rate = Double(written.replacingCommas()) else { return nil }
    // The bytes before the number, nearest first: a sign, unless a digit precedes the dash (a range).
    var sign = before.dropFirst(digits.count)
    var signed = false
    if sign.first == 0x2D {
      sign = sign.dropFirst()
      signed = true
    } else if sign.starts(with: [0x92, 0x88, 0xE2]) {  // U+2212 MINUS SIGN, reversed
      sign = sign.dropFirst(3)
      signed = true
    }
    if signed && !(sign.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false) {
      throw InputError(
        path: path, location: .line(number),
        "expected a sample rate like \"100 Hz\", found \"\(cleanText(line))\"")
    }
    return rate > 0 ? rate : nil
  }
}
