import Foundation
import Testing
import VitalsAnalysis
import VitalsIO
import VitalsPipeline
import VitalsTestSupport

/// bxb's matrices of the shared MIT-BIH records scored against perturbed copies of their annotations,
/// written by `scripts/dev/bxb_classes.py --fixture` from its own implementation of bxb's algorithm.
private struct BXBMatrices: Decodable {
  var records: [String: [[Int]]]
}

@Suite("Beat classes against bxb on MIT-BIH")
struct BeatClassEquivalenceTests {
  /// The test beats `perturb` of `scripts/dev/bxb_classes.py` makes from `file`'s annotations (the same
  /// fixed rule, step for step): labels changed, beats moved, dropped, moved out of the window, added
  /// between beats, inside ventricular flutter and at shutdown annotations; beats outside the record
  /// left out, one per sample (the last added).
  private func perturbed(_ file: BeatFile) -> [(sample: Int64, label: BeatClass)] {
    let relabel: [BeatClass: BeatClass] = [
      .normal: .ventricular, .supraventricular: .normal, .ventricular: .normal, .fusion: .ventricular,
      .unclassifiable: .normal,
    ]
    let beats = zip(file.samples, (file.classes ?? []).map { $0 ?? .unclassifiable }).map { ($0, $1) }
    let step = Int64(0.25 * file.sampleRate)
    var test: [(Int64, BeatClass)] = []
    for (i, (sample, original)) in beats.enumerated() where i % 53 != 0 {
      var label = original
      if i % 7 == 3 {
        label = relabel[label]!
      } else if i % 11 == 5 && (label == .normal || label == .ventricular) {
        label = .supraventricular
      }
      let shift = i % 67 == 0 ? step : Int64((i * 37) % 61 - 30)
      test.append((sample + shift, label))
      if i % 41 == 0 && i + 1 < beats.count {
        test.append(((sample + beats[i + 1].0) / 2, i % 2 == 1 ? .normal : .ventricular))
      }
    }
    for episode in file.flutter.episodes {
      test += stride(from: episode.lowerBound, through: episode.upperBound, by: Int(step)).map {
        ($0, .ventricular)
      }
    }
    test += file.annotations.filter { $0.symbol == "~" && $0.subtype & 0x30 == 0x30 }.map {
      ($0.sample, .normal)
    }
    var bySample: [Int64: BeatClass] = [:]
    for (sample, label) in test where sample >= 0 && sample < (file.recordLength ?? .max) {
      bySample[sample] = label
    }
    return bySample.keys.sorted().map { ($0, bySample[$0]!) }
  }

  @Test(
    "the matrices equal those of bxb's algorithm on all 26 shared records",
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func mitdb() throws {
    let expected = try TestData.decodeFixture(BXBMatrices.self, "scoring/bxb_classes_mitdb.json").records
    #expect(expected.count == 26)
    for (record, counts) in expected.sorted(by: { $0.key < $1.key }) {
      let reference = try BeatFile(path: TestData.sharedData("mitdb/\(record).atr").path)
      let test = perturbed(reference)
      let matrix = BeatClassComparison.score(
        reference: reference.samples, referenceClasses: try #require(reference.classes),
        test: test.map(\.sample), testClasses: test.map(\.label), sampleRate: reference.sampleRate,
        excluding: reference.flutter)
      #expect(matrix.counts == counts, "record \(record)")
    }
  }
}
