import VitalsAnalysis
import VitalsCore
import VitalsFFT
import VitalsIO

/// The PPG pipeline: pulse beats, windowed heart rate with its quality (motion-corrected with the
/// recording's accelerometer axes) and, at the end, pulse-rate variability.
///
/// Stages, all causal and fed chunk by chunk:
/// 1. `PPGPulseDetector` (Elgendi et al. 2013, made causal) on the first PPG channel: a
///    ``PipelineEvent/Kind/beat`` event (signal `ppg`) per systolic peak.
/// 2. `PPGHeartRateEstimator` (spectral tracking over 8 s windows every 2 s, the accelerometer
///    spectrum subtracted) on every PPG channel and the accelerometer axes
///    (``PipelineContext/accelerometer``, none without an accelerometer): a
///    ``PipelineEvent/Kind/heartRate`` event per window at its end, values `bpm`, `quality` (0–1) and
///    `reliable` (1 or 0); windows without usable signal (NaN rate) give no event.
/// 3. At the end: pulse-rate variability as the ECG pipeline computes HRV (``VariabilitySummary``:
///    Lipponen & Tarvainen 2019 artifacts dropped, time and frequency domain, Poincaré SD1/SD2), from
///    the pulses of clean stretches only: the union of the heart-rate windows that are reliable (the
///    pulse wave is one clear periodicity) and, with an accelerometer, not in locomotion
///    (`HeartRateWindow/periodicMotion` under 1). Intervals outside them count as gaps. Pulse timing during
///    motion carries the artifact's timing, not the heart's (Schäfer & Vagedes 2013 review where PRV
///    stands in for HRV: at rest, in healthy subjects); see ``PPGSection``.
///
/// Live (``PipelineContext/live``): only the pulses of the last ``Configuration/hrvWindow`` seconds are
/// kept, and the final section's variability covers them.
///
/// Gaps (NaN or infinite samples): no pulse inside a gap of the first channel, and no interval across one
/// in the variability; heart-rate windows over a gap of any channel are NaN (no event) or not reliable (see
/// `PPGHeartRateEstimator`).
public struct PPGPipeline: RecordingPipeline {
  /// The pipeline's settings.
  public struct Configuration: Sendable, Hashable {
    /// The pulse detector's settings.
    public var pulses = PPGPulseDetector.Configuration()
    /// The heart-rate estimator's settings.
    public var heartRate = PPGHeartRateEstimator.Configuration()
    /// Live: seconds of pulses the final section's variability covers.
    public var hrvWindow = 300.0

    /// The default settings.
    public init() {}
  }

  /// ``SignalKind/ppg``.
  public var kind: SignalKind { .ppg }

  let configuration: Configuration
  let sampleRate: Double
  let channels: [Int]
  let axes: [Int]
  let names: [String]
  let live: Bool
  var detector: PPGPulseDetector
  var estimator: PPGHeartRateEstimator
  var pulses: [PPGPulse] = []
  /// Batch: every pulse peak. Live: those of the last HRV window.
  var beats: [Int64] = []
  var beatCount = 0
  var origin: Int64?
  var samplesFed: Int64 = 0
  /// Windows estimated, reliable ones, and the reliable rates' sum, minimum and maximum.
  var windows = 0
  var reliable = 0
  var rateSum = 0.0
  var rateMinimum = Double.infinity
  var rateMaximum = -Double.infinity
  /// Batch: the reliable windows' rates at their middles (record sample indices).
  var reliableRates: [(sample: Int64, beatsPerMinute: Double)] = []
  /// The clean stretches so far (record sample indices, merged, increasing); live, those that reach into
  /// the HRV window.
  var cleanSpans: [Range<Int64>] = []

  /// A pipeline for the PPG channels `context.channels` (pulses on the first) with the accelerometer
  /// axes `context.accelerometer`; throws for a rate under `PPGHeartRateEstimator/minimumSampleRate`.
  public init(context: PipelineContext, configuration: Configuration = Configuration())
    throws(PipelineUnavailable)
  {
    precondition(!context.channels.isEmpty, "the PPG pipeline needs a channel")
    do {
      detector = try PPGPulseDetector(sampleRate: context.sampleRate, configuration: configuration.pulses)
      estimator = try PPGHeartRateEstimator(
        sampleRate: context.sampleRate, ppgChannelCount: context.channels.count,
        accelerationAxisCount: context.accelerometer.count, configuration: configuration.heartRate)
    } catch {
      throw PipelineUnavailable(error.description)
    }
    self.configuration = configuration
    sampleRate = context.sampleRate
    channels = context.channels
    axes = context.accelerometer
    names = context.channels.map { context.signals[$0].name }
    live = context.live
  }

  /// Feeds the next chunk: pulses and heart-rate windows decided by now.
  public mutating func process(_ chunk: SignalChunk, events: inout [PipelineEvent]) {
    let start = origin ?? chunk.firstSampleIndex
    origin = start
    pulses.removeAll(keepingCapacity: true)
    chunk.channels[channels[0]].withUnsafeBufferPointer { detector.process($0, appendingTo: &pulses) }
    for pulse in pulses {
      let beat = start + pulse.peak
      beatCount += 1
      beats.append(beat)
      events.append(PipelineEvent(.beat, signal: .ppg, sampleIndex: beat, sampleRate: sampleRate))
    }
    samplesFed += Int64(chunk.sampleCount)
    if live {
      VariabilitySummary.trim(
        &beats, toLast: configuration.hrvWindow, before: start + samplesFed, sampleRate: sampleRate)
      let oldest = start + samplesFed - Int64((configuration.hrvWindow * sampleRate).rounded())
      cleanSpans.removeFirst(cleanSpans.prefix { $0.upperBound <= oldest }.count)
      if let first = cleanSpans.first, first.lowerBound < oldest { cleanSpans[0] = oldest..<first.upperBound }
    }
    let estimates = estimator.process(
      ppg: channels.map { chunk.channels[$0] }, acceleration: axes.map { chunk.channels[$0] })
    for window in estimates {
      windows += 1
      guard window.beatsPerMinute.isFinite else { continue }
      if window.isReliable { noteReliable(window, start: start) }
      events.append(
        PipelineEvent(
          .heartRate(
            bpm: window.beatsPerMinute,
            quality: PipelineEvent.WindowQuality(score: window.quality, isReliable: window.isReliable)),
          signal: .ppg, sampleIndex: start + Int64((window.endTime * sampleRate).rounded()),
          sampleRate: sampleRate))
    }
  }

  /// Counts a reliable window and, when it is not in locomotion, adds its span to the clean
  /// stretches.
  mutating func noteReliable(_ window: HeartRateWindow, start: Int64) {
    reliable += 1
    rateSum += window.beatsPerMinute
    rateMinimum = min(rateMinimum, window.beatsPerMinute)
    rateMaximum = max(rateMaximum, window.beatsPerMinute)
    let span =
      start + Int64((window.startTime * sampleRate).rounded())..<start
      + Int64((window.endTime * sampleRate).rounded())
    if !live { reliableRates.append(((span.lowerBound + span.upperBound) / 2, window.beatsPerMinute)) }
    guard (window.periodicMotion ?? 0) < 1 else { return }
    if let last = cleanSpans.last, span.lowerBound <= last.upperBound {
      cleanSpans[cleanSpans.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
    } else {
      cleanSpans.append(span)
    }
  }

  /// The detector's gaps and every stretch of `start..<start + samplesFed` outside the clean stretches,
  /// merged: increasing and disjoint.
  func unclean(start: Int64) -> [Range<Int64>] {
    var spans = detector.gaps.map { $0.lowerBound + start..<$0.upperBound + start }
    var position = start
    for span in cleanSpans + [start + samplesFed..<start + samplesFed] {
      if span.lowerBound > position { spans.append(position..<span.lowerBound) }
      position = max(position, span.upperBound)
    }
    var merged: [Range<Int64>] = []
    for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = merged.last, span.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
      } else {
        merged.append(span)
      }
    }
    return merged
  }

  /// Returns the record's ``PPGSection`` (pulses are reported as soon as they are decided, so none is
  /// pending).
  public mutating func finish(events: inout [PipelineEvent]) -> any PipelineSection {
    let unclean = unclean(start: origin ?? 0)
    var section = PPGSection(
      channels: names, sampleRate: sampleRate, samples: samplesFed, motionAxes: axes.count,
      beatCount: beatCount, beats: live ? [] : beats,
      variability: VariabilitySummary(beats: beats, sampleRate: sampleRate, gaps: unclean), windows: windows,
      reliableWindows: reliable,
      heartRate: reliable > 0 ? (rateSum / Double(reliable), rateMinimum, rateMaximum) : nil,
      hrvWindow: live ? configuration.hrvWindow : nil)
    section.gapSeconds = Double(estimator.gaps.reduce(0) { $0 + $1.count }) / sampleRate
    section.cleanStretches = cleanSpans
    section.uncleanStretches = unclean
    section.reliableRates = reliableRates
    return section
  }
}

/// The PPG part of a recording's summary, under `"ppg"` (JSON keys in brackets): the channels
/// [`channels`], [`sample_rate`], [`samples`], [`duration_s`], accelerometer axes used for motion
/// [`motion_axes`], pulses [`beats`], [`nn_intervals`], [`artifact_beats`]; heart rate
/// [`heart_rate_bpm`: `mean`, `min`, `max`] over the reliable windows of `PPGHeartRateEstimator` and
/// the fraction of windows that are reliable [`reliable_fraction`] (null without windows); the seconds
/// missing in any channel [`gap_s`], present only when there are gaps; pulse-rate
/// variability [`prv`] with the ECG's HRV names and units (see ``VariabilitySummary``), null when
/// undefined, over the clean stretches only, whose length is [`prv_clean_s`] seconds.
public struct PPGSection: PipelineSection {
  /// The PPG channels' names.
  public var channels: [String]
  /// Samples per second.
  public var sampleRate: Double
  /// Samples per channel analyzed.
  public var samples: Int64
  /// Accelerometer axes the heart-rate estimator used.
  public var motionAxes: Int
  /// Pulses detected.
  public var beatCount: Int
  /// Record sample indices of the systolic peaks (empty for live streams).
  public var beats: [Int64]
  /// Pulse-rate variability of the pulses of clean stretches (the whole record, or live the HRV window).
  public var variability: VariabilitySummary
  /// Heart-rate windows estimated, and how many were reliable.
  public var windows: Int, reliableWindows: Int
  /// Mean, minimum and maximum heart rate of the reliable windows, bpm; nil without one.
  public var heartRate: (mean: Double, min: Double, max: Double)?
  /// Live streams: the seconds of pulses the variability covers; nil for whole records.
  public var hrvWindow: Double?
  /// Seconds missing in any channel (the estimator's gaps).
  public var gapSeconds = 0.0
  /// The clean stretches, the only ones the variability uses (see ``PPGPipeline``): record sample
  /// ranges, increasing and disjoint (live, those within the HRV window).
  public var cleanStretches: [Range<Int64>] = []
  /// The stretches the variability leaves out: the first channel's gaps and everything outside the clean
  /// stretches, record sample ranges, increasing and disjoint (the gaps `VariabilitySummary` was given).
  public var uncleanStretches: [Range<Int64>] = []
  /// Whole records: the reliable heart-rate windows' rates, at each window's middle (record sample index).
  public var reliableRates: [(sample: Int64, beatsPerMinute: Double)] = []

  /// A section.
  public init(
    channels: [String], sampleRate: Double, samples: Int64, motionAxes: Int, beatCount: Int, beats: [Int64],
    variability: VariabilitySummary, windows: Int, reliableWindows: Int,
    heartRate: (mean: Double, min: Double, max: Double)?, hrvWindow: Double?
  ) {
    self.channels = channels
    self.sampleRate = sampleRate
    self.samples = samples
    self.motionAxes = motionAxes
    self.beatCount = beatCount
    self.beats = beats
    self.variability = variability
    self.windows = windows
    self.reliableWindows = reliableWindows
    self.heartRate = heartRate
    self.hrvWindow = hrvWindow
  }

  /// `"pulses"`: the systolic peaks' record sample indices (whole records only).
  public var eventTables: [String: [Int64]] { hrvWindow == nil ? ["pulses": beats] : [:] }

  private enum CodingKeys: String, CodingKey {
    case channels, motion_axes, heart_rate_bpm, reliable_fraction, hrv_window_s, gap_s, prv_clean_s
  }

  /// Encodes the JSON section described in the type's documentation.
  public func encode(to encoder: any Encoder) throws {
    try variability.encodeSectionFields(
      to: encoder, samples: samples, sampleRate: sampleRate, beatCount: beatCount, metricsKey: "prv")
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(channels, forKey: .channels)
    try c.encode(motionAxes, forKey: .motion_axes)
    try c.encode(
      ["mean": heartRate?.mean, "min": heartRate?.min, "max": heartRate?.max], forKey: .heart_rate_bpm)
    try c.encode(windows > 0 ? Double(reliableWindows) / Double(windows) : nil, forKey: .reliable_fraction)
    try c.encode(Double(cleanStretches.reduce(0) { $0 + $1.count }) / sampleRate, forKey: .prv_clean_s)
    try c.encodeIfPresent(hrvWindow, forKey: .hrv_window_s)
    try c.encodeIfPresent(gapSeconds > 0 ? gapSeconds : nil, forKey: .gap_s)
  }
}
