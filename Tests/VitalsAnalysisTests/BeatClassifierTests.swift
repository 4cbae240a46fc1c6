import Testing
import VitalsAnalysis
import VitalsIO
import VitalsSimulation
import VitalsTestSupport

@Suite struct BeatClassifierTests {
  static let rate = 360.0

  /// Ten minutes of simulated ambulatory ECG with premature ventricular (8 %) and atrial (5 %) beats, its
  /// detected beats and the simulator's label of each (nil for a detection matching no true beat).
  static let ectopic: (signal: [Float], beats: [Int64], truth: [BeatClass?]) = {
    var configuration = ECGConfiguration.ambulatory
    configuration.rhythm.ventricularEctopicProbability = 0.08
    configuration.rhythm.atrialEctopicProbability = 0.05
    var simulator = ECGSimulator(configuration: configuration, duration: 600, sampleRate: rate, seed: 11)
    let recording = simulator.generateAll(chunkSize: 1 << 16)
    let signal = recording.channels[0]
    let beats = try! QRSDetector.detect(signal, sampleRate: rate)
    let window = BeatComparison.windowSamples(BeatComparison.standardMatchWindow, sampleRate: rate)
    let events = recording.events
    let matching = BeatMatching(reference: events.map(\.sampleIndex), test: beats, window: window)
    var truth = [BeatClass?](repeating: nil, count: beats.count)
    for pair in matching.pairs {
      switch events[pair.reference].label {
      case .ventricular: truth[pair.test] = .ventricular
      case .atrial: truth[pair.test] = .supraventricular
      default: truth[pair.test] = .normal
      }
    }
    return (signal, beats, truth)
  }()

  /// Sensitivity and positive predictivity of `labels` for `target` against `truth`.
  static func score(_ labels: [BeatClass], _ truth: [BeatClass?], _ target: BeatClass) -> (Double, Double) {
    let hits = zip(labels, truth).count { $0 == target && $1 == target }
    return (
      Double(hits) / Double(truth.count { $0 == target }),
      Double(hits) / Double(labels.count { $0 == target })
    )
  }

  @Test func simulatedEctopicBeatsAreFound() {
    let (signal, beats, truth) = Self.ectopic
    let labels = BeatClassifier.classify(beats, leads: [signal], sampleRate: Self.rate)
    #expect(labels.count == beats.count)
    let (ventricularSe, ventricularPP) = Self.score(labels, truth, .ventricular)
    let (supraventricularSe, supraventricularPP) = Self.score(labels, truth, .supraventricular)
    #expect(truth.count { $0 == .ventricular } > 30 && truth.count { $0 == .supraventricular } > 20)
    // Measured: V Se 1.0, +P 0.95; S Se 0.71, +P 1.0.
    #expect(ventricularSe >= 0.95 && ventricularPP >= 0.9, "V Se \(ventricularSe) +P \(ventricularPP)")
    #expect(
      supraventricularSe >= 0.65 && supraventricularPP >= 0.9,
      "S Se \(supraventricularSe) +P \(supraventricularPP)")
  }

  @Test func labelsDoNotDependOnChunks() {
    let (signal, beats, _) = Self.ectopic
    let count = 120 * Int(Self.rate)
    let labels = expectChunkInvariant(
      count: count, chunkings: Chunking.standard + [.fixed(5000)],
      makeStage: { () -> (BeatClassifier, Int) in
        (BeatClassifier(sampleRate: Self.rate, leadCount: 2, latency: 200), 0)
      },
      feed: { stage, range in
        // Beats are added as a detector with a 200-sample latency would report them.
        while stage.1 < beats.count && beats[stage.1] < Int64(range.upperBound) - 200 {
          stage.0.add(beat: beats[stage.1])
          stage.1 += 1
        }
        var labels: [BeatClass] = []
        let lead = Array(signal[range])
        stage.0.process([lead, lead.map { -0.5 * $0 }], appendingTo: &labels)
        return labels
      },
      finish: { stage in
        while stage.1 < beats.count && beats[stage.1] < Int64(count) {
          stage.0.add(beat: beats[stage.1])
          stage.1 += 1
        }
        var labels: [BeatClass] = []
        stage.0.finish(appendingTo: &labels)
        return labels
      })
    #expect(labels.count == beats.count { $0 < Int64(count) } && labels.contains(.ventricular))
  }

  @Test func labelsComeWithinTheLatencyBound() {
    let (signal, beats, _) = Self.ectopic
    var classifier = BeatClassifier(sampleRate: Self.rate, leadCount: 1, latency: 0)
    for beat in beats { classifier.add(beat: beat) }
    var labels: [BeatClass] = []
    var fed = 0
    for size in Chunking.random(1...2000, seed: 3).sizes(count: signal.count) {
      classifier.process([Array(signal[fed..<fed + size])], appendingTo: &labels)
      fed += size
      let due = beats.count { $0 + classifier.labelLatency <= Int64(fed) }
      #expect(labels.count >= due)
    }
  }

  @Test func aWindowWithMissingSamplesIsUnclassifiable() {
    var signal = Self.ectopic.signal
    let beats = Self.ectopic.beats
    signal[Int(beats[40])] = .nan
    let labels = BeatClassifier.classify(beats, leads: [signal], sampleRate: Self.rate)
    #expect(labels[40] == .unclassifiable)
    // The first beat's window starts before the record.
    let early = BeatClassifier.classify([10] + beats, leads: [signal], sampleRate: Self.rate)
    #expect(early[0] == .unclassifiable)
  }

  @Test func classesFollowTheMITCodes() {
    #expect(["N", "L", "R", "B", "e", "j"].allSatisfy { BeatClass(mitCode: $0) == .normal })
    #expect(["A", "a", "J", "S", "n"].allSatisfy { BeatClass(mitCode: $0) == .supraventricular })
    #expect(["V", "r", "E"].allSatisfy { BeatClass(mitCode: $0) == .ventricular })
    #expect(
      BeatClass(mitCode: "F") == .fusion && BeatClass(mitCode: "?") == nil && BeatClass(mitCode: "+") == nil)
    for beatClass in BeatClass.allCases {
      #expect(BeatClass(letter: beatClass.letter) == beatClass)
      #expect(BeatClass(mitCode: beatClass.mitCode) == beatClass)
    }
  }

  @Test(.enabled(if: TestData.hasSharedData, "needs ../shared/data"))
  func bigeminyIsVentricularNotSupraventricular() throws {
    // MIT-BIH 119: runs of ventricular bigeminy and trigeminy, 444 V beats, no S beat.
    let path = TestData.sharedData("mitdb/119").path
    let chunk = try WFDBRecordReader(path: path).readAll()!
    let beats = try QRSDetector.detect(chunk.channels[0], sampleRate: chunk.sampleRate)
    let labels = BeatClassifier.classify(beats, leads: chunk.channels, sampleRate: chunk.sampleRate)
    let annotations = try WFDBAnnotationFile.read(path: path + ".atr").filter(\.isBeat)
    let matrix = BeatClassComparison.score(
      reference: annotations.map(\.sample),
      referenceClasses: annotations.map { BeatClass(mitCode: $0.symbol) },
      test: beats, testClasses: labels, sampleRate: chunk.sampleRate, from: 0)
    #expect(matrix.ventricular.sensitivity >= 0.99 && matrix.ventricular.positivePredictivity >= 0.99)
    #expect(labels.count { $0 == .supraventricular } <= 5)
  }
}
