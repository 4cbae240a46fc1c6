import ArgumentParser
import Vitals

/// The options of `vitals analyze` checked and turned into the library's parameters.
extension Analyze {
  public func validate() throws {
    if inputs.isEmpty { throw ValidationError("give at least one INPUT recording, folder or pattern") }
    try checkOption("--jobs", jobs, in: OptionRange.jobs)
    if let accel = input.accel, !(1...3).contains(ChannelSelector.list(accel).count) {
      throw ValidationError("--accel takes one to three channels")
    }
    if force && out == nil { throw ValidationError("--force goes with --out") }
    try checkOption("--low-heart-rate", lowHeartRate, in: OptionRange.heartRate, unit: "bpm")
    try checkOption("--high-heart-rate", highHeartRate, in: OptionRange.heartRate, unit: "bpm")
    guard lowHeartRate < highHeartRate else {
      throw ValidationError(
        "--low-heart-rate (\(optionNumber(lowHeartRate))) must be below --high-heart-rate (\(optionNumber(highHeartRate)))"
      )
    }
    try checkOption("--event-minutes", eventMinutes, in: OptionRange.eventMinutes)
    if let height { try checkOption("--height", height, in: StepLengthModel.heights, unit: "m") }
    if shard != nil && shardNumbers == nil {
      throw ValidationError(
        "--shard must be I/N with 1 ≤ I ≤ N ≤ \(OptionRange.shards.upperBound), got '\(shard!)'")
    }
  }

  /// --shard as (I, N), or nil when absent or malformed.
  var shardNumbers: (index: Int, count: Int)? {
    guard let parts = shard?.split(separator: "/", omittingEmptySubsequences: false), parts.count == 2,
      let index = Int(parts[0]), let count = Int(parts[1]), OptionRange.shards.contains(count),
      (1...count).contains(index)
    else { return nil }
    return (index, count)
  }

  /// The derived samples' parameters for these arguments (--timezone, the event thresholds, --height,
  /// --walking-asymmetry).
  public var derivedParameters: DerivedMetrics.Parameters {
    var parameters = DerivedMetrics.Parameters()
    parameters.timeZone = timezone
    parameters.highHeartRate = highHeartRate
    parameters.lowHeartRate = lowHeartRate
    parameters.eventMinutes = eventMinutes
    parameters.height = height
    parameters.walkingAsymmetry = walkingAsymmetry
    return parameters
  }

  /// The library's analysis options for these arguments: the standard pipelines, the step detector's set
  /// for --placement, the channels of --ecg, --ppg, --accel and the input options.
  public var analysisOptions: AnalysisOptions {
    var registry = PipelineRegistry.standard
    var accelerometer = AccelerometerPipeline.Configuration()
    accelerometer.steps = StepDetector.Configuration(placement: placement)
    registry.register(.accelerometer) { [accelerometer] context throws(PipelineUnavailable) in
      try AccelerometerPipeline(context: context, configuration: accelerometer)
    }
    return AnalysisOptions(
      recording: input.recordingOptions,
      overrides: ChannelRoles.Overrides(
        ecg: ecg.map(ChannelSelector.list), ppg: ppg.map(ChannelSelector.list),
        accelerometer: input.accel.map(ChannelSelector.list)),
      registry: registry)
  }
}
