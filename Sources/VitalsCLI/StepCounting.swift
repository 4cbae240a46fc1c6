import Vitals

/// The steps and bouts the step detector finds in three acceleration axes, as `vitals steps` counts
/// them: of a recording file, or of axes in memory.
public struct StepCounting {
  /// Samples per second of the axes.
  public var sampleRate: Double
  /// Record sample indices and times of the steps, and the bouts.
  public var output: StepDetector.Output

  /// Reads the recording at `path` and counts its steps on the axes ``ChannelRoles`` recognizes (with a
  /// channel selection in `options`: its three channels). Throws ``InputError`` for unreadable input,
  /// unless three axes are recognized, and for a rate the detector does not support.
  init(
    path: String, options: RecordingOptions, unit: StepDetector.InputUnit,
    placement: StepDetector.Placement = .body, chunkSize: Int = SignalChunk.defaultSampleCount
  ) throws(InputError) {
    var reader = try RecordingOpener.open(path: path, options: options)
    var axes = [0, 1, 2]
    if options.channels == nil {
      axes = try ChannelRoles(signals: reader.signals, path: path).accelerometer
      guard axes.count == 3 else {
        throw InputError(
          path: path,
          "step counting needs three acceleration axes, found \(axes.count) among \(reader.signals.count) signal(s); "
            + "name them acc_x, acc_y, acc_z or give --channel x,y,z")
      }
    }
    var detector: StepDetector
    do {
      detector = try Self.detector(
        sampleRate: reader.chunkSampleRate, startTime: reader.startTime ?? .epoch, unit: unit,
        placement: placement)
    } catch {
      throw InputError(path: path, error.description)
    }
    var output = StepDetector.Output()
    while let chunk = try reader.nextChunk(maxSamples: chunkSize) {
      detector.process(chunk, axes: (axes[0], axes[1], axes[2]), into: &output)
    }
    detector.finish(into: &output)
    self.sampleRate = reader.chunkSampleRate
    self.output = output
  }

  /// Counts the steps in the axes `x`, `y` and `z` (equally long, at `sampleRate` Hz, in `unit`), sample
  /// indices counted from their first sample. Throws `StepDetectorError` for a rate the detector does
  /// not support.
  public init(
    x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, z: UnsafeBufferPointer<Float>,
    sampleRate: Double, unit: StepDetector.InputUnit, placement: StepDetector.Placement
  ) throws(StepDetectorError) {
    var detector = try Self.detector(
      sampleRate: sampleRate, startTime: .epoch, unit: unit, placement: placement)
    var output = StepDetector.Output()
    detector.process(x: x, y: y, z: z, into: &output)
    detector.finish(into: &output)
    self.sampleRate = sampleRate
    self.output = output
  }

  /// The step detector of `vitals steps` for `placement` and `unit`.
  private static func detector(
    sampleRate: Double, startTime: Timestamp, unit: StepDetector.InputUnit, placement: StepDetector.Placement
  ) throws(StepDetectorError) -> StepDetector {
    var configuration = StepDetector.Configuration(placement: placement)
    configuration.unit = unit
    return try StepDetector(sampleRate: sampleRate, startTime: startTime, configuration: configuration)
  }

  /// The summary as one JSON object, as `vitals steps` writes it (see ``Steps``' discussion and
  /// `WalkingSummary`).
  public func json() -> String {
    compactJSON(WalkingSummary(stepCount: output.steps.count, bouts: output.bouts, sampleRate: sampleRate))
  }
}
