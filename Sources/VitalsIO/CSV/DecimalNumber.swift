/// A decimal number scanned from text: `(-1)^negative × mantissa × 10^exponent`.
///
/// The scanner reads bytes directly (no `String`, no Foundation) and converts with the Clinger
/// (1990) fast path when it is exact; digits beyond 19, exponents out of range and the rare ties of
/// the `Double`→`Float` rounding fall back to the standard library's correctly rounded parsers.
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

  /// The nearest `Float` when the fast path is exact, else `nil`: the fast path's `Double` is
  /// rounded to `Float` only when it is not a tie between two floats, where double rounding could
  /// err.
  @inline(__always)
  var fastFloat: Float? {
    if mantissa == 0 && exact { return negative ? -0.0 : 0 }
    if let d = fastDouble, d.bitPattern & 0x1FFF_FFFF != 0x1000_0000 { return Float(d) }
    return nil
  }

  /// The nearest `Float` (correctly rounded).
  func floatValue(fallbackText: () -> String) -> Float {
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
