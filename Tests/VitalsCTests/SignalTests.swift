import Foundation
import Testing
import Vitals
import VitalsC
import VitalsTestSupport

@testable import VitalsCLI

@Suite("C interface: library, recordings, beats, HRV, PPG and steps")
struct SignalTests {
  static let fixture = TestData.fixture("examples/simulated-ecg.csv").path

  /// A simulated ECG with ventricular ectopic beats, 60 s at 250 Hz, written to `directory`/ecg.csv.
  static func simulatedECG(in directory: String) throws -> String {
    var configuration = ECGConfiguration()
    configuration.rhythm.heartRate = 75
    configuration.rhythm.ventricularEctopicProbability = 0.05
    var simulator = ECGSimulator(configuration: configuration, duration: 60, sampleRate: 250, seed: 5)
    let recording = simulator.generateAll()
    let path = directory + "/ecg.csv"
    try writeCSV(recording.channels, names: ["ecg"], rate: 250, to: path)
    return path
  }

  @Test("version, ABI version and build information")
  func versions() throws {
    #expect(String(cString: try #require(vitals_version())) == VitalsCommand.version)
    #expect(vitals_abi_version() == 1)
    let info = try jsonObject(String(cString: try #require(vitals_build_info())))
    #expect(info["version"] as? String == VitalsCommand.version)
    #expect(info["abi"] as? Int == 1)
    #expect(info["configuration"] as? String == "debug")
    #expect(Set(info.keys) == ["version", "abi", "swift", "configuration", "simd", "fftw"])
    vitals_free(nil)
  }

  @Test("a recording reads as the library's reader reads it, and describes itself")
  func recordingReadsAsTheReader() throws {
    var reader = try RecordingOpener.open(path: Self.fixture)
    var expected = [[Float]](repeating: [], count: reader.signals.count)
    while let chunk = try reader.nextChunk(maxSamples: 4096) {
      for c in expected.indices { expected[c] += chunk.channels[c] }
    }
    #expect(try readAll(Self.fixture) == expected)

    var handle: OpaquePointer?
    #expect(call { vitals_recording_open(Self.fixture, nil, 0, &handle, $0) }.status == 0)
    defer { vitals_recording_close(handle) }
    #expect(vitals_recording_channel_count(handle) == 1)
    var json: UnsafeMutablePointer<CChar>?
    #expect(call { vitals_recording_describe(handle, &json, $0) }.status == 0)
    let description = try jsonObject(take(json))
    #expect(description["format"] as? String == "CSV")
    #expect(description["sample_rate"] as? Double == 250)
    #expect(description["start_time"] is NSNull)
    let signals = try #require(description["signals"] as? [[String: Any]])
    #expect(signals.map { $0["name"] as? String } == ["ecg"])
  }

  @Test("options apply: --start sets the start time")
  func recordingOptions() throws {
    var handle: OpaquePointer?
    let opened = withCStrings(["--start", "2024-03-10T06:00:00Z"]) { words, count in
      call { vitals_recording_open(Self.fixture, words, count, &handle, $0) }
    }
    #expect(opened.status == 0)
    defer { vitals_recording_close(handle) }
    var json: UnsafeMutablePointer<CChar>?
    #expect(call { vitals_recording_describe(handle, &json, $0) }.status == 0)
    let description = try jsonObject(take(json))
    #expect(description["start_unix_s"] as? Double == 1_710_050_400)
  }

  @Test("annotations read as the WFDB reader reads them")
  func annotations() throws {
    let record = TestData.fixture("wfdb/annotations/written").path
    let expected = try WFDBAnnotationFile.read(path: record + ".atr")
    var json: UnsafeMutablePointer<CChar>?
    #expect(call { vitals_annotations_read(record, "atr", &json, $0) }.status == 0)
    let columns = try jsonObject(take(json))
    #expect((columns["samples"] as? [Int64]) == expected.map(\.sample))
    #expect((columns["symbols"] as? [String]) == expected.map(\.symbol))
    #expect((columns["aux"] as? [String]) == expected.map(\.aux))
  }

  @Test("ECG beats in memory equal RecordingBeats on the same samples in a CSV file")
  func ecgBeatsEqualRecordingBeats() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = try Self.simulatedECG(in: directory)
    let expected = try RecordingBeats(ecgPath: path, options: RecordingOptions())
    let samples = try readAll(path)
    var peaks: UnsafeMutablePointer<Int64>?
    var classes: UnsafeMutablePointer<CChar>?
    var count: Int64 = -1
    let outcome = withChannels(samples) { leads in
      call { vitals_ecg_beats(leads, 1, Int64(samples[0].count), 250, &peaks, &classes, &count, $0) }
    }
    #expect(outcome.status == 0)
    #expect(take(peaks, count: count) == expected.beats)
    let letters = take(classes, count: count).map { String(UnicodeScalar(UInt8(bitPattern: $0))) }
    #expect(letters == expected.classes?.map(\.letter))
    #expect(letters.contains("V"))

    var json: UnsafeMutablePointer<CChar>?
    #expect(call { vitals_recording_beats(path, nil, 0, &json, $0) }.status == 0)
    let list = try jsonObject(take(json))
    #expect(list["beats"] as? [Int64] == expected.beats)
    #expect(list["classes"] as? String == expected.classes?.map(\.letter).joined())
    #expect(list["lead"] as? String == "ecg")
    #expect(list["sample_count"] as? Int64 == expected.sampleCount)
  }

  @Test("ECG beats with classes NULL equal RecordingBeats' beats")
  func beatsVariants() throws {
    let samples = try readAll(Self.fixture)
    var peaks: UnsafeMutablePointer<Int64>?
    var count: Int64 = -1
    let outcome = withChannels(samples) { leads in
      call { vitals_ecg_beats(leads, 1, Int64(samples[0].count), 250, &peaks, nil, &count, $0) }
    }
    #expect(outcome.status == 0)
    #expect(take(peaks, count: count) == (try RecordingBeats(ecgPath: Self.fixture, options: .init())).beats)
  }

  @Test("HRV keys are HRV_ + HRVMetric names in order, values HRVAnalysis's")
  func hrvEqualsHRVAnalysis() throws {
    let beats = try RecordingBeats(ecgPath: Self.fixture, options: RecordingOptions())
    let labels = try #require(beats.classes).map(\.mitCode)
    for withLabels in [false, true] {
      var json: UnsafeMutablePointer<CChar>?
      let letters = labels.joined()
      let outcome = beats.beats.withUnsafeBufferPointer { peaks in
        call { error in
          withLabels
            ? vitals_hrv(peaks.baseAddress, Int64(peaks.count), 250, letters, &json, error)
            : vitals_hrv(peaks.baseAddress, Int64(peaks.count), 250, nil, &json, error)
        }
      }
      #expect(outcome.status == 0)
      let text = try #require(take(json))
      let analysis = HRVAnalysis(beats: beats.beats, sampleRate: 250, labels: withLabels ? labels : nil)
      let object = try JSONDecoder().decode([String: Double?].self, from: Data(text.utf8))
      #expect(object.count == HRVMetric.all.count)
      var position = text.startIndex
      for metric in HRVMetric.all {
        let key = "\"HRV_\(metric.name)\":"
        let found = try #require(text.range(of: key, range: position..<text.endIndex), "\(key) out of order")
        position = found.upperBound
        let value = analysis.value(of: metric)
        #expect(object["HRV_" + metric.name] == .some(value.isFinite ? value : nil), "\(metric.name)")
      }
    }
  }

  /// 300 beats at 250 Hz, RR intervals of about 800 ms on a slow wave, with an ectopic-like short–long
  /// pair (520 ms, 1080 ms) and a missed beat (an interval of two).
  static let beatsWithArtifacts: [Int64] = {
    var intervals = (0..<300).map { 200 + Int64((12 * sin(Double($0) / 5)).rounded()) }
    intervals[100] = 130
    intervals[101] = 270
    let missed = intervals.remove(at: 201)
    intervals[200] += missed
    return intervals.reduce(into: [500]) { beats, interval in beats.append(beats.last! + interval) }
  }()

  /// The HRV values `vitals_hrv` (`options` nil) or `vitals_hrv_with_options` gives for `beats`.
  static func hrvValues(_ beats: [Int64], options: [String]?) throws -> [String: Double?] {
    var json: UnsafeMutablePointer<CChar>?
    let outcome = beats.withUnsafeBufferPointer { peaks in
      withCStrings(options ?? []) { words, count in
        call { error in
          guard let options else {
            return vitals_hrv(peaks.baseAddress, Int64(peaks.count), 250, nil, &json, error)
          }
          return vitals_hrv_with_options(
            peaks.baseAddress, Int64(peaks.count), 250, nil, options.isEmpty ? nil : words, count, &json,
            error)
        }
      }
    }
    try #require(outcome.status == 0, "\(outcome.message ?? "")")
    return try JSONDecoder().decode([String: Double?].self, from: Data(try #require(take(json)).utf8))
  }

  @Test("HRV with --no-artifacts keeps every interval as vitals hrv --no-artifacts; no options is vitals_hrv")
  func hrvWithOptions() throws {
    let beats = Self.beatsWithArtifacts
    #expect(HRVAnalysis(beats: beats, sampleRate: 250).artifacts.allBeats.count >= 2)
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let file = directory + "/beats.csv"
    try ("sample\n" + beats.map(String.init).joined(separator: "\n") + "\n")
      .write(toFile: file, atomically: true, encoding: .utf8)
    /// What `vitals hrv --beats FILE --rate 250 OPTIONS` computes, keyed as the C interface keys it.
    func commandLine(_ options: [String]) throws -> [String: Double?] {
      let words = ["hrv", "--beats", file, "--rate", "250"] + options
      let command = try #require(try VitalsCommand.parseAsRoot(words) as? HRV)
      let analysis = try #require(command.reports().first).get().analysis
      return Dictionary(
        uniqueKeysWithValues: HRVMetric.all.map { metric in
          let value = analysis.value(of: metric)
          return ("HRV_" + metric.name, value.isFinite ? value : nil)
        })
    }
    let defaults = try Self.hrvValues(beats, options: nil)
    #expect(try Self.hrvValues(beats, options: []) == defaults)
    #expect(try commandLine([]) == defaults)
    let everyInterval = try Self.hrvValues(beats, options: ["--no-artifacts"])
    #expect(try commandLine(["--no-artifacts"]) == everyInterval)
    #expect(try Self.hrvValues(beats, options: ["--no-artefacts"]) == everyInterval)
    // The premature beat's 520 ms interval and the missed beat's double one count only with --no-artifacts.
    let shortest = try #require(everyInterval["HRV_MinNN"] ?? nil)
    let longest = try #require(everyInterval["HRV_MaxNN"] ?? nil)
    #expect(abs(shortest - 520) < 1e-9 && longest > 1500)
    #expect(
      try #require(defaults["HRV_MinNN"] ?? nil) > 700 && (try #require(defaults["HRV_MaxNN"] ?? nil)) < 900)
    #expect(try #require(everyInterval["HRV_RMSSD"] ?? nil) > (try #require(defaults["HRV_RMSSD"] ?? nil)))
    let lombScargle = try Self.hrvValues(beats, options: ["--no-artifacts", "--psd", "lombScargle"])
    #expect(try commandLine(["--no-artifacts", "--psd", "lombScargle"]) == lombScargle)
  }

  @Test("PPG heart rate equals the estimator vitals hr --signal ppg runs")
  func ppgRateEqualsEstimator() throws {
    var configuration = PPGConfiguration(rhythm: RhythmConfiguration(), channelCount: 1)
    configuration.rhythm.heartRate = 72
    var simulator = PPGSimulator(configuration: configuration, duration: 60, sampleRate: 64, seed: 3)
    let recording = simulator.generateAll()
    var estimator = try HeartRate.ppgEstimator(
      sampleRate: 64, ppgChannelCount: 1, axisCount: 0, window: 8, step: 2)
    let expected = estimator.process(ppg: [recording.channels[0]])
    var json: UnsafeMutablePointer<CChar>?
    let outcome = withChannels([recording.channels[0]]) { ppg in
      call { vitals_ppg_rate(ppg, 1, nil, 0, Int64(recording.channels[0].count), 64, 8, 2, &json, $0) }
    }
    #expect(outcome.status == 0)
    struct Window: Decodable, Equatable {
      var start_s, end_s: Double
      var bpm, quality, periodic_motion: Double?
      var reliable: Bool
    }
    let windows = try JSONDecoder().decode([String: [Window]].self, from: Data(try #require(take(json)).utf8))
    #expect(!expected.isEmpty)
    #expect(
      windows["windows"]
        == expected.map {
          Window(
            start_s: $0.startTime, end_s: $0.endTime, bpm: $0.beatsPerMinute, quality: $0.quality,
            periodic_motion: $0.periodicMotion, reliable: $0.isReliable)
        })
  }

  @Test("steps equal vitals steps on the same samples in a CSV file, with its JSON")
  func stepsEqualStepsCommand() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let recording = SimulatedActivityRecording(
      segments: [
        .init(duration: 20, heartRate: 70, activity: .still),
        .init(duration: 60, heartRate: 100, activity: .walking),
      ],
      rate: 50, startTime: .epoch)
    let path = directory + "/walk.csv"
    try writeCSV(recording.channels, names: SimulatedActivityRecording.names, rate: 50, to: path)
    let expected = try StepCounting(
      path: path, options: RecordingOptions(), unit: .automatic, placement: .wrist)
    let axes = Array(try readAll(path)[1...3])
    var steps: UnsafeMutablePointer<Int64>?
    var count: Int64 = -1
    var json: UnsafeMutablePointer<CChar>?
    let outcome = withChannels(axes) { channels in
      let pointers = channels!
      return call {
        vitals_steps(
          pointers[0], pointers[1], pointers[2], Int64(axes[0].count), 50, "automatic", "wrist", &steps,
          &count,
          &json, $0)
      }
    }
    #expect(outcome.status == 0)
    #expect(take(steps, count: count) == expected.output.steps.map(\.sampleIndex))
    #expect(count > 20)
    #expect(take(json) == expected.json())
  }
}
