/// The layout of a delimited text file, recognized from its first lines (rules in ``CSVOptions``).
struct CSVLayout {
  var delimiter: UInt8
  var decimalSeparator: UInt8
  var preamble: Int
  /// Index (among the probed lines) of the first data line.
  var firstDataLine: Int
  /// Column names (header fields, else `col0`, `col1`, …).
  var names: [String]
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
    // The first data line sets the column count; a non-numeric line just before it is the header;
    // anything earlier is preamble.
    let firstData = try firstDataLine(
      fields, separator: separator, lineNumbers: lineNumbers, options: options, path: path)
    let hasHeader: Bool
    if let option = options.hasHeader {
      hasHeader = option && firstData > (options.skipLines ?? 0)
    } else {
      hasHeader = firstData > (options.skipLines ?? 0)
    }
    let preamble = options.skipLines ?? (hasHeader ? firstData - 1 : firstData)
    let columnCount = fields[firstData].count
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
    let timeParse = timeColumn.map { t in
      detectTimeParse(dataFields, column: t, name: names[t], separator: separator, options: options)
    }
    var preambleRate: Result<(value: Double, line: Int), InputError>?
    for index in lines.prefix(preamble).indices {
      do {
        if let rate = try statedRate(lines[index], line: lineNumbers[index], path: path) {
          preambleRate = .success((rate, lineNumbers[index]))
          break
        }
      } catch {
        preambleRate = .failure(error)
        break
      }
    }
    return CSVLayout(
      delimiter: delimiter, decimalSeparator: separator, preamble: preamble,
      firstDataLine: firstData, names: names,
      timeColumn: timeColumn, timeParse: timeParse ?? CSVRowParser.TimeParse.none,
      preambleRate: preambleRate)
  }

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
        throw InputError(
          path: path, location: .line(lineNumbers.last!),
          "expected numeric data rows in the first \(fields.count) lines")
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
  /// the unit ``CSVOptions/timeUnit`` states, the column name implies or the intervals suggest.
  private static func detectTimeParse(
    _ dataFields: [[[UInt8]]], column t: Int, name: String, separator: UInt8, options: CSVOptions
  ) -> CSVRowParser.TimeParse {
    let samples = dataFields.compactMap { $0.count > t ? $0[t] : nil }
    if samples.first.map({ $0.withUnsafeBufferPointer { parseDateTime($0) } != nil }) ?? false {
      return .dateTime
    }
    let unit =
      options.timeUnit ?? unitFromName(name)
      ?? unitFromIntervals(samples.compactMap { numberValue($0, separator: separator) })
    return .numeric(exponent: unit.nanosecondExponent)
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

  static func unitFromName(_ name: String) -> CSVTimeUnit? {
    let n = name.lowercased()
    if n.hasSuffix("_ns") || n.contains("nano") || n.contains("(ns)") || n.contains("[ns]") {
      return .nanoseconds
    }
    if n.hasSuffix("_us") || n.contains("micro") || n.contains("(us)") || n.contains("µs") {
      return .microseconds
    }
    if n.hasSuffix("_ms") || n.contains("milli") || n.contains("(ms)") || n.contains("[ms]") {
      return .milliseconds
    }
    if n.hasSuffix("_s") || n.contains("(s)") || n.contains("[s]") || n.contains("sec") { return .seconds }
    return nil
  }

  /// The first unit in which the median positive interval gives a rate in 0.5–5000 Hz.
  static func unitFromIntervals(_ values: [Double]) -> CSVTimeUnit {
    let intervals = zip(values, values.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
    guard !intervals.isEmpty else { return .seconds }
    let median = intervals[intervals.count / 2]
    return CSVTimeUnit.allCases.first { unit in
      var seconds = median
      for _ in 0..<(9 - unit.nanosecondExponent) { seconds /= 10 }
      return (0.5...5000).contains(1 / seconds)
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
