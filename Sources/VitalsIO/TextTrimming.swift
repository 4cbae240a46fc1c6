extension StringProtocol {
  /// Without the leading and trailing Unicode scalars for which `isTrimmed` holds (as Foundation's
  /// `trimmingCharacters(in:)`, which also works on scalars).
  package func trimmingScalars(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
    let scalars = String(self).unicodeScalars
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
      let last = scalars.lastIndex(where: { !isTrimmed($0) })
    else { return "" }
    return String(scalars[first...last])
  }
}
