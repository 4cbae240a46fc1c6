/// A file that could not be written.
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The path, or `-` for standard output.
  public var path: String
  /// What went wrong (the system's reason).
  public var message: String

  /// An error for `path`.
  public init(path: String, _ message: String) {
    self.path = path
    self.message = message
  }

  public var description: String { "\(path): \(message)" }
}
