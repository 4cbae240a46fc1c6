import ArgumentParser
import Foundation
import Testing
import Vitals
import VitalsTestSupport

@testable import VitalsCLI

/// The usage error `arguments` give when parsed and validated as the `vitals` command does before any
/// work: its contract exit code and full message; nil when they are accepted.
private func usageError(_ arguments: [String]) -> (code: Int32, message: String)? {
  do {
    var command = try VitalsCommand.parseAsRoot(arguments)
    try command.validate()
    return nil
  } catch {
    return (VitalsCommand.contractExitCode(for: error), VitalsCommand.fullMessage(for: error))
  }
}

@Suite("option ranges: checked before any work")
struct ParameterValidationTests {
  /// Arguments and a part of the message naming the option and its accepted range. The input files
  /// need not exist: validation runs before anything is opened.
  static let outOfRangeCases: [([String], String)] = [
    // Signal rates (every signal-reading command): 1 Hz – 1 MHz, or the detector's own range.
    (
      ["info", "a.csv", "--rate", "1e-6"],
      "--rate must be 1–1000000 Hz (the range of any signal), got 1e-06"
    ),
    (["info", "a.csv", "--rate", "0"], "--rate must be 1–1000000 Hz"),
    (["info", "a.csv", "--rate=-250"], "--rate must be 1–1000000 Hz"),
    (["info", "a.csv", "--rate", "nan"], "--rate must be 1–1000000 Hz (the range of any signal), got nan"),
    (["info", "a.csv", "--rate", "inf"], "--rate must be 1–1000000 Hz (the range of any signal), got inf"),
    (["convert", "a.csv", "-o", "b.csv", "--rate", "2e6"], "--rate must be 1–1000000 Hz"),
    (
      ["beats", "a.csv", "--rate", "50"], "--rate must be 100–2000 Hz (the QRS detector's supported rates)"
    ),
    (
      ["beats", "a.csv", "--signal", "ppg", "--rate", "10"],
      "--rate must be 25–1000000 Hz (the PPG analysis"
    ),
    (["hr", "a.csv", "--signal", "ecg", "--rate", "4000"], "--rate must be 100–2000 Hz"),
    (["hr", "a.csv", "--rate", "20"], "--rate must be 25–1000000 Hz"),
    (["hrv", "a.csv", "--rate", "90"], "--rate must be 100–2000 Hz"),
    (["hrv", "--beats", "a.atr", "--rate", "0.01"], "--rate must be 1–1000000 Hz"),
    (["steps", "a.csv", "--rate", "5"], "--rate must be 15–1000 Hz (the step detector's supported rates)"),
    (["analyze", "a.csv", "--rate", "1e-3"], "--rate must be 1–1000000 Hz"),
    (["report", "a.csv", "-o", "a.svg", "--rate", "1e9"], "--rate must be 1–1000000 Hz"),
    (["score", "--reference", "a.csv", "--test", "b.csv", "--rate", "0.5"], "--rate must be 1–1000000 Hz"),
    (["stream", "--rate", "1e-6"], "--rate must be 100–2000 Hz (the QRS detector's supported rates)"),
    (["stream", "--signal", "ppg", "--rate", "inf"], "--rate must be 25–1000000 Hz"),
    (
      ["stream", "--signal", "accelerometer", "--channels", "3", "--rate", "2000"],
      "--rate must be 15–1000 Hz (the step detector's supported rates)"
    ),
    (
      ["simulate", "--signal", "ecg", "--duration", "10", "--rate", "0.5", "-o", "a.csv"],
      "--rate must be 1–100000 Hz"
    ),
    // Windows, steps and tolerances.
    (["hr", "a.csv", "--window", "0"], "--window must be 2–60 s, got 0"),
    (["hr", "a.csv", "--window", "1e300"], "--window must be 2–60 s"),
    (["hr", "a.csv", "--step", "nan"], "--step must be 0.1–60 s, got nan"),
    (["hrv", "a.csv", "--interpolation-rate", "1e9"], "--interpolation-rate must be 1–100 Hz"),
    (["hrv", "a.csv", "--interpolation-rate", "0.5"], "--interpolation-rate must be 1–100 Hz"),
    (["score", "--reference", "a.atr", "--test", "b.qrs", "--window", "1e300"], "--window must be 0–1 s"),
    (["score", "--reference", "a.atr", "--test", "b.qrs", "--window=-0.1"], "--window must be 0–1 s"),
    (
      ["score", "--reference", "a.atr", "--test", "b.qrs", "--skip", "1e300"], "--skip must be 0–10000000 s"
    ),
    (["score", "--reference", "a.atr", "--test", "b.qrs", "--skip", "nan"], "--skip must be 0–10000000 s"),
    (["report", "a.csv", "-o", "a.svg", "--excerpt", "0"], "--excerpt must be 0.1–120 s"),
    (["report", "a.csv", "-o", "a.svg", "--excerpt", "inf"], "--excerpt must be 0.1–120 s"),
    // Counts.
    (["analyze", "a.csv", "--jobs", "0"], "--jobs must be 1–256, got 0"),
    (["analyze", "a.csv", "--jobs", "100000"], "--jobs must be 1–256"),
    (["analyze", "a.csv", "--event-minutes", "0"], "--event-minutes must be 1–1440"),
    (["analyze", "a.csv", "--height", "175"], "--height must be 0.5–2.5 m, got 175"),
    (["analyze", "a.csv", "--shard", "0/4"], "--shard must be I/N with 1 ≤ I ≤ N ≤ 100000, got '0/4'"),
    (["analyze", "a.csv", "--shard", "3"], "--shard must be I/N"),
    (["analyze", "a.csv", "--height", "nan"], "--height must be 0.5–2.5 m"),
    (["analyze", "a.csv", "--event-minutes", "1000000000"], "--event-minutes must be 1–1440"),
    (["convert", "a.csv", "-o", "b.csv", "--chunk-size", "0"], "--chunk-size must be 1–1048576"),
    (["convert", "a.csv", "-o", "b.csv", "--chunk-size", "1000000000"], "--chunk-size must be 1–1048576"),
    (["stream", "--rate", "250", "--channels", "0"], "--channels must be 1–1024"),
    (["stream", "--rate", "250", "--channels", "100000000"], "--channels must be 1–1024"),
    (
      ["stream", "--rate", "250", "--channels", "2", "--lead", "2"], "--lead must be 0–1 (below --channels)"
    ),
    (["stream", "--rate", "250", "--lead=-1"], "--lead must be 0–0"),
    // Thresholds.
    (["analyze", "a.csv", "--low-heart-rate", "nan"], "--low-heart-rate must be 20–250 bpm"),
    (["analyze", "a.csv", "--high-heart-rate", "1e9"], "--high-heart-rate must be 20–250 bpm"),
    (
      ["analyze", "a.csv", "--low-heart-rate", "130"],
      "--low-heart-rate (130) must be below --high-heart-rate (120)"
    ),
    // stats --interval: calendar counts and fixed lengths.
    (["stats", "export.xml", "--type", "stepCount", "--interval", "99999999999999999999day"], "3650 days"),
    (["stats", "export.xml", "--type", "stepCount", "--interval", "100000month"], "120 months"),
    (["stats", "export.xml", "--type", "stepCount", "--interval", "0s"], "0.001–315360000 s"),
    (["stats", "export.xml", "--type", "stepCount", "--interval", "1000000000000h"], "0.001–315360000 s"),
  ]

  @Test(
    "out-of-range options are usage errors naming the option and its range",
    arguments: outOfRangeCases)
  func outOfRange(arguments: [String], message: String) throws {
    let error = try #require(usageError(arguments), "expected a usage error for \(arguments)")
    #expect(error.code == 2)
    #expect(error.message.contains(message), "\(error.message)")
  }

  /// `vitals simulate` with `extra` after a valid signal, duration, rate and output.
  static func simulate(_ extra: [String]) -> [String] {
    ["simulate", "--signal", "ecg", "--duration", "10", "--rate", "250", "-o", "a.csv"] + extra
  }

  @Test(
    "simulate: every numeric option is checked",
    arguments: [
      (["--duration=-1"], "--duration must be 0–10000000 s"),
      (["--duration", "nan"], "--duration must be 0–10000000 s"),
      (["--duration", "1e12"], "--duration must be 0–10000000 s"),
      (
        ["--duration", "1000000", "--rate", "100000"],
        "--duration × --rate must be at most 10000000000 samples"
      ),
      (["--rate", "1e7"], "--rate must be 1–100000 Hz"),
      (["--heart-rate", "0"], "--heart-rate must be 20–250 bpm"),
      (["--heart-rate-end", "1000"], "--heart-rate-end must be 20–250 bpm"),
      (["--sdnn", "1e9"], "--sdnn must be 0–300 ms"),
      (["--lf-hf", "inf"], "--lf-hf must be 0–100"),
      (["--pvc", "0.6"], "--pvc must be 0–0.5"),
      (["--pac=-0.1"], "--pac must be 0–0.5"),
      (["--pvc", "0.3", "--pac", "0.3"], "--pvc + --pac must be 0–0.5"),
      (["--powerline=-1"], "--powerline must be 0–10 mV"),
      (["--mains-frequency", "0"], "--mains-frequency must be 1–1000 Hz"),
      (["--ppg-channels", "3"], "--ppg-channels must be 1–2"),
      (["--cadence", "0"], "--cadence must be 1–300 steps/min"),
      (["--chunk-size", "0"], "--chunk-size must be 1–1048576"),
      (["--afib", "0:inf"], "0 ≤ START < END ≤ 10000000"),
      (["--seed=-1"], "0–18446744073709551615"),
    ] as [([String], String)])
  func simulateRanges(extra: [String], message: String) throws {
    let error = try #require(usageError(Self.simulate(extra)), "expected a usage error for \(extra)")
    #expect(error.code == 2)
    #expect(error.message.contains(message), "\(error.message)")
  }

  @Test(
    "the bounds themselves are accepted",
    arguments: [
      ["info", "a.csv", "--rate", "1"], ["info", "a.csv", "--rate", "1000000"],
      ["beats", "a.csv", "--rate", "100"], ["beats", "a.csv", "--rate", "2000"],
      ["hr", "a.csv", "--window", "60", "--step", "0.1"], ["hrv", "a.csv", "--interpolation-rate", "100"],
      ["score", "--reference", "a.atr", "--test", "b.qrs", "--window", "1", "--skip", "1e7"],
      ["analyze", "a.csv", "--jobs", "256", "--low-heart-rate", "20", "--high-heart-rate", "250"],
      ["stream", "--rate", "100", "--channels", "1024", "--lead", "1023"],
      ["simulate", "--signal", "ecg", "--duration", "100000", "--rate", "100000", "-o", "a.csv"],
      ["stats", "export.xml", "--type", "stepCount", "--interval", "3650day"],
      ["stats", "export.xml", "--type", "stepCount", "--interval", "1ms"],
    ])
  func boundsAccepted(arguments: [String]) {
    #expect(usageError(arguments) == nil)
  }

  /// Intervals too short for the samples' span would fill memory (1.9 GB and over a minute for 1 ms
  /// over the fixture's two days): refused before any interval is made, naming --interval.
  @Test("stats: too many intervals for the samples' span is an error naming --interval")
  func statisticsIntervalCount() throws {
    let export = TestData.fixture("health-export/export.xml").path
    func report(_ interval: String) throws -> String {
      let command = try VitalsCommand.parseAsRoot([
        "stats", export, "--type", "stepCount", "--interval", interval,
      ])
      return try #require(command as? Stats).report()
    }
    let error = try #require(throws: InputError.self) { try report("1ms") }
    #expect(error.description.contains("--interval 1ms makes up to"))
    #expect(error.description.contains("more than 1000000; give a longer --interval"))
    #expect(try report("1s").split(separator: "\n").count > 200_000)
  }

  /// `hr`'s window and step ranges are those the PPG estimator accepts: at the bounds it is set up, just
  /// outside them it refuses.
  @Test("hr's window and step ranges are the PPG estimator's")
  func heartRateRangesMatchTheEstimator() {
    func accepts(window: Double, step: Double) -> Bool {
      var configuration = PPGHeartRateEstimator.Configuration()
      configuration.window = window
      configuration.step = step
      return (try? PPGHeartRateEstimator(sampleRate: 100, configuration: configuration)) != nil
    }
    let window = OptionRange.heartRateWindow
    let step = OptionRange.heartRateStep
    #expect(accepts(window: window.lowerBound, step: step.lowerBound))
    #expect(accepts(window: window.upperBound, step: step.upperBound))
    #expect(!accepts(window: window.lowerBound.nextDown, step: 2))
    #expect(!accepts(window: window.upperBound.nextUp, step: 2))
    #expect(!accepts(window: 8, step: step.lowerBound.nextDown))
    #expect(!accepts(window: 8, step: step.upperBound.nextUp))
  }

  @Test(
    "--rate 1e-6 on a recording: exit 2 with the option and range on stderr, not a trap",
    .enabled(if: hasBinary, "needs the built vitals binary"),
    arguments: [["info"], ["beats"], ["hrv"], ["convert", "-o", "-"]])
  func tinyRateIsAUsageError(command: [String]) throws {
    let directory = try TemporaryDirectory()
    // 20 000 samples of one header-less column: enough for sample times in ns at 1e-6 Hz to pass Int64.
    let csv = directory.path("signal.csv")
    try Data((0..<20_000).map { "\(Double($0 % 100) / 100)\n" }.joined().utf8).write(
      to: URL(fileURLWithPath: csv))
    let result = try run([command[0], csv] + command.dropFirst() + ["--rate", "1e-6"])
    #expect(result.status == 2)
    #expect(result.err.contains("--rate must be"))
    #expect(result.err.contains("1–1000000 Hz") || result.err.contains("100–2000 Hz"))
  }

  @Test(
    "hrv --beats FILE --rate 0.01: refused at once, before the file is read",
    .enabled(if: hasBinary, "needs the built vitals binary"))
  func hrvTinyBeatRateIsRefusedQuickly() throws {
    let directory = try TemporaryDirectory()
    let beats = directory.path("beats.csv")
    let rows = stride(from: 0, to: 650_000, by: 300).map { "\($0)\n" }.joined()
    try Data(("sample\n" + rows).utf8).write(to: URL(fileURLWithPath: beats))
    let clock = ContinuousClock()
    let start = clock.now
    let result = try run(["hrv", "--beats", beats, "--rate", "0.01"])
    #expect(clock.now - start < .seconds(10))
    #expect(result.status == 2)
    #expect(result.err.contains("--rate must be 1–1000000 Hz (the range of any signal), got 0.01"))
  }
}

/// A directory removed when the value goes away.
private final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("vitals-params-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  deinit { try? FileManager.default.removeItem(at: url) }
}
