#if arch(x86_64)
  import _Builtin_intrinsics.intel
#endif

/// A decimal number scanned from text: `(-1)^negative × mantissa × 10^exponent`.
///
/// The scanner reads bytes directly (no `String`, no Foundation), the common short forms eight bytes
/// at a time (``fieldQuotient(_:end:separator:scales:)``, ``leadingDigits(_:)``), and converts with
/// the Clinger (1990) fast path when it is exact (short fields as a quotient of exact `Float`s;
/// others with decimal fractions multiplied by a rounded 10^-p, guarded against float midpoints);
/// digits beyond 19, exponents out of range and the rare ties of the `Double`→`Float` rounding fall
/// back to the standard library's correctly rounded parsers. Every path gives the correctly rounded value: the same bits as `Float(String)` and `Double(String)`.
package struct DecimalNumber {
  var mantissa: UInt64
  var exponent: Int
  var negative: Bool
  /// Whether `mantissa` holds every significant digit (false past 19 digits).
  var exact: Bool

  /// 10^p for 0 ≤ p ≤ 22, the powers of ten `Double` holds exactly (a constant table: no lazy global
  /// in the hot path).
  @inline(__always)
  private static func powerOfTen(_ p: Int) -> Double {
    switch p {
    case 0: 1
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    case 15: 1e15
    case 16: 1e16
    case 17: 1e17
    case 18: 1e18
    case 19: 1e19
    case 20: 1e20
    case 21: 1e21
    default: 1e22
    }
  }

  /// Scans `count` bytes at `start` as one number: optional spaces and surrounding double quotes,
  /// a sign, digits with at most one `separator` (`.` or `,`), an optional exponent. Returns `nil`
  /// when the bytes are not exactly such a number (including when they are empty).
  @inline(__always)
  package static func scan(_ start: UnsafePointer<UInt8>, count: Int, separator: UInt8) -> DecimalNumber? {
    var p = start
    var end = start + count
    while p < end && (p.pointee == 0x20 || p.pointee == 0x22) { p += 1 }
    while end > p && (end[-1] == 0x20 || end[-1] == 0x22 || end[-1] == 0x0D) { end -= 1 }
    guard p < end else { return nil }
    var number = DecimalNumber(mantissa: 0, exponent: 0, negative: false, exact: true)
    guard let stop = scanPrefix(p, end: end, separator: separator, into: &number), stop == end else {
      return nil
    }
    return number
  }

  // A scan kernel kept in one piece: the per-byte loop of every CSV field, inlined whole into callers.
  /// Scans the longest number at `start` (no spaces or quotes): a sign, digits with at most one
  /// `separator`, an optional exponent. Returns where the scan stopped, or `nil` when no number
  /// starts there (or an exponent has no digits).
  @inline(__always)
  static func scanPrefix(
    _ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, separator: UInt8,
    into number: inout DecimalNumber
  ) -> UnsafePointer<UInt8>? {
    var p = start
    guard p < end else { return nil }
    var negative = false
    if p.pointee == 0x2D {
      negative = true
      p += 1
    } else if p.pointee == 0x2B {
      p += 1
    }
    // Common case, eight bytes at a time: at most 7 integer digits, optionally a separator and at
    // most 7 fraction digits, no exponent. Anything else takes the byte loop below.
    if end - p >= 8 {
      let (integerDigits, integer) = leadingDigits(p)
      var q = p + integerDigits
      if integerDigits < 8 {
        var fractionDigits = 0
        var fraction: UInt64 = 0
        var plain = true
        if q.pointee == separator {
          q += 1
          if end - q >= 8 {
            (fractionDigits, fraction) = leadingDigits(q)
            q += fractionDigits
            plain = fractionDigits < 8
          } else {
            plain = false
          }
        }
        if plain && (q.pointee | 0x20) != 0x65 {
          guard integerDigits + fractionDigits > 0 else { return nil }
          number = DecimalNumber(
            mantissa: integer &* smallPowerOfTen(fractionDigits) &+ fraction, exponent: -fractionDigits,
            negative: negative, exact: true)
          return q
        }
      }
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    var exact = true
    let digitsStart = p
    while p < end, case let d = p.pointee &- 0x30, d < 10 {
      if digits < 19 {
        mantissa = mantissa &* 10 &+ UInt64(d)
        if mantissa != 0 { digits += 1 }
      } else {
        exponent += 1
        if d != 0 { exact = false }
      }
      p += 1
    }
    var sawDigit = p != digitsStart
    if p < end && p.pointee == separator {
      p += 1
      let fractionStart = p
      while p < end, case let d = p.pointee &- 0x30, d < 10 {
        if digits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(d)
          if mantissa != 0 { digits += 1 }
          exponent -= 1
        } else if d != 0 {
          exact = false
        }
        p += 1
      }
      sawDigit = sawDigit || p != fractionStart
    }
    guard sawDigit else { return nil }
    if p < end && (p.pointee | 0x20) == 0x65 {
      p += 1
      var exponentNegative = false
      if p < end && (p.pointee == 0x2D || p.pointee == 0x2B) {
        exponentNegative = p.pointee == 0x2D
        p += 1
      }
      var e = 0
      let exponentStart = p
      while p < end, case let d = p.pointee &- 0x30, d < 10 {
        if e < 100_000 { e = e * 10 + Int(d) }
        p += 1
      }
      guard p != exponentStart else { return nil }
      exponent += exponentNegative ? -e : e
    }
    number = DecimalNumber(mantissa: mantissa, exponent: exponent, negative: negative, exact: exact)
    return p
  }

  /// The field `start..<end` as a quotient of two exactly represented `Float`s, `numerator / scale`,
  /// when it is a short plain decimal: a sign, then at most 8 bytes of digits with at most one
  /// `separator` (at least one digit), whose digits make at most 2^24; `nil` otherwise (the caller
  /// then scans it with ``scanPrefix``, which gives the same value for every field this accepts).
  ///
  /// The numerator is the integer of the digits, the scale ±10^p for p fraction digits (≤ 7) with the
  /// field's sign, both exact in `Float`, so the IEEE division `numerator / scale` is the correctly
  /// rounded value (Clinger 1990: the fast path in `Float`; rounding to nearest is symmetric, and
  /// `0 / -1` is `-0`), the same bits as `Float(String)`. The caller divides
  /// later, many fields at a time in SIMD lanes, which keeps floating point and its latency out of
  /// the scan. The field's bounds come from a structural scan, so nothing here depends on where the
  /// previous field stopped: one eight-byte load (reading up to 8 bytes past `end`, which must be
  /// readable), per-byte digit and separator tests (``classify(_:word:separator:)``), the
  /// separator's byte removed by a shift, and the digits combined and converted by
  /// ``digitValues(_:count:)``. `scales` holds ``fractionScales`` (a table the caller keeps at hand:
  /// an indexed load, where a switch would jump and a vector constant would be stored anew per call);
  /// the sign picks its negative half, so it costs an index, not a bit operation on the numerator's
  /// path.
  @inline(__always)
  static func fieldQuotient(
    _ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, separator: UInt8, scales: UnsafePointer<Float>
  ) -> (numerator: Float, scale: Float)? {
    let first = start.pointee
    let negative = first == 0x2D
    let p = negative || first == 0x2B ? start + 1 : start
    let length = end - p
    guard length > 0 && length <= 8 else { return nil }
    var word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    let (nonDigitBytes, separatorBytes) = classify(p, word: word, separator: separator)
    let other = nonDigitBytes & ((1 &<< UInt64(length)) &- 1)
    var digits = length
    var fractionDigits = 0
    if other != 0 {
      // One non-digit, the separator: the bytes after it move down over it.
      let at = other.trailingZeroBitCount
      guard other & (other &- 1) == 0, other & separatorBytes != 0, length > 1 else { return nil }
      let before = (1 &<< UInt64(8 * at)) &- 1
      word = (word & before) | ((word &>> 8) & ~before)
      digits = length - 1
      fractionDigits = digits - at
    }
    let (mantissa, numerator) = digitValues(word, count: digits)
    guard mantissa <= 1 << 24 else { return nil }
    // The sign as an index, not a branch: signs in data are unpredictable.
    return (numerator, scales[fractionDigits | Int(unsafeBitCast(negative, to: UInt8.self)) &<< 3])
  }

  /// Bit i set when byte i of the 8 at `p` (`word`, loaded from there) is not an ASCII digit, and when
  /// it is `separator`. SSE2 byte compares and masks on x86-64 (every x86-64 has them: fewer
  /// instructions than the 64-bit arithmetic, whose constants do not stay in registers in the block
  /// parser's loop), ``swarClassify(_:separator:)`` elsewhere.
  @inline(__always)
  static func classify(_ p: UnsafePointer<UInt8>, word: UInt64, separator: UInt8) -> (
    nonDigits: UInt64, separators: UInt64
  ) {
    #if arch(x86_64)
      let bytes = _mm_loadl_epi64(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
      // Digits map to -128…-119 once 0x50 is added (as signed bytes), every other byte above.
      let other = _mm_cmpgt_epi8(_mm_add_epi8(bytes, _mm_set1_epi8(0x50)), _mm_set1_epi8(-119))
      let separators = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(CChar(bitPattern: separator)))
      return (
        UInt64(UInt8(truncatingIfNeeded: _mm_movemask_epi8(other))),
        UInt64(UInt8(truncatingIfNeeded: _mm_movemask_epi8(separators)))
      )
    #else
      return swarClassify(word, separator: separator)
    #endif
  }

  /// ``classify(_:word:separator:)`` in portable 64-bit arithmetic (``nonDigits(_:)``, whose flags
  /// after a byte ≥ 0xFA may also mark digits, never a non-digit as a digit; `SWAR/bytes(of:equalTo:)`),
  /// each byte's flag gathered into a bit by `SWAR/gathered(_:)`.
  @inline(__always)
  static func swarClassify(_ word: UInt64, separator: UInt8) -> (nonDigits: UInt64, separators: UInt64) {
    (SWAR.gathered(nonDigits(word)), SWAR.gathered(SWAR.bytes(of: word, equalTo: separator)))
  }

  /// 0x80 in each byte of `word` that is not an ASCII digit, exactly up to the first byte ≥ 0xFA (a
  /// carry out of such a byte, itself flagged, may disturb the flags of the bytes after it).
  @inline(__always)
  static func nonDigits(_ word: UInt64) -> UInt64 {
    // A byte is a digit when its high nibble is 3 and it is ≤ 0x39 (then +6 keeps the nibble 3).
    let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    let threes: UInt64 = 0x3030_3030_3030_3030
    let other = ((word & nibbles) ^ threes) | (((word &+ 0x0606_0606_0606_0606) & nibbles) ^ threes)
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return (((other & low7) &+ low7) | other) & 0x8080_8080_8080_8080
  }

  /// The value of the `count` (1–8) ASCII digits in the low bytes of `word`, first digit lowest: the
  /// digits moved to the top bytes, leading zeros below, then combined pairwise. On x86-64 by SSE2
  /// multiply-adds of 16-bit lanes (``combinedDigitsVector(_:count:)``), whose constants stay in
  /// memory operands instead of taking the scan's registers; ``swarCombinedDigits(_:count:)``
  /// elsewhere.
  @inline(__always)
  static func combinedDigits(_ word: UInt64, count: Int) -> UInt64 {
    #if arch(x86_64)
      UInt64(UInt32(bitPattern: _mm_cvtsi128_si32(combinedDigitsVector(word, count: count))))
    #else
      swarCombinedDigits(word, count: count)
    #endif
  }

  /// ``combinedDigits(_:count:)`` and its nearest `Float` (exact up to 2^24). On x86-64 the `Float`
  /// is converted in the vector register that combined the digits (`cvtdq2ps`), so its path to the
  /// caller's store takes no trip through a general register.
  @inline(__always)
  static func digitValues(_ word: UInt64, count: Int) -> (integer: UInt64, float: Float) {
    #if arch(x86_64)
      let value = combinedDigitsVector(word, count: count)
      return (
        UInt64(UInt32(bitPattern: _mm_cvtsi128_si32(value))), _mm_cvtss_f32(_mm_cvtepi32_ps(value))
      )
    #else
      let value = swarCombinedDigits(word, count: count)
      return (value, Float(value))
    #endif
  }

  #if arch(x86_64)
    /// ``combinedDigits(_:count:)`` in the low 32-bit lane of a vector: `pmaddwd` of the digits'
    /// 16-bit lanes weighs digit pairs, then groups of four, then all eight.
    @inline(__always)
    static func combinedDigitsVector(_ word: UInt64, count: Int) -> __m128i {
      let aligned = Int64(bitPattern: word &<< UInt64(64 &- 8 &* count))
      let digits = _mm_and_si128(_mm_cvtsi64_si128(aligned), _mm_set1_epi8(0x0F))
      // Sixteen-bit lanes, most significant digit first; each step weighs a lane pair's first by
      // 10, 100 or 10^4 (the low half of the 32-bit constant) and its second by 1.
      let pairs = _mm_madd_epi16(_mm_unpacklo_epi8(digits, _mm_setzero_si128()), _mm_set1_epi32(0x0001_000A))
      let quads = _mm_madd_epi16(_mm_packs_epi32(pairs, pairs), _mm_set1_epi32(0x0001_0064))
      return _mm_madd_epi16(_mm_packs_epi32(quads, quads), _mm_set1_epi32(0x0001_2710))
    }
  #endif

  /// ``combinedDigits(_:count:)`` in portable 64-bit arithmetic (SWAR: pairwise by multiplies, as in
  /// Lemire's fast_float `parse_eight_digits_unrolled`).
  @inline(__always)
  static func swarCombinedDigits(_ word: UInt64, count: Int) -> UInt64 {
    var v = (word & 0x0F0F_0F0F_0F0F_0F0F) &<< UInt64(64 - 8 * count)
    v = v &* 10 &+ (v &>> 8)
    let pairs: UInt64 = 0x0000_00FF_0000_00FF
    let high: UInt64 = (v & pairs) &* (100 + (1_000_000 << 32))
    let low: UInt64 = ((v &>> 16) & pairs) &* (1 + (10_000 << 32))
    return (high &+ low) &>> 32
  }

  /// The number of ASCII digits (0–8) that the 8 bytes at `p` start with, and their value when there
  /// are at most 7.
  @inline(__always)
  static func leadingDigits(_ p: UnsafePointer<UInt8>) -> (count: Int, value: UInt64) {
    let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    let count = nonDigits(word).trailingZeroBitCount >> 3
    guard count > 0 && count < 8 else { return (count, 0) }
    return (count, combinedDigits(word, count: count))
  }

  /// 10^p for 0 ≤ p ≤ 7.
  @inline(__always)
  private static func smallPowerOfTen(_ p: Int) -> UInt64 {
    switch p {
    case 0: 1
    case 1: 10
    case 2: 100
    case 3: 1000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    default: 10_000_000
    }
  }

  /// The nearest `Double`, when the fast path is exact.
  @inline(__always)
  private var fastDouble: Double? {
    guard exact, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
    let m = Double(mantissa)
    let v = exponent < 0 ? m / Self.powerOfTen(-exponent) : m * Self.powerOfTen(exponent)
    return negative ? -v : v
  }

  /// The nearest `Double` (correctly rounded).
  package func doubleValue(fallbackText: () -> String) -> Double {
    if mantissa == 0 && exact { return negative ? -0.0 : 0 }
    if let v = fastDouble { return v }
    return Double(fallbackText()) ?? .nan
  }

  /// The nearest `Float` when a fast path is exact, else `nil`.
  ///
  /// With a negative exponent (decimal fractions, the common case) the mantissa is multiplied by the
  /// nearest `Double` of 10^-p: no division, and within 2 ulps (of `Double`) of the exact quotient,
  /// so its rounding to `Float` is the correct one unless it lies within 8 ulps of a midpoint between
  /// two floats. Those, and positive exponents, take Clinger's exact `Double`, rounded to `Float`
  /// only when it is not a tie, where double rounding could err.
  var fastFloat: Float? {
    @inline(__always) get {
      if mantissa == 0 && exact { return negative ? -0.0 : 0 }
      if exact, mantissa <= 1 << 53, exponent < 0, exponent >= -22 {
        let approximate = Double(mantissa) * Self.reciprocalPowerOfTen(-exponent)
        let belowFloat = approximate.bitPattern & 0x1FFF_FFFF
        if belowFloat &- (0x1000_0000 - 8) > 16 {
          let value = Float(approximate)
          return negative ? -value : value
        }
      }
      if let d = fastDouble, d.bitPattern & 0x1FFF_FFFF != 0x1000_0000 { return Float(d) }
      return nil
    }
  }

  /// The scales of ``fieldQuotient(_:end:separator:scales:)``: 10^p for 0 ≤ p ≤ 7 (exact in `Float`),
  /// then their negatives.
  static let fractionScales: [Float] = (0...15).map { ($0 < 8 ? 1 : -1) * Float(smallPowerOfTen($0 & 7)) }

  /// The nearest `Double` to 10^-p for 1 ≤ p ≤ 22.
  @inline(__always)
  static func reciprocalPowerOfTen(_ p: Int) -> Double {
    switch p {
    case 1: 1e-1
    case 2: 1e-2
    case 3: 1e-3
    case 4: 1e-4
    case 5: 1e-5
    case 6: 1e-6
    case 7: 1e-7
    case 8: 1e-8
    case 9: 1e-9
    case 10: 1e-10
    case 11: 1e-11
    case 12: 1e-12
    case 13: 1e-13
    case 14: 1e-14
    case 15: 1e-15
    case 16: 1e-16
    case 17: 1e-17
    case 18: 1e-18
    case 19: 1e-19
    case 20: 1e-20
    case 21: 1e-21
    default: 1e-22
    }
  }

  /// The nearest `Float` (correctly rounded).
  package func floatValue(fallbackText: () -> String) -> Float {
    fastFloat ?? Float(fallbackText()) ?? .nan
  }

  /// The value times `10^scale` as an integer, exactly when it is one and fits; `nil` otherwise.
  func scaledInteger(by scale: Int) -> Int64? {
    guard exact else { return nil }
    var e = exponent + scale
    var m = mantissa
    while e < 0 {
      guard m % 10 == 0 else { return nil }
      m /= 10
      e += 1
    }
    while e > 0 {
      let (product, overflow) = m.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      m = product
      e -= 1
    }
    guard m <= UInt64(Int64.max) else { return nil }
    return negative ? -Int64(m) : Int64(m)
  }
}

/// Text of a byte range for error messages and slow-path parsing (separator replaced by `.`).
package func fieldText(_ start: UnsafePointer<UInt8>, count: Int, separator: UInt8 = 0x2E) -> String {
  var bytes = Array(UnsafeBufferPointer(start: start, count: min(count, 200)))
  if separator != 0x2E {
    for i in bytes.indices where bytes[i] == separator { bytes[i] = 0x2E }
  }
  while let last = bytes.last, last == 0x20 || last == 0x22 || last == 0x0D { bytes.removeLast() }
  while let first = bytes.first, first == 0x20 || first == 0x22 { bytes.removeFirst() }
  return String(decoding: bytes, as: UTF8.self)
}
