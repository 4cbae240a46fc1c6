import Testing
import VitalsCore

@testable import VitalsIO

/// Deterministic generator for the random inputs (SplitMix64).
private struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A random decimal: optional sign, 0–20 integer digits, an optional point with 0–20 fraction digits,
/// an optional exponent; short forms (what CSV exports hold) are the most frequent.
private func randomDecimal(_ rng: inout SplitMix) -> String {
  func digits(_ count: Int) -> String {
    String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
  }
  let long = Int.random(in: 0..<4, using: &rng) == 0
  var text = ["", "-", "+"][Int.random(in: 0..<3, using: &rng)]
  let integer = digits(Int.random(in: 0...(long ? 20 : 7), using: &rng))
  text += integer
  if integer.isEmpty || Bool.random(using: &rng) {
    text += "." + digits(Int.random(in: (integer.isEmpty ? 1 : 0)...(long ? 20 : 7), using: &rng))
  }
  // Exponents that keep even 20 integer digits within Float's range (beyond it is an error).
  if long && Bool.random(using: &rng) { text += "e" + String(Int.random(in: -50...17, using: &rng)) }
  return text
}

/// The edges of the short-field quotient form: 8 digits, 2^24 and just above, signed zeros, a leading
/// '+', malformed signs and points.
private let shortFieldEdges = [
  "16777216", "16777217", "-16777216", "1677721.6", "1.6777216", ".16777216", "16777216.", "99999999",
  "9999999.9", "0", "-0", "+0", "-0.0", "+.5", "-5.", "0000000.1", "+1234567.", "12345678", "-.1234567",
  ".", "-", "+", "-.", "1..2", "1.2.", "+-1", "123456789",
]

/// Field `index` of a short-field sweep: the edges first, then mostly what exports hold (1–9 bytes,
/// any sign, leading zeros), some longer or malformed.
private func shortField(_ index: Int, _ rng: inout SplitMix) -> String {
  if index < shortFieldEdges.count { return shortFieldEdges[index] }
  let text = ["", "-", "+"][Int.random(in: 0..<3, using: &rng)]
  let digits = Int.random(in: 0...9, using: &rng)
  var body = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
  if Bool.random(using: &rng) {
    body.insert(".", at: body.index(body.startIndex, offsetBy: Int.random(in: 0...digits, using: &rng)))
  }
  if index % 50 == 0 { body += ["e5", "x", ".", "-", " "][index / 50 % 5] }
  return text + body
}

@Suite("CSV fast paths")
struct CSVFastPathTests {
  @Test("eight-byte digit scan: counts and values", arguments: 0...8)
  func leadingDigits(count: Int) {
    let text = Array("98765432".utf8.prefix(count)) + Array(",x012345".utf8.prefix(8 - count))
    let (found, value) = text.withUnsafeBufferPointer { DecimalNumber.leadingDigits($0.baseAddress!) }
    #expect(found == count)
    if count < 8 { #expect(value == UInt64(String(decoding: text.prefix(count), as: UTF8.self)) ?? 0) }
  }

  @Test(
    "digit combination: SIMD and portable forms agree with the digits' value and its Float", arguments: 1...8)
  func combinedDigits(count: Int) {
    var rng = SplitMix(state: 100 + UInt64(count))
    for _ in 0..<2000 {
      // `count` digits, then any bytes (the combination must ignore them).
      let digits = (0..<count).map { _ in UInt8.random(in: 0x30...0x39, using: &rng) }
      let bytes = digits + (count..<8).map { _ in UInt8.random(in: 0...255, using: &rng) }
      let word = UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
      let expected = UInt64(String(decoding: digits, as: UTF8.self))!
      #expect(DecimalNumber.combinedDigits(word, count: count) == expected, "\(bytes)")
      #expect(DecimalNumber.swarCombinedDigits(word, count: count) == expected, "\(bytes)")
      let (integer, float) = DecimalNumber.digitValues(word, count: count)
      #expect(integer == expected && float == Float(expected), "\(bytes)")
    }
  }

  @Test(
    "scanned numbers round exactly as Double(String) and Float(String)", arguments: [0x2E, 0x2C] as [UInt8])
  func correctRounding(separator: UInt8) throws {
    var rng = SplitMix(state: UInt64(separator))
    // Midpoints between two floats and their neighbours, then random decimals.
    let edges = [
      "8388608.5", "-8388609.5", "4194304.25", "4194304.75", "2097152.125", "8388608.5000001",
      "8388608.4999999", "16777217", "0.30000001192092896", "1.00000005960464477539062500001",
    ]
    for index in 0..<(edges.count + 20_000) {
      let text = index < edges.count ? edges[index] : randomDecimal(&rng)
      // Followed by a delimiter and more bytes, as in a file: the scan reads eight bytes at a time.
      var field = Array(text.utf8)
      if separator != 0x2E { field = field.map { $0 == 0x2E ? separator : $0 } }
      let bytes = field + Array(";12345678\n".utf8)
      try bytes.withUnsafeBufferPointer { b in
        let base = b.baseAddress!
        var number = DecimalNumber(mantissa: 0, exponent: 0, negative: false, exact: true)
        let stop = try #require(
          DecimalNumber.scanPrefix(base, end: base + b.count, separator: separator, into: &number), "\(text)")
        #expect(stop == base + field.count, "\(text)")
        let double = number.doubleValue { text }
        let float = number.floatValue { text }
        #expect(double.bitPattern == Double(text)!.bitPattern, "\(text)")
        #expect(float.bitPattern == Float(text)!.bitPattern, "\(text)")
      }
    }
  }

  @Test(
    "short fields divide exactly into Float(String)'s value, or are left to the scanner",
    arguments: [0x2E, 0x2C] as [UInt8])
  func fieldQuotients(separator: UInt8) throws {
    var rng = SplitMix(state: 11 + UInt64(separator))
    let scales = DecimalNumber.fractionScales
    var accepted = 0
    for index in 0..<(shortFieldEdges.count + 60_000) {
      let text = shortField(index, &rng)
      var field = Array(text.utf8)
      if separator != 0x2E { field = field.map { $0 == 0x2E ? separator : $0 } }
      // The field then its delimiter and 8 readable bytes, as the block parser sees it.
      let bytes = field + Array(";9876543\n".utf8)
      let quotient = bytes.withUnsafeBufferPointer { b in
        scales.withUnsafeBufferPointer { s in
          DecimalNumber.fieldQuotient(
            b.baseAddress!, end: b.baseAddress! + field.count, separator: separator, scales: s.baseAddress!)
        }
      }
      // Eligible: after an optional sign, 1–8 bytes of digits with at most one point, at least one
      // digit, the digits making at most 2^24.
      let plain = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
      let digitsOnly = plain.filter(\.isNumber)
      let eligible =
        (1...8).contains(plain.count) && !digitsOnly.isEmpty && plain.count - digitsOnly.count <= 1
        && plain.allSatisfy { $0.isNumber || $0 == "." } && UInt64(digitsOnly)! <= 1 << 24
      guard let (numerator, scale) = quotient else {
        #expect(!eligible, "\(text)")
        continue
      }
      #expect(eligible, "\(text)")
      accepted += 1
      let value = try #require(Float(text), "accepted \(text)")
      #expect((numerator / scale).bitPattern == value.bitPattern, "\(text)")
    }
    #expect(accepted > 40_000)
  }

  #if canImport(CWideLanes)
    @Test(
      "four-lane field quotients equal the scalar ones, lane by lane", arguments: [0x2E, 0x2C] as [UInt8])
    func laneValues(separator: UInt8) {
      var rng = SplitMix(state: 29 + UInt64(separator))
      let scales = DecimalNumber.fractionScales
      var fields = (0..<(shortFieldEdges.count + 40_000)).map { shortField($0, &rng) }
      fields += Array(repeating: "0", count: (4 - fields.count % 4) % 4)
      var compared = 0
      for group in stride(from: 0, to: fields.count, by: 4) {
        // Four fields, each followed by its delimiter, with 9 readable bytes after the last.
        var bytes: [UInt8] = []
        var bounds: [(start: Int, end: Int)] = []
        for text in fields[group..<group + 4] {
          let field = Array(text.utf8).map { $0 == 0x2E ? separator : $0 }
          bounds.append((bytes.count, bytes.count + field.count))
          bytes += field + [0x3B]
        }
        bytes += Array("987654321".utf8)
        var numerators = [Float](repeating: 0, count: 4)
        var laneScales = [Float](repeating: 0, count: 4)
        let rejected = bytes.withUnsafeBufferPointer { b in
          func word(_ i: Int, after skipped: Int = 0) -> Int64 {
            UnsafeRawPointer(b.baseAddress! + bounds[i].start + skipped).loadUnaligned(as: Int64.self)
          }
          func length(_ i: Int) -> Int { bounds[i].end - bounds[i].start }
          return FieldLanes.quotients(
            words: (word(0), word(1), word(2), word(3)),
            nextWords: (word(0, after: 1), word(1, after: 1), word(2, after: 1), word(3, after: 1)),
            lengths: (length(0), length(1), length(2), length(3)),
            separator: separator, numerators: &numerators, scales: &laneScales)
        }
        for lane in 0..<4 {
          let quotient = bytes.withUnsafeBufferPointer { b in
            scales.withUnsafeBufferPointer { s in
              DecimalNumber.fieldQuotient(
                b.baseAddress! + bounds[lane].start, end: b.baseAddress! + bounds[lane].end,
                separator: separator, scales: s.baseAddress!)
            }
          }
          let text = fields[group + lane]
          let accepted = rejected >> lane & 1 == 0
          #expect(accepted == (quotient != nil), "\(text)")
          if let (numerator, scale) = quotient, accepted {
            #expect(
              numerators[lane] == numerator && laneScales[lane].bitPattern == scale.bitPattern, "\(text)")
            compared += 1
          }
        }
      }
      #expect(compared > 25_000)
    }
  #endif

  @Test("digit and separator bytes: SIMD and portable tests agree with a byte loop")
  func classify() {
    var rng = SplitMix(state: 3)
    let alphabet: [UInt8] = Array("0123456789.,-+e /:".utf8) + [0x00, 0x2F, 0x3A, 0x7F, 0x80, 0xB0, 0xF9]
    for _ in 0..<5000 {
      let bytes = (0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
      let separator: UInt8 = Bool.random(using: &rng) ? 0x2E : 0x2C
      var nonDigits: UInt64 = 0
      var separators: UInt64 = 0
      for (i, byte) in bytes.enumerated() {
        if !(0x30...0x39).contains(byte) { nonDigits |= 1 << UInt64(i) }
        if byte == separator { separators |= 1 << UInt64(i) }
      }
      let word = UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
      let portable = DecimalNumber.swarClassify(word, separator: separator)
      let native = bytes.withUnsafeBufferPointer {
        DecimalNumber.classify($0.baseAddress!, word: word, separator: separator)
      }
      #expect(portable.nonDigits == nonDigits && portable.separators == separators, "\(bytes)")
      #expect(native.nonDigits == nonDigits && native.separators == separators, "\(bytes)")
    }
  }

  @Test(
    "field ends: SIMD and portable scans agree with a byte loop", arguments: [0x2C, 0x3B, 0x09] as [UInt8])
  func fieldBoundaries(delimiter: UInt8) {
    var rng = SplitMix(state: UInt64(delimiter))
    let alphabet: [UInt8] = Array("0123456789.-,;\t\r\n\"".utf8) + [0x00, 0x80, 0xFF]
    for _ in 0..<2000 {
      let window = (0..<64).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
      var expected: UInt64 = 0
      for (i, byte) in window.enumerated() where byte == delimiter || byte == 0x0A {
        expected |= 1 << UInt64(i)
      }
      window.withUnsafeBufferPointer { w in
        #expect(FieldBoundaries.mask(w.baseAddress!, delimiter: delimiter) == expected)
        #expect(FieldBoundaries.swarMask(w.baseAddress!, delimiter: delimiter) == expected)
      }
    }
  }

  @Test("chunks kept by the caller keep their values; dropped ones are reused")
  func chunkReuse() throws {
    let text = "a,b\n" + (0..<50_000).map { "\($0),-\($0).5" }.joined(separator: "\n") + "\n"
    let options = CSVOptions(sampleRate: 10)
    // Kept: every chunk still holds its own rows once the file is read.
    let kept = try readAll(CSVSignalReader(contents: Array(text.utf8), options: options), maxSamples: 4096)
    for chunk in kept.chunks {
      let first = Int(chunk.firstSampleIndex)
      #expect(chunk.channels[0] == (first..<first + chunk.sampleCount).map { Float($0) })
      #expect(chunk.channels[1] == (first..<first + chunk.sampleCount).map { -Float($0) - 0.5 })
    }
    // Dropped after use: the same values.
    let reader = try CSVSignalReader(contents: Array(text.utf8), options: options)
    var values: [Float] = []
    while let chunk = try reader.nextChunk(maxSamples: 4096) { values += chunk.channels[1] }
    #expect(values == kept.channels[1])
    #expect(values.count == 50_000)
  }

  @Test("malformed numbers are rejected with room to read ahead")
  func malformed() {
    for text in ["-", ".", "-.", "+x", "e5", ".e5", "1e", "1e+", "12345678e"] {
      let bytes = Array(text.utf8) + Array(",,,,,,,,,,".utf8)
      var number = DecimalNumber(mantissa: 0, exponent: 0, negative: false, exact: true)
      let stop = bytes.withUnsafeBufferPointer { b in
        DecimalNumber.scanPrefix(
          b.baseAddress!, end: b.baseAddress! + b.count, separator: 0x2E, into: &number)
      }
      #expect(stop == nil, "\(text)")
    }
  }

  @Test(
    "plain and unusual lines interleaved read the same values as Float(String)",
    arguments: CSVRowParser.BlockKernel.available)
  func mixedLines(kernel: CSVRowParser.BlockKernel) throws {
    var rng = SplitMix(state: 7)
    var text = "a,b,c\n"
    var expected: [[Float]] = [[], [], []]
    for row in 0..<36_000 {
      let values = (0..<3).map { _ in randomDecimal(&rng) }
      for (c, v) in values.enumerated() { expected[c].append(Float(v)!) }
      switch row % 97 {
      case 5: text += "\"\(values[0])\", \(values[1]) ,\(values[2])\n"  // quoted, padded
      case 11: text += values.joined(separator: ",") + "\r\n"
      case 17: text += values.joined(separator: ",") + ",\n"  // trailing delimiter
      case 23: text += "\n" + values.joined(separator: ",") + "\n"  // blank line before
      default: text += values.joined(separator: ",") + "\n"
      }
    }
    text += "1,2,3"  // no final newline
    for c in 0..<3 { expected[c].append(Float(c + 1)) }
    // More than one 1 MiB block: lines cut by a block's end are read too.
    #expect(text.utf8.count > 1 << 20)
    let reader = try CSVSignalReader(
      contents: Array(text.utf8), options: CSVOptions(sampleRate: 1), kernel: kernel)
    let result = try readAll(reader, maxSamples: 5000)
    for c in 0..<3 {
      #expect(result.channels[c].map(\.bitPattern) == expected[c].map(\.bitPattern))
    }
  }

  @Test("both kernels read a time column, CRLF line ends and a skipped column alike")
  func kernelsAgree() throws {
    var rng = SplitMix(state: 41)
    var text = "time_ms,a,skipped,b\r\n"
    var expected: [[Float]] = [[], []]
    for row in 0..<30_000 {
      let a = randomDecimal(&rng)
      let b = randomDecimal(&rng)
      expected[0].append(Float(b)!)
      expected[1].append(Float(a)!)
      text += "\(row * 4),\(a),\(row % 7),\(b)\r\n"
    }
    var results: [ReadResult] = []
    for kernel in CSVRowParser.BlockKernel.available {
      let reader = try CSVSignalReader(
        contents: Array(text.utf8), channels: [.name("b"), .name("a")], kernel: kernel)
      #expect(reader.chunkSampleRate == 250)
      results.append(try readAll(reader, maxSamples: 4096))
    }
    for result in results {
      for c in 0..<2 { #expect(result.channels[c].map(\.bitPattern) == expected[c].map(\.bitPattern)) }
      #expect(result.chunks.map(\.startTime) == results[0].chunks.map(\.startTime))
    }
  }

  @Test("both kernels give the same values or the same error on damaged files")
  func kernelsAgreeOnDamage() throws {
    var rng = SplitMix(state: 57)
    let damage = [
      "\"", " ", "", ",", ",,", "\r", "x", "e", "-", ".", "1e5", "123456789012", "+", "\n\n", "nan",
    ]
    var errors = 0
    for file in 0..<150 {
      let timed = file % 3 == 0
      var text = timed ? "t_ms,a,b,c\n" : "a,b,c\n"
      for row in 0..<400 {
        var fields = (0..<3).map { _ in randomDecimal(&rng) }
        if timed {
          fields.insert(String(row * 8 + (Int.random(in: 0..<500, using: &rng) == 0 ? -20 : 0)), at: 0)
        }
        var line = fields.joined(separator: ",")
        if Int.random(in: 0..<500, using: &rng) == 0 {
          let at = line.index(line.startIndex, offsetBy: Int.random(in: 0...line.count, using: &rng))
          line.insert(contentsOf: damage[Int.random(in: 0..<damage.count, using: &rng)], at: at)
        }
        text += line + (Int.random(in: 0..<50, using: &rng) == 0 ? "\r\n" : "\n")
      }
      var outcomes: [String] = []
      for kernel in CSVRowParser.BlockKernel.available {
        do {
          let reader = try CSVSignalReader(
            contents: Array(text.utf8), options: CSVOptions(sampleRate: timed ? nil : 125), kernel: kernel)
          let result = try readAll(reader, maxSamples: 97)
          outcomes.append(
            result.channels.map { $0.map { String($0.bitPattern) }.joined(separator: " ") }.joined(
              separator: "|"))
        } catch {
          outcomes.append("\(error)")
          errors += 1
        }
      }
      #expect(Set(outcomes).count == 1, "file \(file)")
    }
    // Both outcomes are exercised: files read whole and files stopped by an error.
    let kernels = CSVRowParser.BlockKernel.available.count
    #expect(errors > 10 * kernels && errors < 140 * kernels)
  }

  @Test(
    "errors after many plain lines name the right line and column",
    arguments: CSVRowParser.BlockKernel.available)
  func errorLine(kernel: CSVRowParser.BlockKernel) {
    let plain = String(repeating: "1.5,2,3\n", count: 20_000)
    for (bad, column) in [("1.5,x,3\n", 2), ("1.5,2\n", 2), ("1.5,2,3,4\n", 4)] {
      let text = "a,b,c\n" + plain + bad + plain
      let error = inputError {
        _ = try readAll(
          CSVSignalReader(contents: Array(text.utf8), options: CSVOptions(sampleRate: 1), kernel: kernel))
      }
      guard case .field(let line, let c) = error?.location else {
        Issue.record("\(bad): expected a field error, got \(String(describing: error))")
        continue
      }
      #expect(line == 20_002 && c == column, "\(bad)")
    }
    // A time stamp that goes backwards inside a block of plain lines.
    let rows = (0..<5000).map { "\($0 == 3000 ? 1 : $0 * 4),\($0)" }.joined(separator: "\n")
    let error = inputError {
      _ = try readAll(CSVSignalReader(contents: Array(("time_ms,v\n" + rows + "\n").utf8), kernel: kernel))
    }
    guard case .field(let line, let column) = error?.location else {
      Issue.record("expected a field error, got \(String(describing: error))")
      return
    }
    #expect(line == 3002 && column == 1)
  }
}
