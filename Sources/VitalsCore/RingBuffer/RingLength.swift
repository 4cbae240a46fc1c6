extension Int {
  /// The smallest power of two not below `count` (1 for `count` ≤ 1): the length of a ring indexed by a
  /// mask, `index & (length − 1)`, that holds `count` entries.
  package static func powerOfTwo(atLeast count: Int) -> Int {
    var length = 1
    while length < count { length <<= 1 }
    return length
  }
}
