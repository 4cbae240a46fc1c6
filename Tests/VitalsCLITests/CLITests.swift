import ArgumentParser
import Foundation
import Testing
import VitalsTestSupport
import VitalsCore

@testable import VitalsCLI

private func fixture(_ relative: String) -> String { TestData.fixture("io/" + relative).path }

/// Runs the binary with `stdin` on its standard input; returns exit status, stdout and stderr.
func run(_ arguments: [String], stdin: Data? = nil) throws -> (
  status: Int32, out: String, err: String
) {
  let process = Process()
  process.executableURL = VitalsProcess.binary
  process.arguments = arguments
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  let input = Pipe()
  if stdin != nil { process.standardInput = input }
  try process.run()
  if let stdin {
    input.fileHandleForWriting.write(stdin)
    try input.fileHandleForWriting.close()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  let errData = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (
    process.terminationStatus, String(decoding: outData, as: UTF8.self),
    String(decoding: errData, as: UTF8.self)
  )
}

let hasBinary = VitalsProcess.exists

@Suite("vitals CLI")
struct CLITests {
  @Test("input options parse into library options")
  func parsesInputOptions() throws {
    let command = try VitalsCommand.parseAsRoot([
      "info", "a.csv", "--channel", "ppg1,2", "--rate", "125", "--time-column", "0", "--time-unit", "ms",
      "--no-header", "--delimiter", ";", "--skip-lines", "3", "--interpolation", "cubicHermite", "--json",
    ])
    let info = try #require(command as? Info)
    #expect(info.json)
    let options = info.input.recordingOptions
    #expect(options.channels == [.name("ppg1"), .index(2)])
    #expect(options.csv.sampleRate == 125)
    #expect(options.csv.timeColumn == .index(0))
    #expect(options.csv.timeUnit == .milliseconds)
    #expect(options.csv.hasHeader == false)
    #expect(options.csv.delimiter == UInt8(ascii: ";"))
    #expect(options.csv.skipLines == 3)
    #expect(options.csv.interpolation == .cubicHermite)
  }

  @Test(
    "usage errors map to exit code 2",
    arguments: [
      ["info", "a.csv", "--rate", "0"], ["info", "a.csv", "--delimiter", "ab"],
      ["convert", "a.edf", "-o", "x.txt"],
      ["info"], ["frobnicate"],
    ])
  func usageErrors(arguments: [String]) {
    do {
      var command = try VitalsCommand.parseAsRoot(arguments)
      try command.validate()
      Issue.record("expected a usage error for \(arguments)")
    } catch {
      #expect(VitalsCommand.contractExitCode(for: error) == 2)
    }
  }

  @Test(
    "info: text and JSON, personal fields never printed",
    .enabled(if: hasBinary, "needs the built vitals binary"))
  func info() throws {
    let text = try run(["info", fixture("edf/mixed.edf"), fixture("apple/ecg_english.csv")])
    #expect(text.status == 0)
    #expect(text.out.contains("EDF+C"))
    #expect(text.out.contains("Pleth  %  100.0 Hz  300 samples"))
    #expect(text.out.contains("annotations: 4"))
    #expect(text.out.contains("classification: Sinus Rhythm"))
    #expect(!text.out.contains("Jane") && !text.out.contains("1980"))
    let json = try run(["info", "--json", fixture("csv/seconds.csv")])
    #expect(json.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
    #expect(object?["format"] as? String == "CSV")
    #expect((object?["signals"] as? [[String: Any]])?.count == 2)
  }

  @Test(
    "exit code 1 when some input fails, the others still processed",
    .enabled(if: hasBinary, "needs the built vitals binary"))
  func partialFailure() throws {
    let result = try run(["info", fixture("csv/bad/bad-number.csv"), fixture("csv/seconds.csv")])
    #expect(result.status == 1)
    #expect(result.out.contains("seconds.csv"))
    #expect(result.err.contains("bad-number.csv:3: column 2: expected a number"))
    #expect(try run(["info", "--rate", "-3", fixture("csv/single.csv")]).status == 2)
  }

  @Test(
    "convert writes time_s and the source's column names; reads stdin",
    .enabled(if: hasBinary, "needs the built vitals binary"))
  func convert() throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-convert-\(UUID()).csv")
    defer { try? FileManager.default.removeItem(at: output) }
    let result = try run(["convert", fixture("edf/discontinuous.edf"), "-o", output.path])
    #expect(result.status == 0)
    let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
    #expect(lines.first == "time_s,ECG")
    // Four records of 20 samples at 0, 1, 5 and 6 s: the 3-s gap is 60 missing samples.
    #expect(lines.count == 141)
    #expect(lines[41] == "2,NaN" && lines[100] == "4.95,NaN")
    #expect(lines[101].hasPrefix("5,"))  // after the gap: the record at 5 s
    let piped = try run(
      ["convert", "-", "-o", "-", "--rate", "4"], stdin: Data("v\n1.5\n2\n-3\n".utf8))
    #expect(piped.status == 0)
    #expect(piped.out == "time_s,v\n0,1.5\n0.25,2.0\n0.5,-3.0\n")
  }
}
