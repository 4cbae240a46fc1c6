#if canImport(CWideLanes)
  import _Builtin_intrinsics.intel

  /// The CSV block parser's 256-bit kernels, compiled into builds that target AVX2 (where the
  /// marker module `CWideLanes` is importable): the field ends of a block first, then the short
  /// decimal fields of one column converted four rows at a time.
  ///
  /// Splitting the structural scan from the conversion follows simdjson (Langdale & Lemire 2019);
  /// the conversion is `DecimalNumber/fieldQuotient(_:end:separator:scales:)` in four 64-bit lanes,
  /// with the same rules and the same correctly rounded quotient (Clinger 1990), so a field gives
  /// the same bits either way.
  enum FieldLanes {
    /// Writes to `ends` the offsets from `base` of the bytes equal to `delimiter` or `\n` among the
    /// `count` bytes at `base` (whose 64-byte windows must be readable), in order, and to
    /// `newlinesBefore[w]` the number of `\n` bytes before window `w`. Stops after the window that
    /// brings the ends to `maxEnds` or more, or after `maxWindows` windows. Returns the number of
    /// ends; `ends` must hold `maxEnds + 64` offsets.
    @inline(__always)
    static func collectEnds(
      _ base: UnsafePointer<UInt8>, count: Int, delimiter: UInt8, maxEnds: Int, maxWindows: Int,
      ends: UnsafeMutablePointer<Int32>, newlinesBefore: UnsafeMutablePointer<Int32>
    ) -> Int {
      var found = 0
      var newlines: Int32 = 0
      var window = 0
      var offset = 0
      while offset < count && found < maxEnds && window < maxWindows {
        let (separators, lineEnds) = masks(base + offset, delimiter: delimiter)
        let valid: UInt64 = count - offset >= 64 ? ~0 : (1 &<< UInt64(count - offset)) &- 1
        var bits = (separators | lineEnds) & valid
        newlinesBefore[window] = newlines
        newlines &+= Int32(truncatingIfNeeded: (lineEnds & valid).nonzeroBitCount)
        // Offsets eight at a time whatever the count (as simdjson's stage 1 does), so that the
        // branches follow the typical count of a file's windows instead of each end.
        let bitCount = bits.nonzeroBitCount
        let at = Int32(truncatingIfNeeded: offset)
        var out = ends + found
        for k in 0..<8 {
          out[k] = at &+ Int32(truncatingIfNeeded: bits.trailingZeroBitCount)
          bits &= bits &- 1
        }
        if bitCount > 8 {
          for k in 8..<16 {
            out[k] = at &+ Int32(truncatingIfNeeded: bits.trailingZeroBitCount)
            bits &= bits &- 1
          }
          out += 16
          while bits != 0 {
            out.pointee = at &+ Int32(truncatingIfNeeded: bits.trailingZeroBitCount)
            bits &= bits &- 1
            out += 1
          }
        }
        found &+= bitCount
        window &+= 1
        offset &+= 64
      }
      return found
    }

    /// The number of `\n` bytes at or before offset `end` (a result of ``collectEnds``).
    @inline(__always)
    static func newlines(
      through end: Int, in base: UnsafePointer<UInt8>, newlinesBefore: UnsafePointer<Int32>
    ) -> Int {
      let window = end >> 6
      let lineEnds = masks(base + (window << 6), delimiter: 0x0A).lineEnds
      let upTo = (UInt64(2) &<< UInt64(end & 63)) &- 1
      return Int(newlinesBefore[window]) + (lineEnds & upTo).nonzeroBitCount
    }

    /// Bit i set when byte i of the 64 at `window` is `delimiter`, and when it is `\n`.
    @inline(__always)
    private static func masks(_ window: UnsafePointer<UInt8>, delimiter: UInt8) -> (
      separators: UInt64, lineEnds: UInt64
    ) {
      let delimiters = _mm256_set1_epi8(CChar(bitPattern: delimiter))
      let newline = _mm256_set1_epi8(0x0A)
      let low = _mm256_loadu_si256(UnsafeRawPointer(window).assumingMemoryBound(to: __m256i.self))
      let high = _mm256_loadu_si256(UnsafeRawPointer(window + 32).assumingMemoryBound(to: __m256i.self))
      func bits(_ lower: __m256i, _ upper: __m256i) -> UInt64 {
        UInt64(UInt32(bitPattern: _mm256_movemask_epi8(lower)))
          | UInt64(UInt32(bitPattern: _mm256_movemask_epi8(upper))) &<< 32
      }
      return (
        bits(_mm256_cmpeq_epi8(low, delimiters), _mm256_cmpeq_epi8(high, delimiters)),
        bits(_mm256_cmpeq_epi8(low, newline), _mm256_cmpeq_epi8(high, newline))
      )
    }

    /// Four fields at once: `words` holds the eight bytes at each field's start and `nextWords` the
    /// eight after its first (bytes past its end are ignored), `lengths` each field's length in
    /// bytes. Writes the numerators and scales of their quotients (numerator / scale is the value,
    /// correctly rounded) to `numerators[0..<4]` and `scales[0..<4]`, and returns, in bit i,
    /// whether field i is not a short plain decimal as
    /// `DecimalNumber/fieldQuotient(_:end:separator:scales:)` defines it (a sign, then 1 to 8
    /// bytes of digits with at most one `separator` and at least one digit, digits making at most
    /// 2^24); such a field's quotient is meaningless and the caller reads it another way. (The
    /// division is left to the caller, many rows at a time: it would end each group's long chain of
    /// dependent instructions.)
    @inline(__always)
    static func quotients(
      words: (Int64, Int64, Int64, Int64), nextWords: (Int64, Int64, Int64, Int64),
      lengths: (Int, Int, Int, Int),
      separator: UInt8, numerators: UnsafeMutablePointer<Float>, scales: UnsafeMutablePointer<Float>
    ) -> Int32 {
      let words = _mm256_setr_epi64x(words.0, words.1, words.2, words.3)
      let nextWords = _mm256_setr_epi64x(nextWords.0, nextWords.1, nextWords.2, nextWords.3)
      let lengths = _mm256_setr_epi64x(
        Int64(lengths.0), Int64(lengths.1), Int64(lengths.2), Int64(lengths.3))
      let separator = _mm256_set1_epi8(CChar(bitPattern: separator))
      let ones = _mm256_set1_epi64x(-1)
      let first = _mm256_and_si256(words, _mm256_set1_epi64x(0xFF))
      let negative = _mm256_cmpeq_epi64(first, _mm256_set1_epi64x(0x2D))
      let signed = _mm256_or_si256(negative, _mm256_cmpeq_epi64(first, _mm256_set1_epi64x(0x2B)))
      // After a sign the digits start a byte later; `signed` is -1 where there is one.
      let word = _mm256_blendv_epi8(words, nextWords, signed)
      let lastByte = _mm256_add_epi64(_mm256_add_epi64(lengths, signed), ones)
      // Ones over the field's bytes (lengths 1...8; others are rejected below).
      let inField = _mm256_srlv_epi64(
        ones, _mm256_sub_epi64(_mm256_set1_epi64x(56), _mm256_slli_epi64(lastByte, 3)))
      let offset = _mm256_sub_epi8(word, _mm256_set1_epi8(0x30))
      let digit = _mm256_cmpeq_epi8(_mm256_min_epu8(offset, _mm256_set1_epi8(9)), offset)
      let other = _mm256_andnot_si256(digit, inField)
      // The first non-digit byte: its lowest bit, the bits below it, and its whole byte.
      let lowest = _mm256_and_si256(other, _mm256_sub_epi64(_mm256_setzero_si256(), other))
      let below = _mm256_add_epi64(lowest, ones)
      let otherByte = _mm256_sub_epi64(_mm256_slli_epi64(lowest, 8), lowest)
      // The separator's byte removed: the bytes after it move down over it.
      let joined = _mm256_or_si256(
        _mm256_and_si256(word, below), _mm256_andnot_si256(below, _mm256_srli_epi64(word, 8)))
      let hasSeparator = _mm256_xor_si256(_mm256_cmpeq_epi64(other, _mm256_setzero_si256()), ones)
      let lastDigit = _mm256_add_epi64(lastByte, hasSeparator)
      let fractionBytes = _mm256_andnot_si256(
        _mm256_or_si256(below, otherByte), _mm256_and_si256(inField, _mm256_set1_epi8(1)))
      let fractionDigits = _mm256_sad_epu8(fractionBytes, _mm256_setzero_si256())
      // Digits moved to the top bytes, then combined pairwise: the first digit is the most
      // significant (``DecimalNumber/combinedDigits(_:count:)``).
      let digits = _mm256_and_si256(
        _mm256_sllv_epi64(joined, _mm256_sub_epi64(_mm256_set1_epi64x(56), _mm256_slli_epi64(lastDigit, 3))),
        _mm256_set1_epi8(0x0F))
      let pairs = _mm256_maddubs_epi16(digits, _mm256_set1_epi16(0x010A))
      let quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x0001_0064))
      let mantissa = _mm256_add_epi64(
        _mm256_mul_epu32(quads, _mm256_set1_epi64x(10_000)), _mm256_srli_epi64(quads, 32))
      // Rejected: a length or digit count outside 1...8, a second non-digit or one that is not the
      // separator, digits above 2^24.
      let outOfRange = _mm256_or_si256(
        _mm256_andnot_si256(_mm256_set1_epi64x(7), _mm256_or_si256(lastByte, lastDigit)),
        _mm256_cmpgt_epi64(mantissa, _mm256_set1_epi64x(1 << 24)))
      let strayBytes = _mm256_or_si256(
        _mm256_xor_si256(other, otherByte),
        _mm256_andnot_si256(_mm256_cmpeq_epi8(word, separator), otherByte))
      let rejected = _mm256_xor_si256(
        _mm256_cmpeq_epi64(_mm256_or_si256(outOfRange, strayBytes), _mm256_setzero_si256()), ones)
      // The low 32 bits of each lane; 10^p from an eight-entry table, the sign on the scale.
      let low32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)
      let numerator = _mm_cvtepi32_ps(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(mantissa, low32)))
      let powers = _mm256_setr_ps(1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7)
      let scale = _mm256_castps256_ps128(
        _mm256_permutevar8x32_ps(powers, _mm256_permutevar8x32_epi32(fractionDigits, low32)))
      let sign = _mm_castsi128_ps(
        _mm_slli_epi32(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(negative, low32)), 31))
      _mm_storeu_ps(numerators, numerator)
      _mm_storeu_ps(scales, _mm_or_ps(scale, sign))
      return _mm256_movemask_pd(_mm256_castsi256_pd(rejected))
    }
  }
#endif
