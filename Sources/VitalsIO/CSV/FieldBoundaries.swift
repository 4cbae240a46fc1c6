#if arch(x86_64)
  import _Builtin_intrinsics.intel
#endif

/// Where fields end in a block of delimited text, 64 bytes at a time: the structural scan of
/// simdjson (Langdale & Lemire 2019, stage 1) for the two bytes that end a CSV field, the delimiter
/// and `\n`. Knowing every field's end before parsing it takes the scan of one field off the path of
/// the next, so fields parse independently of each other.
enum FieldBoundaries {
  /// Bit `i` is set when `window[i]` is `delimiter` or `\n`, for the 64 bytes at `window` (all
  /// readable). SSE2 compares and byte masks on x86-64 (every x86-64 has them), ``swarMask`` elsewhere.
  @inline(__always)
  static func mask(_ window: UnsafePointer<UInt8>, delimiter: UInt8) -> UInt64 {
    #if arch(x86_64)
      let delimiters = _mm_set1_epi8(CChar(bitPattern: delimiter))
      let newlines = _mm_set1_epi8(0x0A)
      var mask: UInt64 = 0
      for part in 0..<4 {
        let bytes = _mm_loadu_si128(
          UnsafeRawPointer(window + 16 * part).assumingMemoryBound(to: __m128i.self))
        let hits = _mm_or_si128(_mm_cmpeq_epi8(bytes, delimiters), _mm_cmpeq_epi8(bytes, newlines))
        mask |= UInt64(UInt16(truncatingIfNeeded: _mm_movemask_epi8(hits))) &<< UInt64(16 * part)
      }
      return mask
    #else
      return swarMask(window, delimiter: delimiter)
    #endif
  }

  /// ``mask(_:delimiter:)`` in portable 64-bit arithmetic: exact per-byte equality tests
  /// (`SWAR/bytes(of:equalTo:)`), each word's eight flags gathered into a byte by one multiply.
  @inline(__always)
  static func swarMask(_ window: UnsafePointer<UInt8>, delimiter: UInt8) -> UInt64 {
    var mask: UInt64 = 0
    for word in 0..<8 {
      let w = UInt64(littleEndian: UnsafeRawPointer(window + 8 * word).loadUnaligned(as: UInt64.self))
      let hits = SWAR.bytes(of: w, equalTo: delimiter) | SWAR.bytes(of: w, equalTo: 0x0A)
      mask |= SWAR.gathered(hits) &<< UInt64(8 * word)
    }
    return mask
  }
}

/// Per-byte tests on a 64-bit word (SWAR), shared by the portable paths of `FieldBoundaries` and
/// `DecimalNumber`: a flag is 0x80 in its byte.
enum SWAR {
  /// 0x80 in each byte of `word` that equals `byte` (exact: no carries between bytes).
  @inline(__always)
  static func bytes(of word: UInt64, equalTo byte: UInt8) -> UInt64 {
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    let differences = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
    return ~(((differences & low7) &+ low7) | differences | low7)
  }

  /// The eight byte flags of `flags` gathered into its low byte by one multiply: bit i for byte i.
  @inline(__always)
  static func gathered(_ flags: UInt64) -> UInt64 { ((flags &>> 7) &* 0x0102_0408_1020_4080) &>> 56 }
}
