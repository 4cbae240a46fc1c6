import ArgumentParser
internal import CVitals
import Vitals

/// A failure reported across the C interface: a status of `vitals.h` and its message.
struct CallFailure: Error {
  /// `VITALS_INPUT_ERROR`, `VITALS_ARGUMENT_ERROR`, `VITALS_OUTPUT_ERROR` or `VITALS_INTERNAL_ERROR`.
  var status: Int32
  /// What went wrong, naming the file and place or the argument.
  var message: String

  /// A bad argument: NULL, a negative count, a rate out of range, an unknown option word.
  static func argument(_ message: String) -> CallFailure {
    CallFailure(status: Int32(VITALS_ARGUMENT_ERROR), message: message)
  }

  /// An input that cannot be read, is malformed, or holds nothing to do.
  static func input(_ message: String) -> CallFailure {
    CallFailure(status: Int32(VITALS_INPUT_ERROR), message: message)
  }

  /// The failure that reports `error`: ``CallFailure`` as it is, `InputError` and `OutputError` with
  /// their descriptions, `ValidationError` as an argument error, anything else as an internal error.
  init(_ error: any Error) {
    switch error {
    case let failure as CallFailure: self = failure
    case let error as InputError: self = .input(error.description)
    case let error as OutputError: self.init(status: Int32(VITALS_OUTPUT_ERROR), message: error.description)
    case let error as ValidationError: self = .argument(error.message)
    default: self.init(status: Int32(VITALS_INTERNAL_ERROR), message: "\(error)")
    }
  }

  private init(status: Int32, message: String) {
    self.status = status
    self.message = message
  }
}

/// Runs `body` and returns `VITALS_OK`, or the status of the failure it throws (``CallFailure/init(_:)``)
/// with its message in `*message` (malloc'd, the caller's) when `message` is not NULL, which is left
/// untouched on success.
func reporting(_ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ body: () throws -> Void)
  -> Int32
{
  do {
    try body()
    return Int32(VITALS_OK)
  } catch {
    let failure = CallFailure(error)
    message?.pointee = mallocString(failure.message)
    return failure.status
  }
}

/// The options of `Command` parsed from `words` as the command line parses them (validation included);
/// a parse or validation error is an argument error with ArgumentParser's message (without the usage text).
func parse<Command: ParsableArguments>(_: Command.Type, _ words: [String]) throws(CallFailure) -> Command {
  do {
    return try Command.parse(words)
  } catch {
    throw .argument(Command.message(for: error))
  }
}
