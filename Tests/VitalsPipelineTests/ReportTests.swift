import Foundation
import Testing
import VitalsIO
import VitalsCore
import VitalsTestSupport

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import VitalsPipeline

/// Parses `text` as XML; returns the error, or nil when it is well-formed. Collects the text content.
private final class XMLCheck: NSObject, XMLParserDelegate {
  var texts: [String] = []
  var elements: [String: Int] = [:]

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    elements[name, default: 0] += 1
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }

  static func parse(_ text: String) -> (ok: Bool, check: XMLCheck) {
    let check = XMLCheck()
    let parser = XMLParser(data: Data(text.utf8))
    parser.delegate = check
    return (parser.parse(), check)
  }
}

@Suite("Reports")
struct ReportTests {
  @Test("the min/max envelope keeps every extreme in O(columns) bins")
  func envelope() {
    let samples = (0..<10_000).map { Float(sin(Double($0) * 0.01) * 100 + Double($0 % 7)) }
    var envelope = MinMaxEnvelope(columns: 100)
    envelope.append(samples.prefix(3333))
    envelope.append([Float.nan])
    envelope.append(samples.dropFirst(3334))
    let bins = envelope.bins
    #expect(bins.count >= 100 && bins.count <= 200)
    #expect(envelope.sampleCount == 10_000)
    for (k, bin) in bins.enumerated() {
      let end = k + 1 < bins.count ? Int(bins[k + 1].start) : samples.count
      let slice = (Int(bin.start)..<end).filter { $0 != 3333 }.map { samples[$0] }
      #expect(bin.min == slice.min() && bin.max == slice.max())
    }
  }

  @Test("the SVG is well-formed XML with every panel; the HTML page embeds it")
  func svgPanels() throws {
    let directory = try temporaryDirectory()
    let path = try SimulatedECG(seconds: 90, fibrillation: []).writeWFDB(in: directory, name: "rec")
    let report = try RecordingReport.collect(path: path)
    #expect(report.excerpts.count == 2 && report.excerpts.allSatisfy { $0.samples.count == 2500 })
    #expect(report.excerpts[1].start == 90 * 250 - 2500)
    #expect(report.heartRate.count > 80)
    let svg = report.svg()
    let (ok, check) = XMLCheck.parse(svg)
    #expect(ok)
    let text = check.texts.joined()
    for title in [
      "whole record", "detected beats marked", "Heart rate", "RR tachogram", "Poincaré plot", "HRV spectrum",
      "VLF",
      "LF", "HF",
    ] {
      #expect(text.contains(title), "no \(title) panel")
    }
    // Beats are marked: one circle per beat in the excerpts at least.
    #expect((check.elements["circle"] ?? 0) > 20)
    #expect(check.elements["ellipse"] == 1)
    let html = report.html()
    #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<svg ") && !html.contains("<?xml"))
    #expect(!text.contains("Steps per minute"))
  }

  @Test("a recording with accelerometer axes gets the steps-per-minute panel from its steps")
  func stepsPanel() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let recording = SimulatedActivityRecording(
      segments: [
        .init(duration: 30, heartRate: 60, activity: .still),
        .init(duration: 60, heartRate: 90, activity: .walking),
      ], rate: 100, startTime: .epoch)
    let report = try RecordingReport.collect(path: try recording.writeWFDB(in: directory, name: "rec"))
    let steps = try #require(report.analysis.section(StepsSection.self))
    #expect(steps.walking.stepCount > 80 && report.steps.count == steps.walking.stepCount)
    #expect(report.steps.allSatisfy { $0 >= 30 && $0 <= 90 })
    let svg = report.svg()
    #expect(svg.contains("Steps per minute (\(steps.walking.stepCount) steps)"))
    // The last 10 s are walking: their steps are ticked in the excerpt; the first 10 s are still.
    #expect(svg.contains("80 – 90 s, detected beats and steps (ticks) marked"))
    #expect(svg.contains("0 – 10 s, detected beats marked"))
  }

  @Test("a recording without an ECG lead cannot be reported")
  func noECG() throws {
    let directory = try temporaryDirectory()
    let csv = directory + "/acc.csv"
    try Data(("acc_x,acc_y,acc_z\n" + String(repeating: "0.1,0.2,0.9\n", count: 500)).utf8).write(
      to: URL(fileURLWithPath: csv))
    let options = AnalysisOptions(recording: RecordingOptions(csv: CSVOptions(sampleRate: 50)))
    #expect(throws: InputError.self) { _ = try RecordingReport.collect(path: csv, options: options) }
  }
}
