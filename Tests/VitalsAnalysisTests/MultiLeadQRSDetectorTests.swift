import Testing
import VitalsAnalysis
import VitalsTestSupport

@Suite("Multi-lead QRS detector")
struct MultiLeadQRSDetectorTests {
  /// Three leads of one synthetic ECG (the same beats, different sizes and noise), the second with a burst
  /// of tall spikes that a lone lead takes for beats.
  static func leads(rate: Double) -> (leads: [[Float]], rPeaks: [Int64], spikes: [Int64]) {
    let ecg = SyntheticECG(sampleRate: rate, .init(seconds: 30, noise: 0.02, seed: 31))
    let second = SyntheticECG(sampleRate: rate, .init(seconds: 30, noise: 0.05, seed: 31))
    var spiky = second.samples.map { 0.6 * $0 }
    var spikes: [Int64] = []
    for k in stride(from: 8, to: ecg.rPeaks.count - 1, by: 4) {
      let spike = (ecg.rPeaks[k] + ecg.rPeaks[k + 1]) / 2
      spikes.append(spike)
      QRSDetectorTests.add([(2.0, 0, 0.010)], at: spike, scale: 1, to: &spiky, rate: rate)
    }
    return ([ecg.samples, spiky, ecg.samples.map { -1.5 * $0 }], ecg.rPeaks, spikes)
  }

  @Test(
    "outvotes the artifacts of one lead, and gives the same beats for any chunking", arguments: [250.0, 500])
  func vote(rate: Double) throws {
    let (leads, rPeaks, spikes) = Self.leads(rate: rate)
    let tolerance = Int64(0.15 * rate)
    let lone = try QRSDetector.detect(leads[1], sampleRate: rate)
    #expect(spikes.count { s in lone.contains { abs($0 - s) <= tolerance } } >= spikes.count / 2)
    let beats = try expectChunkInvariant(
      count: leads[0].count, chunkings: Chunking.standard + [.fixed(7), .random(1...2000, seed: 3)]
    ) {
      try MultiLeadQRSDetector(sampleRate: rate, leadCount: 3)
    } feed: { detector, range in
      var beats: [Int64] = []
      let slices = leads.map { Array($0[range]) }
      slices[0].withUnsafeBufferPointer { a in
        slices[1].withUnsafeBufferPointer { b in
          slices[2].withUnsafeBufferPointer { c in detector.process([a, b, c], appendingTo: &beats) }
        }
      }
      return beats
    } finish: { detector in
      var beats: [Int64] = []
      detector.finish(appendingTo: &beats)
      return beats
    }
    let (missed, extra, worst) = compareBeats(rPeaks, beats, tolerance: tolerance)
    #expect(missed == 0)
    #expect(extra == 0)
    #expect(Double(worst) / rate <= 0.01, "placed on the first lead's R peaks")
    #expect(try beats == MultiLeadQRSDetector.detect(leads, sampleRate: rate, chunkSize: 1000))
  }

  @Test("reports each beat within the latency bound")
  func latency() throws {
    let rate = 500.0
    let (leads, _, _) = Self.leads(rate: rate)
    var detector = try MultiLeadQRSDetector(sampleRate: rate, leadCount: 3)
    var beats: [Int64] = []
    var fed: Int64 = 0
    for start in stride(from: 0, to: leads[0].count, by: 50) {
      let slices = leads.map { Array($0[start..<min(start + 50, $0.count)]) }
      let before = beats.count
      slices[0].withUnsafeBufferPointer { a in
        slices[1].withUnsafeBufferPointer { b in
          slices[2].withUnsafeBufferPointer { c in detector.process([a, b, c], appendingTo: &beats) }
        }
      }
      fed += Int64(slices[0].count)
      for beat in beats[before...] { #expect(fed - beat <= detector.latencySamples + 50) }
    }
  }

  @Test("rejects a quorum outside [0, 1) and no leads")
  func errors() {
    var options = MultiLeadQRSDetector.Configuration()
    options.quorum = 1
    #expect(throws: QRSDetectorError.invalidConfiguration("quorum", 1)) {
      try MultiLeadQRSDetector(sampleRate: 500, leadCount: 3, configuration: options)
    }
    #expect(throws: QRSDetectorError.invalidConfiguration("leadCount", 0)) {
      try MultiLeadQRSDetector(sampleRate: 500, leadCount: 0)
    }
  }
}
