import VitalsCore
import VitalsSupport

/// The features ``ElectrocardiogramClassifier`` measures, in the order the rhythm model takes them. The
/// choice follows the feature-based entries of the PhysioNet/CinC Challenge 2017 (Clifford et al. 2017, "AF
/// classification from a short single lead ECG recording", Computing in Cardiology 44): RR irregularity,
/// P-wave and f-wave measures and signal quality (Datta et al. 2017, "Identifying normal, AF and other
/// abnormal ECG rhythms using a cascaded binary classifier"; Zabihi et al. 2017, "Detection of atrial
/// fibrillation in ECG hand-held devices using a random forest classifier"; Teijeiro et al. 2018,
/// "Abductive reasoning as a basis to reproduce expert criteria in ECG atrial fibrillation
/// identification", Physiol Meas 39:084006), restricted to what 5–60 s of one lead allow.
enum ClassificationFeature: Int, CaseIterable, Sendable {
  /// Average heart rate, bpm: 60 over the mean RR interval, intervals that hold a lead-off run
  /// (``ClassificationFeatures/leadOffDuration``) left out.
  case heartRate
  /// Share of beats that ``BeatClassifier`` calls S, V or F.
  case ectopicBeatShare
  /// Coefficient of variation of all RR intervals, ectopic ones included.
  case rrVariation
  /// RMSSD over mean NN interval (ectopic beats and their intervals left out; Dash et al. 2009).
  case normalizedRMSSD
  /// Turning point ratio of the NN intervals (Dash et al. 2009).
  case turningPointRatio
  /// Normalized Shannon entropy of the NN intervals' 16-bin histogram (Dash et al. 2009).
  case shannonEntropy
  /// COSEn of the NN intervals (Lake & Moorman 2011), at most 2 (no repeat at all).
  case coefficientOfSampleEntropy
  /// Share of NN intervals ``AtrialFibrillationDetector`` finds irregular (NaN below its 16-beat window).
  case irregularIntervalShare
  /// Median correlation of the beats' P-wave windows with the average beat's (after Babaeizadeh et al. 2009).
  case pWaveConsistency
  /// P-wave amplitude of the average beat over its QRS amplitude.
  case pWaveAmplitude
  /// 4–9 Hz residual after average-beat subtraction over the QRS amplitude, dB.
  case fibrillatoryWavePower
  /// QRS width of the average beat, s.
  case qrsWidth
  /// Share of beats whose QRS correlates at least 0.9 with the average beat's.
  case templateMatchShare
  /// Interquartile range over median of the beats' QRS amplitudes.
  case amplitudeSpread
  /// Median pSQI (Li et al. 2008) of the 5-s windows.
  case powerRatio
  /// Share of samples in windows whose pSQI is below 0.5.
  case unusableShare
  /// Share of samples that are missing, or in flat runs (clipping, lead off) of at least 50 ms.
  case flatShare
  /// Time from the first beat to the last over the recording's duration.
  case beatCoverage
  /// Longest RR interval over the median one.
  case longestIntervalRatio

  /// The name reported (the case's name).
  var name: String { String(describing: self) }

  /// The unit reported.
  var unit: String {
    switch self {
    case .heartRate: "bpm"
    case .qrsWidth: "s"
    case .fibrillatoryWavePower: "dB"
    default: "1"
    }
  }
}

/// The measured values of every ``ClassificationFeature`` of one recording (NaN where not measurable).
struct ClassificationFeatures {
  /// One value per feature, in ``ClassificationFeature`` order.
  var values: [Double]

  subscript(feature: ClassificationFeature) -> Double {
    get { values[feature.rawValue] }
    set { values[feature.rawValue] = newValue }
  }

  /// The features of `samples` (one lead, any unit, NaN for missing samples) at `sampleRate` Hz
  /// (125–1000), whose QRS complexes are `beats` (sample indices, increasing).
  init(samples: [Float], sampleRate: Double, beats: [Int64]) {
    values = [Double](repeating: .nan, count: ClassificationFeature.allCases.count)
    var held: Float = samples.first(where: \.isFinite) ?? 0
    let finite = samples.map { value -> Float in
      if value.isFinite { held = value }
      return held
    }
    let wide = try? SecondOrderSections.butterworth(
      order: 2, band: .bandpass(low: 0.5, high: 40), sampleRate: sampleRate)
    let filtered = (try? wide?.zeroPhaseFiltered(finite)) ?? finite
    measureQuality(samples: samples, sampleRate: sampleRate)
    guard beats.count >= 2 else { return }
    let duration = Double(samples.count) / sampleRate
    let span = Double(beats.last! - beats.first!) / sampleRate
    self[.heartRate] = Self.heartRate(beats: beats, sampleRate: sampleRate, samples: samples)
    self[.beatCoverage] = span / duration
    let classes = BeatClassifier.classify(beats, leads: [samples], sampleRate: sampleRate)
    measureRhythm(sampleRate: sampleRate, beats: beats, classes: classes)
    measureMorphology(filtered: filtered, sampleRate: sampleRate, beats: beats, classes: classes)
  }

  /// Shortest flat or missing run that is a lead-off stretch (no rhythm in it), seconds: even at 30 bpm
  /// a live ECG changes within half a second.
  static let leadOffDuration = 0.5

  /// 60 over the mean of the RR intervals of `beats` that hold no flat or missing run of `samples` of
  /// ``leadOffDuration`` or more (so that a lead-off stretch is not read as a slow rate), bpm; NaN when
  /// every interval holds one.
  static func heartRate(beats: [Int64], sampleRate: Double, samples: [Float]) -> Double {
    let leadOff = flatRuns(samples, shortest: max(2, Int((leadOffDuration * sampleRate).rounded())))
    var count = 0
    var total: Int64 = 0
    for k in beats.indices.dropFirst() where leadOff.overlapCount(with: beats[k - 1]..<beats[k]) == 0 {
      count += 1
      total += beats[k] - beats[k - 1]
    }
    return count > 0 ? 60 * Double(count) / (Double(total) / sampleRate) : .nan
  }

  /// The runs of at least `shortest` samples that are missing or equal to the one before, sample ranges in
  /// increasing order.
  static func flatRuns(_ samples: [Float], shortest: Int) -> [Range<Int64>] {
    var runs: [Range<Int64>] = []
    var start = 0
    for i in samples.indices.dropFirst() {
      let same = !samples[i].isFinite || samples[i] == samples[i - 1]
      if !same {
        if i - start >= shortest { runs.append(Int64(start)..<Int64(i)) }
        start = i
      }
    }
    if samples.count - start >= shortest { runs.append(Int64(start)..<Int64(samples.count)) }
    return runs
  }

  /// pSQI per 5-s window, flat and missing samples.
  private mutating func measureQuality(samples: [Float], sampleRate: Double) {
    var parameters = ECGSignalQuality.Parameters()
    parameters.windowDuration = 5
    if let windows = try? ECGSignalQuality.windows(samples, sampleRate: sampleRate, parameters: parameters),
      !windows.isEmpty
    {
      let ratios = windows.map { $0.powerRatio.isNaN ? 0 : $0.powerRatio }.sorted()
      self[.powerRatio] = DescriptiveStatistics.median(sorted: ratios)
      let unusable = windows.filter { !$0.isUsable }.reduce(0) { $0 + $1.samples.count }
      self[.unusableShare] = Double(unusable) / Double(samples.count)
    }
    let shortestRun = max(2, Int((0.05 * sampleRate).rounded()))
    let flat = Self.flatRuns(samples, shortest: shortestRun).reduce(0) { $0 + $1.count }
    self[.flatShare] = Double(flat + (samples.first?.isFinite == false ? 1 : 0)) / Double(samples.count)
  }

  /// RR and NN irregularity, ectopy, and the atrial-fibrillation detector's measures (by RR intervals
  /// alone: the P waves are measured against the average beat, in `measureMorphology`).
  private mutating func measureRhythm(sampleRate: Double, beats: [Int64], classes: [BeatClass]) {
    let rr = beats.indices.dropFirst().map { Double(beats[$0] - beats[$0 - 1]) / sampleRate }
    let ectopic = classes.filter { [.supraventricular, .ventricular, .fusion].contains($0) }.count
    self[.ectopicBeatShare] = Double(ectopic) / Double(beats.count)
    self[.rrVariation] = RhythmIrregularity.coefficientOfVariation(rr)
    let sorted = rr.sorted()
    self[.longestIntervalRatio] = sorted.last! / DescriptiveStatistics.median(sorted: sorted)
    let detector = AtrialFibrillationDetector()
    let analysis = detector.analyze(beats: beats, sampleRate: sampleRate, beatClasses: classes)
    let series = analysis.intervals
    self[.normalizedRMSSD] = RhythmIrregularity.normalizedRMSSD(series)
    self[.turningPointRatio] = RhythmIrregularity.turningPointRatio(series)
    self[.shannonEntropy] = RhythmIrregularity.shannonEntropy(series.intervals)
    let seconds = series.intervals.map { $0 / 1000 }
    let cosen = AtrialFibrillationDetector.coefficientOfSampleEntropy(
      seconds[...], tolerance: detector.parameters.tolerance)
    self[.coefficientOfSampleEntropy] = min(cosen, 2)
    if series.count >= detector.parameters.windowBeats {
      self[.irregularIntervalShare] =
        Double(analysis.irregular.filter { $0 }.count) / Double(analysis.irregular.count)
    }
  }

  /// The average beat's P wave, the beats' match with it and their amplitude spread, the f-wave power.
  private mutating func measureMorphology(
    filtered: [Float], sampleRate: Double, beats: [Int64], classes: [BeatClass]
  ) {
    guard
      let average = AverageBeat(
        filtered: filtered, beats: beats, isNormal: classes.map { $0 == .normal }, sampleRate: sampleRate)
    else { return }
    self[.pWaveAmplitude] = average.pWaveAmplitude(sampleRate: sampleRate)
    self[.qrsWidth] = average.qrsWidth(sampleRate: sampleRate)
    let normal = beats.indices.filter { classes[$0] == .normal }.map { beats[$0] }
    self[.pWaveConsistency] = average.pWaveConsistency(
      filtered: filtered, beats: normal, sampleRate: sampleRate)
    let (amplitudes, correlations) = average.compare(filtered: filtered, beats: beats, sampleRate: sampleRate)
    if !correlations.isEmpty {
      let matching = correlations.filter { $0 >= AverageBeat.matchingCorrelation }.count
      self[.templateMatchShare] = Double(matching) / Double(correlations.count)
      let sorted = amplitudes.sorted()
      let spread =
        DescriptiveStatistics.quantile(sorted: sorted, 0.75)
        - DescriptiveStatistics.quantile(sorted: sorted, 0.25)
      self[.amplitudeSpread] = spread / DescriptiveStatistics.median(sorted: sorted)
    }
    if let band = try? SecondOrderSections.butterworth(
      order: 2, band: .bandpass(low: 4, high: 9), sampleRate: sampleRate)
    {
      self[.fibrillatoryWavePower] = average.residualPower(
        filtered: filtered, beats: beats, atrialBand: band, sampleRate: sampleRate)
    }
  }
}
