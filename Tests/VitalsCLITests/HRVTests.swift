import ArgumentParser
import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

@Suite("vitals hrv")
struct HRVTests {
  @Test("options reach the frequency-domain settings")
  func options() throws {
    let hrv = try #require(
      try VitalsCommand.parseAsRoot([
        "hrv", "a", "b", "--psd", "lombScargle", "--interpolation-rate", "10", "--tachogram-interpolation",
        "cubic", "--no-artifacts", "--lomb-scaling", "astropyPSD", "--json",
      ]) as? HRV)
    #expect(hrv.inputs == ["a", "b"] && hrv.json && hrv.analysis.keepArtifacts)
    let formerSpelling = try #require(try VitalsCommand.parseAsRoot(["hrv", "a", "--no-artefacts"]) as? HRV)
    #expect(
      formerSpelling.analysis.keepArtifactsFormerSpelling && !formerSpelling.analysis.keepArtifacts
        && !formerSpelling.analysis.detectArtifacts)
    let options = hrv.analysis.frequencyOptions
    #expect(
      options.method == .lombScargle && options.interpolationRate == 10 && options.interpolation == .cubic)
    #expect(options.lombScaling == .astropyPSD)
  }

  @Test(
    "usage errors exit 2",
    arguments: [
      ["hrv"], ["hrv", "a", "b", "--beats", "x.atr"], ["hrv", "a", "--beats", "x.atr", "--beats", "y.atr"],
      ["hrv", "a", "--interpolation-rate", "0.5"], ["hrv", "a", "--psd", "burg"],
    ])
  func usageErrors(arguments: [String]) {
    #expect(runInProcess(arguments) == 2)
  }

  @Test("detected and reference beats of a generated record give the same HRV; JSON names and nulls")
  func generatedRecord() throws {
    let record = try GeneratedRecord(seconds: 180)
    defer { record.remove() }
    let detected = try #require(try VitalsCommand.parseAsRoot(["hrv", record.path]) as? HRV).reports()
    let fromFile = try #require(
      try VitalsCommand.parseAsRoot(["hrv", "--beats", record.path + ".atr"]) as? HRV
    )
    .reports()
    let a = try detected[0].get().analysis
    let b = try fromFile[0].get().analysis
    #expect(abs(a.time.sdnn - b.time.sdnn) / b.time.sdnn < 0.02)
    #expect(abs(a.time.rmssd - b.time.rmssd) / b.time.rmssd < 0.05)
    // The 0.25 Hz modulation dominates HF, the 0.1 Hz one LF.
    #expect(abs(b.frequency.hfPeak - 0.25) < 0.01 && abs(b.frequency.lfPeak - 0.1) < 0.01)
    #expect(b.frequency.hf > b.frequency.lf)

    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(try detected[0].get().jsonLine().utf8)) as? [String: Any])
    #expect(object["lead"] as? String == "MLII" && object["frequency_method"] as? String == "welch")
    let time = try #require(object["time"] as? [String: Any])
    #expect(time["SDNN"] as? Double == a.time.sdnn && time["pNN50"] != nil)
    #expect(time["SDANN5"] is NSNull)  // 3 minutes hold no three 5-minute windows
    let frequency = try #require(object["frequency"] as? [String: Any])
    #expect(frequency["LF"] as? Double == a.frequency.lf && frequency["LFHF"] != nil)
    let nonlinear = try #require(object["nonlinear"] as? [String: Any])
    // Foundation's JSONSerialization on Linux parses numbers as NSDecimalNumber, not always to the
    // nearest Double: equal to a few ulps.
    let alpha1 = try #require(nonlinear["DFA_alpha1"] as? Double)
    #expect(abs(alpha1 - a.nonlinear.dfaAlpha1) < 1e-14 && nonlinear.keys.contains("SampEn"))

    let text = try detected[0].get().text()
    #expect(
      text.contains("\n  RMSSD       ") && text.contains(" ms2") && text.contains("\n  SDANN5      nan ms"))
  }

  @Test("a report on fewer than 30 NN intervals carries a note; one on a few minutes of beats does not")
  func shortSeries() throws {
    let record = try GeneratedRecord(seconds: 180)
    defer { record.remove() }
    let beats = try record.write("few.csv", "sample\n" + (1...10).map { "\($0 * 250)\n" }.joined())
    let few = try #require(try VitalsCommand.parseAsRoot(["hrv", "--beats", beats, "--rate", "250"]) as? HRV)
    let note = try few.reports()[0].get().shortSeriesNote
    #expect(note?.hasPrefix("\(beats): only 9 NN intervals:") == true, "\(String(describing: note))")
    let long = try #require(try VitalsCommand.parseAsRoot(["hrv", record.path]) as? HRV).reports()
    #expect(try long[0].get().shortSeriesNote == nil)
  }

  @Test("a bad input among good ones: exit 1, the others still analysed")
  func partialFailure() throws {
    let record = try GeneratedRecord(seconds: 60)
    defer { record.remove() }
    let bad = try record.write("bad.csv", "a,b\n1,x\n")
    let arguments = ["hrv", record.path, bad, record.path, "--json"]
    let reports = try #require(try VitalsCommand.parseAsRoot(arguments) as? HRV).reports()
    #expect(reports.count == 3)
    #expect((try? reports[0].get()) != nil && (try? reports[2].get()) != nil)
    #expect(throws: InputError.self) { try reports[1].get() }
    #expect(runInProcess(arguments) == 1)
  }

  @Test("several beat files in one process, each keyed by its name; a bad one exits 1, the others analysed")
  func severalBeatFiles() throws {
    let record = try GeneratedRecord(seconds: 60)
    defer { record.remove() }
    let csv = try record.write(
      "beats.csv", "sample\n" + record.peaks.map(String.init).joined(separator: "\n"))
    let bad = record.directory + "/absent.csv"
    let arguments = ["hrv", "--beats", record.path + ".atr", "--beats", bad, "--beats", csv, "--rate", "360"]
    let reports = try #require(try VitalsCommand.parseAsRoot(arguments) as? HRV).reports()
    #expect(reports.count == 3)
    let first = try reports[0].get()
    let last = try reports[2].get()
    #expect(first.input == record.path + ".atr" && last.input == csv)
    #expect(first.analysis.intervals == last.analysis.intervals)
    #expect(
      first.analysis.time.rmssd == last.analysis.time.rmssd
        && first.analysis.frequency.hf == last.analysis.frequency.hf)
    #expect(throws: InputError.self) { try reports[1].get() }
    #expect(runInProcess(arguments + ["--json"]) == 1)

    // One INPUT per beat file gives its rate.
    let paired = ["hrv", record.path, record.path, "--beats", csv, "--beats", record.path + ".atr"]
    let pairedReports = try #require(try VitalsCommand.parseAsRoot(paired) as? HRV).reports()
    #expect(
      try pairedReports.map { try $0.get().sampleRate } == [GeneratedRecord.rate, GeneratedRecord.rate])
  }

  @Test("beats that are not increasing are refused")
  func unorderedBeats() throws {
    let record = try GeneratedRecord(seconds: 5)
    defer { record.remove() }
    let beats = try record.write("ecg.csv", "sample\n100\n400\n400\n700\n")
    let reports = try #require(try VitalsCommand.parseAsRoot(["hrv", "--beats", beats]) as? HRV).reports()
    #expect(throws: InputError.self) { try reports[0].get() }
  }

  @Test(
    "MIT-BIH record 101 from reference annotations",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func mitdb() throws {
    let path = TestData.sharedData("mitdb/101").path
    let hrv = try #require(try VitalsCommand.parseAsRoot(["hrv", path, "--beats", path + ".atr"]) as? HRV)
    let analysis = try hrv.reports()[0].get().analysis
    #expect(analysis.beatCount > 1800 && analysis.intervals.count > 1700)
    #expect(analysis.time.sdnn > 20 && analysis.time.sdnn < 200)
    #expect(
      analysis.frequency.hf.isFinite && analysis.frequency.lf.isFinite && analysis.nonlinear.sampEn.isFinite)
  }

  @Test(
    "beats from an EDF+ file at its own rate; a contradicting --rate and a non-numeric CSV cell are errors")
  func edfAndBrokenBeatFiles() throws {
    let record = try GeneratedRecord(seconds: 60)
    defer { record.remove() }
    let mixed = TestData.fixture("io/edf/mixed.edf").path
    let fromEDF = try #require(try VitalsCommand.parseAsRoot(["hrv", "--beats", mixed]) as? HRV).reports()
    #expect(try fromEDF[0].get().sampleRate == 200)
    #expect(runInProcess(["hrv", "--beats", mixed, "--rate", "250"]) == 1)
    let bad = try record.write("bad.csv", "sample\n100\n400\nx\n")
    let reports = try #require(
      try VitalsCommand.parseAsRoot(["hrv", "--beats", bad, "--rate", "360"]) as? HRV
    )
    .reports()
    let error = try #require(throws: InputError.self) { try reports[0].get() }
    #expect(error.location == .field(line: 4, column: 1))
  }

  @Test(
    "EDF+ r01's annotations give the HRV of r01.edf.qrs",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func sharedEDFBeats() throws {
    let edf = TestData.sharedData("edf/r01.edf").path
    let qrs = TestData.sharedData("edf/r01.edf.qrs").path
    let reports = try #require(
      try VitalsCommand.parseAsRoot(["hrv", "--beats", edf, "--beats", qrs, "--rate", "1000"]) as? HRV
    ).reports()
    // The --rate agrees with the EDF; the .qrs has no header beside it and needs it.
    let fromEDF = try reports[0].get().analysis
    let fromQRS = try reports[1].get().analysis
    #expect(fromEDF.beatCount == fromQRS.beatCount && fromEDF.beatCount > 600)
    #expect(abs(fromEDF.time.meanNN - fromQRS.time.meanNN) < 0.01)
  }
}
