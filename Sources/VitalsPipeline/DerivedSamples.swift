import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsStatistics
import VitalsSupport

extension RecordingAnalysis {
  /// Per pulse of `ppg`, whether it lies outside its unclean stretches (the pulses its variability uses).
  static func insideCleanStretches(_ ppg: PPGSection) -> [Bool] {
    ppg.beats.map { ppg.uncleanStretches.overlapCount(with: $0..<$0 + 1) == 0 }
  }

  /// Per beat of `ecg`, whether it is of class N (every beat when the classes are not those of every
  /// beat), and whether the time since the beat before holds no excluded stretch
  /// (``ECGSection/excludedStretches``: the lead's gaps and the windows `ECGSignalQuality` marks
  /// unusable): the intervals the section's variability measures.
  static func normalAndMeasured(_ ecg: ECGSection) -> (normal: [Bool], measured: [Bool]) {
    let classified = ecg.classes.count == ecg.beats.count
    let normal = ecg.beats.indices.map { !classified || ecg.classes[$0] == .normal }
    let measured = ecg.beats.indices.map { k in
      let previous = k > 0 ? ecg.beats[k - 1] : ecg.beats[k]
      return ecg.excludedStretches.overlapCount(with: previous..<ecg.beats[k] + 1) == 0
    }
    return (normal, measured)
  }

  /// The HealthKit-style samples `DerivedMetrics` derives from this recording, in time order (ties by
  /// type): `heartRate` and `heartRateVariabilitySDNN` per window, `restingHeartRate` and
  /// `walkingHeartRateAverage` per day, `stepCount` per minute, with the walker's height
  /// (`parameters.height`) `walkingStepLength` and `walkingSpeed` per walking bout and
  /// `distanceWalkingRunning` per minute, with `parameters.walkingAsymmetry` `walkingAsymmetryPercentage`
  /// per walking bout (``StepsSection/asymmetry``), `highHeartRateEvent`,
  /// `lowHeartRateEvent` and `irregularHeartRhythmEvent`; with an ECG, a `heartbeatSeries` over each
  /// `heartRateVariabilitySDNN` sample's window, as Apple Watch keeps the beats of each HRV measurement
  /// (``ECGSection/heartbeatSeries(in:recordStart:source:device:)``), and an `electrocardiogram` when
  /// the ECG section classified a short record (``ECGSection/electrocardiogram``).
  ///
  /// The beats are the ECG section's (``ECGSection/beats``), of which only the intervals between two
  /// beats of class N outside the excluded stretches count (``ECGSection/excludedStretches``: gaps and
  /// unusable signal), as in the section's variability; or without an ECG the PPG section's systolic
  /// peaks (``PPGSection/beats``): then the `heartRate` samples come from the reliable heart-rate
  /// windows (``PPGSection/reliableRates``) rather than from pulse intervals, and only the pulses of
  /// clean stretches (``PPGSection/cleanStretches``) give intervals, as in the section's variability;
  /// steps, walking bouts and motion levels are
  /// the ``StepsSection``'s of the same recording, so resting heart rate and the heart-rate events see
  /// only minutes without steps and with motion levels at or under
  /// `DerivedMetrics.Parameters.motionThreshold` (without an accelerometer, minutes without steps:
  /// every minute). Times are absolute: the recording's ``startTime`` plus the sample's offset; a
  /// recording whose start is unknown has no derived samples (`nil`), since they would land on days
  /// that never were. The samples carry `parameters.source` and, when `parameters.device` is nil, the
  /// recording's file name (without its extension) as the device.
  public func derivedSamples(parameters: DerivedMetrics.Parameters = DerivedMetrics.Parameters())
    -> [HealthSample]?
  {
    guard let startTime else { return nil }
    var parameters = parameters
    if parameters.device == nil {
      parameters.device = FileSystem.deletingPathExtension(FileSystem.lastPathComponent(path))
    }
    let ecg = section(ECGSection.self)
    let motion = section(StepsSection.self)
    let ppg = ecg == nil ? section(PPGSection.self) : nil
    let beats = (ecg?.beats ?? ppg?.beats ?? []).map { startTime.advanced(bySamples: $0, rate: sampleRate) }
    let rates = ppg?.reliableRates.map {
      RateReading(
        time: startTime.advanced(bySamples: $0.sample, rate: sampleRate), beatsPerMinute: $0.beatsPerMinute)
    }
    let ecgFlags = ecg.map(Self.normalAndMeasured)
    let metrics = DerivedMetrics(
      beats: beats, normal: ecgFlags?.normal ?? ppg.map(Self.insideCleanStretches),
      measured: ecgFlags?.measured,
      rates: rates,
      steps: motion?.steps.map(\.time) ?? [],
      walking: (motion?.walking.bouts ?? []).map { ActivityInterval(start: $0.start.time, end: $0.end.time) },
      motion: motion?.motion ?? [], parameters: parameters)
    var samples: [HealthSample] = []
    let variability = metrics.heartRateVariability()
    for quantities in [
      metrics.heartRate(), variability, metrics.restingHeartRate(),
      metrics.walkingHeartRateAverage(), metrics.stepCount(), metrics.walkingGait(),
      metrics.distanceWalkingRunning(),
    ] {
      samples += quantities.map(HealthSample.quantity)
    }
    if parameters.walkingAsymmetry {
      samples += DerivedMetrics.walkingAsymmetry(
        motion?.asymmetry ?? [], minimumSteps: parameters.minimumGaitSteps, source: parameters.source,
        device: parameters.device
      ).map(HealthSample.quantity)
    }
    samples += metrics.heartRateEvents().map(HealthSample.category)
    samples += DerivedMetrics.irregularRhythmEvents(
      ecg?.episodes ?? [], recordStart: startTime, source: parameters.source, device: parameters.device
    ).map(HealthSample.category)
    samples +=
      (ecg?.heartbeatSeries(
        in: variability.map { $0.start..<$0.end }, recordStart: startTime, source: parameters.source,
        device: parameters.device) ?? []).map(HealthSample.heartbeatSeries)
    if let ecg, let report = ecg.electrocardiogram {
      samples.append(
        .electrocardiogram(
          ElectrocardiogramSample(
            classification: report.classification, averageHeartRate: report.averageHeartRate,
            lead: ecg.channel,
            samplingFrequency: ecg.sampleRate, numberOfVoltageMeasurements: Int(ecg.samples),
            start: startTime,
            end: startTime.advanced(bySamples: ecg.samples, rate: ecg.sampleRate), source: parameters.source,
            device: parameters.device)))
    }
    return samples.sorted { a, b in
      a.start != b.start ? a.start < b.start : a.typeName < b.typeName
    }
  }
}
