import Foundation
import Testing
import VitalsCore
import VitalsTestSupport

@testable import VitalsSimulation

@Suite struct AccelerometerSimulatorTests {
  static func record(
    _ configuration: AccelerometerConfiguration, duration: Double = 60, rate: Double = 50, seed: UInt64 = 1
  ) -> SimulatedRecording {
    var simulator = AccelerometerSimulator(
      configuration: configuration, duration: duration, sampleRate: rate, seed: seed)
    return simulator.generateAll()
  }

  /// The frequency (Hz) in 0.5–3 Hz, on a 0.02 Hz grid, where the mean-removed series has the
  /// largest DFT magnitude (a rotating phasor per frequency keeps it fast in debug builds).
  static func dominantFrequency(_ signal: [Float], rate: Double) -> Double {
    let values = signal.map(Double.init)
    let mean = values.reduce(0, +) / Double(values.count)
    var best = (frequency: 0.0, power: -1.0)
    for step in 0...125 {
      let frequency = 0.5 + 0.02 * Double(step)
      let (c, s) = (cos(2 * Double.pi * frequency / rate), sin(2 * Double.pi * frequency / rate))
      var (pr, pi, re, im) = (1.0, 0.0, 0.0, 0.0)
      for value in values {
        re += (value - mean) * pr
        im += (value - mean) * pi
        (pr, pi) = (pr * c - pi * s, pr * s + pi * c)
      }
      if re * re + im * im > best.power { best = (frequency, re * re + im * im) }
    }
    return best.frequency
  }

  @Test(arguments: Placement.allCases)
  func stepTruthFollowsCadence(placement: Placement) {
    let configuration = AccelerometerConfiguration(activity: .walking, placement: placement, cadence: 120)
    let recording = Self.record(configuration, duration: 60, rate: 25)
    #expect(abs(recording.events.count - 120) <= 3, "\(recording.events.count) steps")
    #expect(recording.events.allSatisfy { $0.label == .step && abs($0.rate - 120) < 20 })
    for event in recording.events {
      let index = Int(event.sampleIndex)
      #expect(recording.time(ofSample: index) >= event.time)
      #expect(index == 0 || recording.time(ofSample: index - 1) < event.time)
    }
    // The magnitude moves once per step; a swinging limb (wrist, pocket) shows the stride in its axes.
    let magnitude = zip(zip(recording.channels[0], recording.channels[1]), recording.channels[2]).map {
      ($0.0 * $0.0 + $0.1 * $0.1 + $1 * $1).squareRoot()
    }
    #expect(abs(Self.dominantFrequency(magnitude, rate: 25) - 2) < 0.06)
    let axisFrequencies = recording.channels.map { Self.dominantFrequency($0, rate: 25) }
    #expect(axisFrequencies.allSatisfy { abs($0 - 2) < 0.06 || abs($0 - 1) < 0.06 }, "\(axisFrequencies)")
    if placement == .wrist || placement == .frontPocket {
      #expect(axisFrequencies.contains { abs($0 - 1) < 0.06 }, "stride component in \(axisFrequencies)")
    }
  }

  @Test func runningCadenceAndRamp() {
    var configuration = AccelerometerConfiguration(activity: .running, placement: .armband)
    configuration.cadence = Profile([(0, 150), (60, 180)])
    let recording = Self.record(configuration, duration: 60, rate: 100)
    // Mean cadence 165 steps/min over the minute.
    #expect(abs(recording.events.count - 165) <= 4)
    #expect(recording.events.prefix(10).allSatisfy { $0.rate < 165 })
    #expect(recording.events.suffix(10).allSatisfy { $0.rate > 165 })
  }

  /// The step amplitude scales the body acceleration over time and leaves the step times alone: at the
  /// lower back (no limb swing), the magnitude's spread around 1 g in a stretch at amplitude 0.5 is half
  /// that of a stretch at 1 (to the sensor noise), and nothing but noise where it is 0; the same seed
  /// gives the same heel strikes.
  @Test func stepAmplitudeScalesTheBodyAcceleration() {
    var configuration = AccelerometerConfiguration(activity: .walking, placement: .lowerBack, cadence: 100)
    configuration.noise = 0
    let plain = Self.record(configuration, duration: 30, rate: 100)
    configuration.stepAmplitude = Profile([(0, 1), (10, 1), (10.01, 0.5), (20, 0.5), (20.01, 0), (30, 0)])
    let scaled = Self.record(configuration, duration: 30, rate: 100)
    #expect(scaled.events == plain.events)
    func spread(_ recording: SimulatedRecording, _ seconds: Range<Int>) -> Float {
      let values = (seconds.lowerBound * 100..<seconds.upperBound * 100).map { i in
        (recording.channels.map { $0[i] * $0[i] }.reduce(0, +)).squareRoot() - 1
      }
      return values.map(abs).max()!
    }
    #expect(abs(spread(scaled, 11..<19) / spread(plain, 11..<19) - 0.5) < 0.02)
    #expect(spread(scaled, 0..<10) == spread(plain, 0..<10))
    #expect(spread(scaled, 21..<30) < 1e-6)
  }

  @Test(arguments: [AccelerationUnit.g, .metersPerSecondSquared])
  func gravityMagnitudeAtRest(unit: AccelerationUnit) {
    for placement in Placement.allCases {
      let configuration = AccelerometerConfiguration(activity: .still, placement: placement, unit: unit)
      let recording = Self.record(configuration, duration: 10)
      #expect(recording.events.isEmpty)
      for axis in 0..<3 {
        let mean = recording.channels.map { Double($0.reduce(0, +)) / Double($0.count) }
        let magnitude = (mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2]).squareRoot()
        #expect(abs(magnitude - unit.standardGravity) < 0.01 * unit.standardGravity, "axis \(axis)")
      }
    }
  }

  @Test(arguments: [Activity.still, .typing, .vehicle, .gestures, .shaking])
  func nonWalkingHasNoSteps(activity: Activity) {
    let recording = Self.record(
      AccelerometerConfiguration(activity: activity, placement: .hand), duration: 30)
    #expect(recording.events.isEmpty)
    #expect(recording.channels.allSatisfy { $0.allSatisfy(\.isFinite) })
    let spread = recording.channels.map { axis in
      let mean = axis.reduce(0, +) / Float(axis.count)
      return (axis.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Float(axis.count)).squareRoot()
    }.max()!
    #expect(activity == .still ? spread < 0.01 : spread > 0.01, "largest axis SD \(spread) g")
  }

  @Test(arguments: [25.0, 100, 360, 1000])
  func everyRate(rate: Double) {
    let recording = Self.record(
      AccelerometerConfiguration(activity: .walking, placement: .lowerBack, cadence: 100), duration: 30,
      rate: rate)
    #expect(recording.channels[2].count == Int(30 * rate))
    #expect(abs(recording.events.count - 50) <= 2)
  }

  @Test func chunkedEqualsOneShotWithJitter() {
    var configuration = AccelerometerConfiguration(activity: .walking, placement: .frontPocket)
    configuration.timingJitter = 0.003
    let whole = Self.record(configuration, duration: 20, rate: 50, seed: 9)
    let samples = expectSimulatorChunkInvariant(
      chunkings: Chunking.standard + [33, 1000].map(Chunking.fixed)
    ) {
      AccelerometerSimulator(configuration: configuration, duration: 20, sampleRate: 50, seed: 9)
    }
    for size in [1, 33, 1000] {
      var simulator = AccelerometerSimulator(
        configuration: configuration, duration: 20, sampleRate: 50, seed: 9)
      while let chunk = simulator.next(maxSamples: size) {
        #expect(chunk.signal.startTime == chunk.sampleTimes!.first)
      }
    }
    let times = samples.compactMap(\.time)
    #expect(samples.map(\.values) == whole.channels[0].indices.map { k in whole.channels.map { $0[k] } })
    #expect(times == whole.sampleTimes && samples.flatMap(\.events) == whole.events)
    #expect(zip(times.dropFirst(), times).allSatisfy { $0 > $1 })
    let offsets = times.enumerated().map { abs(Double($1.nanosecondsSinceEpoch) * 1e-9 - Double($0) / 50) }
    #expect(offsets.max()! > 0.002 && offsets.max()! <= 0.008 + 1e-6)
  }

  @Test func seedsDiffer() {
    let configuration = AccelerometerConfiguration(activity: .walking, placement: .bag)
    #expect(Self.record(configuration, duration: 10) == Self.record(configuration, duration: 10))
    #expect(
      Self.record(configuration, duration: 10).channels
        != Self.record(configuration, duration: 10, seed: 2).channels)
  }
}
