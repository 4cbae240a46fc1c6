import Foundation
import Testing
import VitalsCore
import VitalsIO
import VitalsPipeline
import VitalsSimulation
import VitalsTestSupport

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import VitalsReport

/// Parses `text` as XML; returns whether it is well-formed, the text content, and the elements and
/// `class` attributes counted.
private final class XMLCheck: NSObject, XMLParserDelegate {
  var texts: [String] = []
  var elements: [String: Int] = [:]
  var classes: [String: Int] = [:]

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    elements[name, default: 0] += 1
    if let mark = attributes["class"] { classes[mark, default: 0] += 1 }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { texts.append(string) }

  static func parse(_ text: String) -> (ok: Bool, check: XMLCheck) {
    let check = XMLCheck()
    let parser = XMLParser(data: Data(text.utf8))
    parser.delegate = check
    return (parser.parse(), check)
  }
}

/// Writes channels as CSV (`time_s`, then one column per name), as `vitals simulate` writes its
/// recordings, in a fresh temporary directory; returns the file's path.
private func writeCSV(names: [String], channels: [[Float]], rate: Double) throws -> String {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "vitals-report-\(UUID().uuidString)"
  ).path
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let path = directory + "/recording.csv"
  let writer = try CSVSignalWriter(path: path, signalNames: names)
  try writer.write(SignalChunk(channels: channels, sampleRate: rate, startTime: .epoch, firstSampleIndex: 0))
  try writer.close()
  return path
}

/// The report of a simulated recording, written as CSV (see `writeCSV`).
private func simulatedReport(_ simulator: some SignalSimulator) throws -> RecordingReport {
  var simulator = simulator
  let recording = simulator.generateAll()
  return try RecordingReport.collect(
    path: try writeCSV(
      names: recording.channelNames, channels: recording.channels, rate: recording.sampleRate))
}

/// How many of `indices` (record sample indices) fall in the excerpts of `trace` on a finite sample:
/// the marks a report should draw for them.
private func marksExpected(_ indices: [Int64], in trace: SignalTrace) -> Int {
  trace.excerpts.reduce(0) { total, excerpt in
    let end = excerpt.start + Int64(excerpt.samples.count)
    return total
      + indices.filter {
        $0 >= excerpt.start && $0 < end && excerpt.samples[Int($0 - excerpt.start)].isFinite
      }
      .count
  }
}

@Suite("Reports")
struct ReportTests {
  @Test("the min/max envelope keeps every extreme in O(columns) bins, missing samples aside")
  func envelope() {
    let samples: [Float] = (0..<10_000).map { (k: Int) -> Float in
      let wave: Double = sin(Double(k) * 0.01) * 100
      return Float(wave + Double(k % 7))
    }
    var envelope = MinMaxEnvelope(columns: 100)
    envelope.append(samples.prefix(3333))
    envelope.append([Float.nan])
    envelope.append(samples[3334..<5000])
    envelope.append([Float.infinity, -Float.infinity])
    envelope.append(samples.dropFirst(5002))
    let bins = envelope.bins
    #expect(bins.count >= 100 && bins.count <= 200)
    #expect(envelope.sampleCount == 10_000)
    for (k, bin) in bins.enumerated() {
      let end = k + 1 < bins.count ? Int(bins[k + 1].start) : samples.count
      let slice = (Int(bin.start)..<end).filter { ![3333, 5000, 5001].contains($0) }.map { samples[$0] }
      #expect(bin.min == slice.min() && bin.max == slice.max())
    }
  }

  @Test("an ECG report is well-formed XML with every ECG panel and a mark per beat; the HTML embeds it")
  func ecgPanels() throws {
    // 90 s at 250 Hz, 60 bpm.
    let report = try simulatedReport(ECGSimulator(duration: 90, sampleRate: 250, seed: 7))
    let trace = try #require(report.traces[.ecg])
    #expect(report.traces.count == 1)
    #expect(trace.excerpts.count == 2 && trace.excerpts.allSatisfy { $0.samples.count == 2500 })
    #expect(trace.excerpts[1].start == 90 * 250 - 2500)
    #expect(report.heartRate[.ecg]?.count ?? 0 > 80)
    let (ok, check) = XMLCheck.parse(report.svg())
    #expect(ok)
    let text = check.texts.joined()
    for title in [
      "whole record", "detected beats marked", "Heart rate", "RR tachogram", "Poincaré plot", "HRV spectrum",
      "VLF", "LF", "HF",
    ] {
      #expect(text.contains(title), "no \(title) panel")
    }
    for absent in ["PPG", "Acceleration magnitude", "Steps per minute"] {
      #expect(!text.contains(absent), "a \(absent) panel without the signal")
    }
    // One circle per beat in the excerpts (the rest: the Poincaré points, one per successive NN pair).
    let ecg = try #require(report.analysis.section(ECGSection.self))
    let beatMarks = marksExpected(ecg.beats, in: trace)
    #expect(beatMarks >= 16)
    let nn = ecg.variability.intervals
    let pairs = nn.intervals.indices.dropFirst().filter { nn.followsPrevious[$0] }.count
    #expect(check.elements["circle"] == beatMarks + pairs)
    #expect(check.elements["ellipse"] == 1)
    let html = report.html()
    #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<svg ") && !html.contains("<?xml"))
  }

  @Test("a PPG-only recording draws the PPG, a mark per detected pulse, heart rate and its quality")
  func ppgPanels() throws {
    let report = try simulatedReport(
      PPGSimulator(
        configuration: PPGConfiguration(rhythm: RhythmConfiguration(heartRate: 75)), duration: 120,
        sampleRate: 100, seed: 3))
    let ppg = try #require(report.analysis.section(PPGSection.self))
    let trace = try #require(report.traces[.ppg])
    #expect(report.traces.count == 1 && report.analysis.section(ECGSection.self) == nil)
    let (ok, check) = XMLCheck.parse(report.svg())
    #expect(ok)
    let text = check.texts.joined()
    for title in [
      "PPG (ppg), whole record", "0 – 10 s, detected pulses marked", "110 – 120 s, detected pulses marked",
      "Heart rate from the PPG", "Heart-rate quality", "\(ppg.beatCount) pulses", "pulses: Elgendi",
    ] {
      #expect(text.contains(title), "no \(title)")
    }
    #expect(!text.contains("RR tachogram") && !text.contains("Acceleration magnitude"))
    // About 12 pulses in each 10 s excerpt at 75 bpm, every one marked.
    let pulseMarks = marksExpected(ppg.beats, in: trace)
    #expect(pulseMarks >= 20)
    #expect(check.classes["pulse"] == pulseMarks)
    // A heart-rate reading per estimator window, each with its quality; the unreliable ones circled.
    let readings = try #require(report.heartRate[.ppg])
    #expect(readings.count > 40 && readings.allSatisfy { $0.quality.map { (0...1).contains($0) } == true })
    #expect(ppg.reliableWindows == readings.filter(\.isReliable).count)
    #expect((check.classes["unreliable"] ?? 0) == readings.filter { !$0.isReliable }.count)
  }

  @Test("an accelerometer-only recording draws the magnitude, a mark per detected step and the cadence")
  func accelerometerPanels() throws {
    let report = try simulatedReport(
      AccelerometerSimulator(
        configuration: AccelerometerConfiguration(activity: .walking), duration: 90, sampleRate: 50, seed: 5))
    let steps = try #require(report.analysis.section(StepsSection.self))
    let trace = try #require(report.traces[.accelerometer])
    #expect(report.traces.count == 1 && steps.walking.stepCount > 120)
    #expect(report.steps.count == steps.walking.stepCount)
    let (ok, check) = XMLCheck.parse(report.svg())
    #expect(ok)
    let text = check.texts.joined()
    for title in [
      "Acceleration magnitude, whole record", "0 – 10 s, detected steps marked",
      "80 – 90 s, detected steps marked", "Steps per minute (\(steps.walking.stepCount) steps",
      "\(steps.walking.stepCount) steps · walking", "magnitude (g)",
    ] {
      #expect(text.contains(title), "no \(title)")
    }
    #expect(!text.contains("ECG") && !text.contains("PPG"))
    // About 18 steps in each 10 s excerpt at 110 steps/min, every one marked.
    let stepMarks = marksExpected(steps.steps.map(\.sampleIndex), in: trace)
    #expect(stepMarks >= 25)
    #expect(check.classes["step"] == stepMarks)
    let bouts = try #require(steps.walking.bouts)
    #expect(!bouts.isEmpty && check.classes["cadence"] == bouts.count)
  }

  @Test("a recording of ECG and accelerometer draws both kinds' panels, ECG first, steps ticked in the ECG")
  func ecgAndAccelerometer() throws {
    let recording = SimulatedActivityRecording(
      segments: [
        .init(duration: 30, heartRate: 60, activity: .still),
        .init(duration: 60, heartRate: 90, activity: .walking),
      ], rate: 100, startTime: .epoch)
    let path = try writeCSV(
      names: SimulatedActivityRecording.names, channels: recording.channels, rate: recording.rate)
    let report = try RecordingReport.collect(path: path)
    let steps = try #require(report.analysis.section(StepsSection.self))
    #expect(steps.walking.stepCount > 80 && report.steps.count == steps.walking.stepCount)
    #expect(report.steps.allSatisfy { $0 >= 30 && $0 <= 90 })
    let svg = report.svg()
    // The last 10 s are walking: their steps are ticked in the ECG excerpt; the first 10 s are still.
    #expect(svg.contains("80 – 90 s, detected beats and steps (ticks) marked"))
    #expect(svg.contains("0 – 10 s, detected beats marked"))
    let order = ["RR tachogram", "Acceleration magnitude, whole record", "Steps per minute"].map {
      svg.range(of: $0)?.lowerBound
    }
    #expect(order.allSatisfy { $0 != nil } && order == order.sorted { $0! < $1! })
    let (_, check) = XMLCheck.parse(svg)
    #expect(
      check.classes["step"]
        == marksExpected(steps.steps.map(\.sampleIndex), in: report.traces[.accelerometer]!))
  }

  @Test("a recording no pipeline can analyze cannot be reported")
  func nothingToAnalyze() throws {
    let path = try writeCSV(names: ["pressure"], channels: [(0..<500).map { Float($0 % 50) }], rate: 50)
    #expect(throws: InputError.self) { _ = try RecordingReport.collect(path: path) }
  }

  @Test("a recording analyzed only by pipelines the report cannot draw cannot be reported")
  func nothingToDraw() throws {
    let path = try writeCSV(names: ["ppg"], channels: [(0..<500).map { Float($0 % 50) }], rate: 50)
    var registry = PipelineRegistry()
    registry.register(.ppg) { _ in UndrawnPipeline() }
    let error = #expect(throws: InputError.self) {
      _ = try RecordingReport.collect(path: path, options: AnalysisOptions(registry: registry))
    }
    #expect(error?.description.contains("nothing to report: no ECG, PPG or accelerometer analysis") == true)
  }
}

/// A pipeline whose section the report has no panels for.
private struct UndrawnPipeline: RecordingPipeline {
  struct Section: PipelineSection {
    var sampleRate = 50.0
    var eventTables: [String: [Int64]] { [:] }
  }

  var kind: SignalKind { .ppg }
  mutating func process(_ chunk: SignalChunk, events: inout [PipelineEvent]) {}
  mutating func finish(events: inout [PipelineEvent]) -> any PipelineSection { Section() }
}
