import Foundation
import Vitals

/// Steps, their feet and the bouts' asymmetry for three axes given as chunks, the detector and the foot
/// tracker fed the same chunks.
func trackFeet(
  chunks: some Sequence<SignalChunk>, axes: (Int, Int, Int), rate: Double,
  detector configuration: StepDetector.Configuration, tracker: StepFootTracker.Configuration
) throws -> StepFootTracker.Output {
  var detector = try StepDetector(sampleRate: rate, configuration: configuration)
  var feet = try StepFootTracker(sampleRate: rate, configuration: tracker)
  var detected = StepDetector.Output()
  var output = StepFootTracker.Output()
  for chunk in chunks {
    feet.process(chunk, axes: axes, detector: &detector, detected: &detected, into: &output)
  }
  feet.finish(detector: &detector, detected: &detected, into: &output)
  return output
}

/// How well the feet of detected steps agree with the feet of the steps they pair with (within ±0.5 s),
/// and the asymmetry the tracker reports.
struct FootScore {
  var name: String
  /// Detected steps paired with a reference step, and those of them with a foot.
  var paired = 0
  var footed = 0
  /// Footed pairs whose foot agrees, under the better of the two ways of naming the feet (one for the
  /// whole recording: the acceleration does not tell which foot is left).
  var agreeing = 0
  /// The tracker's asymmetric pairs and pairs over all bouts.
  var asymmetricPairs = 0
  var pairs = 0
  /// The same from the reference steps (their times and feet), when known.
  var referenceAsymmetry: Double?

  var agreement: Double { footed > 0 ? Double(agreeing) / Double(footed) : .nan }
  var coverage: Double { paired > 0 ? Double(footed) / Double(paired) : .nan }
  var asymmetry: Double { pairs > 0 ? 100 * Double(asymmetricPairs) / Double(pairs) : .nan }

  /// Scores `output` against reference steps (sample indices, increasing) whose feet are `isLeft` (nil:
  /// asymmetry only).
  init(
    name: String, output: StepFootTracker.Output, reference: [Int64], isLeft: [Bool]?, rate: Double,
    tolerance: Double
  ) {
    self.name = name
    for bout in output.bouts {
      pairs += bout.pairs
      asymmetricPairs += bout.asymmetricPairs
    }
    guard let isLeft else { return }
    let window = Int64((ClemsonTrial.matchWindow * rate).rounded(.down))
    let detected = output.steps.map(\.step.sampleIndex)
    var same = 0
    for pair in BeatMatching(reference: reference, test: detected, window: window).pairs {
      paired += 1
      guard let foot = output.steps[pair.test].foot else { continue }
      footed += 1
      if (foot == .first) == isLeft[pair.reference] { same += 1 }
    }
    agreeing = max(same, footed - same)
    referenceAsymmetry = Self.asymmetry(times: reference, isLeft: isLeft, rate: rate, tolerance: tolerance)
  }

  /// The asymmetry percentage of reference steps (``StepFootTracker/asymmetry(strikes:feet:tolerance:)``
  /// over each run of steps at most 1.5 s apart).
  static func asymmetry(times: [Int64], isLeft: [Bool], rate: Double, tolerance: Double) -> Double {
    var pairs = 0
    var asymmetric = 0
    var runStart = 0
    for end in Array(times.indices.dropFirst()) + [times.count]
    where end == times.count || Double(times[end] - times[end - 1]) > 1.5 * rate {
      let counts = StepFootTracker.asymmetry(
        strikes: times[runStart..<end].map(Double.init),
        feet: isLeft[runStart..<end].map { $0 ? .first : .second }, tolerance: tolerance)
      pairs += counts.pairs
      asymmetric += counts.asymmetric
      runStart = end
    }
    return pairs > 0 ? 100 * Double(asymmetric) / Double(pairs) : .nan
  }
}

extension ClemsonTrial {
  /// The trial's feet and asymmetry at each placement.
  func feet(
    body: StepDetector.Configuration, wrist: StepDetector.Configuration,
    tracker: StepFootTracker.Configuration
  )
    throws -> [FootScore]
  {
    try Self.placements.indices.map { placement in
      var reader = try RecordingOpener.open(
        path: path,
        options: RecordingOptions(
          csv: CSVOptions(delimiter: 0x20, hasHeader: false, sampleRate: Self.sampleRate)))
      var chunks: [SignalChunk] = []
      while let next = try reader.nextChunk(maxSamples: SignalChunk.defaultSampleCount) {
        chunks.append(next)
      }
      let output = try trackFeet(
        chunks: chunks, axes: (3 * placement, 3 * placement + 1, 3 * placement + 2), rate: Self.sampleRate,
        detector: Self.placements[placement] == "wrist" ? wrist : body, tracker: tracker)
      return FootScore(
        name: name + " " + Self.placements[placement], output: output, reference: steps, isLeft: stepIsLeft,
        rate: Self.sampleRate, tolerance: tracker.asymmetryTolerance)
    }
  }
}

/// Simulated walks of 3 minutes at 110 steps per minute and 100 Hz at every placement, symmetric and
/// limping (the feet's step times differing by `asymmetry`): the feet against the simulated strikes
/// (alternating) and the asymmetry found.
func simulatedFeet(
  asymmetry: Double, body: StepDetector.Configuration, wrist: StepDetector.Configuration,
  tracker: StepFootTracker.Configuration
) throws -> [FootScore] {
  let rate = 100.0
  return try Placement.allCases.enumerated().map { p, placement in
    var configuration = AccelerometerConfiguration(activity: .walking, placement: placement)
    configuration.stepTimeAsymmetry = asymmetry
    var simulator = AccelerometerSimulator(
      configuration: configuration, duration: 180, sampleRate: rate, seed: UInt64(500 + p))
    let recording = simulator.generateAll()
    let strikes = recording.events.filter { $0.label == .step }.map(\.sampleIndex)
    let chunk = SignalChunk(
      channels: recording.channels, sampleRate: rate, startTime: .epoch, firstSampleIndex: 0)
    let output = try trackFeet(
      chunks: [chunk], axes: (0, 1, 2), rate: rate, detector: placement == .wrist ? wrist : body,
      tracker: tracker)
    return FootScore(
      name: placement.rawValue, output: output, reference: strikes,
      isLeft: strikes.indices.map { $0 % 2 == 0 }, rate: rate, tolerance: tracker.asymmetryTolerance)
  }
}

/// Prints the feet and asymmetry tables: Clemson, simulated walks and the Oxford walks' asymmetry.
func printFeet(
  clemson: [FootScore], simulated: [(Double, [FootScore])], oxford: [FootScore]
) {
  if !clemson.isEmpty {
    print(
      "\nfeet at the Clemson placements: detected steps paired with marked ones (±0.5 s), the share with a")
    print("foot, and the share whose foot agrees with the mark (feet named once per recording)")
    print("trial         placement paired  footed  agree %  asymmetry % (marks)")
    for score in clemson {
      let parts = score.name.split(separator: " ")
      print(
        pad(String(parts[0]), 14) + pad(String(parts[1]), 10)
          + String(
            format: "%6d %6.1f %% %7.1f %10.1f (%5.1f)", score.paired, 100 * score.coverage,
            100 * score.agreement, score.asymmetry, score.referenceAsymmetry ?? .nan))
    }
  }
  print("\nsimulated walks, 3 min at 110 steps/min, 100 Hz: feet against the strikes, asymmetry found")
  print("placement    " + simulated.map { String(format: "agree %% (a=%.2f)  asym %%  ", $0.0) }.joined())
  for row in simulated[0].1.indices {
    print(
      pad(simulated[0].1[row].name, 13)
        + simulated.map { String(format: "%15.1f %8.1f   ", 100 * $0.1[row].agreement, $0.1[row].asymmetry) }
        .joined())
  }
  if !oxford.isEmpty {
    print("\nOxford walks (healthy walkers): asymmetry found per walk")
    print(
      oxford.map { pad($0.name, 20) + String(format: "%6.1f %% of %d pairs", $0.asymmetry, $0.pairs) }
        .joined(separator: "\n"))
  }
}

/// Leave one Clemson trial out for the foot tracker's alternation weight: each held-out trial's feet
/// (its three placements) are named with the weight whose agreement over the other two trials'
/// placements is highest. Prints, per trial, the held-out agreement beside the defaults' and the best
/// all-data weight's.
func crossValidateFeet(
  body: StepDetector.Configuration, wrist: StepDetector.Configuration, base: StepFootTracker.Configuration
)
  throws
{
  guard !clemsonTrials.isEmpty else { return }
  let weights = [0.0, 0.5, 1, 2, 4, 8]
  let scores = try weights.map { weight in
    var configuration = base
    configuration.alternationWeight = weight
    return try clemsonTrials.map { try $0.feet(body: body, wrist: wrist, tracker: configuration) }
  }
  /// The agreement of the trials `kept` under weight `w`: footed pairs that agree over all footed pairs.
  func agreement(_ w: Int, _ kept: [Int]) -> Double {
    let pooled = kept.flatMap { scores[w][$0] }
    return Double(pooled.map(\.agreeing).reduce(0, +)) / Double(max(1, pooled.map(\.footed).reduce(0, +)))
  }
  let all = Array(clemsonTrials.indices)
  let best = weights.indices.max { agreement($0, all) < agreement($1, all) }!
  let defaults = weights.firstIndex(of: base.alternationWeight)
  // The weight chosen for each held-out trial, and its scores there.
  let chosen = all.map { held in
    let others = all.filter { $0 != held }
    return weights.indices.max { agreement($0, others) < agreement($1, others) }!
  }
  let heldOut = all.flatMap { scores[chosen[$0]][$0] }
  print(
    "\nfeet: leave one Clemson trial out over alternationWeight \(weights.map { String(format: "%g", $0) })")
  print("trial         defaults agree %  CV agree %  best-all agree %  chosen")
  for held in all {
    print(
      pad(clemsonTrials[held].name, 14)
        + String(
          format: "%17.1f %11.1f %17.1f  %g", defaults.map { 100 * agreement($0, [held]) } ?? .nan,
          100 * agreement(chosen[held], [held]), 100 * agreement(best, [held]), weights[chosen[held]]))
  }
  print(
    String(
      format: "all trials: defaults %.1f %%, CV %.1f %%, best all-data %.1f %% (weight %g; default %g)",
      defaults.map { 100 * agreement($0, all) } ?? .nan,
      100 * Double(heldOut.map(\.agreeing).reduce(0, +)) / Double(max(1, heldOut.map(\.footed).reduce(0, +))),
      100 * agreement(best, all), weights[best], base.alternationWeight))
}
