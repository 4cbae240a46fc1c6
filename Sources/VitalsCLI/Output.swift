import ArgumentParser
import Vitals

// What every command shares on the way out: errors on stderr with the exit-code contract, JSON, files.

/// Runs a command's work: bad input (``InputError``) or a failed write (``OutputError``) is reported on
/// standard error, naming the file and place, and ends the command with exit code 1.
func exitingOneOnFileErrors(_ work: () throws -> Void) throws {
  try exitingOneOnFileErrors(of: CollectionOfOne(())) { _ in try work() }
}

/// Runs `work` on each of `items` in order, as a batch: an item's bad input (``InputError``) or failed
/// write (``OutputError``) is reported on standard error, naming the file and place, and the other items
/// still run; the command then ends with exit code 1. Other errors end the batch at once.
func exitingOneOnFileErrors<Items: Sequence>(of items: Items, _ work: (Items.Element) throws -> Void) throws {
  var failed = false
  for item in items {
    do {
      try work(item)
    } catch let error as InputError {
      printError(error.description)
      failed = true
    } catch let error as OutputError {
      printError(error.description)
      failed = true
    }
  }
  if failed { throw ExitCode(1) }
}

/// The recordings `inputs` name (files, folders, glob patterns: ``InputExpansion/expand(_:outputDirectory:)``,
/// leaving out the event tables that the command writes to `outputDirectory`); when there are none,
/// says so on standard error and ends the command with exit code 1.
func recordings(in inputs: [String], outputDirectory: String? = nil) throws -> [String] {
  let recordings = InputExpansion.expand(inputs, outputDirectory: outputDirectory)
  if recordings.isEmpty {
    printError("no recordings found in \(inputs.joined(separator: " "))")
    throw ExitCode(1)
  }
  return recordings
}

/// Writes `vitals: message` to standard error.
func printError(_ message: String) {
  StandardStream.error.write("vitals: \(message)\n")
}

/// Writes `bytes` to `path` (`-`: standard output; a file atomically, ``AtomicFile``); throws
/// ``OutputError`` with the system's reason.
func writeOutput(_ bytes: [UInt8], to path: String) throws(OutputError) {
  if path == "-" {
    StandardStream.output.write(bytes)
    return
  }
  try AtomicFile.write(bytes, to: path)
}

/// Ends the command with a usage error (exit code 2) naming both paths when one of `outputs` is a file
/// one of `inputs` is read from (``InputProtection/refuseOverwritingInputs(outputs:inputs:)``); call
/// before anything is opened for writing.
func refuseOverwritingInputs(outputs: [String], inputs: [String]) throws {
  do {
    try InputProtection.refuseOverwritingInputs(outputs: outputs, inputs: inputs)
  } catch {
    throw ValidationError(error.description)
  }
}
