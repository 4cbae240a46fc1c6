import Testing
import VitalsCore
import VitalsTestSupport

@testable import VitalsSimulation

@Suite struct PPGSimulatorTests {
  @Test func pulsesFollowTheECGBeatsByTheArrivalTime() {
    var rhythm = RhythmConfiguration(heartRate: 70)
    rhythm.ventricularEctopicProbability = 0.05
    var ecg = ECGSimulator(
      configuration: ECGConfiguration(rhythm: rhythm), duration: 120, sampleRate: 250, seed: 3)
    var ppg = PPGSimulator(
      configuration: PPGConfiguration(rhythm: rhythm), duration: 120, sampleRate: 250, seed: 3)
    let beats = ecg.generateAll().events
    let pulses = ppg.generateAll().events
    #expect(abs(pulses.count - 140) <= 3)
    #expect(pulses.map(\.label) == Array(beats.map(\.label).prefix(pulses.count)))
    #expect(pulses.contains { $0.label == .ventricular })
    for (beat, pulse) in zip(beats, pulses) {
      let delay = pulse.time - beat.time
      #expect(delay > 0.24 && delay < 0.29, "pulse arrival \(delay) s")
      #expect(abs(pulse.rate - beat.rate) < 1e-9)
    }
  }

  @Test(arguments: [25.0, 100, 360, 1000])
  func systolicPeaksAreMaximaOfTheCleanPulse(rate: Double) {
    var configuration = PPGConfiguration(rhythm: RhythmConfiguration(heartRate: 80), channelCount: 2)
    configuration.noise = .none
    var simulator = PPGSimulator(configuration: configuration, duration: 30, sampleRate: rate, seed: 2)
    let recording = simulator.generateAll()
    #expect(recording.channelNames == ["ppg1", "ppg2"])
    #expect(recording.channels[1].count == Int(30 * rate))
    #expect(abs(recording.events.count - 40) <= 2)
    let signal = recording.channels[0]
    let window = Int((0.2 * rate).rounded())
    for event in recording.events {
      let index = Int(event.sampleIndex)
      #expect(signal[index] == signal[max(0, index - window)..<min(signal.count, index + window)].max())
    }
  }

  @Test func heartRateRampShowsInTheTruth() {
    let rhythm = RhythmConfiguration(heartRate: Profile([(0, 60), (120, 150)]), rrStandardDeviation: 0.01)
    var simulator = PPGSimulator(
      configuration: PPGConfiguration(rhythm: rhythm), duration: 120, sampleRate: 100, seed: 4)
    let events = simulator.generateAll().events
    #expect(events.prefix(5).allSatisfy { abs($0.rate - 61) < 6 })
    #expect(events.suffix(5).allSatisfy { abs($0.rate - 148) < 10 })
    // Beats at a mean rate of 105 bpm over two minutes.
    #expect(abs(events.count - 210) <= 5)
  }

  @Test func motionLeaksIntoThePPGAndMatchesTheAccelerometer() {
    let motion = AccelerometerConfiguration(activity: .running, placement: .wrist, cadence: 160)
    var configuration = PPGConfiguration(
      rhythm: RhythmConfiguration(heartRate: 140), channelCount: 1, motion: motion)
    configuration.noise = .none
    var simulator = PPGSimulator(configuration: configuration, duration: 30, sampleRate: 50, seed: 6)
    let recording = simulator.generateAll()
    #expect(recording.channelNames == ["ppg", "acc_x", "acc_y", "acc_z"])
    var accelerometer = AccelerometerSimulator(configuration: motion, duration: 30, sampleRate: 50, seed: 6)
    let reference = accelerometer.generateAll()
    #expect(Array(recording.channels[1...]) == reference.channels)
    configuration.motion = nil
    var still = PPGSimulator(configuration: configuration, duration: 30, sampleRate: 50, seed: 6)
    let clean = still.generateAll()
    #expect(clean.events == recording.events)
    let artefact = zip(recording.channels[0], clean.channels[0]).map { Double($0 - $1) }
    // The artefact is at the step or stride frequency: correlated with the dynamic acceleration.
    let rms = (artefact.map { $0 * $0 }.reduce(0, +) / Double(artefact.count)).squareRoot()
    #expect(rms > 0.05, "artefact RMS \(rms)")
    let magnitudeFrequency = AccelerometerSimulatorTests.dominantFrequency(artefact.map(Float.init), rate: 50)
    #expect(abs(magnitudeFrequency - 160.0 / 60) < 0.06 || abs(magnitudeFrequency - 160.0 / 120) < 0.06)
  }

  @Test func chunkedEqualsOneShot() {
    var configuration = PPGConfiguration(
      rhythm: RhythmConfiguration(heartRate: 75), channelCount: 2,
      motion: AccelerometerConfiguration(activity: .walking, placement: .wrist))
    configuration.artifactBurstsPerMinute = 6
    var oneShot = PPGSimulator(configuration: configuration, duration: 20, sampleRate: 100, seed: 7)
    let whole = oneShot.generateAll(chunkSize: 1 << 20)
    let samples = expectSimulatorChunkInvariant(
      chunkings: Chunking.standard + [50, 4096].map(Chunking.fixed)
    ) {
      PPGSimulator(configuration: configuration, duration: 20, sampleRate: 100, seed: 7)
    }
    #expect(samples.map(\.values) == whole.channels[0].indices.map { k in whole.channels.map { $0[k] } })
    #expect(samples.flatMap(\.events) == whole.events && !whole.events.isEmpty)
    var otherSeed = PPGSimulator(configuration: configuration, duration: 20, sampleRate: 100, seed: 8)
    #expect(otherSeed.generateAll().channels != whole.channels)
  }
}
