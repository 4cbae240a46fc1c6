extension WFDBStorageFormat {
  /// Decodes the first `count` samples stored in `bytes` (which starts on a packing-group
  /// boundary) into `output`, as the digital values of `signal(5)`: two's complement, offset
  /// formats re-centered on 0. Format 8 yields the stored differences, not their running sum.
  ///
  /// - Precondition: `bytes.count >= byteCount(forSamples: count)`.
  @inlinable
  public func decode(_ bytes: UnsafeRawBufferPointer, count: Int, into output: UnsafeMutablePointer<Int32>) {
    precondition(count >= 0 && Int64(bytes.count) >= byteCount(forSamples: Int64(count)), "too few bytes")
    guard count > 0, let base = bytes.baseAddress else { return }
    switch self {
    case .difference8:
      for i in 0..<count { output[i] = Int32(Int8(bitPattern: base.load(fromByteOffset: i, as: UInt8.self))) }
    case .offset8:
      for i in 0..<count { output[i] = Int32(base.load(fromByteOffset: i, as: UInt8.self)) - 128 }
    case .int16:
      for i in 0..<count {
        output[i] = Int32(Int16(littleEndian: base.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)))
      }
    case .int16BigEndian:
      for i in 0..<count {
        output[i] = Int32(Int16(bigEndian: base.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)))
      }
    case .offset16:
      for i in 0..<count {
        output[i] =
          Int32(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))) - 32768
      }
    case .int24:
      for i in 0..<count {
        let word =
          UInt32(base.load(fromByteOffset: 3 * i, as: UInt8.self))
          | UInt32(base.load(fromByteOffset: 3 * i + 1, as: UInt8.self)) << 8
          | UInt32(base.load(fromByteOffset: 3 * i + 2, as: UInt8.self)) << 16
        output[i] = Int32(bitPattern: word << 8) >> 8
      }
    case .int32:
      for i in 0..<count {
        output[i] = Int32(littleEndian: base.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self))
      }
    case .packed212, .packed310, .packed311:
      decodePacked(base, count: count, into: output)
    }
  }

  /// The packed formats: whole groups straight from `base`, a final partial group through a
  /// zero-padded copy.
  @inlinable
  func decodePacked(_ base: UnsafeRawPointer, count: Int, into output: UnsafeMutablePointer<Int32>) {
    let perGroup = samplesPerGroup
    let groups = count / perGroup
    for group in 0..<groups {
      decodeGroup(base + group * bytesPerGroup, into: output + group * perGroup, count: perGroup)
    }
    let rest = count - groups * perGroup
    if rest > 0 {
      var padded: UInt32 = 0
      withUnsafeMutableBytes(of: &padded) { scratch in
        let available = Int(byteCount(forSamples: Int64(rest)))
        scratch.baseAddress!.copyMemory(from: base + groups * bytesPerGroup, byteCount: available)
        decodeGroup(UnsafeRawPointer(scratch.baseAddress!), into: output + groups * perGroup, count: rest)
      }
    }
  }

  /// One packing group of 212 (3 bytes → 2 samples), 310 or 311 (4 bytes → 3 samples).
  @inlinable
  func decodeGroup(_ pointer: UnsafeRawPointer, into output: UnsafeMutablePointer<Int32>, count: Int) {
    func byte(_ index: Int) -> UInt32 { UInt32(pointer.load(fromByteOffset: index, as: UInt8.self)) }
    var samples: (UInt32, UInt32, UInt32)
    let bits: UInt32
    switch self {
    case .packed212:
      samples = (byte(0) | (byte(1) & 0x0F) << 8, byte(2) | (byte(1) & 0xF0) << 4, 0)
      bits = 12
    case .packed310:
      let low = byte(0) | byte(1) << 8
      let high = byte(2) | byte(3) << 8
      samples = ((low >> 1) & 0x3FF, (high >> 1) & 0x3FF, (low >> 11) | (high >> 11) << 5)
      bits = 10
    default:
      let word = byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24
      samples = (word & 0x3FF, (word >> 10) & 0x3FF, (word >> 20) & 0x3FF)
      bits = 10
    }
    let shift = 32 - bits
    output[0] = Int32(bitPattern: samples.0 << shift) >> shift
    if count > 1 { output[1] = Int32(bitPattern: samples.1 << shift) >> shift }
    if count > 2 { output[2] = Int32(bitPattern: samples.2 << shift) >> shift }
  }
}

/// Format 212 straight to physical `Float` for a file holding two signals of one sample per
/// frame each (the MIT-BIH layout): every 3-byte group is one frame. A signal whose output is `nil`
/// is not decoded.
///
/// `physical = (digital − baseline) · (1 / gain)`; the invalid marker −2048 becomes NaN.
/// Reads whole 32-bit words (one byte past each group) for all but the last group, so the
/// loop body is branch-free shifts and masks. Returns the wrapping sums of the two signals'
/// digital values (0 for a signal not decoded), for the header's checksums.
@inlinable
func decode212Pairs(
  _ bytes: UnsafeRawPointer, frames: Int,
  first: UnsafeMutablePointer<Float>?, second: UnsafeMutablePointer<Float>?,
  baselines: (Float, Float), scales: (Float, Float)
) -> (Int32, Int32) {
  var sums: (Int32, Int32) = (0, 0)
  @inline(__always) func firstValue(_ word: UInt32) -> Float {
    let a = Int32(bitPattern: word << 20) >> 20
    sums.0 &+= a
    let x = (Float(a) - baselines.0) * scales.0
    return a == -2048 ? .nan : x
  }
  @inline(__always) func secondValue(_ word: UInt32) -> Float {
    let b = Int32(bitPattern: (word >> 4 & 0xF00 | word >> 16 & 0xFF) << 20) >> 20
    sums.1 &+= b
    let y = (Float(b) - baselines.1) * scales.1
    return b == -2048 ? .nan : y
  }
  /// Calls `convert` with each frame's group (as the low 24 bits of a word) and index.
  @inline(__always) func forEachFrame(_ convert: (UInt32, Int) -> Void) {
    guard frames > 0 else { return }
    for i in 0..<(frames - 1) {
      convert(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 3 * i, as: UInt32.self)), i)
    }
    let last = 3 * (frames - 1)
    let word =
      UInt32(bytes.load(fromByteOffset: last, as: UInt8.self))
      | UInt32(bytes.load(fromByteOffset: last + 1, as: UInt8.self)) << 8
      | UInt32(bytes.load(fromByteOffset: last + 2, as: UInt8.self)) << 16
    convert(word, frames - 1)
  }
  switch (first, second) {
  case (let first?, let second?):
    forEachFrame { word, i in
      first[i] = firstValue(word)
      second[i] = secondValue(word)
    }
  case (let first?, nil): forEachFrame { word, i in first[i] = firstValue(word) }
  case (nil, let second?): forEachFrame { word, i in second[i] = secondValue(word) }
  case (nil, nil): break
  }
  return sums
}
