/// The layout of a delimited text file, recognised from its first lines (rules in ``CSVOptions``).
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
  /// A rate stated in the preamble (`Acquisition frequency: 100 Hz`), and its 1-based line.
  var preambleRate: (value: Double, line: Int)?

  static func detect(_ lines: [[UInt8]], lineNumbers: [Int], options: CSVOptions, path: String)
    throws(InputError)
    -> CSVLayout
  {
    // Delimiter: the first of tab, `;`, `,` that splits the last lines consistently.
    let tail = lines.suffix(max(1, min(20, lines.count - 1)))
    var delimiter = options.delimiter ?? 0x2C
    if options.delimiter == nil {
      let candidates: [UInt8] = [0x09, 0x3B, 0x2C]
      let consistent = candidates.first { c in
        let counts = Set(tail.map { splitFields($0, delimiter: c).count })
        return counts.count == 1 && counts.first! > 1
      }
      // Otherwise the one that splits most often; `,` for a single column.
      let splits = { (c: UInt8) in tail.reduce(0) { $0 + splitFields($1, delimiter: c).count } }
      let most = candidates.max { splits($0) < splits($1) }!
      delimiter = consistent ?? (splits(most) > tail.count ? most : 0x2C)
    }
    let fields = lines.map { splitFields($0, delimiter: delimiter) }
    // Decimal comma: only possible when `,` is not the delimiter.
    var separator: UInt8 = 0x2E
    if delimiter != 0x2C {
      let usesComma = tail.contains { line in
        splitFields(line, delimiter: delimiter).contains { field in
          field.contains(0x2C) && isNumber(field, separator: 0x2C)
        }
      }
      if usesComma { separator = 0x2C }
    }
    // The first data line sets the column count; a non-numeric line just before it is the header;
    // anything earlier is preamble.
    let firstData: Int
    if let skip = options.skipLines {
      guard skip < lines.count else {
        throw InputError(
          path: path, location: .line(lineNumbers.last!), "expected data after \(skip) skipped lines")
      }
      let start = skip + (options.hasHeader == true ? 1 : 0)
      guard start < lines.count else {
        throw InputError(
          path: path, location: .line(lineNumbers.last!), "expected data rows after the header")
      }
      firstData = (start..<lines.count).first { isDataLine(fields[$0], separator: separator) } ?? start
    } else {
      guard let found = fields.firstIndex(where: { isDataLine($0, separator: separator) }) else {
        throw InputError(
          path: path, location: .line(lineNumbers.last!),
          "expected numeric data rows in the first \(lines.count) lines")
      }
      firstData = found
    }
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

    // Time column.
    var timeColumn: Int?
    if let selector = options.timeColumn {
      timeColumn = try ChannelSelector.resolve([selector], names: names, path: path)[0]
    } else if hasHeader, let byName = names.firstIndex(where: isTimeName) {
      timeColumn = byName
    } else if let firstRow = dataFields.first,
      let byContent = firstRow.indices.first(where: { j in
        firstRow[j].withUnsafeBufferPointer { parseDateTime($0) } != nil
      })
    {
      timeColumn = byContent
    } else if !hasHeader, columnCount >= 2 {
      let values = dataFields.compactMap { $0.first.flatMap { numberValue($0, separator: separator) } }
      if values.count == dataFields.count, let v0 = values.first, let vn = values.last, abs(v0) >= 1e6,
        vn > v0,
        zip(values, values.dropFirst()).allSatisfy({ $0 <= $1 })
      {
        timeColumn = 0
      }
    }
    var timeParse = CSVRowParser.TimeParse.none
    if let t = timeColumn {
      let samples = dataFields.compactMap { $0.count > t ? $0[t] : nil }
      if samples.first.map({ $0.withUnsafeBufferPointer { parseDateTime($0) } != nil }) ?? false {
        timeParse = .dateTime
      } else {
        let unit =
          options.timeUnit ?? unitFromName(names[t])
          ?? unitFromIntervals(samples.compactMap { numberValue($0, separator: separator) })
        timeParse = .numeric(exponent: unit.nanosecondExponent)
      }
    }
    let preambleRate = lines.prefix(preamble).indices.lazy.compactMap { index in
      statedRate(lines[index]).map { (value: $0, line: index + 1) }
    }.first
    return CSVLayout(
      delimiter: delimiter, decimalSeparator: separator, preamble: preamble,
      firstDataLine: firstData, names: names,
      timeColumn: timeColumn, timeParse: timeParse, preambleRate: preambleRate)
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

  /// A rate stated as `… N Hz` / `N hertz` in a line.
  static func statedRate(_ line: [UInt8]) -> Double? {
    let lower = line.map { $0 | 0x20 }
    guard
      let unit = lower.indices.first(where: {
        lower[$0...].starts(with: Array("hz".utf8)) || lower[$0...].starts(with: Array("hertz".utf8))
      })
    else { return nil }
    let before = line[..<unit].reversed().drop { $0 == 0x20 }
    let digits = before.prefix { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2C }.reversed()
    let number = String(decoding: digits, as: UTF8.self)
    return Double(number.replacingCommas()).flatMap { $0 > 0 ? $0 : nil }
  }
}
