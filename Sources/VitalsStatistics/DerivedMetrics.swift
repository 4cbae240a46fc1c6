import VitalsCore
import VitalsSupport

/// A span of one activity, such as a walking bout.
public struct ActivityInterval: Hashable, Sendable, Codable {
  /// When the activity starts.
  public var start: Timestamp
  /// When it ends (not before ``start``).
  public var end: Timestamp

  /// The activity over `[start, end]`.
  public init(start: Timestamp, end: Timestamp) {
    precondition(start <= end, "an activity cannot end before it starts")
    self.start = start
    self.end = end
  }
}

/// How much the wearer moves at an instant (for example the RMS of the accelerometer magnitude minus
/// 1 g over the last second, in g); any unit, as long as ``DerivedMetrics/Parameters/motionThreshold``
/// is in the same one.
public struct MotionLevel: Hashable, Sendable, Codable {
  /// When the level was measured.
  public var time: Timestamp
  /// The level (NaN counts as moving).
  public var level: Double

  /// A level at an instant.
  public init(time: Timestamp, level: Double) {
    self.time = time
    self.level = level
  }
}

/// A windowed heart-rate estimate at an instant (for example a reliable window of PPG spectral tracking,
/// at the window's end).
public struct RateReading: Hashable, Sendable, Codable {
  /// When the estimate was made.
  public var time: Timestamp
  /// The heart rate, beats per minute.
  public var beatsPerMinute: Double

  /// A reading at an instant.
  public init(time: Timestamp, beatsPerMinute: Double) {
    self.time = time
    self.beatsPerMinute = beatsPerMinute
  }
}

/// The metrics HealthKit derives from a wearable's signals, computed from detected events: heart rate,
/// HRV SDNN, resting and walking heart rate, step counts, high and low heart-rate events and
/// irregular-rhythm events.
///
/// Definitions. Times are bucketed into whole minutes since the epoch (minute `m` is
/// `[60 m, 60 m + 60)` s; local minutes in every zone with whole-minute offsets) and into calendar
/// days of ``Parameters/timeZone``.
/// - **Intervals**: the interval between consecutive beats `k − 1` and `k` counts when both beats are
///   normal and it was measured (when flags are given) and it lasts 0.3–2 s (30–200 beats per minute); it
///   belongs to the time of beat `k`. The heart rate of a set of intervals is `60 · n / Σ RR` beats per
///   minute (the reciprocal of the mean interval).
/// - ``heartRate()``: one `heartRate` sample per window of ``Parameters/heartRateWindow`` seconds
///   (aligned to the epoch) holding at least ``Parameters/minimumIntervals`` intervals, spanning the
///   window; with rate readings, the mean of the readings of each window holding at least
///   ``Parameters/minimumIntervals`` of them (even when there are none).
/// - ``heartRateVariability()``: one `heartRateVariabilitySDNN` sample (ms) per window of
///   ``Parameters/hrvWindow`` seconds holding at least ``Parameters/minimumHRVIntervals`` intervals:
///   the SDNN (sample standard deviation, `ddof = 1`, as `HRVTimeDomain/sdnn`) of the window's
///   NN intervals (Task Force of the ESC and NASPE 1996; Apple records SDNN over about a minute).
/// - A minute is **quiet** when it holds no step and, when motion levels are given, at least one level
///   and none above ``Parameters/motionThreshold``.
/// - ``restingHeartRate()``: per calendar day, the lowest heart rate of any
///   ``Parameters/restingWindowMinutes`` consecutive quiet minutes (default 5) whose intervals cover at
///   least 80 % of the window, windows taken by their first minute's day; one `restingHeartRate`
///   sample spanning the day.
/// - ``walkingHeartRateAverage()``: per calendar day, the heart rate of the intervals whose closing
///   beat lies in a walking interval, when they add up to at least ``Parameters/minimumWalkingSeconds``;
///   one `walkingHeartRateAverage` sample spanning the day.
/// - ``stepCount()``: one `stepCount` sample per minute holding steps, spanning the minute.
/// - With ``Parameters/height``: ``walkingGait()`` (step length and speed per walking bout, by
///   ``StepLengthModel`` at the bout's cadence) and ``distanceWalkingRunning()`` (per minute).
/// - ``heartRateEvents()``: a `highHeartRateEvent` (`lowHeartRateEvent`) for every run of consecutive
///   quiet minutes, each with intervals covering at least half the minute and a heart rate above
///   ``Parameters/highHeartRate`` (below ``Parameters/lowHeartRate``), lasting at least
///   ``Parameters/eventMinutes`` minutes (Apple's high and low heart-rate notifications: above 120 or
///   below 40 beats per minute for 10 minutes while inactive). The event spans the run.
///
/// Cost: the initializer tallies the intervals, steps and motion levels per minute once (a table from the
/// first event to the last), which resting heart rate and heart-rate events share.
public struct DerivedMetrics: Sendable {
  /// Thresholds and windows of the metrics.
  public struct Parameters: Sendable, Hashable {
    /// The zone of calendar days (resting and walking heart rate).
    public var timeZone = TimeZoneRules.utc
    /// Length of a heart-rate window, seconds.
    public var heartRateWindow = 60.0
    /// Fewest intervals (or rate readings, when given) for a heart-rate sample.
    public var minimumIntervals = 5
    /// Length of an HRV window, seconds.
    public var hrvWindow = 60.0
    /// Fewest intervals for an SDNN sample.
    public var minimumHRVIntervals = 30
    /// Highest motion level of a quiet minute (same unit as ``MotionLevel/level``).
    public var motionThreshold = 0.05
    /// Minutes of a resting-heart-rate window.
    public var restingWindowMinutes = 5
    /// Fewest seconds of walking intervals for a day's walking heart rate.
    public var minimumWalkingSeconds = 60.0
    /// Heart rate above which quiet minutes count towards a high-heart-rate event, beats per minute.
    public var highHeartRate = 120.0
    /// Heart rate below which quiet minutes count towards a low-heart-rate event, beats per minute.
    public var lowHeartRate = 40.0
    /// Fewest consecutive minutes of an event.
    public var eventMinutes = 10
    /// The walker's height, m (within ``StepLengthModel/heights``): with it, walking bouts get
    /// `walkingStepLength` and `walkingSpeed` samples and their steps `distanceWalkingRunning`
    /// (``StepLengthModel``); without it, none.
    public var height: Double?
    /// Fewest steps of a walking bout for its `walkingStepLength`, `walkingSpeed` and
    /// `walkingAsymmetryPercentage` samples.
    public var minimumGaitSteps = 10
    /// Whether walking bouts get `walkingAsymmetryPercentage` samples (from the recording's step feet,
    /// VitalsAnalysis' `StepFootTracker`): only for a device at the trunk (a belt or the lower back),
    /// where the step peaks time both feet's heel strikes alike; in a trouser pocket the device times its
    /// own leg's steps differently from the other's.
    public var walkingAsymmetry = false
    /// The source name samples carry.
    public var source = "Vitals"
    /// The device description samples carry.
    public var device: String?

    /// The defaults above (Apple's thresholds: 120 and 40 beats per minute for 10 minutes).
    public init() {}
  }

  /// The windows and thresholds in use.
  public var parameters: Parameters
  /// Interval lengths (s) and the times of their closing beats (ns), in time order.
  private let intervals: [(time: Int64, seconds: Double)]
  /// Rate readings (ns, beats per minute), in time order; when given, the heart-rate samples' source.
  private let rates: [(time: Int64, beatsPerMinute: Double)]?
  private let steps: [Int64]
  private let walking: [ActivityInterval]
  /// The intervals, steps and motion levels per minute, for resting heart rate and heart-rate events.
  private let minutes: Minutes

  /// Metrics of the given events.
  ///
  /// - Parameters:
  ///   - beats: beat times, strictly increasing.
  ///   - normal: per beat, whether it is normal (sinus); `nil` takes every beat as normal.
  ///   - measured: per beat `k`, whether the time since beat `k − 1` was measured (no gap or unusable
  ///     signal in it); `nil` takes every interval as measured. An interval counts when both its beats are
  ///     normal and it was measured.
  ///   - rates: windowed heart-rate readings, for the `heartRate` samples in place of the beats (the
  ///     reliable windows of PPG spectral tracking, where pulse intervals during motion are not to be
  ///     trusted), even when empty; nil to use the beats.
  ///   - steps: step times.
  ///   - walking: walking bouts.
  ///   - motion: motion levels; empty when unknown (then only steps decide whether a minute is quiet).
  public init(
    beats: [Timestamp], normal: [Bool]? = nil, measured: [Bool]? = nil, rates: [RateReading]? = nil,
    steps: [Timestamp] = [], walking: [ActivityInterval] = [], motion: [MotionLevel] = [],
    parameters: Parameters = Parameters()
  ) {
    precondition(normal == nil || normal!.count == beats.count, "one normal flag per beat")
    precondition(measured == nil || measured!.count == beats.count, "one measured flag per beat")
    precondition(
      beats.indices.dropFirst().allSatisfy { beats[$0 - 1] < beats[$0] }, "beats must be strictly increasing")
    var intervals: [(Int64, Double)] = []
    intervals.reserveCapacity(beats.count)
    for k in beats.indices.dropFirst()
    where (normal.map { $0[k - 1] && $0[k] } ?? true) && (measured.map { $0[k] } ?? true) {
      let rr = beats[k - 1].seconds(to: beats[k])
      if Self.beatInterval.contains(rr) { intervals.append((beats[k].nanosecondsSinceEpoch, rr)) }
    }
    self.intervals = intervals
    self.rates = rates.map { readings in
      readings.map { ($0.time.nanosecondsSinceEpoch, $0.beatsPerMinute) }.sorted { $0.time < $1.time }
    }
    self.steps = steps.map(\.nanosecondsSinceEpoch).sorted()
    self.walking = walking
    self.minutes = Minutes(intervals: intervals, steps: self.steps, motion: motion)
    self.parameters = parameters
  }

  /// The lengths of the beat-to-beat intervals that count, seconds (30–200 beats per minute).
  public static let beatInterval = 0.3...2.0

  /// A minute, in nanoseconds.
  fileprivate static let minute: Int64 = 60_000_000_000

  private func sample(_ type: QuantityType, _ value: Double, _ start: Int64, _ end: Int64) -> QuantitySample {
    QuantitySample(
      type: type, value: value, unit: type.canonicalUnit!, start: Timestamp(nanosecondsSinceEpoch: start),
      end: Timestamp(nanosecondsSinceEpoch: end), source: parameters.source, device: parameters.device)
  }

  /// The `count` times `time(0..<count)` (in time order, ns) grouped by windows of `length` ns aligned
  /// to the epoch: (window index, range of positions), in time order, non-empty windows only.
  private static func windows(
    count: Int, _ length: Int64, time: (Int) -> Int64
  ) -> [(index: Int64, range: Range<Int>)] {
    var result: [(Int64, Range<Int>)] = []
    var first = 0
    while first < count {
      let index = floorDivide(time(first), length)
      var last = first
      while last < count && floorDivide(time(last), length) == index { last += 1 }
      result.append((index, first..<last))
      first = last
    }
    return result
  }

  /// The intervals grouped by windows of `length` ns aligned to the epoch: (window index, range of
  /// `intervals`), in time order, non-empty windows only.
  private func windows(_ length: Int64) -> [(index: Int64, range: Range<Int>)] {
    Self.windows(count: intervals.count, length) { intervals[$0].time }
  }

  /// `heartRate` samples, one per window with enough intervals (or rate readings, when given).
  public func heartRate() -> [QuantitySample] {
    let length = Int64((parameters.heartRateWindow * 1e9).rounded())
    if let rates {
      return Self.windows(count: rates.count, length) { rates[$0].time }.compactMap { index, range in
        guard range.count >= parameters.minimumIntervals else { return nil }
        let total = rates[range].reduce(0) { $0 + $1.beatsPerMinute }
        return sample(.heartRate, total / Double(range.count), index * length, (index + 1) * length)
      }
    }
    return windows(length).compactMap { index, range in
      guard range.count >= parameters.minimumIntervals else { return nil }
      let total = intervals[range].reduce(0) { $0 + $1.seconds }
      return sample(.heartRate, 60 * Double(range.count) / total, index * length, (index + 1) * length)
    }
  }

  /// `heartRateVariabilitySDNN` samples (ms), one per window with enough intervals.
  public func heartRateVariability() -> [QuantitySample] {
    let length = Int64((parameters.hrvWindow * 1e9).rounded())
    return windows(length).compactMap { index, range in
      guard range.count >= parameters.minimumHRVIntervals else { return nil }
      let sdnn = DescriptiveStatistics.standardDeviation(intervals[range].map { $0.seconds * 1000 }, ddof: 1)
      return sample(.heartRateVariabilitySDNN, sdnn, index * length, (index + 1) * length)
    }
  }

  /// `stepCount` samples, one per minute holding steps.
  public func stepCount() -> [QuantitySample] {
    Self.windows(count: steps.count, Self.minute) { steps[$0] }.map { minute, range in
      sample(.stepCount, Double(range.count), minute * Self.minute, (minute + 1) * Self.minute)
    }
  }

  /// The walking intervals with at least two steps and a duration, in time order: the positions of their
  /// steps in `steps`, their cadence (steps per minute) and their step length (m) at the walker's height;
  /// empty without a height.
  private func gaitBouts() -> [(
    bout: ActivityInterval, steps: Range<Int>, cadence: Double, stepLength: Double
  )] {
    guard let height = parameters.height else { return [] }
    var result: [(ActivityInterval, Range<Int>, Double, Double)] = []
    var first = 0
    for bout in walking.sorted(by: { $0.start < $1.start }) {
      let start = bout.start.nanosecondsSinceEpoch
      let end = bout.end.nanosecondsSinceEpoch
      while first < steps.count && steps[first] < start { first += 1 }
      var last = first
      while last < steps.count && steps[last] <= end { last += 1 }
      let range = first..<last
      let seconds = Double(end - start) / 1e9
      guard range.count >= 2, seconds > 0 else { continue }
      let cadence = 60 * Double(range.count - 1) / seconds
      result.append((bout, range, cadence, StepLengthModel.stepLength(height: height, cadence: cadence)))
    }
    return result
  }

  /// `walkingStepLength` (m) and `walkingSpeed` (m/s) samples, in time order: one of each per walking bout
  /// of at least ``Parameters/minimumGaitSteps`` steps, spanning the bout; none without a height. A bout's
  /// steps are those within it, its cadence `60 · (n − 1) / duration` steps per minute, its step length
  /// ``StepLengthModel``'s at that cadence, and its speed the step length times the cadence over 60.
  public func walkingGait() -> [QuantitySample] {
    gaitBouts().filter { $0.steps.count >= parameters.minimumGaitSteps }.flatMap { bout, _, cadence, length in
      let start = bout.start.nanosecondsSinceEpoch
      let end = bout.end.nanosecondsSinceEpoch
      return [
        sample(.walkingStepLength, length, start, end),
        sample(.walkingSpeed, length * cadence / 60, start, end),
      ]
    }
  }

  /// `distanceWalkingRunning` samples (m), one per minute holding steps of a walking bout: the sum of their
  /// bouts' step lengths; none without a height.
  public func distanceWalkingRunning() -> [QuantitySample] {
    var meters: [Int64: Double] = [:]
    for (_, range, _, length) in gaitBouts() {
      for step in steps[range] { meters[floorDivide(step, Self.minute), default: 0] += length }
    }
    return meters.keys.sorted().map { minute in
      sample(.distanceWalkingRunning, meters[minute]!, minute * Self.minute, (minute + 1) * Self.minute)
    }
  }

  /// Per minute from the first to the last event (interval, step or motion level): the intervals' count
  /// and total length, whether a step falls in it, and its highest motion level. Built once, when the
  /// metrics are made; whether a minute is quiet depends on ``Parameters/motionThreshold`` and is decided
  /// when asked (``isQuiet(_:threshold:)``).
  private struct Minutes {
    var first: Int64 = 0
    var count: [Int] = []
    var seconds: [Double] = []
    var stepped: [Bool] = []
    /// The highest motion level of each minute: nil without a level, NaN when a level is NaN.
    var loudest: [Double?] = []
    /// Whether motion levels were given at all (then a minute without one is not quiet).
    var levelsKnown = false

    init(intervals: [(time: Int64, seconds: Double)], steps: [Int64], motion: [MotionLevel]) {
      let times = intervals.map(\.time) + steps + motion.map(\.time.nanosecondsSinceEpoch)
      guard let low = times.min(), let high = times.max() else { return }
      first = floorDivide(low, DerivedMetrics.minute)
      let n = Int(floorDivide(high, DerivedMetrics.minute) - first + 1)
      count = Array(repeating: 0, count: n)
      seconds = Array(repeating: 0, count: n)
      stepped = Array(repeating: false, count: n)
      loudest = Array(repeating: nil, count: n)
      levelsKnown = !motion.isEmpty
      for interval in intervals {
        let m = index(interval.time)
        count[m] += 1
        seconds[m] += interval.seconds
      }
      for step in steps { stepped[index(step)] = true }
      for level in motion {
        let m = index(level.time.nanosecondsSinceEpoch)
        loudest[m] =
          loudest[m].map { $0.isNaN || level.level.isNaN ? .nan : max($0, level.level) } ?? level.level
      }
    }

    /// The position of the minute holding `time` (ns).
    private func index(_ time: Int64) -> Int { Int(floorDivide(time, DerivedMetrics.minute) - first) }

    /// Whether minute `m` is quiet: no step and, when motion levels are known, at least one level and
    /// none above `threshold` (a NaN level counts as moving).
    func isQuiet(_ m: Int, threshold: Double) -> Bool {
      guard !stepped[m] else { return false }
      guard levelsKnown else { return true }
      return loudest[m].map { $0 <= threshold } ?? false
    }

    /// Heart rate of minutes `range` (positions), or `nil` when intervals cover less than `coverage`
    /// of them.
    func heartRate(_ range: Range<Int>, coverage: Double) -> Double? {
      let n = range.reduce(0) { $0 + count[$1] }
      let total = range.reduce(0.0) { $0 + seconds[$1] }
      guard n > 0, total >= coverage * 60 * Double(range.count) else { return nil }
      return 60 * Double(n) / total
    }
  }

  /// Calendar days of ``Parameters/timeZone`` covering `low...high` (ns).
  private func days(_ low: Int64, _ high: Int64) -> IntervalCollection {
    IntervalCollection(
      calendarDaysIn: parameters.timeZone,
      covering: Timestamp(nanosecondsSinceEpoch: low)..<Timestamp(nanosecondsSinceEpoch: high + 1))
  }

  /// `restingHeartRate` samples, one per day with a quiet window.
  public func restingHeartRate() -> [QuantitySample] {
    let width = parameters.restingWindowMinutes
    guard minutes.count.count >= width else { return [] }
    let days = days(minutes.first * Self.minute, (minutes.first + Int64(minutes.count.count)) * Self.minute)
    var lowest = [Int: Double]()
    var run = 0
    for m in minutes.count.indices {
      run = minutes.isQuiet(m, threshold: parameters.motionThreshold) ? run + 1 : 0
      guard run >= width, let rate = minutes.heartRate((m + 1 - width)..<(m + 1), coverage: 0.8) else {
        continue
      }
      let start = (minutes.first + Int64(m + 1 - width)) * Self.minute
      guard let day = days.index(of: start) else { continue }
      lowest[day] = min(lowest[day] ?? .infinity, rate)
    }
    return lowest.keys.sorted().map { day in
      sample(
        .restingHeartRate, lowest[day]!, days.boundary(day).nanosecondsSinceEpoch,
        days.boundary(day + 1).nanosecondsSinceEpoch)
    }
  }

  /// `walkingHeartRateAverage` samples, one per day with enough walking.
  public func walkingHeartRateAverage() -> [QuantitySample] {
    guard let first = intervals.first, let last = intervals.last else { return [] }
    let days = days(first.time, last.time)
    let bouts = walking.sorted { $0.start < $1.start }
    var totals = [Int: (count: Int, seconds: Double)]()
    var b = 0
    for interval in intervals {
      while b < bouts.count && bouts[b].end.nanosecondsSinceEpoch < interval.time { b += 1 }
      guard b < bouts.count, bouts[b].start.nanosecondsSinceEpoch <= interval.time,
        let day = days.index(of: interval.time)
      else { continue }
      totals[day, default: (0, 0)].count += 1
      totals[day, default: (0, 0)].seconds += interval.seconds
    }
    return totals.keys.sorted().compactMap { day in
      let total = totals[day]!
      guard total.seconds >= parameters.minimumWalkingSeconds else { return nil }
      return sample(
        .walkingHeartRateAverage, 60 * Double(total.count) / total.seconds,
        days.boundary(day).nanosecondsSinceEpoch,
        days.boundary(day + 1).nanosecondsSinceEpoch)
    }
  }

  /// `highHeartRateEvent` and `lowHeartRateEvent` samples, in time order.
  public func heartRateEvents() -> [CategorySample] {
    var events: [CategorySample] = []
    for (type, test) in [
      (CategoryType.highHeartRateEvent, { (rate: Double) in rate > parameters.highHeartRate }),
      (.lowHeartRateEvent, { (rate: Double) in rate < parameters.lowHeartRate }),
    ] {
      var runStart: Int?
      for m in 0...minutes.count.count {
        let inRun =
          m < minutes.count.count && minutes.isQuiet(m, threshold: parameters.motionThreshold)
          && minutes.heartRate(m..<(m + 1), coverage: 0.5).map(test) == true
        if inRun {
          if runStart == nil { runStart = m }
        } else if let start = runStart {
          if m - start >= parameters.eventMinutes {
            events.append(
              CategorySample(
                type: type,
                start: Timestamp(nanosecondsSinceEpoch: (minutes.first + Int64(start)) * Self.minute),
                end: Timestamp(nanosecondsSinceEpoch: (minutes.first + Int64(m)) * Self.minute),
                source: parameters.source,
                device: parameters.device))
          }
          runStart = nil
        }
      }
    }
    return events.sorted { $0.start < $1.start }
  }
}

extension IntervalCollection {
  /// Calendar days of `timeZone` (anchored at a local midnight) from the day holding
  /// `range.lowerBound` to the day holding the last instant of `range`.
  public init(calendarDaysIn timeZone: TimeZoneRules, covering range: Range<Timestamp>) {
    self.init(
      length: .days(1), anchor: timeZone.startOfDay(containing: range.lowerBound), timeZone: timeZone,
      covering: range)
  }
}
