import Foundation
import Testing
import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsSimulation
import VitalsStatistics
import VitalsTestSupport

@testable import VitalsPipeline

@Suite("30-s ECG classification of recording files")
struct RecordingClassificationTests {
  /// Writes `ecg` as an Apple Health ECG export (µV, one sample per line) whose header states `wording`.
  static func writeAppleExport(_ ecg: SimulatedECG, wording: String, in directory: String) throws -> String {
    var text = "Name,Jane Appleseed\nDate of Birth,\"Feb 3, 1980\"\nRecorded Date,2021-12-17 12:58:58 +0800\n"
    text += "Classification,\(wording)\nSymptoms,\nSoftware Version,1.90\nDevice,\"Watch5,1\"\n"
    text += "Sample Rate,\(Int(ecg.rate)) hertz\nLead,Lead I\nUnit,µV\n\n\n"
    text += ecg.samples.map { String(format: "%.3f\n", 1000 * $0) }.joined()
    let path = directory + "/ecg_2021-12-17.csv"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("an Apple export: Vitals' classification beside Apple's, in the text of info and in JSON")
  func appleExport() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let ecg = SimulatedECG(seconds: 30, rate: 512)
    let path = try Self.writeAppleExport(ecg, wording: "Atrial Fibrillation", in: directory)
    let result = try RecordingClassification(path: path, options: RecordingOptions())
    #expect(result.report.classification == .sinusRhythm)
    #expect(abs((result.report.averageHeartRate ?? 0) - 70) < 3)
    #expect(result.apple == .init(text: "Atrial Fibrillation", classification: .atrialFibrillation))
    #expect(result.lead == "Lead I" && result.sampleCount == 30 * 512)
    let json = compactJSON(result)
    #expect(json.contains(#""classification":"sinusRhythm""#))
    #expect(json.contains(#""apple":{"classification":"atrialFibrillation","text":"Atrial Fibrillation"}"#))
    #expect(json.contains(#""rule":"rhythmScore""#) && json.contains(#""sinus_rhythm":"#))
    let summary = try RecordingOpener.describe(path: path)
    #expect(summary.metadata["classification_healthkit"] == "atrialFibrillation")
    #expect(summary.metadata["classification_vitals"] == "sinusRhythm")
  }

  @Test("a lead longer than 60 s or shorter than 5 s is refused, naming the file")
  func durationLimits() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for seconds in [61.0, 4.0] {
      let path = try SimulatedECG(seconds: seconds).writeWFDB(in: directory, name: "r\(Int(seconds))")
      #expect {
        _ = try RecordingClassification(path: path, options: RecordingOptions())
      } throws: { error in
        let text = (error as? InputError)?.description ?? ""
        return text.contains(path)
          && text.contains(seconds > 60 ? "longer than 60 s" : "needs at least 5.0 s of signal, got 4.0 s")
      }
    }
  }

  @Test("analyze classifies a record of 5–60 s, writes an electrocardiogram sample, and leaves longer ones")
  func analyzeSection() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let options = AnalysisOptions(recording: RecordingOptions(startTime: .epoch))
    let short = try RecordingAnalyzer.analyze(
      path: try SimulatedECG(seconds: 30).writeWFDB(in: directory, name: "short"), options: options)
    let section = try #require(short.section(ECGSection.self))
    let report = try #require(section.electrocardiogram)
    #expect(report.classification == .sinusRhythm)
    let line = short.jsonLine()
    #expect(line.contains(#""electrocardiogram":{"average_heart_rate":"#))
    #expect(line.contains(#""classification":"sinusRhythm","features":"#))
    let samples = try #require(short.derivedSamples())
    let electrocardiograms = samples.compactMap { sample -> ElectrocardiogramSample? in
      if case .electrocardiogram(let ecg) = sample { return ecg }
      return nil
    }
    #expect(electrocardiograms.count == 1)
    #expect(electrocardiograms.first?.classification == "sinusRhythm")
    #expect(electrocardiograms.first?.numberOfVoltageMeasurements == 30 * 250)
    let long = try RecordingAnalyzer.analyze(
      path: try SimulatedECG(seconds: 70).writeWFDB(in: directory, name: "long"), options: options)
    #expect(try #require(long.section(ECGSection.self)).electrocardiogram == nil)
    #expect(!long.jsonLine().contains("\"electrocardiogram\""))
  }
}
