/// Labels detected beats with their EC57 class (``BeatClass``: N, S, V, F, Q) from their morphology on
/// every lead and their timing: streaming, causal, and the same labels whatever the chunk sizes.
///
/// Method (every threshold in ``Configuration``):
/// - Morphology (`BeatTemplates`): each beat's window (``Configuration/window`` around the R peak) is
///   matched against running templates (Hamilton 2002, OSEA); the dominant template is the one with the
///   most normally timed beats. A beat is of normal morphology when it correlates with the dominant
///   template at least ``Configuration/normalMorphology``.
/// - Timing (`BeatRhythm`): prematurity is the RR interval before the beat over the reference (the
///   median of recent N→N intervals); the pause is the RR interval after it over the one before.
/// - V: not of normal morphology, not in an established template whose beats mostly come at normal timing
///   (a second normal form, e.g. intermittent bundle-branch block or pre-excitation), and premature; or,
///   in a template whose beats mostly come early, wider than the dominant template by
///   ``Configuration/widening`` or hardly correlated with it (de Chazal et al. 2004: QRS width and RR
///   features; Hamilton 2002: width and template matching).
/// - S: of normal morphology, in a regular rhythm, and premature with a pause after it or within a run of
///   premature beats, or mildly premature with a longer pause (Llamedo & Martínez 2011, Mar et al. 2011:
///   RR features dominate supraventricular detection). In an irregular rhythm no beat is called S.
/// - Q: a window that holds missing samples. F is not assigned: fusion beats are labelled N or V.
///
/// Latency: a beat is labelled once the beat after it is known, or once no beat came within
/// ``Configuration/longestInterval`` of it, and its window's samples are in; given the detector's latency
/// bound, every label comes at most `longestInterval` + that bound + the window's end after its R peak.
///
/// References: P. de Chazal, M. O'Dwyer, R. B. Reilly, IEEE Trans. Biomed. Eng. 51(7):1196–1206, 2004.
/// M. Llamedo, J. P. Martínez, IEEE Trans. Biomed. Eng. 58(3):616–625, 2011.
/// T. Mar et al., IEEE Trans. Biomed. Eng. 58(8):2168–2177, 2011. P. S. Hamilton, Computers in
/// Cardiology 29:101–104, 2002. Accuracy and protocol: `make eval-ecg` and <doc:BeatClasses>.
public struct BeatClassifier: Sendable {
  /// The classifier's thresholds, in seconds and ratios.
  public struct Configuration: Sendable, Hashable {
    /// The window around the R peak that morphology reads, seconds relative to it.
    public var window: ClosedRange<Double> = -0.10...0.15
    /// A beat joins a template it correlates with at least this much.
    public var templateMatch = 0.90
    /// A beat whose correlation with the dominant template reaches this has normal morphology.
    public var normalMorphology = 0.85
    /// Below this correlation with the dominant template, a beat's morphology is distinct outright.
    public var distinctMorphology = 0.5
    /// QRS widening over the dominant template that marks a ventricular beat, seconds.
    public var widening = 0.04
    /// An abnormal beat earlier than this fraction of the reference RR interval is ventricular.
    public var ventricularPrematurity = 0.9
    /// A normal-looking beat earlier than this fraction of the reference RR interval is premature…
    public var supraventricularPrematurity = 0.8
    /// …and supraventricular when the interval after it exceeds the one before by this ratio.
    public var pauseRatio = 1.1
    /// A normal-looking beat earlier than this fraction of the reference is mildly premature…
    public var mildPrematurity = 0.95
    /// …and supraventricular when the interval after it exceeds the one before by this ratio.
    public var mildPauseRatio = 1.2
    /// A beat at least this fraction of the reference RR interval late counts as normally timed.
    public var normalTiming = 0.9
    /// A template with at least this many beats (with forgetting)…
    public var normalTemplateBeats = 10.0
    /// …of which at least this share came at normal timing holds normal beats.
    public var normalTemplateShare = 0.85
    /// Above this median successive RR difference (a fraction of the median RR), no beat is called S.
    public var irregularity = 0.1
    /// Beats over which template counts forget (a count decays by 1 − 1/memory per beat).
    public var templateMemory = 1000.0
    /// The longest RR interval after a beat that its label waits for, seconds.
    public var longestInterval = 2.5

    public init() {}
  }

  public let configuration: Configuration
  public let sampleRate: Double
  public let leadCount: Int
  /// Samples of each lead kept: the window and the longest wait for a label, plus the latency bound.
  private let ringLength: Int
  private let before: Int64
  private let after: Int64
  private let latency: Int64
  private let longestInterval: Int64
  /// The last `ringLength` samples of each lead, lead after lead, at index `sample % ringLength`.
  private var ring: [Float]
  private var samplesFed: Int64 = 0
  /// Beats added and not yet labelled, oldest first (record sample indices from the first sample fed).
  private var pending: [Int64] = []
  /// Index in `pending` of the oldest beat not yet labelled (labelled ones are dropped in batches).
  private var pendingStart = 0
  private var previousBeat: Int64?
  private var templates: BeatTemplates
  private var rhythm = BeatRhythm()
  private var window: [Float]

  /// A classifier for `leadCount` leads at `sampleRate` Hz, fed beats from a detector whose beats come at
  /// most `latency` samples after their R peak (e.g. ``QRSDetector/latencySamples``).
  public init(
    sampleRate: Double, leadCount: Int, latency: Int64, configuration: Configuration = Configuration()
  ) {
    precondition(sampleRate > 0 && leadCount > 0 && latency >= 0)
    self.configuration = configuration
    self.sampleRate = sampleRate
    self.leadCount = leadCount
    before = Int64((-configuration.window.lowerBound * sampleRate).rounded())
    after = Int64((configuration.window.upperBound * sampleRate).rounded())
    self.latency = latency
    longestInterval = Int64((configuration.longestInterval * sampleRate).rounded())
    ringLength = Int(before + after + longestInterval + latency) + QRSDetector.blockSize + 1
    ring = [Float](repeating: .nan, count: ringLength * leadCount)
    let windowLength = Int(before + after)
    window = [Float](repeating: 0, count: windowLength * leadCount)
    templates = BeatTemplates(
      leadCount: leadCount, windowLength: windowLength, sampleRate: sampleRate,
      matchThreshold: configuration.templateMatch, memory: configuration.templateMemory)
  }

  /// The longest delay between a beat's R peak and its label, in samples: every beat at least this long
  /// before the last sample fed is labelled.
  public var labelLatency: Int64 { max(longestInterval + latency, after) }

  /// Adds the next detected beat (its R peak's sample index from the first sample fed; increasing). A
  /// beat must be added before samples more than `latency` after it are fed.
  public mutating func add(beat: Int64) {
    precondition(pending.last.map { beat > $0 } ?? true, "beats must increase")
    if pendingStart > 0 && pendingStart * 2 >= pending.count {
      pending.removeFirst(pendingStart)
      pendingStart = 0
    }
    pending.append(beat)
  }

  /// Feeds the next samples of every lead (one array per lead, equally long) and appends the labels of
  /// the beats decided by now to `labels`, in beat order.
  public mutating func process(_ leads: [[Float]], appendingTo labels: inout [BeatClass]) {
    precondition(leads.count == leadCount && leads.allSatisfy { $0.count == leads[0].count })
    var offset = 0
    let count = leads[0].count
    while offset < count {
      let run = min(count - offset, QRSDetector.blockSize)
      for lead in 0..<leadCount {
        leads[lead].withUnsafeBufferPointer { samples in
          ring.withUnsafeMutableBufferPointer { ring in
            var slot = Int(samplesFed % Int64(ringLength))
            var copied = 0
            while copied < run {
              let part = min(run - copied, ringLength - slot)
              let target = ring.baseAddress! + lead * ringLength + slot
              target.update(from: samples.baseAddress! + offset + copied, count: part)
              copied += part
              slot = (slot + part) % ringLength
            }
          }
        }
      }
      samplesFed += Int64(run)
      offset += run
      labelDecided(appendingTo: &labels, finishing: false)
    }
  }

  /// The labels of `beats` (R-peak sample indices, increasing) in a whole recording whose leads are
  /// `leads` (equally long, at `sampleRate` Hz): the labels the streaming classifier gives.
  public static func classify(
    _ beats: [Int64], leads: [[Float]], sampleRate: Double, configuration: Configuration = Configuration()
  ) -> [BeatClass] {
    var classifier = BeatClassifier(
      sampleRate: sampleRate, leadCount: leads.count, latency: 0, configuration: configuration)
    for beat in beats { classifier.add(beat: beat) }
    var labels: [BeatClass] = []
    labels.reserveCapacity(beats.count)
    classifier.process(leads, appendingTo: &labels)
    classifier.finish(appendingTo: &labels)
    return labels
  }

  /// Labels every beat still pending (the record has ended) and appends the labels.
  public mutating func finish(appendingTo labels: inout [BeatClass]) {
    labelDecided(appendingTo: &labels, finishing: true)
  }

  /// Labels the pending beats whose window is in and whose next beat is known (or cannot come).
  private mutating func labelDecided(appendingTo labels: inout [BeatClass], finishing: Bool) {
    let horizon = samplesFed - latency
    while pendingStart < pending.count {
      let beat = pending[pendingStart]
      let next = pendingStart + 1 < pending.count ? pending[pendingStart + 1] : nil
      let known = next != nil || horizon >= beat + longestInterval || finishing
      guard known && (beat + after <= samplesFed || finishing) else { return }
      pendingStart += 1
      let following = next.flatMap { $0 - beat <= longestInterval ? $0 : nil }
      labels.append(label(beat, next: following))
      previousBeat = beat
    }
  }

  /// Labels `beat` given the beat after it (nil when none came within `longestInterval`).
  private mutating func label(_ beat: Int64, next: Int64?) -> BeatClass {
    let interval = previousBeat.map { Double(beat - $0) / sampleRate }
    let following = next.map { Double($0 - beat) / sampleRate }
    rhythm.observe(interval: interval)
    guard readWindow(around: beat) else {
      rhythm.record(.unclassifiable, interval: interval)
      return .unclassifiable
    }
    let reference = rhythm.reference
    let prematurity = interval.flatMap { i in reference.map { i / $0 } } ?? 1
    let comparison = templates.add(window, normallyTimed: prematurity >= configuration.normalTiming)
    let label = decide(
      comparison, prematurity: prematurity,
      pause: following.flatMap { f in interval.map { f / $0 } } ?? 1,
      following: following.flatMap { f in reference.map { f / $0 } } ?? 1)
    rhythm.record(label, interval: interval)
    return label
  }

  /// The class from the beat's morphology and timing (see the type's description); the width and the
  /// rhythm's regularity are measured only where the decision needs them.
  private mutating func decide(
    _ comparison: BeatTemplates.Comparison, prematurity: Double, pause: Double, following: Double
  ) -> BeatClass {
    let c = configuration
    let template = templates.templates[comparison.template]
    let normalTemplate =
      template.beats >= c.normalTemplateBeats && template.normalTimingShare >= c.normalTemplateShare
    let correlation = comparison.dominantCorrelation
    if correlation < c.normalMorphology {
      let ectopicTemplate = template.normalTimingShare < c.normalTemplateShare
      let distinct = correlation < c.distinctMorphology
      if !normalTemplate
        && (prematurity < c.ventricularPrematurity
          || (ectopicTemplate && (distinct || templates.widening(of: window) > c.widening)))
      {
        return .ventricular
      }
      return .normal
    }
    let premature = prematurity < c.supraventricularPrematurity
    let runs = following < c.supraventricularPrematurity || rhythm.lastLabel == .supraventricular
    let timed =
      (premature && (pause > c.pauseRatio || runs))
      || (prematurity < c.mildPrematurity && pause > c.mildPauseRatio)
    return timed && rhythm.isRegular(below: c.irregularity) ? .supraventricular : .normal
  }

  /// Copies the window around `beat` into `window`, each lead's mean removed; false when a sample of it
  /// is missing (not finite, or before the first sample fed).
  private mutating func readWindow(around beat: Int64) -> Bool {
    let start = beat - before
    guard start >= 0 else { return false }
    let length = Int(before + after)
    let first = Int(start % Int64(ringLength))
    let firstPart = min(length, ringLength - first)
    return ring.withUnsafeBufferPointer { ring in
      window.withUnsafeMutableBufferPointer { window in
        for lead in 0..<leadCount {
          let source = ring.baseAddress! + lead * ringLength
          let target = window.baseAddress! + lead * length
          target.update(from: source + first, count: firstPart)
          (target + firstPart).update(from: source, count: length - firstPart)
          guard Self.subtractMean(UnsafeMutableBufferPointer(start: target, count: length)) else {
            return false
          }
        }
        return true
      }
    }
  }

  /// Subtracts the mean of `samples` from each of them, eight lanes at a time; false (samples unchanged)
  /// when one is not finite.
  private static func subtractMean(_ samples: UnsafeMutableBufferPointer<Float>) -> Bool {
    // x − x is 0 for a finite x and NaN otherwise, so the samples are finite when the sum of these is 0.
    var sums = SIMD8<Float>()
    var check = SIMD8<Float>()
    let raw = UnsafeMutableRawPointer(samples.baseAddress!)
    var k = 0
    while k + 8 <= samples.count {
      let v = raw.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
      sums += v
      check += v - v
      k += 8
    }
    var sum = sums.sum()
    var tailCheck = check.sum()
    for tail in k..<samples.count {
      sum += samples[tail]
      tailCheck += samples[tail] - samples[tail]
    }
    guard tailCheck == 0 else { return false }
    let mean = sum / Float(samples.count)
    k = 0
    while k + 8 <= samples.count {
      let v = raw.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
      raw.storeBytes(of: v - mean, toByteOffset: 4 * k, as: SIMD8<Float>.self)
      k += 8
    }
    for tail in k..<samples.count { samples[tail] -= mean }
    return true
  }
}
