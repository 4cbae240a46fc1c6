import Foundation
import Testing
import VitalsAnalysis
import VitalsSimulation
import VitalsTestSupport

@Suite("ECG signal quality (pSQI)")
struct ECGSignalQualityTests {
  static let rate = 250.0

  /// 120 s of simulated ECG at 70/min, with Gaussian noise (SD 3 mV) from 40 to 80 s when `noisy`.
  static func signal(noisy: Bool) -> [Float] {
    var simulator = ECGSimulator(
      configuration: ECGConfiguration(rhythm: RhythmConfiguration(heartRate: 70)), duration: 120,
      sampleRate: rate, seed: 4)
    var samples = simulator.generateAll().channels[0]
    guard noisy else { return samples }
    var generator = SplitMix64(state: 9)
    for i in Int(40 * rate)..<Int(80 * rate) {
      // Box–Muller.
      let u = Double.random(in: Double.ulpOfOne..<1, using: &generator)
      let v = Double.random(in: 0..<1, using: &generator)
      samples[i] += Float(3 * (-2 * log(u)).squareRoot() * cos(2 * .pi * v))
    }
    return samples
  }

  @Test("A clean ECG is usable throughout; a stretch buried in noise is marked, exactly its windows")
  func marksNoise() throws {
    let clean = try ECGSignalQuality.windows(Self.signal(noisy: false), sampleRate: Self.rate)
    #expect(clean.count == 12)
    #expect(clean.allSatisfy { $0.isUsable && $0.powerRatio > 0.6 })
    let noisy = try ECGSignalQuality.windows(Self.signal(noisy: true), sampleRate: Self.rate)
    #expect(noisy.map(\.isUsable) == (0..<12).map { !(4..<8).contains($0) })
    // White noise: the ratio of the bands' widths, about 10 / 35, as the filters pass it.
    #expect(noisy[4..<8].allSatisfy { $0.powerRatio > 0.2 && $0.powerRatio < 0.4 })
    #expect(ECGSignalQuality.unusableStretches(noisy) == [10_000..<20_000])
  }

  @Test("Constant and too-short inputs: a flat window is unusable, half a window is judged, less is not")
  func edges() throws {
    let flat = try ECGSignalQuality.windows([Float](repeating: 0.5, count: 2500), sampleRate: Self.rate)
    #expect(flat.count == 1 && flat[0].powerRatio.isNaN && !flat[0].isUsable)
    let signal = Self.signal(noisy: false)
    #expect(try ECGSignalQuality.windows(Array(signal[..<1249]), sampleRate: Self.rate).isEmpty)
    #expect(
      try ECGSignalQuality.windows(Array(signal[..<1250]), sampleRate: Self.rate).map(\.samples) == [0..<1250]
    )
  }

  @Test("The same windows whatever the chunk sizes")
  func chunkInvariant() throws {
    let samples = Self.signal(noisy: true)
    let windows = try expectChunkInvariant(
      count: samples.count, chunkings: Chunking.standard + [.fixed(2500)]
    ) {
      try ECGSignalQuality(sampleRate: Self.rate)
    } feed: { quality, range in
      var windows: [ECGSignalQuality.Window] = []
      quality.process(Array(samples[range]), appendingTo: &windows)
      return windows
    } finish: { quality in
      var windows: [ECGSignalQuality.Window] = []
      quality.finish(appendingTo: &windows)
      return windows
    }
    #expect(windows.count == 12 && windows.contains { !$0.isUsable })
  }
}
