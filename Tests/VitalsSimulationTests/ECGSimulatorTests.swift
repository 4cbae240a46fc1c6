import Testing
import VitalsCore
import VitalsTestSupport

@testable import VitalsSimulation

@Suite struct ECGSimulatorTests {
  static func record(
    _ configuration: ECGConfiguration = ECGConfiguration(), duration: Double = 60, rate: Double = 250,
    seed: UInt64 = 1
  ) -> SimulatedRecording {
    var simulator = ECGSimulator(
      configuration: configuration, duration: duration, sampleRate: rate, seed: seed)
    return simulator.generateAll()
  }

  @Test func sameSeedSameRecordDifferentSeedDifferentRecord() {
    let a = Self.record(.ambulatory, duration: 20)
    let b = Self.record(.ambulatory, duration: 20)
    let c = Self.record(.ambulatory, duration: 20, seed: 2)
    #expect(a == b)
    #expect(a.channels != c.channels)
    #expect(a.events.map(\.sampleIndex) != c.events.map(\.sampleIndex))
  }

  @Test func chunkedEqualsOneShot() {
    var configuration = ECGConfiguration.ambulatory
    configuration.rhythm.ventricularEctopicProbability = 0.1
    let samples = expectSimulatorChunkInvariant(
      chunkings: Chunking.standard + [7, 250, 4096].map(Chunking.fixed)
    ) {
      ECGSimulator(configuration: configuration, duration: 30, sampleRate: 360, seed: 5)
    }
    var oneShot = ECGSimulator(configuration: configuration, duration: 30, sampleRate: 360, seed: 5)
    let whole = oneShot.generateAll(chunkSize: 1 << 20)
    #expect(samples.map(\.index) == Array(0..<Int64(30 * 360)))
    #expect(samples.map { $0.values[0] } == whole.channels[0])
    #expect(samples.flatMap(\.events) == whole.events && !whole.events.isEmpty)
  }

  @Test(arguments: [25.0, 100, 360, 1000])
  func beatCountAndPeaksAtEveryRate(rate: Double) {
    let recording = Self.record(duration: 60, rate: rate)
    #expect(recording.channels[0].count == Int(60 * rate))
    // 60 bpm for 60 s: about 60 beats (the first falls within the first 1.2 s).
    #expect((58...61).contains(recording.events.count))
    let signal = recording.channels[0]
    for event in recording.events {
      let index = Int(event.sampleIndex)
      let window = Int((0.05 * rate).rounded(.up))
      let neighbourhood = signal[max(0, index - window)..<min(signal.count, index + window + 1)]
      #expect(signal[index] == neighbourhood.max())
      // At 25 Hz the samples straddle the ~40 ms QRS: the highest sample is below the wave's top.
      let tolerance = rate >= 100 ? 0.25 : 0.9
      #expect(abs(Double(signal[index]) - 1.2) < tolerance, "R height \(signal[index]) mV")
      #expect(event.time == Double(index) / rate)
      #expect(event.label == .normal)
    }
  }

  @Test(arguments: [45.0, 90, 150])
  func beatCountAndHeightFollowHeartRate(heartRate: Double) {
    let recording = Self.record(
      ECGConfiguration(rhythm: RhythmConfiguration(heartRate: Profile(constant: heartRate))), duration: 120)
    #expect(abs(Double(recording.events.count) - 2 * heartRate) <= 3)
    // ECGSYN's rate scaling keeps the R wave near its configured height at any rate.
    for event in recording.events.dropFirst() {
      #expect(abs(recording.channels[0][Int(event.sampleIndex)] - 1.2) < 0.3)
    }
  }

  @Test func rrMeanAndStandardDeviationNearConfigured() {
    let rhythm = RhythmConfiguration(heartRate: 75, rrStandardDeviation: 0.04, lfHfRatio: 0.5)
    let recording = Self.record(ECGConfiguration(rhythm: rhythm), duration: 600, rate: 250, seed: 3)
    let times = recording.events.map(\.time)
    let rr = zip(times.dropFirst(), times).map { $0 - $1 }
    let mean = rr.reduce(0, +) / Double(rr.count)
    let sd = (rr.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(rr.count - 1)).squareRoot()
    #expect(abs(mean - 0.8) < 0.01, "mean RR \(mean)")
    #expect(abs(sd - 0.04) < 0.012, "SDNN \(sd)")
  }

  @Test func ventricularBeatsAreEarlyWithCompensatoryPause() {
    var rhythm = RhythmConfiguration(heartRate: 60, rrStandardDeviation: 0.02)
    rhythm.ventricularEctopicProbability = 0.1
    let recording = Self.record(ECGConfiguration(rhythm: rhythm), duration: 300, rate: 500, seed: 11)
    let events = recording.events
    var checked = 0
    for index in 1..<(events.count - 1) where events[index].label == .ventricular {
      guard events[index - 1].label == .normal, events[index + 1].label == .normal else { continue }
      let before = events[index].time - events[index - 1].time
      let after = events[index + 1].time - events[index].time
      #expect(before < 0.8, "coupling interval \(before) s")
      #expect(after > 1.15, "pause \(after) s")
      #expect(abs(before + after - 2) < 0.2, "compensatory pause: \(before) + \(after)")
      checked += 1
    }
    #expect(checked >= 15)
    // Wide QRS: the V beats' QRS (above half the R height) lasts longer than the normal beats'.
    func width(_ event: TruthEvent) -> Int {
      let signal = recording.channels[0]
      let peak = signal[Int(event.sampleIndex)]
      var low = Int(event.sampleIndex)
      var high = low
      while low > 0 && signal[low - 1] > peak / 2 { low -= 1 }
      while high < signal.count - 1 && signal[high + 1] > peak / 2 { high += 1 }
      return high - low
    }
    let normalWidth = events.filter { $0.label == .normal }.map(width).max()!
    let ventricularWidth = events.filter { $0.label == .ventricular }.map(width).min()!
    #expect(ventricularWidth > normalWidth * 2)
  }

  @Test func atrialBeatsAreEarlyWithoutCompensatoryPause() {
    var rhythm = RhythmConfiguration(heartRate: 60, rrStandardDeviation: 0.02)
    rhythm.atrialEctopicProbability = 0.1
    let events = Self.record(ECGConfiguration(rhythm: rhythm), duration: 300, rate: 250, seed: 4).events
    let atrial = events.indices.dropFirst().dropLast().filter {
      events[$0].label == .atrial && events[$0 + 1].label == .normal
    }
    #expect(atrial.count >= 15)
    for index in atrial {
      #expect(events[index].time - events[index - 1].time < 0.85)
      #expect(abs(events[index + 1].time - events[index].time - 1) < 0.1)
    }
  }

  @Test func atrialFibrillationIsIrregular() {
    var rhythm = RhythmConfiguration(heartRate: 70, rrStandardDeviation: 0.03)
    rhythm.atrialFibrillation = [RhythmEpisode(start: 100, end: 200)]
    var simulator = ECGSimulator(
      configuration: ECGConfiguration(rhythm: rhythm), duration: 300, sampleRate: 250, seed: 8)
    let recording = simulator.generateAll()
    #expect(recording.atrialFibrillationEpisodes == rhythm.atrialFibrillation)
    func successiveDifferences(_ range: ClosedRange<Double>) -> Double {
      let times = recording.events.map(\.time).filter { range.contains($0) }
      let rr = zip(times.dropFirst(), times).map { $0 - $1 }
      let d = zip(rr.dropFirst(), rr).map { ($0 - $1) * ($0 - $1) }
      return (d.reduce(0, +) / Double(d.count)).squareRoot()
    }
    #expect(successiveDifferences(110...190) > 3 * successiveDifferences(10...90))
  }

  @Test func noiseLeavesTruthAndCleanSignalUnchanged() {
    var noisy = ECGConfiguration.ambulatory
    noisy.noise.powerline = 0.1
    let clean = Self.record(duration: 20)
    let disturbed = Self.record(noisy, duration: 20)
    #expect(clean.events == disturbed.events)
    let difference = zip(clean.channels[0], disturbed.channels[0]).map { Double($0 - $1) }
    let rms = (difference.map { $0 * $0 }.reduce(0, +) / Double(difference.count)).squareRoot()
    #expect(rms > 0.05 && rms < 0.3, "noise RMS \(rms) mV")
  }

  @Test func amplitudeScalesTheSignal() {
    var configuration = ECGConfiguration()
    configuration.amplitude = 2.4
    let doubled = Self.record(configuration, duration: 10)
    let normal = Self.record(duration: 10)
    for (a, b) in zip(doubled.channels[0], normal.channels[0]) { #expect(abs(a - 2 * b) < 1e-5) }
  }
}

extension ECGSimulatorTests {
  /// The beats do not depend on the output rate: R-peak times at 250 and 1000 Hz agree within a
  /// sample of the coarser rate.
  @Test func beatTimesAgreeAcrossRates() {
    let coarse = Self.record(duration: 30, rate: 250, seed: 12).events
    let fine = Self.record(duration: 30, rate: 1000, seed: 12).events
    #expect(coarse.count == fine.count)
    for (a, b) in zip(coarse, fine) { #expect(abs(a.time - b.time) <= 0.004) }
  }
}
