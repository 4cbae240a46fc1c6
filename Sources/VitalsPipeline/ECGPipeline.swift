import VitalsAnalysis
import VitalsCore
import VitalsFFT
import VitalsIO

/// The ECG pipeline: QRS detection on one lead, heart rate every second, irregular-rhythm episodes and,
/// at the end, heart rate and heart-rate variability of the record.
///
/// Stages, all causal and fed chunk by chunk:
/// 1. `QRSDetector` (Pan & Tompkins 1985 with Hamilton & Tompkins' 1986 rules): a ``PipelineEvent/Kind/beat``
///    event per R peak, at most the detector's latency (0.49 s) after it.
/// 2. Heart rate: at every whole second `t` of the record (sample `round(k · rate)`), 60 / the median
///    of the last ``Configuration/heartRateIntervals`` RR intervals whose closing beat lies within
///    ``Configuration/heartRateMaximumAge`` s before `t − latency` (beats after `t − latency` may not be
///    decided yet, so they are left out whatever the chunking): a ``PipelineEvent/Kind/heartRate`` event,
///    or none when no such interval exists.
/// 3. Irregular rhythm: `IrregularRhythmTracker` (Lake & Moorman 2011 COSEn through
///    `AtrialFibrillationDetector`), in blocks of beats with 96 judged intervals of context on each side.
/// 4. Beat classes: `BeatClassifier` on the lead and every other ECG lead of the recording
///    (`ChannelRoles/ecgLeads(named:lead:)`), each beat's EC57 class at most
///    `BeatClassifier/labelLatency` after its R peak.
/// 5. At the end of a recording: the heart-rate variability of the N→N intervals (``VariabilitySummary``:
///    only intervals between two beats of class N, Lipponen & Tarvainen 2019 artifacts dropped as well,
///    time and frequency domain, Poincaré SD1/SD2); see ``ECGSection``.
///
/// Gaps (NaN or infinite samples of the lead, `QRSDetector/gaps`): no beat inside one; no RR interval
/// across one counts for a heart-rate reading, the irregular-rhythm detector or the HRV.
///
/// Live (``PipelineContext/live``): no whole-record beat list is kept; every
/// ``Configuration/hrvInterval`` s an ``PipelineEvent/Kind/hrv`` event gives the time-domain HRV of
/// the N→N intervals of the last ``Configuration/hrvWindow`` s whose beats are labelled (up to
/// `BeatClassifier/labelLatency` before the event), and the final section covers that window only.
/// State is bounded by the window.
public struct ECGPipeline: RecordingPipeline {
  /// The pipeline's settings.
  public struct Configuration: Sendable, Equatable {
    /// The QRS detector's settings.
    public var detector = QRSDetector.Configuration()
    /// RR intervals whose median gives a heart-rate reading.
    public var heartRateIntervals = 8
    /// Oldest closing beat, in seconds before the reading's decided horizon, that still counts.
    public var heartRateMaximumAge = 10.0
    /// Live: seconds between HRV events.
    public var hrvInterval = 60.0
    /// Live: seconds of beats each HRV event (and the final section) covers.
    public var hrvWindow = 300.0
    /// The irregular-rhythm detector's settings.
    public var rhythm = AtrialFibrillationDetector.Parameters()
    /// The beat classifier's settings.
    public var classifier = BeatClassifier.Configuration()

    /// The default settings.
    public init() {}
  }

  /// ``SignalKind/ecg``.
  public var kind: SignalKind { .ecg }

  let configuration: Configuration
  let sampleRate: Double
  let lead: Int
  let leadName: String
  let live: Bool
  /// QRS detection: the work on the lead alone (``detachStage()``).
  var leadStage: ECGLeadStage
  /// The beat classifier and the channels it reads: the lead, then the recording's other ECG leads. It is
  /// the pipeline's own work, not the lead stage's, for the reason the signal quality is.
  var classifier: BeatClassifier
  let classifiedLeads: [Int]
  /// Storage for the samples of ``classifiedLeads`` of a chunk, empty between chunks, kept so that a chunk
  /// allocates no array of them.
  var leadStorage: [[Float]] = []
  /// The lead's signal quality (whole records; nil live or when the rate leaves no room for its band) and
  /// its windows so far. It is the pipeline's own work, not the lead stage's: with the stage detached, the
  /// lead stage's thread is the busier one while the recording is read.
  var quality: ECGSignalQuality?
  var qualityWindows: [ECGSignalQuality.Window] = []
  /// The detector's latency bound, in samples: every beat up to `sample − latency` is decided once
  /// `sample` has been fed.
  let latency: Int64
  /// The classifier's latency bound, in samples: every beat up to `sample − labelLatency` is labelled once
  /// `sample` has been fed.
  let labelLatency: Int64
  /// The labels the classifier gave the beats of the last chunk.
  var labels: [BeatClass] = []
  /// The class of each beat of ``beats`` labelled so far (batch: of every beat).
  var classes: [BeatClass] = []
  /// Live: beats dropped from the HRV window before their label came; as many labels are dropped.
  var unlabelledDropped = 0
  /// Beats per class.
  var classCounts = [Int](repeating: 0, count: BeatClass.allCases.count)
  /// Beats emitted whose label has not come yet, oldest first (record sample indices).
  var awaitingLabel: [Int64] = []
  var decided: [Int64] = []
  /// Index, within the record, of the first sample fed.
  var origin: Int64?
  var samplesFed: Int64 = 0
  var beatCount = 0
  /// Batch: every beat. Live: the beats of the last HRV window (and a little more).
  var beats: [Int64] = []
  /// The last few beats, for heart-rate readings.
  var recent: [Int64] = []
  var nextReadingSecond: Int64 = 1
  var nextHRVSecond: Int64
  var rhythm: IrregularRhythmTracker
  /// The lead's gaps so far, as record sample ranges.
  var gaps: [Range<Int64>] = []
  /// Whole records: the lead's samples while they last at most
  /// `ElectrocardiogramClassifier/supportedDurations`' longest, to classify a short recording as a watch's
  /// ECG app does; nil live and once the lead is longer.
  var shortLead: [Float]?

  /// A pipeline for the ECG lead `context.channels[0]`; throws when the rate is outside
  /// `QRSDetector/supportedSampleRates`.
  public init(context: PipelineContext, configuration: Configuration = Configuration())
    throws(PipelineUnavailable)
  {
    precondition(!context.channels.isEmpty, "the ECG pipeline needs a lead")
    let detector: QRSDetector
    do {
      detector = try QRSDetector(sampleRate: context.sampleRate, configuration: configuration.detector)
    } catch {
      throw PipelineUnavailable("the QRS detector cannot run on this lead: \(error)")
    }
    self.configuration = configuration
    sampleRate = context.sampleRate
    lead = context.channels[0]
    classifiedLeads = ChannelRoles.ecgLeads(named: context.signals.map(\.name), lead: lead)
    classifier = BeatClassifier(
      sampleRate: context.sampleRate, leadCount: classifiedLeads.count, latency: detector.latencySamples,
      configuration: configuration.classifier)
    leadStage = ECGLeadStage(lead: lead, detector: detector)
    quality = context.live ? nil : try? ECGSignalQuality(sampleRate: context.sampleRate)
    latency = detector.latencySamples
    labelLatency = classifier.labelLatency
    leadName = context.signals[lead].name
    live = context.live
    if !live {
      shortLead = []
      shortLead!.reserveCapacity(
        Int(ElectrocardiogramClassifier.supportedDurations.upperBound * sampleRate) + 1)
    }
    nextHRVSecond = Int64(configuration.hrvInterval.rounded())
    rhythm = IrregularRhythmTracker(
      parameters: configuration.rhythm, sampleRate: context.sampleRate, keepsEpisodes: !context.live,
      block: context.live ? IrregularRhythmTracker.liveBlock : IrregularRhythmTracker.recordingBlock)
  }

  /// Record index of the sample `seconds` after the first.
  private func sampleIndex(atSecond seconds: Int64) -> Int64 {
    Int64((Double(seconds) * sampleRate).rounded())
  }

  /// Feeds the next chunk: beats, heart-rate readings, episode events (and, live, HRV events) decided by now.
  public mutating func process(_ chunk: SignalChunk, events: inout [PipelineEvent]) {
    decided.removeAll(keepingCapacity: true)
    leadStage.process(chunk, decided: &decided)
    consume(chunk, gaps: leadStage.detector.gaps, events: &events)
  }

  /// Whole records: QRS detection, which reads the lead alone; live, nil.
  public mutating func detachStage() -> (any PipelineStage)? { live ? nil : leadStage }

  public mutating func process(_ chunk: SignalChunk, staged: any Sendable, events: inout [PipelineEvent]) {
    let output = staged as! ECGLeadStage.Output
    decided = output.decided
    consume(chunk, gaps: output.gaps, events: &events)
  }

  public mutating func attach(_ stage: any PipelineStage) { leadStage = stage as! ECGLeadStage }

  /// The work of ``process(_:events:)`` after the lead stage, which has put the chunk's beats in `decided`
  /// and found the lead's gaps `relative` to the first sample.
  private mutating func consume(
    _ chunk: SignalChunk, gaps relative: [Range<Int64>], events: inout [PipelineEvent]
  ) {
    label(chunk)
    origin = origin ?? chunk.firstSampleIndex
    samplesFed += Int64(chunk.sampleCount)
    quality?.process(chunk.channels[lead], appendingTo: &qualityWindows)
    updateGaps(relative)
    // Labels first, so that the readings and HRV events see every beat labelled up to their horizon.
    queueForLabels()
    takeLabels(events: &events)
    emitDecided(events: &events)
    keepShortLead(chunk.channels[lead])
  }

  /// Gives the beats in `decided` and the chunk's leads to the classifier; its labels replace `labels`.
  private mutating func label(_ chunk: SignalChunk) {
    labels.removeAll(keepingCapacity: true)
    for beat in decided { classifier.add(beat: beat) }
    var leads: [[Float]] = []
    swap(&leads, &leadStorage)
    for channel in classifiedLeads { leads.append(chunk.channels[channel]) }
    classifier.process(leads, appendingTo: &labels)
    leads.removeAll(keepingCapacity: true)
    swap(&leads, &leadStorage)
  }

  /// Keeps `samples` of the lead while the lead lasts at most the classifier's longest recording.
  private mutating func keepShortLead(_ samples: [Float]) {
    guard shortLead != nil else { return }
    if Double(samplesFed) > ElectrocardiogramClassifier.supportedDurations.upperBound * sampleRate {
      shortLead = nil
    } else {
      shortLead! += samples
    }
  }

  /// The classification of a whole record of 5–60 s (`ElectrocardiogramClassifier`); nil otherwise.
  private func classifyShortLead() -> ElectrocardiogramReport? {
    guard let shortLead,
      ElectrocardiogramClassifier.supportedDurations.contains(Double(shortLead.count) / sampleRate)
    else { return nil }
    return try? ElectrocardiogramClassifier.classify(shortLead, sampleRate: sampleRate)
  }

  /// Queues the beats in `decided` for their labels.
  private mutating func queueForLabels() {
    for relative in decided { awaitingLabel.append((origin ?? 0) + relative) }
  }

  /// Keeps the labels in `labels`, the next beats' in `awaitingLabel`, and passes the labelled beats on to
  /// the irregular-rhythm tracker.
  private mutating func takeLabels(events: inout [PipelineEvent]) {
    classes += labels
    for (offset, label) in labels.enumerated() {
      classCounts[Int(label.rawValue)] += 1
      rhythm.add(awaitingLabel[offset], beatClass: label, events: &events)
    }
    awaitingLabel.removeFirst(labels.count)
    let dropped = min(unlabelledDropped, classes.count)
    classes.removeFirst(dropped)
    unlabelledDropped -= dropped
  }

  /// Takes the detector's gaps (`relative` to the first sample), as record sample ranges, when they have
  /// changed.
  private mutating func updateGaps(_ relative: [Range<Int64>]) {
    guard
      relative.count != gaps.count || relative.last.map({ $0.upperBound + origin! }) != gaps.last?.upperBound
    else { return }
    gaps = relative.map { $0.lowerBound + origin!..<$0.upperBound + origin! }
    rhythm.gaps = gaps
  }

  /// Appends the events of the beats in `decided` (relative to the first sample), and the readings due
  /// before the last sample fed.
  private mutating func emitDecided(events: inout [PipelineEvent]) {
    let start = origin ?? 0
    let end = start + samplesFed
    for relative in decided {
      let beat = start + relative
      // Readings whose horizon precedes this beat see exactly the beats before it.
      emitReadings(before: end, horizonBelow: beat, events: &events)
      beatCount += 1
      beats.append(beat)
      recent.append(beat)
      if recent.count > configuration.heartRateIntervals + 8 { recent.removeFirst() }
      events.append(PipelineEvent(.beat, signal: .ecg, sampleIndex: beat, sampleRate: sampleRate))
    }
    emitReadings(before: end, horizonBelow: .max, events: &events)
  }

  /// Appends the heart-rate readings (and, live, the HRV events) due at whole seconds before sample
  /// `end` whose horizon (the second minus the latency) is below `limit`.
  private mutating func emitReadings(
    before end: Int64, horizonBelow limit: Int64, events: inout [PipelineEvent]
  ) {
    while sampleIndex(atSecond: nextReadingSecond) < end,
      sampleIndex(atSecond: nextReadingSecond) - latency < limit
    {
      let at = sampleIndex(atSecond: nextReadingSecond)
      if let bpm = heartRate(horizon: at - latency) {
        events.append(
          PipelineEvent(
            .heartRate(bpm: bpm, quality: nil), signal: .ecg, sampleIndex: at, sampleRate: sampleRate))
      }
      nextReadingSecond += 1
    }
    guard live else { return }
    while sampleIndex(atSecond: nextHRVSecond) < end, sampleIndex(atSecond: nextHRVSecond) - latency < limit {
      let at = sampleIndex(atSecond: nextHRVSecond)
      let horizon = at - labelLatency
      let oldest = horizon - Int64((configuration.hrvWindow * sampleRate).rounded())
      if let firstKept = beats.firstIndex(where: { $0 >= oldest }), firstKept > 0 {
        beats.removeFirst(firstKept)
        let labelled = min(firstKept, classes.count)
        classes.removeFirst(labelled)
        unlabelledDropped += firstKept - labelled
      }
      let window = Array(beats.prefix { $0 <= horizon })
      let nn = NNSeries.withoutArtifacts(
        beats: window, sampleRate: sampleRate, gaps: gaps, classes: Array(classes.prefix(window.count)))
      let time = HRVTimeDomain(nn.series)
      if time.meanNN.isFinite {
        events.append(
          PipelineEvent(
            .hrv(
              sdnn: time.sdnn, rmssd: time.rmssd, meanNN: time.meanNN, meanHR: time.meanHR,
              window: configuration.hrvWindow),
            signal: .ecg, sampleIndex: at, sampleRate: sampleRate))
      }
      nextHRVSecond += Int64(configuration.hrvInterval.rounded())
    }
  }

  /// 60 / median of the last RR intervals closing at or before `horizon` (and not older than the
  /// maximum age, nor across a gap), or nil.
  private func heartRate(horizon: Int64) -> Double? {
    let oldest = horizon - Int64((configuration.heartRateMaximumAge * sampleRate).rounded())
    let known = recent.prefix { $0 <= horizon }
    // On the stack: a reading comes every second, and the intervals are few.
    return withUnsafeTemporaryAllocation(of: Int64.self, capacity: max(0, configuration.heartRateIntervals)) {
      intervals in
      var count = 0
      for k in known.indices.dropFirst().reversed() where known[k] >= oldest && count < intervals.count {
        if !gaps.isEmpty && gaps.overlapCount(with: known[k - 1]..<known[k]) > 0 { continue }
        intervals[count] = known[k] - known[k - 1]
        count += 1
      }
      guard count > 0 else { return nil }
      var sorted = UnsafeMutableBufferPointer(rebasing: intervals[..<count])
      sorted.sort()
      let middle = count / 2
      let median =
        count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
      return 60 * sampleRate / median
    }
  }

  /// Decides the beats of the last `QRSDetector/Configuration-swift.struct/maximumLatency` and the last
  /// irregular-rhythm block, and returns the record's ``ECGSection``.
  public mutating func finish(events: inout [PipelineEvent]) -> any PipelineSection {
    decided.removeAll(keepingCapacity: true)
    labels.removeAll(keepingCapacity: true)
    leadStage.finish(decided: &decided)
    for beat in decided { classifier.add(beat: beat) }
    classifier.finish(appendingTo: &labels)
    quality?.finish(appendingTo: &qualityWindows)
    if origin != nil { updateGaps(leadStage.detector.gaps) }
    queueForLabels()
    takeLabels(events: &events)
    emitDecided(events: &events)
    let unusable = ECGSignalQuality.unusableStretches(qualityWindows).map {
      $0.lowerBound + (origin ?? 0)..<$0.upperBound + (origin ?? 0)
    }
    let episodes = rhythm.finish(events: &events)
    let excluded = gaps.union(unusable)
    if live {
      // The HRV window ending at the last sample.
      let count = beats.count
      VariabilitySummary.trim(
        &beats, toLast: configuration.hrvWindow, before: (origin ?? 0) + samplesFed, sampleRate: sampleRate)
      classes.removeFirst(count - beats.count)
    }
    return ECGSection(
      channel: leadName, sampleRate: sampleRate, samples: samplesFed, beatCount: beatCount,
      beats: live ? [] : beats, classes: live ? [] : classes,
      variability: VariabilitySummary(
        beats: beats, sampleRate: sampleRate, gaps: excluded, classes: classes),
      classCounts: classCounts, episodes: episodes,
      irregularSeconds: rhythm.irregularSeconds,
      hrvWindow: live ? configuration.hrvWindow : nil,
      gapSeconds: Double(gaps.reduce(0) { $0 + $1.count }) / sampleRate,
      unusableSeconds: Double(unusable.reduce(0) { $0 + $1.count }) / sampleRate,
      excludedStretches: live ? [] : excluded, electrocardiogram: classifyShortLead())
  }
}

/// The work of ``ECGPipeline`` on the lead's samples alone: QRS detection.
/// ``ECGPipeline/detachStage()`` hands it to ``RecordingAnalyzer`` to run on another thread.
struct ECGLeadStage: PipelineStage {
  /// What the rest of the pipeline takes of a chunk: the beats decided on it, relative to the first sample
  /// fed, and the lead's gaps so far.
  struct Output: Sendable {
    var decided: [Int64]
    var gaps: [Range<Int64>]
  }

  /// The lead's channel in the chunks.
  let lead: Int
  var detector: QRSDetector

  /// Feeds the chunk's lead to the detector, appending the beats decided by now to `decided`.
  mutating func process(_ chunk: SignalChunk, decided: inout [Int64]) {
    chunk.channels[lead].withUnsafeBufferPointer { detector.process($0, appendingTo: &decided) }
  }

  mutating func process(_ chunk: SignalChunk) -> any Sendable {
    var output = Output(decided: [], gaps: [])
    process(chunk, decided: &output.decided)
    output.gaps = detector.gaps
    return output
  }

  /// Ends the record: appends the last beats to `decided`.
  mutating func finish(decided: inout [Int64]) {
    detector.finish(appendingTo: &decided)
  }
}

/// The ECG part of a recording's summary (JSON keys in brackets).
///
/// Heart rate [`heart_rate_bpm`: `mean`, `min`, `max`] and HRV [`hrv`] come from the NN intervals: the RR
/// intervals between two beats of class N, without those around Lipponen & Tarvainen (2019) artifact
/// beats [`nn_intervals`, `artifact_beats`]. [`beat_classes`] counts the beats per EC57 class (`N`, `S`,
/// `V`, `F`, `Q`; the whole record, also when live). HRV names and units are NeuroKit2's (see
/// ``VariabilitySummary``); values that are undefined for the record (too short, too few intervals) are
/// JSON null. [`signal_quality`] is the fraction of the record's duration covered by NN intervals (0–1):
/// noise, artifacts, ectopic beats and gaps lower it.
/// [`gap_s`], present only when the lead has gaps, is their total duration in seconds. [`unusable_s`] is
/// the duration of the 10-s windows `ECGSignalQuality` (pSQI, Li, Mark & Clifford 2008) marks unusable:
/// whole records only: their intervals are left out of the record's HRV and heart rate (not of the
/// per-second readings or the rhythm, which are decided before a window's quality is known).
/// [`electrocardiogram`], present for whole records of 5–60 s, classifies the lead as a watch's ECG app
/// does (`ElectrocardiogramClassifier`; fields as `vitals classify` writes them).
public struct ECGSection: PipelineSection, Equatable {
  /// The lead's name in the file.
  public var channel: String
  /// Samples per second.
  public var sampleRate: Double
  /// Samples of the lead analyzed.
  public var samples: Int64
  /// Beats detected.
  public var beatCount: Int
  /// Record sample indices of the beats (empty for live streams).
  public var beats: [Int64]
  /// Heart-rate variability of the beats (the whole record, or live the HRV window).
  public var variability: VariabilitySummary
  /// Beats per EC57 class, indexed by `BeatClass/rawValue`.
  public var classCounts: [Int]
  /// The EC57 class of each of ``beats``.
  public var classes: [BeatClass]
  /// Irregular-rhythm episodes (empty for live streams, which report them as events).
  public var episodes: [IrregularRhythmEpisode]
  /// Seconds of irregular rhythm in episodes.
  public var irregularSeconds: Double
  /// Live streams: the seconds of beats the HRV covers; nil for whole records.
  public var hrvWindow: Double?
  /// Seconds of the lead missing (its gaps).
  public var gapSeconds: Double
  /// Seconds of the lead in windows that `ECGSignalQuality` marks unusable (left out of the HRV).
  public var unusableSeconds: Double
  /// Record sample ranges, in order, of the lead's gaps and of the windows `ECGSignalQuality` marks
  /// unusable: the stretches left out of the HRV (empty for live streams).
  public var excludedStretches: [Range<Int64>]
  /// A whole record of 5–60 s classified as a watch's ECG app does (`ElectrocardiogramClassifier`); nil
  /// for longer records and live streams.
  public var electrocardiogram: ElectrocardiogramReport?

  /// A section.
  public init(
    channel: String, sampleRate: Double, samples: Int64, beatCount: Int, beats: [Int64],
    classes: [BeatClass] = [], variability: VariabilitySummary,
    classCounts: [Int] = [Int](repeating: 0, count: BeatClass.allCases.count),
    episodes: [IrregularRhythmEpisode], irregularSeconds: Double, hrvWindow: Double?, gapSeconds: Double = 0,
    unusableSeconds: Double = 0, excludedStretches: [Range<Int64>] = [],
    electrocardiogram: ElectrocardiogramReport? = nil
  ) {
    self.electrocardiogram = electrocardiogram
    self.unusableSeconds = unusableSeconds
    self.excludedStretches = excludedStretches
    self.classes = classes
    self.classCounts = classCounts
    self.gapSeconds = gapSeconds
    self.channel = channel
    self.sampleRate = sampleRate
    self.samples = samples
    self.beatCount = beatCount
    self.beats = beats
    self.variability = variability
    self.episodes = episodes
    self.irregularSeconds = irregularSeconds
    self.hrvWindow = hrvWindow
  }

  /// Fraction of the record's duration (live: of the HRV window, or of the stream while shorter) covered
  /// by NN intervals, 0–1.
  public var signalQuality: Double {
    let duration = min(hrvWindow ?? .infinity, Double(samples) / sampleRate)
    guard duration > 0 else { return 0 }
    return min(1, variability.intervals.intervals.reduce(0, +) / 1000 / duration)
  }

  /// `"beats"`: the beats' record sample indices (whole records only).
  public var eventTables: [String: [Int64]] { hrvWindow == nil ? ["beats": beats] : [:] }

  /// `"beats"`: the beats' classes, when every beat has one (whole records).
  public var eventLabels: [String: [String]] {
    hrvWindow == nil && classes.count == beats.count ? ["beats": classes.map(\.letter)] : [:]
  }

  private struct Episode: Encodable {
    var start_s: Double
    var end_s: Double
    var duration_s: Double
  }

  private enum CodingKeys: String, CodingKey {
    case channel, heart_rate_bpm, beat_classes, irregular_rhythm, irregular_rhythm_s, signal_quality,
      hrv_window_s, gap_s, unusable_s, electrocardiogram
  }

  /// Encodes the JSON section described in the type's documentation.
  public func encode(to encoder: any Encoder) throws {
    try variability.encodeSectionFields(
      to: encoder, samples: samples, sampleRate: sampleRate, beatCount: beatCount, metricsKey: "hrv")
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(channel, forKey: .channel)
    try c.encode(BeatClass.countsByLetter(classCounts), forKey: .beat_classes)
    let f = VariabilitySummary.finite
    let time = variability.time
    try c.encode(
      ["mean": f(time.meanHR), "min": f(time.minHR), "max": f(time.maxHR)], forKey: .heart_rate_bpm)
    try c.encode(
      episodes.map { Episode(start_s: $0.start, end_s: $0.end, duration_s: $0.duration) },
      forKey: .irregular_rhythm)
    try c.encode(irregularSeconds, forKey: .irregular_rhythm_s)
    try c.encode(signalQuality, forKey: .signal_quality)
    try c.encodeIfPresent(hrvWindow, forKey: .hrv_window_s)
    try c.encodeIfPresent(gapSeconds > 0 ? gapSeconds : nil, forKey: .gap_s)
    try c.encode(unusableSeconds, forKey: .unusable_s)
    try c.encodeIfPresent(
      electrocardiogram.map(ElectrocardiogramReportFields.init), forKey: .electrocardiogram)
  }
}
