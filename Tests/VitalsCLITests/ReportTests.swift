import Foundation
import Testing
import VitalsTestSupport

@testable import VitalsCLI

@Suite("vitals report")
struct ReportCommandTests {
  @Test(
    "usage errors exit 2",
    arguments: [
      ["report", "x"], ["report", "x", "-o", "x.png"], ["report", "x", "-o", "a.svg", "--excerpt", "0"],
    ])
  func usageErrors(arguments: [String]) {
    #expect(runInProcess(arguments) == 2)
  }

  @Test("SVG and HTML files of a generated record; a missing input exits 1 and writes nothing")
  func writes() throws {
    let record = try GeneratedRecord(seconds: 60)
    defer { record.remove() }
    let svg = record.directory + "/report.svg"
    let html = record.directory + "/report.html"
    #expect(runInProcess(["report", record.path, "-o", svg]) == 0)
    #expect(runInProcess(["report", record.path, "-o", html, "--excerpt", "5"]) == 0)
    let picture = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(picture.hasPrefix("<?xml") && picture.contains("RR tachogram") && picture.hasSuffix("</svg>\n"))
    #expect(try String(contentsOfFile: html, encoding: .utf8).contains("0 – 5 s, detected beats marked"))
    let missing = record.directory + "/missing.svg"
    #expect(runInProcess(["report", record.directory + "/nothing", "-o", missing]) == 1)
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  @Test(
    "PPG-only and accelerometer-only recordings of vitals simulate are drawn with their marks",
    arguments: [
      ("ppg", "PPG (ppg)", "detected pulses marked"),
      ("acc", "Acceleration magnitude", "detected steps marked"),
    ])
  func everyKind(signal: String, panel: String, marks: String) throws {
    let directory =
      FileManager.default.temporaryDirectory.appendingPathComponent("vitals-cli-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let csv = directory + "/\(signal).csv"
    let svg = directory + "/\(signal).svg"
    #expect(
      runInProcess(["simulate", "--signal", signal, "--duration", "60", "--rate", "100", "-o", csv]) == 0)
    #expect(runInProcess(["report", csv, "-o", svg]) == 0)
    let picture = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(
      picture.contains("\(panel), 0 – 10 s, \(marks)") && picture.contains("\(panel), 50 – 60 s, \(marks)"))
    #expect(!picture.contains("RR tachogram"))
  }
}
