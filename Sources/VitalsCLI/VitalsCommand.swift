import ArgumentParser

/// The `vitals` command: one subcommand per file in this module, each a thin layer over the library.
public struct VitalsCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "vitals",
    abstract: "A high-throughput engine for ECG, PPG and accelerometer recordings.",
    version: "0.1.0",
    subcommands: []
  )

  public init() {}
}
