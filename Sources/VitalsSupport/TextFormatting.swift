import FoundationEssentials

extension String {
  /// `arguments` formatted by the C library's `vsnprintf` with the `printf` format `format` (e.g.
  /// `%.3f`, `%ld`): the text Foundation's `String(format:)` gives for these conversions, without
  /// Foundation. Integers must be passed as `Int` with `%ld`.
  package init(cFormat format: String, _ arguments: any CVarArg...) {
    var buffer = [CChar](repeating: 0, count: 64)
    let length = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
    precondition(length >= 0, "invalid format \(format)")
    if Int(length) >= buffer.count {
      buffer = [CChar](repeating: 0, count: Int(length) + 1)
      _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
    }
    self = buffer.withUnsafeBytes { String(decoding: $0.prefix(Int(length)), as: UTF8.self) }
  }
}

/// The shortest text for `value`: an integer below 10¹⁵ in magnitude without a fraction (`3`, and `0` for
/// −0), any other value in Swift's shortest round-trip form (`0.1`, `1e+20`, `nan`, `inf`).
package func shortestText(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

extension StringProtocol {
  /// Without leading and trailing blanks: tabs and space separators (Foundation's
  /// `CharacterSet.whitespaces`).
  package func trimmingBlanks() -> String { trimmingScalars(where: \.isBlank) }

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

extension Unicode.Scalar {
  /// A tab or a space separator (general category Zs): Foundation's `CharacterSet.whitespaces`.
  package var isBlank: Bool { self == "\t" || properties.generalCategory == .spaceSeparator }

  /// A blank or a line break (U+000A–U+000D, U+0085, U+2028, U+2029): Foundation's
  /// `CharacterSet.whitespacesAndNewlines`.
  package var isBlankOrNewline: Bool {
    isBlank || ("\n"..."\r").contains(self) || self == "\u{85}" || self == "\u{2028}" || self == "\u{2029}"
  }
}

/// The system's reason for a failed file operation of Foundation (`Data.write(to:)`, `FileManager`):
/// the `strerror` text of its underlying POSIX error (`No such file or directory`), else the error's
/// own description.
package func systemReason(_ error: any Error) -> String {
  if let posix = (error as? CocoaError)?.underlying as? POSIXError {
    return String(cString: strerror(posix.code.rawValue))
  }
  if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
  return "\(error)"
}
