/// Bad input: a file (or stream) that cannot be read as what it claims to be.
///
/// Every reader throws this and only this for problems with the data, naming the file, the place
/// (line, byte offset or sample) and what was expected there. Programmer mistakes trap instead.
///
/// Messages quote what the file holds (`found "…"`), so the message and the path keep no control
/// characters: C0 controls (tab, line feed and ESC included), DEL and the C1 controls U+0080–U+009F
/// are written as `\u{1B}`, their scalar value in hex, and can neither move the cursor, recolour
/// or retitle a terminal nor split a log line. Other text passes unchanged.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Where in the input the problem was found.
  public enum Location: Sendable, Equatable {
    /// The input as a whole (empty, unrecognized, missing).
    case file
    /// A 1-based line of a text file (header or CSV).
    case line(Int)
    /// A 0-based byte offset into a binary file.
    case byteOffset(Int64)
    /// A 1-based line and 1-based column (field) of a delimited text file.
    case field(line: Int, column: Int)
  }

  /// The path of the file, or `-` for standard input.
  public var path: String
  public var location: Location
  /// What was wrong, stated as what was expected and what was found (control characters escaped).
  public var message: String

  public init(path: String, location: Location = .file, _ message: String) {
    self.path = path
    self.location = location
    self.message = Self.escapingControls(message)
  }

  public var description: String {
    let path = Self.escapingControls(path)
    let message = Self.escapingControls(message)
    return switch location {
    case .file: "\(path): \(message)"
    case .line(let line): "\(path):\(line): \(message)"
    case .byteOffset(let offset): "\(path): byte \(offset): \(message)"
    case .field(let line, let column): "\(path):\(line): column \(column): \(message)"
    }
  }

  /// `text` with every C0 control, DEL and C1 control written as `\u{…}` (hex scalar value); the
  /// same text when it holds none (escaping twice changes nothing).
  package static func escapingControls(_ text: String) -> String {
    func isControl(_ scalar: Unicode.Scalar) -> Bool {
      scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var escaped = ""
    escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}
