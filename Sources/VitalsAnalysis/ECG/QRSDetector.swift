import VitalsCore

#if arch(x86_64)
  import _Builtin_intrinsics.intel
#endif

import VitalsSupport

/// A streaming, causal QRS detector for one ECG lead at any rate from 100 Hz to 2 kHz: beats come out
/// at most ``Configuration-swift.struct/maximumLatency`` (0.49 s by default) after their R peak, and the
/// same beats come out whatever the sizes of the blocks the signal is fed in. At the end of a recording,
/// ``finish(appendingTo:)`` decides on the beats of its last latency bound
/// (``detect(_:sampleRate:configuration:chunkSize:)`` does so for a whole recording).
///
/// Method: Pan & Tompkins (1985) with the search-back and RR rules of Hamilton & Tompkins (1986), every
/// filter and window designed from the sample rate: decimation to 150–300 Hz, a 5–15 Hz band-pass, the
/// squared derivative and a 130 ms moving integration, scaled down where a 20–45 Hz band holds less slope
/// energy; adaptive thresholds on the feature's peaks, T-wave and search-back rules, and two rules of this
/// project against electrode-motion artifacts (premature interlopers in a steady rhythm, one-sided
/// steps); each beat placed on the R peak. <doc:QRSDetection> describes every stage, its settings and
/// what each rule gains and costs on the shared records.
///
/// References: J. Pan, W. J. Tompkins, "A real-time QRS detection algorithm", IEEE Trans. Biomed. Eng.
/// 32(3):230–236, 1985. P. S. Hamilton, W. J. Tompkins, "Quantitative investigation of QRS detection rules
/// using the MIT/BIH arrhythmia database", IEEE Trans. Biomed. Eng. 33(12):1157–1165, 1986.
///
/// Input: samples of one lead in any unit (mV, adu) up to about 10¹³ in magnitude (the feature's squared
/// slopes stay within `Float`): every threshold is relative. The first sample is
/// subtracted from every sample, so the filters start at rest without a step response. NaN and infinite
/// samples are missing data (a gap, see ``gaps``): the beats before a gap are decided as at the end of a
/// recording, none is reported inside it, and after it the filters start afresh while the thresholds, RR
/// history and last beat learned before it carry on (so that a single missing sample does not make the
/// next T wave a first beat), with sample indices still counted from the first sample fed.
///
/// Cost: O(1) per sample and no allocation after initialization except the appended beats (and, at each
/// gap, a fresh copy of the filters and classifier).
///
/// Accuracy: `make eval-ecg` on the shared MIT-BIH, NSTDB, LUDB and CPSC 2019 records, scored as EC57 and
/// the short-record rules (docs/accuracy.md); method, choices and protocol in <doc:QRSDetection>.
public struct QRSDetector: Sendable {
  /// The sample rates the detector accepts, in Hz.
  public static let supportedSampleRates: ClosedRange<Double> = 100...2000
  /// Samples filtered per block (scratch buffers are this long).
  public static let blockSize = 2048

  /// The detector's parameters, all in physiological units (seconds, hertz, ratios).
  public struct Configuration: Sendable, Hashable {
    /// Lower and upper −3 dB corners of the QRS band-pass, Hz (Pan & Tompkins: about 5–15 Hz).
    public var passband: ClosedRange<Double> = 5...15
    /// Length of the moving-window integration, seconds (Pan & Tompkins: 150 ms, about a wide QRS; 130 ms
    /// here, so that a peak's feature is complete sooner and a QRS complex hidden by a step after it is
    /// found within the latency bound: on NSTDB 118 at 6 dB, F1 96.4 % against 94.9 % at 150 ms).
    public var integrationWindow = 0.130
    /// Refractory period, seconds: two beats are never closer. Also the half-width of the window in which
    /// a feature peak must be the maximum.
    public var refractoryPeriod = 0.200
    /// Within this time after a beat, a peak with under ``tWaveSlopeRatio`` of the beat's steepest slope
    /// is taken for a T wave, seconds (Pan & Tompkins: 360 ms).
    public var tWaveWindow = 0.360
    /// See ``tWaveWindow`` (Pan & Tompkins: 0.5).
    public var tWaveSlopeRatio = 0.5
    /// Position of the primary threshold between the noise and the signal level (Pan & Tompkins: 0.25).
    public var thresholdPosition = 0.25
    /// Secondary (search-back) threshold as a fraction of the primary one (Pan & Tompkins: 0.5).
    public var searchBackThresholdRatio = 0.5
    /// Search back when no beat has come for this many median RR intervals (Pan & Tompkins: 1.66).
    public var searchBackInterval = 1.66
    /// Largest delay between an R peak and the report of its beat, seconds; it bounds which candidates a
    /// search-back may take. At least the refractory period plus the integration window plus 100 ms: a
    /// peak is classified a refractory period after the feature peak, which trails the R peak by up to
    /// the integration window plus the filters' delays (about 40 ms) and the ±50 ms placement window.
    public var maximumLatency = 0.49
    /// A search-back that finds nothing halves the signal level only after this long without a beat,
    /// seconds (0: after every fruitless search).
    public var amplitudeDropPause = 1.0
    /// The signal level is not halved below this fraction of its value after the last beat (0: down to the
    /// noise level, as before this option), so that a pause of several seconds without beats does not lower
    /// the thresholds to its noise, P or T waves. Cross-validation chose 0.9 (see <doc:QRSDetection>), which
    /// costs a few missed ventricular beats on MIT-BIH; the default keeps the earlier behavior.
    public var amplitudeDropFloor = 0.0
    /// The interloper check: a peak above the threshold that comes sooner than this fraction of the median
    /// RR interval after the last beat (0 turns the check off)…
    public var interloperPrematurity = 0.75
    /// …lower than this fraction of the signal level…
    public var interloperHeightRatio = 0.9
    /// …while the last 8 RR intervals span at most this ratio from shortest to longest (a steady rhythm) is
    /// rejected when the next beat comes where that rhythm expects it (see the type's description).
    public var interloperRegularity = 2.0
    /// A peak whose slope symmetry, the smaller of the input's steepest rise and steepest fall over 10 ms
    /// within ±80 ms of its R peak divided by the larger, is under this ratio is a one-sided edge, as of an
    /// electrode-motion step, not a QRS complex, which rises and falls: the QRS it hides 100–400 ms before it
    /// is taken instead, or, when there is none and the peak is premature (see ``interloperPrematurity``),
    /// it is rejected (0 turns this off; see the type's description).
    public var stepSlopeSymmetry = 0.2
    /// The second, higher band of the feature: lower and upper −3 dB corners, Hz (nil: Pan & Tompkins'
    /// single-band feature). Where its feature is below the QRS band's, the feature is the geometric mean of
    /// the two (see the type's description). The upper corner is lowered to 40 % of the feature rate where
    /// that is lower (inputs under 112.5 Hz).
    public var highBand: ClosedRange<Double>? = 20...45

    public init() {}
  }

  /// The parameters in use.
  public let configuration: Configuration
  /// Samples per second.
  public let sampleRate: Double

  /// The segment being fed: the filters and classifier since the last gap (or the record's start); nil
  /// inside a gap.
  var segment: Segment?
  /// A segment at rest, copied when the signal resumes after a gap.
  let freshSegment: Segment
  /// Index of the first sample of ``segment`` (sample 0 being the first ever fed).
  var segmentStart: Int64 = 0
  /// What the classifier of the segment before the last gap learned, and that segment's first sample: the
  /// segment after the gap continues from it.
  var learnedBeforeGap: (learned: QRSClassifier.Learned, segmentStart: Int64)?
  /// The gaps of the lead.
  var gapTracker = GapTracker()
  /// Record index of the first sample given in a `SignalChunk`; nil before the first chunk.
  var chunkIndexOrigin: Int64?
  /// Where beat times are counted from: the record index and time of the first `SignalChunk`'s first
  /// sample, and of each later chunk's that lies more than half a sample period from where the samples
  /// before it lead (a discontinuity, from a reader that yields one). Counting from these
  /// alone, not from every chunk's rounded start, gives a beat the same time however the recording is
  /// cut into chunks. Anchors no beat still to be decided can refer to are dropped.
  var timeAnchors: [(index: Int64, time: Timestamp)] = []
  /// Whether ``finish(appendingTo:)`` has ended the recording.
  var finished = false

  /// A detector for a lead sampled at `sampleRate` Hz.
  ///
  /// - Throws: ``QRSDetectorError`` when the rate is outside ``supportedSampleRates`` or an option is
  ///   outside its range.
  public init(sampleRate: Double, configuration: Configuration = Configuration()) throws(QRSDetectorError) {
    guard Self.supportedSampleRates.contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
    let c = configuration
    func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(QRSDetectorError) {
      guard range.contains(value) else { throw .invalidConfiguration(name, value) }
    }
    try check("passband.lowerBound", c.passband.lowerBound, 0.5...30)
    try check(
      "passband.upperBound", c.passband.upperBound, c.passband.lowerBound + 1...min(45, sampleRate / 2.5))
    try check("integrationWindow", c.integrationWindow, 0.05...0.3)
    try check("refractoryPeriod", c.refractoryPeriod, 0.1...0.4)
    try check("tWaveWindow", c.tWaveWindow, 0...0.6)
    try check("tWaveSlopeRatio", c.tWaveSlopeRatio, 0...1)
    try check("thresholdPosition", c.thresholdPosition, 0.01...0.99)
    try check("searchBackThresholdRatio", c.searchBackThresholdRatio, 0.05...1)
    try check("searchBackInterval", c.searchBackInterval, 1.05...3)
    try check(
      "maximumLatency", c.maximumLatency, c.refractoryPeriod + c.integrationWindow + 0.1...2)
    try check("amplitudeDropPause", c.amplitudeDropPause, 0...3)
    try check("amplitudeDropFloor", c.amplitudeDropFloor, 0...1)
    try check("interloperPrematurity", c.interloperPrematurity, 0...1)
    try check("interloperHeightRatio", c.interloperHeightRatio, 0...10)
    try check("interloperRegularity", c.interloperRegularity, 1...10)
    try check("stepSlopeSymmetry", c.stepSlopeSymmetry, 0...1)
    if let band = c.highBand {
      try check("highBand.lowerBound", band.lowerBound, 1...40)
      try check("highBand.upperBound", band.upperBound, band.lowerBound + 1...100)
    }
    self.configuration = c
    self.sampleRate = sampleRate
    // Two segments built apart, so that the first does not share (and copy on its first use) the storage
    // of the one kept at rest.
    self.segment = try Segment(configuration: c, sampleRate: sampleRate)
    self.freshSegment = try Segment(configuration: c, sampleRate: sampleRate)
  }

  /// The Butterworth band-pass of order 2 for `band` (Hz) at `sampleRate`; errors name the option `name`.
  static func bandpass(_ band: ClosedRange<Double>, name: String, sampleRate: Double) throws(QRSDetectorError)
    -> SecondOrderSections
  {
    do {
      return try .butterworth(
        order: 2, band: .bandpass(low: band.lowerBound, high: band.upperBound), sampleRate: sampleRate)
    } catch {
      throw .invalidConfiguration(name, band.upperBound)
    }
  }

  /// The gaps of the lead so far: runs of NaN or infinite samples, as sample ranges counted as the beats
  /// of ``process(_:appendingTo:)`` are (add `SignalChunk/firstSampleIndex` of the first chunk for record
  /// indices); a gap still open ends at the last sample fed.
  public var gaps: [Range<Int64>] { gapTracker.gaps }

  /// Feeds the next samples of the lead and appends the record indices of the beats decided so far
  /// (sample 0 being the first sample ever fed) to `beats`, in increasing order.
  ///
  /// NaN and infinite samples are missing: the detector decides on the beats before a gap as at the end of
  /// a recording (see ``finish(appendingTo:)``), reports no beat inside it, and restarts its filters after
  /// it (at rest, as at the start of a recording), keeping what it learned before it: the signal and noise
  /// levels, the RR history and the last beat, so that the peaks after a gap are judged as any other.
  public mutating func process(_ samples: UnsafeBufferPointer<Float>, appendingTo beats: inout [Int64]) {
    precondition(!finished, "the recording was finished: a new one needs a new detector")
    // Block by block, so that the check for missing samples reads what the filters read next from cache.
    var start = 0
    while start < samples.count {
      let end = min(samples.count, start + Self.blockSize)
      processBlock(UnsafeBufferPointer(rebasing: samples[start..<end]), appendingTo: &beats)
      start = end
    }
  }

  /// Feeds up to ``blockSize`` samples: those of a gap end the segment, those after it start a new one.
  private mutating func processBlock(_ samples: UnsafeBufferPointer<Float>, appendingTo beats: inout [Int64])
  {
    // The usual case, no gap open and no sample missing, takes one pass: the segment checks the samples as
    // it conditions them, and takes none when one is missing.
    if gapTracker.openGapStart == nil && feed(samples, appendingTo: &beats) {
      gapTracker.advance(presentCount: samples.count)
      return
    }
    let first = gapTracker.sampleCount
    // A gap is open or begins here, so there are runs.
    for run in gapTracker.runs(in: samples) ?? [] {
      if run.isMissing {
        endSegment(appendingTo: &beats)
      } else {
        if segment == nil {
          segment = freshSegment
          segmentStart = first + Int64(run.offsets.lowerBound)
          if let before = learnedBeforeGap {
            segment!.classifier.resume(from: before.learned, shift: segmentStart - before.segmentStart)
          }
        }
        let fed = feed(UnsafeBufferPointer(rebasing: samples[run.offsets]), appendingTo: &beats)
        assert(fed, "a run of present samples holds a missing one")
      }
    }
  }

  /// Feeds up to ``blockSize`` samples to the current segment and appends its beats as record indices;
  /// false, having fed nothing, when a sample is missing.
  private mutating func feed(_ samples: UnsafeBufferPointer<Float>, appendingTo beats: inout [Int64]) -> Bool
  {
    let firstNew = beats.count
    guard segment!.process(samples, appendingTo: &beats) else { return false }
    if segmentStart != 0 { for k in firstNew..<beats.count { beats[k] += segmentStart } }
    return true
  }

  /// Decides on the beats of the current segment as at the end of a recording, and appends them.
  private mutating func endSegment(appendingTo beats: inout [Int64]) {
    guard segment != nil else { return }
    let firstNew = beats.count
    let learned = segment!.finish(holding: Int(latencySamples), appendingTo: &beats)
    for k in firstNew..<beats.count { beats[k] += segmentStart }
    learnedBeforeGap = learned.map { ($0, segmentStart) } ?? learnedBeforeGap
    segment = nil
  }

  /// Feeds the next samples of the lead; returns the record indices of the beats decided by now.
  public mutating func process(_ samples: [Float]) -> [Int64] {
    var beats: [Int64] = []
    samples.withUnsafeBufferPointer { process($0, appendingTo: &beats) }
    return beats
  }

  /// Feeds the next chunk of a recording, using channel `lead`; returns the beats decided by now, with
  /// their record indices and times taken from the chunk's `SignalChunk/firstSampleIndex` and
  /// `SignalChunk/startTime`. Chunks must follow each other without gaps and at the detector's rate.
  public mutating func process(_ chunk: SignalChunk, lead: Int = 0) -> [DetectedBeat] {
    precondition(
      chunk.sampleRate == sampleRate, "chunk rate \(chunk.sampleRate) Hz, detector \(sampleRate) Hz")
    precondition(chunk.channels.indices.contains(lead), "lead \(lead) is not a channel of the chunk")
    let indexOrigin = chunkIndexOrigin ?? chunk.firstSampleIndex
    chunkIndexOrigin = indexOrigin
    precondition(
      indexOrigin + gapTracker.sampleCount == chunk.firstSampleIndex,
      "chunk starts at sample \(chunk.firstSampleIndex), expected \(indexOrigin + gapTracker.sampleCount)")
    anchorTime(of: chunk)
    return detectedBeats(process(chunk.channels[lead]))
  }

  /// The latency bound in input samples, rounded up, plus one: every beat whose R peak lies this far before
  /// the last sample fed has been reported.
  public var latencySamples: Int64 { Int64((configuration.maximumLatency * sampleRate).rounded(.up)) + 1 }

  /// Ends a recording fed as `SignalChunk`s (see ``finish(appendingTo:)``); returns the beats decided
  /// last, with record indices and times as ``process(_:lead:)`` gives them.
  public mutating func finishChunks() -> [DetectedBeat] {
    var indices: [Int64] = []
    finish(appendingTo: &indices)
    return detectedBeats(indices)
  }

  /// Adds `chunk`'s start to ``timeAnchors`` when it is the first or a discontinuity, and drops the
  /// anchors before the latest one that precedes every beat still undecided.
  private mutating func anchorTime(of chunk: SignalChunk) {
    if let last = timeAnchors.last {
      let expected = last.time.advanced(bySamples: chunk.firstSampleIndex - last.index, rate: sampleRate)
      let offset = Double(chunk.startTime.nanosecondsSinceEpoch) - Double(expected.nanosecondsSinceEpoch)
      if abs(offset) > 0.5e9 / sampleRate { timeAnchors.append((chunk.firstSampleIndex, chunk.startTime)) }
    } else {
      timeAnchors.append((chunk.firstSampleIndex, chunk.startTime))
    }
    let oldestUndecided = chunk.firstSampleIndex - 2 * latencySamples
    while timeAnchors.count > 1 && timeAnchors[1].index <= oldestUndecided { timeAnchors.removeFirst() }
  }

  /// The beats at `indices` (relative to the first sample fed) with their record indices and times,
  /// counted from the latest time anchor at or before each.
  private func detectedBeats(_ indices: [Int64]) -> [DetectedBeat] {
    guard let indexOrigin = chunkIndexOrigin, !timeAnchors.isEmpty else { return [] }
    return indices.map { index in
      let recordIndex = indexOrigin + index
      let anchor = timeAnchors.last { $0.index <= recordIndex } ?? timeAnchors[0]
      return DetectedBeat(
        sampleIndex: recordIndex,
        time: anchor.time.advanced(bySamples: recordIndex - anchor.index, rate: sampleRate))
    }
  }

  /// Ends the recording: decides on the peaks still pending, as if the lead stayed at its last value for
  /// the latency bound (every peak before the end has then been decided on), and appends their beats to
  /// `beats`, but for those within 50 ms of the end (the R-peak placement window): their QRS complex is cut
  /// off, and the corner the held value makes there raises the feature as a QRS would (on the shared
  /// MIT-BIH records, keeping them gives 5 false beats, one at the end of each of 5 records). Without it
  /// the beats of the last ``Configuration-swift.struct/maximumLatency`` of a recording are never reported
  /// (on the shared MIT-BIH records, 8 beats). The same rule ends the signal before a gap. The detector
  /// takes no more samples afterwards; finishing again adds nothing.
  public mutating func finish(appendingTo beats: inout [Int64]) {
    guard !finished else { return }
    endSegment(appendingTo: &beats)
    gapTracker.finish()
    finished = true
  }

  /// The beats of a whole recording of one lead held in memory, as record sample indices: the samples
  /// fed in chunks of `chunkSize` (all at once when nil; the beats do not depend on it), then
  /// ``finish(appendingTo:)``. `RecordingBeats` (VitalsPipeline) reads a recording file and detects
  /// its beats.
  public static func detect(
    _ samples: [Float], sampleRate: Double, configuration: Configuration = Configuration(),
    chunkSize: Int? = nil
  ) throws(QRSDetectorError) -> [Int64] {
    var detector = try QRSDetector(sampleRate: sampleRate, configuration: configuration)
    var beats: [Int64] = []
    let chunk = max(1, chunkSize ?? samples.count)
    samples.withUnsafeBufferPointer { buffer in
      for start in stride(from: 0, to: buffer.count, by: chunk) {
        let end = min(start + chunk, buffer.count)
        detector.process(UnsafeBufferPointer(rebasing: buffer[start..<end]), appendingTo: &beats)
      }
    }
    detector.finish(appendingTo: &beats)
    return beats
  }
}

extension QRSDetector {
  /// The filters and classifier of one stretch of signal without a missing sample, indices counted from
  /// its first sample.
  struct Segment: Sendable {
    /// Brings the input to the feature rate; nil below 300 Hz, where the input is the feature rate.
    var decimator: Decimator?
    /// The QRS band-pass without a high band; nil when `bandpasses` runs it.
    var bandpass: SOSFilter?
    /// The QRS band-pass and the high band's, side by side; nil without a high band.
    var bandpasses: SOSFilterPair?
    /// Derivative, square and moving average of the QRS band, and of the high band when there is one.
    var featureStages: FeatureStages
    var highFeatureStages: FeatureStages?
    var classifier: QRSClassifier
    /// The last sample fed.
    var lastSample: Float = 0
    /// The first sample, subtracted from every sample so that the filters start at rest.
    var origin: Float?
    /// Scratch space of ``process(_:appendingTo:)``: a block of input, band-passed signal and feature.
    var blocks: [Float]
    /// Scratch space of ``condition(_:raw:band:feature:)``: a block of the high band's band-passed signal
    /// and feature (empty without a high band).
    var highBandBlocks: [Float]

    /// A segment at rest for `configuration` (valid) at `sampleRate`.
    init(configuration c: Configuration, sampleRate: Double) throws(QRSDetectorError) {
      // The feature needs no more than 150–300 Hz: from 300 Hz on, the input is decimated by an integer
      // factor first, after a short Hamming-window low-pass at a quarter of the feature rate (37.5–75 Hz).
      let factor = max(1, Int(sampleRate / 150))
      let featureRate = sampleRate / Double(factor)
      let antiAliasTaps = 4 * factor + 1
      let integration = max(1, Int((c.integrationWindow * featureRate).rounded()))
      let design = try QRSDetector.bandpass(c.passband, name: "passband", sampleRate: featureRate)
      self.featureStages = FeatureStages(sampleRate: featureRate, integration: integration)
      if let band = c.highBand {
        let upper = min(band.upperBound, 0.4 * featureRate)
        guard upper >= band.lowerBound + 1 else {
          throw .invalidConfiguration("highBand.lowerBound", band.lowerBound)
        }
        self.bandpass = nil
        self.bandpasses = SOSFilterPair(
          design, try QRSDetector.bandpass(band.lowerBound...upper, name: "highBand", sampleRate: featureRate)
        )
        self.highFeatureStages = FeatureStages(sampleRate: featureRate, integration: integration)
      } else {
        self.bandpass = SOSFilter(design)
        self.bandpasses = nil
        self.highFeatureStages = nil
      }
      self.decimator =
        factor == 1
        ? nil
        : Decimator(
          factor: factor,
          coefficients: FIRDesign.firwin(
            tapCount: antiAliasTaps, cutoff: [0.5 / Double(factor)], pass: .lowpass))
      let halfWindow = max(1, Int((c.refractoryPeriod * featureRate).rounded()))
      let groupDelay = design.groupDelay(
        atFrequency: (c.passband.lowerBound * c.passband.upperBound).squareRoot(), sampleRate: featureRate)
      self.classifier = QRSClassifier(
        configuration: c, sampleRate: sampleRate, decimationFactor: factor, integration: integration,
        halfWindow: halfWindow, bandpassDelay: groupDelay,
        derivativeDelay: DerivativeFormula.panTompkins.delay,
        decimatorDelay: factor == 1 ? 0 : (antiAliasTaps - 1) / 2, blockSize: QRSDetector.blockSize)
      self.blocks = [Float](repeating: 0, count: 3 * (QRSDetector.blockSize + 1))
      self.highBandBlocks = [Float](
        repeating: 0, count: highFeatureStages == nil ? 0 : 2 * QRSDetector.blockSize)
    }

    /// Feeds the next samples (at most ``QRSDetector/blockSize``) and appends the beats decided so far, as
    /// segment indices; returns false, having taken none, when one is NaN or infinite.
    mutating func process(_ samples: UnsafeBufferPointer<Float>, appendingTo beats: inout [Int64]) -> Bool {
      precondition(samples.count <= QRSDetector.blockSize, "a segment takes a block at a time")
      var blocks: [Float] = []
      swap(&blocks, &self.blocks)
      defer { swap(&blocks, &self.blocks) }
      let stride = QRSDetector.blockSize + 1
      return blocks.withUnsafeMutableBufferPointer { scratch in
        let (raw, band, feature) = (
          scratch.baseAddress!, scratch.baseAddress! + stride, scratch.baseAddress! + 2 * stride
        )
        guard let decimated = condition(samples, raw: raw, band: band, feature: feature) else { return false }
        decide(
          raw: UnsafeBufferPointer(start: raw, count: samples.count),
          band: UnsafeBufferPointer(start: band, count: decimated),
          feature: UnsafeBufferPointer(start: feature, count: decimated), appendingTo: &beats)
        return true
      }
    }

    /// The filtering half of ``process(_:appendingTo:)``: writes the next samples (at most
    /// ``QRSDetector/blockSize``) less the origin to `raw`, and the band-passed signal and the feature at the
    /// feature rate to `band` and `feature` (room for a block each); returns how many feature samples it
    /// wrote, or nil, having taken none, when a sample is NaN or infinite. The decisions on them are
    /// ``decide(raw:band:feature:appendingTo:)``'s.
    mutating func condition(
      _ samples: UnsafeBufferPointer<Float>, raw: UnsafeMutablePointer<Float>,
      band: UnsafeMutablePointer<Float>,
      feature: UnsafeMutablePointer<Float>
    ) -> Int? {
      precondition(samples.count <= QRSDetector.blockSize, "a segment takes a block at a time")
      guard let first = samples.first else { return 0 }
      let offset = origin ?? first
      let count = samples.count
      let rawBlock = UnsafeMutableBufferPointer(start: raw, count: count)
      guard Self.subtract(offset, from: samples, into: rawBlock) else { return nil }
      origin = offset
      let decimated =
        decimator == nil
        ? count
        : decimator!.process(
          UnsafeBufferPointer(rawBlock),
          into: UnsafeMutableBufferPointer(start: band, count: QRSDetector.blockSize))
      let bandBlock = UnsafeMutableBufferPointer(start: band, count: decimated)
      let featureBlock = UnsafeMutableBufferPointer(start: feature, count: decimated)
      let input = UnsafeBufferPointer(decimator == nil ? rawBlock : bandBlock)
      if bandpasses != nil {
        var blocks: [Float] = []
        swap(&blocks, &highBandBlocks)
        defer { swap(&blocks, &highBandBlocks) }
        blocks.withUnsafeMutableBufferPointer { scratch in
          let highBandBlock = UnsafeMutableBufferPointer(start: scratch.baseAddress!, count: decimated)
          let highFeatureBlock = UnsafeMutableBufferPointer(
            start: scratch.baseAddress! + QRSDetector.blockSize, count: decimated)
          bandpasses!.process(input, into: bandBlock, highBandBlock)
          FeatureStages.process(
            &featureStages, UnsafeBufferPointer(bandBlock), into: featureBlock,
            attenuatedBy: &highFeatureStages!,
            UnsafeBufferPointer(highBandBlock), scratch: highFeatureBlock)
        }
      } else {
        bandpass!.process(input, into: bandBlock)
        featureStages.process(UnsafeBufferPointer(bandBlock), into: featureBlock)
      }
      lastSample = samples[count - 1]
      return decimated
    }

    /// The deciding half of ``process(_:appendingTo:)``: takes a block ``condition(_:raw:band:feature:)``
    /// wrote and appends the beats decided so far, as segment indices.
    mutating func decide(
      raw: UnsafeBufferPointer<Float>, band: UnsafeBufferPointer<Float>, feature: UnsafeBufferPointer<Float>,
      appendingTo beats: inout [Int64]
    ) {
      classifier.appendRaw(raw)
      classifier.scan(band: band, feature: feature, beats: &beats)
    }

    /// Writes `input − offset` to `output`, eight samples at a time; returns whether every sample is finite.
    static func subtract(
      _ offset: Float, from input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
    ) -> Bool {
      // x − x is 0 for a finite x and NaN otherwise, so the samples are finite when the sum of these is 0.
      var check = SIMD8<Float>()
      var i = 0
      let raw = UnsafeRawPointer(input.baseAddress!)
      while i &+ 8 <= input.count {
        let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
        check += v - v
        UnsafeMutableRawPointer(output.baseAddress! + i).storeBytes(of: v - offset, as: SIMD8<Float>.self)
        i &+= 8
      }
      var tail: Float = 0
      while i < input.count {
        tail += input[i] - input[i]
        output[i] = input[i] - offset
        i &+= 1
      }
      return check.sum() + tail == 0
    }

    /// Ends the segment as a recording ends (see ``QRSDetector/finish(appendingTo:)``), holding its last
    /// sample for `holdCount` samples, and appends the beats decided last, as segment indices. Returns
    /// what the classifier had learned when it took the last beat kept (before the hold when it took none
    /// during it): the beats dropped at the end, and what the held value taught it, are not carried over a
    /// gap; nil when the segment took no sample.
    mutating func finish(holding holdCount: Int, appendingTo beats: inout [Int64]) -> QRSClassifier.Learned? {
      guard origin != nil else { return nil }
      let end = classifier.rawCount
      let cut = end - classifier.placementHalfWidth
      let beforeHold = classifier.learned
      classifier.keptBeatCut = cut
      let hold = [Float](repeating: lastSample, count: QRSDetector.blockSize)
      let first = beats.count
      hold.withUnsafeBufferPointer { block in
        var left = holdCount
        while left > 0 {
          _ = process(UnsafeBufferPointer(rebasing: block[..<min(left, block.count)]), appendingTo: &beats)
          left -= block.count
        }
      }
      beats.removeSubrange((beats[first...].firstIndex { $0 >= cut } ?? beats.endIndex)...)
      return classifier.learnedAtLastKeptBeat ?? beforeHold
    }
  }
}

/// The stages of the QRS feature after the band-pass (Pan & Tompkins 1985): the five-point derivative,
/// squared, and a moving average over the integration window.
struct FeatureStages: Sendable {
  var derivative: FIRFilter
  var integrator: MovingSum

  /// The stages at `sampleRate`, averaging over `integration` samples.
  init(sampleRate: Double, integration: Int) {
    derivative = FIRFilter(derivative: .panTompkins, sampleRate: sampleRate)
    integrator = MovingSum(length: integration)
  }

  /// Writes the feature of the band-passed `band` to `feature` (the same count).
  mutating func process(_ band: UnsafeBufferPointer<Float>, into feature: UnsafeMutableBufferPointer<Float>) {
    derivative.process(band, into: feature)
    for i in feature.indices { feature[i] *= feature[i] }
    integrator.process(UnsafeBufferPointer(feature), into: feature, scale: 1 / Double(integrator.length))
  }

  /// Writes the feature of the band-passed `band` to `feature`, each sample scaled by the square root of
  /// the ratio of the high band's feature (`high` on `highBand`) to it where that ratio is under 1: the
  /// geometric mean of the two features where the high band's is the smaller, the QRS band's elsewhere.
  /// `scratch` (of the same count) receives the high band's derivative and feature.
  static func process(
    _ stages: inout FeatureStages, _ band: UnsafeBufferPointer<Float>,
    into feature: UnsafeMutableBufferPointer<Float>, attenuatedBy high: inout FeatureStages,
    _ highBand: UnsafeBufferPointer<Float>, scratch: UnsafeMutableBufferPointer<Float>
  ) {
    stages.derivative.process(band, into: feature)
    high.derivative.process(highBand, into: scratch)
    for i in feature.indices {
      feature[i] *= feature[i]
      scratch[i] *= scratch[i]
    }
    MovingSum.process(
      &stages.integrator, UnsafeBufferPointer(feature), into: feature, &high.integrator,
      UnsafeBufferPointer(scratch), into: scratch, scale: 1 / Double(stages.integrator.length))
    // The geometric-mean step, four samples at a time where SSE is at hand (`minps` picks as `min(_:_:)`
    // does, `sqrtps` rounds as `squareRoot()`: the same bits; Swift's own vector square root is scalar).
    // A product beyond `Float`'s range (inputs of about 10⁹ units and more) is taken as the product of the
    // square roots instead, so that a large input gives a scaled feature, not an infinite one.
    var i = 0
    #if arch(x86_64)
      let lowBase = feature.baseAddress!
      let highBase = UnsafeMutablePointer(mutating: scratch.baseAddress!)
      let largest = _mm_set1_ps(.greatestFiniteMagnitude)
      while i &+ 4 <= feature.count {
        let low = _mm_loadu_ps(lowBase + i)
        let product = _mm_mul_ps(low, _mm_min_ps(low, _mm_loadu_ps(highBase + i)))
        guard _mm_movemask_ps(_mm_cmpgt_ps(product, largest)) == 0 else { break }
        _mm_storeu_ps(lowBase + i, _mm_sqrt_ps(product))
        i &+= 4
      }
    #endif
    while i < feature.count {
      let smaller = min(scratch[i], feature[i])
      let product = feature[i] * smaller
      feature[i] = product.isFinite ? product.squareRoot() : feature[i].squareRoot() * smaller.squareRoot()
      i &+= 1
    }
  }
}
