/// Bad input: a file (or stream) that cannot be read as what it claims to be.
///
/// Every reader throws this and only this for problems with the data, naming the file, the place
/// (line, byte offset or sample) and what was expected there. Programmer mistakes trap instead.
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
  /// What was wrong, stated as what was expected and what was found.
  public var message: String

  public init(path: String, location: Location = .file, _ message: String) {
    self.path = path
    self.location = location
    self.message = message
  }

  public var description: String {
    switch location {
    case .file: "\(path): \(message)"
    case .line(let line): "\(path):\(line): \(message)"
    case .byteOffset(let offset): "\(path): byte \(offset): \(message)"
    case .field(let line, let column): "\(path):\(line): column \(column): \(message)"
    }
  }
}
