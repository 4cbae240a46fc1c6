import Foundation
import Testing
import VitalsAnalysis
import VitalsCore

@testable import VitalsPipeline

@Suite("Section summaries")
struct SummaryEncodingTests {
  private static func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test("walking: the keys of vitals steps, bout times in seconds from the first sample")
  func walking() throws {
    let step = { (sample: Int64) in StepEvent(sampleIndex: sample, time: Timestamp(secondsSinceEpoch: 0)) }
    var bout = WalkingBout(start: step(50), end: step(150), steps: 3)
    bout.end.time = Timestamp(secondsSinceEpoch: 2)
    let summary = WalkingSummary(stepCount: 4, bouts: [bout], sampleRate: 50)
    #expect(summary.walkingSeconds == 2 && summary.cadence == 60)
    #expect(
      try Self.json(summary)
        == #"{"bouts":[{"end_s":3,"start_s":1,"steps":3}],"cadence_spm":60,"steps":4,"walking_s":2}"#)
    let live = WalkingSummary(stepCount: 4, walkingSeconds: 2, cadence: 60, bouts: nil, sampleRate: 50)
    #expect(try Self.json(live) == #"{"cadence_spm":60,"steps":4,"walking_s":2}"#)
  }

  @Test("the steps section holds the walking keys beside its own")
  func stepsSection() throws {
    let section = StepsSection(
      channels: ["x", "y", "z"], sampleRate: 50, samples: 500, unit: .g,
      walking: WalkingSummary(stepCount: 0, bouts: [], sampleRate: 50), steps: [], motionWindow: 10,
      motion: [], motionMean: .nan, motionMaximum: .nan)
    #expect(
      try Self.json(section)
        == #"{"bouts":[],"cadence_spm":0,"channels":["x","y","z"],"#
        + #""motion":{"max_g":null,"mean_g":null,"window_s":10},"sample_rate":50,"#
        + #""samples":500,"steps":0,"unit":"g","walking_s":0}"#)
  }

  @Test("variability: NeuroKit2's names, null where undefined")
  func variability() throws {
    let names = [
      "CVNN", "HF", "HFn", "LF", "LFHF", "LFn", "MeanNN", "MedianNN", "RMSSD", "SD1", "SD2", "SDNN", "SDSD",
      "TP",
      "VLF", "pNN20", "pNN50",
    ]
    let empty = VariabilitySummary(beats: [], sampleRate: 250)
    // pNN50 and pNN20 are shares of intervals: undefined without any.
    let nulls: [String] = names.map { (name: String) -> String in "\"\(name)\":null" }
    #expect(try Self.json(empty) == "{" + nulls.joined(separator: ",") + "}")
    // 0.8 s beats with a slow ±12 ms swing, 4 minutes.
    let beats: [Int64] = (0..<300).map { (k: Int) -> Int64 in
      let swing: Double = (3 * sin(Double(k) / 4)).rounded()
      return Int64(k * 200) + Int64(swing)
    }
    let summary = VariabilitySummary(beats: beats, sampleRate: 250)
    #expect(abs(summary.time.meanNN - 800) < 1 && summary.intervals.count + summary.artifactBeats >= 297)
    let encoded = try JSONDecoder().decode([String: Double?].self, from: Data(Self.json(summary).utf8))
    #expect(encoded.keys.sorted() == names)
    let decoded = encoded.compactMapValues { $0 }
    #expect(decoded["MeanNN"] == summary.time.meanNN && decoded["SD1"] == summary.poincare.sd1)
    #expect(decoded["LF"] == summary.frequency.lf && decoded["pNN20"] == summary.time.pnn20)
  }
}
