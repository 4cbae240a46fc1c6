import Foundation
import Testing
import Vitals
import VitalsC
import VitalsTestSupport

/// Statuses of `vitals.h`.
private let inputError: Int32 = 1
private let argumentError: Int32 = 2

@Suite("C interface: every failure is a status and a message naming the file or argument")
struct FailureTests {
  static let fixture = SignalTests.fixture
  static let samples: [Float] = (0..<5000).map { Float(sin(Double($0) / 10)) }

  @Test("NULL arguments and out-parameters")
  func nullArguments() {
    var handle: OpaquePointer?
    var json: UnsafeMutablePointer<CChar>?
    var count: Int64 = 0
    expectFailure(call { vitals_recording_open(nil, nil, 0, &handle, $0) }, argumentError, naming: "path")
    expectFailure(
      call { vitals_recording_open(Self.fixture, nil, 0, nil, $0) }, argumentError, naming: "recording")
    expectFailure(call { vitals_recording_describe(nil, &json, $0) }, argumentError, naming: "recording")
    expectFailure(
      call { vitals_recording_read(nil, nil, 10, &count, $0) }, argumentError, naming: "recording")
    expectFailure(
      call { vitals_recording_beats(Self.fixture, nil, 0, nil, $0) }, argumentError, naming: "json")
    expectFailure(call { vitals_hrv(nil, 3, 250, nil, &json, $0) }, argumentError, naming: "peaks")
    expectFailure(
      call { vitals_annotations_read(Self.fixture, nil, &json, $0) }, argumentError, naming: "extension")
    expectFailure(
      call { vitals_stats_table(nil, 10, "csv", &json, $0) }, argumentError, naming: "partial")
    let withNull: [UnsafePointer<CChar>?] = [
      untouchedMarker.withMemoryRebound(to: CChar.self, capacity: 1) { UnsafePointer($0) }, nil,
    ]
    expectFailure(
      call { vitals_recording_open(Self.fixture, withNull, 2, &handle, $0) }, argumentError,
      naming: "options[1]")
    #expect(vitals_recording_channel_count(nil) == -1)
    vitals_recording_close(nil)
    // A NULL `error` is accepted: the status alone.
    #expect(vitals_recording_open(nil, nil, 0, &handle, nil) == argumentError)
  }

  @Test("negative counts and capacities")
  func negativeCounts() throws {
    var handle: OpaquePointer?
    var json: UnsafeMutablePointer<CChar>?
    var peaks: UnsafeMutablePointer<Int64>?
    var count: Int64 = 0
    expectFailure(
      call { vitals_recording_open(Self.fixture, nil, -1, &handle, $0) }, argumentError, naming: "options")
    withChannels([Self.samples]) { leads in
      expectFailure(
        call { vitals_ecg_beats(leads, 1, -5, 250, &peaks, nil, &count, $0) }, argumentError, naming: "count")
      expectFailure(
        call { vitals_ecg_beats(leads, 0, 100, 250, &peaks, nil, &count, $0) }, argumentError, naming: "leads"
      )
      expectFailure(
        call { vitals_ppg_rate(leads, 1, nil, 2, 100, 64, 8, 2, &json, $0) }, argumentError,
        naming: "axis_count")
    }
    expectFailure(call { vitals_hrv(nil, -1, 250, nil, &json, $0) }, argumentError, naming: "peaks")
    var partial: UnsafeMutablePointer<UInt8>?
    expectFailure(
      call { vitals_stats_merge(nil, nil, 0, &partial, &count, $0) }, argumentError, naming: "count")
    #expect(call { vitals_recording_open(Self.fixture, nil, 0, &handle, $0) }.status == 0)
    defer { vitals_recording_close(handle) }
    var block = [Float](repeating: 0, count: 10)
    expectFailure(
      call { vitals_recording_read(handle, &block, 0, &count, $0) }, argumentError, naming: "capacity")
  }

  @Test(
    "NaN, infinite and out-of-range rates and windows", arguments: [Double.nan, .infinity, -250, 0, 10, 5e6])
  func badRates(rate: Double) {
    var json: UnsafeMutablePointer<CChar>?
    var peaks: UnsafeMutablePointer<Int64>?
    var count: Int64 = 0
    withChannels([Self.samples, Self.samples, Self.samples]) { channels in
      let c = channels!
      expectFailure(
        call { vitals_ecg_beats(channels, 1, 5000, rate, &peaks, nil, &count, $0) }, argumentError,
        naming: "sample_rate", "QRS detector")
      expectFailure(
        call { vitals_ppg_rate(channels, 1, nil, 0, 5000, rate, 8, 2, &json, $0) }, argumentError,
        naming: "sample_rate")
      expectFailure(
        call { vitals_steps(c[0], c[1], c[2], 5000, rate, nil, nil, nil, nil, &json, $0) }, argumentError,
        naming: "sample_rate", "step detector")
      if !(2...60).contains(rate) {
        expectFailure(
          call { vitals_ppg_rate(channels, 1, nil, 0, 5000, 64, rate, 2, &json, $0) }, argumentError,
          naming: "window")
      }
    }
    let beats: [Int64] = [0, 250, 500]
    if !(1...1_000_000).contains(rate) {
      expectFailure(call { vitals_hrv(beats, 3, rate, nil, &json, $0) }, argumentError, naming: "sample_rate")
    }
    withCStrings(["--rate", "\(rate)"]) { words, count in
      var handle: OpaquePointer?
      let outcome = call { vitals_recording_open(Self.fixture, words, count, &handle, $0) }
      if (1...1_000_000).contains(rate) {
        vitals_recording_close(handle)
      } else {
        expectFailure(outcome, argumentError, naming: "--rate")
      }
    }
  }

  @Test("HRV: beats out of order, negative, labels of another length, NULL or negatively counted options")
  func badBeats() {
    var json: UnsafeMutablePointer<CChar>?
    let options = ["--no-artifacts"]
    expectFailure(
      call { vitals_hrv_with_options(nil, 3, 250, nil, nil, 0, &json, $0) }, argumentError, naming: "peaks")
    expectFailure(
      call { vitals_hrv_with_options([0, 250, 500], 3, 250, nil, nil, 1, &json, $0) }, argumentError,
      naming: "options")
    expectFailure(
      withCStrings(options) { words, _ in
        call { vitals_hrv_with_options([0, 250], 2, 250, nil, words, -1, &json, $0) }
      },
      argumentError, naming: "options")
    expectFailure(
      withCStrings(options) { words, count in
        call { vitals_hrv_with_options([0, 250], 2, 250, nil, words, count, nil, $0) }
      }, argumentError, naming: "json")
    expectFailure(
      withCStrings(options) { words, count in
        call { vitals_hrv_with_options([0, 300, 200], 3, 250, nil, words, count, &json, $0) }
      }, argumentError, naming: "peaks[2]")
    expectFailure(
      call { vitals_hrv([0, 300, 200], 3, 250, nil, &json, $0) }, argumentError, naming: "peaks[2]",
      "increasing")
    expectFailure(call { vitals_hrv([-5, 300], 2, 250, nil, &json, $0) }, argumentError, naming: "peaks[0]")
    expectFailure(
      call { vitals_hrv([0, 250, 500], 3, 250, "NN", &json, $0) }, argumentError, naming: "labels")
    #expect(call { vitals_hrv(nil, 0, 250, nil, &json, $0) }.status == 0)
    #expect(take(json)?.contains("\"HRV_MeanNN\":null") == true)
  }

  @Test("unknown options and option values are ArgumentParser's messages")
  func unknownOptions() {
    var handle: OpaquePointer?
    var json: UnsafeMutablePointer<CChar>?
    var summary: UnsafeMutablePointer<CChar>?
    let cases:
      [(
        [String],
        (UnsafePointer<UnsafePointer<CChar>?>?, Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) ->
          Int32, String
      )] = [
        (["--bogus"], { vitals_recording_open(Self.fixture, $0, $1, &handle, $2) }, "--bogus"),
        (["--signal", "eeg"], { vitals_recording_beats(Self.fixture, $0, $1, &json, $2) }, "eeg"),
        (["-o", "x.csv"], { vitals_recording_beats(Self.fixture, $0, $1, &json, $2) }, "-o"),
        (["--height", "9"], { vitals_analyze(Self.fixture, $0, $1, &summary, nil, $2) }, "--height"),
        (["--out", "/tmp/x"], { vitals_analyze(Self.fixture, $0, $1, &summary, nil, $2) }, "--out"),
        (["--jobs=2"], { vitals_analyze(Self.fixture, $0, $1, &summary, nil, $2) }, "--jobs"),
        (["--shard", "1/2"], { vitals_analyze(Self.fixture, $0, $1, &summary, nil, $2) }, "--shard"),
        (["--json"], { vitals_hrv_with_options([0, 250, 500], 3, 250, nil, $0, $1, &json, $2) }, "--json"),
        (
          ["--psd", "burg"], { vitals_hrv_with_options([0, 250, 500], 3, 250, nil, $0, $1, &json, $2) },
          "burg"
        ),
        (
          ["--interpolation-rate", "0.5"],
          { vitals_hrv_with_options([0, 250, 500], 3, 250, nil, $0, $1, &json, $2) }, "--interpolation-rate"
        ),
      ]
    for (words, function, named) in cases {
      expectFailure(
        withCStrings(words) { list, count in call { function(list, count, $0) } }, argumentError,
        naming: named)
    }
    withChannels([Self.samples, Self.samples, Self.samples]) { channels in
      let c = channels!
      expectFailure(
        call { vitals_steps(c[0], c[1], c[2], 5000, 50, "furlongs", nil, nil, nil, &json, $0) },
        argumentError,
        naming: "unit", "furlongs")
      expectFailure(
        call { vitals_steps(c[0], c[1], c[2], 5000, 50, nil, "ankle", nil, nil, &json, $0) }, argumentError,
        naming: "placement", "ankle")
    }
  }

  @Test("missing, truncated and wrong files name the file")
  func badFiles() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var handle: OpaquePointer?
    var json: UnsafeMutablePointer<CChar>?
    var summary: UnsafeMutablePointer<CChar>?
    let missing = directory + "/missing.csv"
    expectFailure(call { vitals_recording_open(missing, nil, 0, &handle, $0) }, inputError, naming: missing)
    expectFailure(call { vitals_recording_beats(missing, nil, 0, &json, $0) }, inputError, naming: missing)
    expectFailure(call { vitals_analyze(missing, nil, 0, &summary, nil, $0) }, inputError, naming: missing)
    expectFailure(
      call { vitals_annotations_read(directory + "/100", "atr", &json, $0) }, inputError, naming: "100.atr")
    // An annotation file cut short in the middle of an annotation.
    let record = TestData.fixture("wfdb/annotations/written").path
    let truncated = directory + "/cut.atr"
    let bytes = try Data(contentsOf: URL(fileURLWithPath: record + ".atr"))
    try bytes.prefix(bytes.count / 2 | 1).write(to: URL(fileURLWithPath: truncated))
    expectFailure(
      call { vitals_annotations_read(directory + "/cut", "atr", &json, $0) }, inputError, naming: truncated)
    let text = directory + "/notes.csv"
    try "time_s,ecg\n0,1\n0.004,x\n".write(toFile: text, atomically: true, encoding: .utf8)
    expectFailure(call { vitals_recording_beats(text, nil, 0, &json, $0) }, inputError, naming: text)
    expectFailure(
      withCStrings([missing]) { inputs, count in
        withCStrings(["--type", "stepCount"]) { words, wordCount in
          var bytes: UnsafeMutablePointer<UInt8>?
          var length: Int64 = 0
          return call { vitals_stats_partial(inputs, count, words, wordCount, &bytes, &length, $0) }
        }
      }, inputError, naming: missing)
  }

  @Test("partials: another query, not a partial, a bad format")
  func badPartials() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let files = try AnalysisTests.samplesFiles(in: directory)
    let hourly = try AnalysisTests.partial(
      [files[0]], ["--type", "heartRate", "--interval", "hour", "--timezone", "UTC"])
    let daily = try AnalysisTests.partial(
      [files[1]], ["--type", "heartRate", "--interval", "day", "--timezone", "UTC"])
    expectFailure(AnalysisTests.merge([hourly, daily]).0, inputError, naming: "partials[1]", "another query")
    expectFailure(
      AnalysisTests.merge([hourly, Array("{}".utf8)]).0, inputError, naming: "partials[1]",
      "not a statistics partial")
    expectFailure(
      AnalysisTests.table(Array(hourly.prefix(40)), format: "csv").0, inputError, naming: "partial")
    expectFailure(AnalysisTests.table(hourly, format: "xml").0, argumentError, naming: "format", "xml")
    // Damaged partials: statistics kept for options the style has not, cells outside the intervals, and
    // intervals moved off the query's boundaries (half an hour later) are errors, never traps.
    let text = String(decoding: hourly, as: UTF8.self)
    for damaged in [
      text.replacing(#/"kept":\d+/#, with: #""kept":255"#),
      text.replacing(#/"base":\d+/#, with: #""base":-3"#),
      text.replacing(#/"cells":\[(\{"count"[^}]*\})/#, with: { #""cells":[\#($0.1),\#($0.1)"# }),
    ] {
      expectFailure(
        AnalysisTests.merge([hourly, Array(damaged.utf8)]).0, inputError, naming: "partials[1]",
        "not a statistics partial")
    }
    let shifted = text.replacing(
      #/"start":\{"nanosecondsSinceEpoch":(-?\d+)\}/#,
      with: { #""start":{"nanosecondsSinceEpoch":\#(Int64($0.1)! + 1_800_000_000_000)}"# })
    expectFailure(
      AnalysisTests.merge([hourly, Array(shifted.utf8)]).0, inputError,
      naming: "partials[1]", "do not lie on the intervals")
    var bytes: UnsafeMutablePointer<UInt8>?
    var length: Int64 = 0
    for (words, named) in [
      (["--type", "heartbeatSeries"], "quantity types"),
      (["--type", "stepCount", "--partial", "x"], "--partial"),
      (["--interval", "fortnight", "--type", "stepCount"], "--interval"),
    ] {
      let outcome = withCStrings(files) { inputs, count in
        withCStrings(words) { list, wordCount in
          call { vitals_stats_partial(inputs, count, list, wordCount, &bytes, &length, $0) }
        }
      }
      expectFailure(outcome, argumentError, naming: named)
    }
  }
}
