import Foundation
import Testing
import VitalsCore

@testable import VitalsStatistics

/// Two synthetic days (from 2024-05-01T00:00Z): sleep at 55 bpm (00–06 h), awake at 72 bpm, three walks
/// a day at 100 bpm with steps at 1.8 Hz (08:00–08:20, 12:00–12:30, 18:00–18:20), evening at 60 bpm
/// (22–24 h); on day 0 25 quiet minutes at 130 bpm (15:00–15:25) and 30 moving minutes at 125 bpm without
/// steps (10:00–10:30, motion 0.3); on day 1 15 quiet minutes at 38 bpm (03:00–03:15). Every interval is
/// modulated by ±5 % over 10 s, so a one-minute SDNN is 0.05 · RR / √2.
struct SyntheticDays {
  static let origin: Int64 = 1_714_521_600  // 2024-05-01T00:00:00Z, seconds
  static let walks: [(Double, Double)] = [(8, 8 + 20 / 60.0), (12, 12.5), (18, 18 + 20 / 60.0)]

  var beats: [Timestamp] = []
  var steps: [Timestamp] = []
  var walking: [ActivityInterval] = []
  var motion: [MotionLevel] = []

  static func rate(day: Int, hour h: Double) -> Double {
    if walks.contains(where: { h >= $0.0 && h < $0.1 }) { return 100 }
    if day == 0 && h >= 15 && h < 15 + 25 / 60.0 { return 130 }
    if day == 0 && h >= 10 && h < 10.5 { return 125 }
    if day == 1 && h >= 3 && h < 3.25 { return 38 }
    if h < 6 { return 55 }
    return h < 22 ? 72 : 60
  }

  static func time(_ seconds: Double) -> Timestamp { Timestamp(secondsSinceEpoch: Double(origin) + seconds) }

  init() {
    var t = 0.0
    while t < 2 * 86_400 {
      beats.append(Self.time(t))
      let hour = t.truncatingRemainder(dividingBy: 86_400) / 3600
      t += 60 / Self.rate(day: Int(t / 86_400), hour: hour) * (1 + 0.05 * sin(2 * Double.pi * t / 10))
    }
    for day in 0..<2 {
      let midnight = Double(day) * 86_400
      for (from, to) in Self.walks {
        walking.append(
          ActivityInterval(start: Self.time(midnight + from * 3600), end: Self.time(midnight + to * 3600)))
        for k in 0..<Int(((to - from) * 3600 * 1.8).rounded()) {
          steps.append(Self.time(midnight + from * 3600 + Double(k) / 1.8))
        }
      }
      for minute in 0..<1440 {
        let h = Double(minute) / 60
        let moving = Self.walks.contains { h >= $0.0 && h < $0.1 } || (day == 0 && h >= 10 && h < 10.5)
        motion.append(
          MotionLevel(time: Self.time(midnight + Double(minute) * 60 + 30), level: moving ? 0.3 : 0.01))
      }
    }
  }
}

@Suite struct DerivedMetricsTests {
  static let days = SyntheticDays()
  static let metrics = DerivedMetrics(
    beats: days.beats, steps: days.steps, walking: days.walking, motion: days.motion)
  var metrics: DerivedMetrics { Self.metrics }

  func at(day: Int, hour: Double) -> Timestamp { SyntheticDays.time(Double(day) * 86_400 + hour * 3600) }

  @Test func heartRatePerMinute() throws {
    let samples = metrics.heartRate()
    #expect(samples.count == 2880)
    let night = try #require(samples.first { $0.start == at(day: 0, hour: 2) })
    #expect(
      abs(night.value - 55) < 0.5 && night.end == at(day: 0, hour: 2 + 1 / 60.0) && night.source == "Vitals")
    let walk = try #require(samples.first { $0.start == at(day: 1, hour: 12.25) })
    #expect(abs(walk.value - 100) < 1)
  }

  @Test func sdnnOverOneMinute() throws {
    let samples = metrics.heartRateVariability()
    #expect(samples.count == 2880)
    let night = try #require(samples.first { $0.start == at(day: 0, hour: 2) })
    #expect(abs(night.value - 0.05 * 60_000 / 55 / 2.0.squareRoot()) < 3, "\(night.value)")
    #expect(night.unit == .milliseconds && night.type == .heartRateVariabilitySDNN)
  }

  @Test func restingHeartRateIsTheLowestQuietFiveMinutes() {
    let samples = metrics.restingHeartRate()
    #expect(samples.map(\.start) == [at(day: 0, hour: 0), at(day: 1, hour: 0)])
    #expect(samples.map(\.end) == [at(day: 1, hour: 0), at(day: 2, hour: 0)])
    #expect(abs(samples[0].value - 55) < 0.5)
    #expect(abs(samples[1].value - 38) < 0.5)
  }

  @Test func walkingHeartRate() {
    let samples = metrics.walkingHeartRateAverage()
    #expect(samples.count == 2)
    #expect(samples.allSatisfy { abs($0.value - 100) < 1 })
  }

  @Test func stepsPerMinute() {
    let samples = metrics.stepCount()
    #expect(samples.count == 2 * 70)
    #expect(samples.allSatisfy { $0.value == 108 })
    #expect(samples.reduce(0) { $0 + $1.value } == Double(Self.days.steps.count))
  }

  @Test func gaitFromTheHeightByTheWalkRatio() throws {
    #expect(metrics.walkingGait().isEmpty && metrics.distanceWalkingRunning().isEmpty)
    var parameters = DerivedMetrics.Parameters()
    parameters.height = 1.75
    let walker = DerivedMetrics(
      beats: Self.days.beats, steps: Self.days.steps, walking: Self.days.walking, parameters: parameters)
    let gait = walker.walkingGait()
    #expect(
      gait.map(\.type)
        == Array(repeating: [QuantityType.walkingStepLength, .walkingSpeed], count: 6).flatMap { $0 })
    var meters = 0.0
    for (k, bout) in Self.days.walking.enumerated() {
      let steps = Self.days.steps.filter { $0 >= bout.start && $0 <= bout.end }.count
      let cadence = 60 * Double(steps - 1) / bout.start.seconds(to: bout.end)
      let length = 0.415 / 112 * 1.75 * cadence
      meters += Double(steps) * length
      #expect(gait[2 * k].start == bout.start && gait[2 * k].end == bout.end)
      #expect(abs(gait[2 * k].value - length) < 1e-12 && gait[2 * k].unit == .meters)
      #expect(
        abs(gait[2 * k + 1].value - length * cadence / 60) < 1e-12 && gait[2 * k + 1].unit == .metersPerSecond
      )
    }
    let distance = walker.distanceWalkingRunning()
    #expect(distance.count == 2 * 70 && distance.allSatisfy { $0.type == .distanceWalkingRunning })
    #expect(abs(distance.reduce(0) { $0 + $1.value } - meters) < 1e-6)
    // A bout under minimumGaitSteps has a distance but no step length or speed.
    parameters.minimumGaitSteps = 3000
    let short = DerivedMetrics(
      beats: Self.days.beats, steps: Self.days.steps, walking: Self.days.walking, parameters: parameters)
    #expect(short.walkingGait().count == 4)
    #expect(short.distanceWalkingRunning() == distance)
  }

  @Test func stepLengthModel() {
    #expect(abs(StepLengthModel.stepLength(height: 1.7, cadence: 112) - 0.415 * 1.7) < 1e-12)
    #expect(
      abs(
        StepLengthModel.stepLength(height: 1.7, cadence: 124)
          / StepLengthModel.stepLength(height: 1.7, cadence: 112) - 124 / 112.0) < 1e-12)
    #expect(
      StepLengthModel.stepLength(height: 1.7, cadence: 80)
        == StepLengthModel.stepLength(height: 1.7, cadence: 98))
  }

  @Test func highAndLowEventsOnlyWhileQuiet() {
    let events = metrics.heartRateEvents()
    #expect(events.map(\.type) == [.highHeartRateEvent, .lowHeartRateEvent])
    #expect(events[0].start == at(day: 0, hour: 15) && events[0].end == at(day: 0, hour: 15 + 25 / 60.0))
    #expect(events[1].start == at(day: 1, hour: 3) && events[1].end == at(day: 1, hour: 3.25))
    // Without motion levels the moving 125 bpm half hour counts as quiet too; with a 20-minute minimum
    // only it and the 25-minute run remain.
    var parameters = DerivedMetrics.Parameters()
    parameters.eventMinutes = 20
    let stepsOnly = DerivedMetrics(
      beats: Self.days.beats, steps: Self.days.steps, walking: Self.days.walking, parameters: parameters)
    #expect(stepsOnly.heartRateEvents().map(\.start) == [at(day: 0, hour: 10), at(day: 0, hour: 15)])
    // The motion threshold is read when the metrics are asked for, not when they are made: above the
    // walks' level (0.3) the moving 125 bpm half hour is quiet too.
    var loose = metrics
    loose.parameters.motionThreshold = 0.5
    #expect(loose.heartRateEvents().map(\.start).contains(at(day: 0, hour: 10)))
    #expect(!metrics.heartRateEvents().map(\.start).contains(at(day: 0, hour: 10)))
  }

  @Test func rateReadingsReplaceTheBeatsForHeartRate() {
    // Readings every 2 s: 100 bpm in the first minute, 60 then 90 in the second (mean 75), four in the
    // third (too few: no sample).
    let start = at(day: 0, hour: 1)
    func reading(_ k: Int, _ bpm: Double) -> RateReading {
      RateReading(time: start.advanced(byNanoseconds: Int64(k) * 2_000_000_000), beatsPerMinute: bpm)
    }
    let readings =
      (0..<30).map { reading($0, 100) } + (30..<60).map { reading($0, $0 < 45 ? 60 : 90) }
      + (60..<64).map { reading($0, 50) }
    let fromReadings = DerivedMetrics(beats: Self.days.beats, rates: readings.reversed()).heartRate()
    #expect(fromReadings.map(\.value) == [100, 75])
    #expect(fromReadings.map(\.start) == [start, reading(30, 0).time])
    #expect(fromReadings.map(\.end) == [reading(30, 0).time, reading(60, 0).time])
  }

  @Test func abnormalBeatsAreLeftOut() {
    var normal = [Bool](repeating: true, count: Self.days.beats.count)
    for k in stride(from: 0, to: normal.count, by: 2) { normal[k] = false }
    #expect(DerivedMetrics(beats: Self.days.beats, normal: normal).heartRate().isEmpty)
  }

  @Test func unmeasuredIntervalsAloneAreLeftOut() throws {
    // Every other interval unmeasured (a gap in it): the beats stay normal, so the measured intervals
    // after each gap still count; per-beat flags would have lost them all.
    var measured = [Bool](repeating: true, count: Self.days.beats.count)
    for k in stride(from: 1, to: measured.count, by: 2) { measured[k] = false }
    let halved = DerivedMetrics(beats: Self.days.beats, measured: measured).heartRate()
    #expect(halved.count == metrics.heartRate().count)
    let night = try #require(halved.first { $0.start == at(day: 0, hour: 2) })
    #expect(abs(night.value - 55) < 0.5)
    #expect(DerivedMetrics(beats: Self.days.beats, measured: measured.map { _ in false }).heartRate().isEmpty)
  }

  @Test func derivedSamplesAggregateByDay() throws {
    let samples = metrics.stepCount() + metrics.restingHeartRate()
    let days = IntervalCollection(calendarDaysIn: utc, covering: at(day: 0, hour: 0)..<at(day: 2, hour: 0))
    let steps = try StatisticsQuery(type: .stepCount, intervals: days).run(samples).merged
    let half = Double(Self.days.steps.count / 2)
    let expected: [Double?] = [half, half]
    #expect(steps.allStatistics.map(\.sum) == expected)
    let resting = try StatisticsQuery(type: .restingHeartRate, intervals: days).run(samples).merged
    #expect(resting.allStatistics.map(\.sampleCount) == [1, 1])
  }
}
