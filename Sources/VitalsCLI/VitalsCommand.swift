import ArgumentParser
import Vitals

/// The `vitals` command: one subcommand per file in this module, each a thin layer over the library.
///
/// Exit codes (README, "The command line"): 0 success, 1 when some input failed (the others still processed),
/// 2 on bad usage (ArgumentParser's 64 for validation errors is mapped to 2 by ``runAndExit(_:)``).
public struct VitalsCommand: ParsableCommand {
  /// The version of the command line and the library, as `vitals --version` prints it.
  public static let version = "0.1.0"

  public static let configuration = CommandConfiguration(
    commandName: "vitals",
    abstract: "A high-throughput engine for ECG, PPG and accelerometer recordings.",
    version: version,
    subcommands: [
      Info.self, Convert.self, Beats.self, Score.self, HRV.self, HeartRate.self, Classify.self, Simulate.self,
      Steps.self,
      Stats.self, Merge.self, Analyze.self, StreamCommand.self, Report.self,
    ]
  )

  public init() {}

  /// The exit code the CLI contract gives `error`: 2 for usage errors, ArgumentParser's otherwise.
  public static func contractExitCode(for error: Error) -> Int32 {
    let code = exitCode(for: error)
    return code == .validationFailure ? 2 : code.rawValue
  }

  /// Parses `arguments` (the process's when `nil`), runs the command and exits with the contract's code.
  /// A usage error found while parsing is printed with the subcommand's usage; one found once the
  /// command runs (an output that is an input, an unknown statistics type) with its message alone, as
  /// the usage of the root command would not help.
  public static func runAndExit(_ arguments: [String]? = nil) -> Never {
    var command: ParsableCommand
    do {
      command = try parseAsRoot(arguments)
    } catch {
      exit(withUsageError: error, message: fullMessage(for: error))
    }
    do {
      try command.run()
      exit(withError: nil)
    } catch {
      exit(withUsageError: error, message: "Error: " + message(for: error))
    }
  }

  /// Exits with the contract's code for `error`, writing `message` to standard error for a usage error
  /// (code 2), else as ArgumentParser does.
  private static func exit(withUsageError error: Error, message: String) -> Never {
    guard contractExitCode(for: error) == 2 else { exit(withError: error) }
    StandardStream.error.write(message + "\n")
    exit(withError: ExitCode(2))
  }
}
