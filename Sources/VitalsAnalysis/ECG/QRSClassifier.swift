/// The decision stage of ``QRSDetector``: finds feature peaks, classifies them with adaptive thresholds,
/// T-wave discrimination, the interloper check and latency-bounded search-back, and places each beat on its
/// R peak. Works one sample at a time over blocks the detector has filtered, so its decisions do not depend
/// on block sizes.
struct QRSClassifier: Sendable {
  /// A feature peak: where it lies, how high it is, and the QRS it stands for.
  struct Candidate: Sendable {
    /// Record index of the R peak.
    var rPeak: Int64
    /// Square root of the feature peak (band-passed derivative squared and averaged): an amplitude.
    var height: Double
    /// Steepest slope of the band-passed signal in the QRS, input units per feature sample.
    var slope: Float
  }

  /// Input samples per feature sample.
  let factor: Int64
  // In feature samples:
  let halfWindow: Int64
  let qrsSpan: Int64
  // In input samples:
  let placementOffset: Int64
  let placementHalfWidth: Int64
  let refractory: Int64
  let tWaveWindow: Int64
  let tWaveSlopeRatio: Float
  let thresholdPosition: Double
  let searchBackThresholdRatio: Double
  let searchBackInterval: Double
  let maximumLatency: Int64
  let interloperPrematurity: Double
  let interloperHeightRatio: Double
  let interloperRegularity: Double
  let stepSlopeSymmetry: Double
  /// Slope symmetry: half-width of the window around the R peak and the lag of the differences, input
  /// samples.
  let symmetryHalfWidth: Int64
  let symmetryLag: Int64
  let amplitudeDropPause: Int64
  let amplitudeDropFloor: Double

  /// Input samples received (the raw ring's end).
  var rawCount: Int64 = 0
  /// Index of the next feature sample to scan.
  var nextIndex: Int64 = 0
  /// The input (offset removed) over the last `rawRing.count` samples: a power of two that holds a whole
  /// block plus the history that placing a beat reads.
  var rawRing: [Float]
  /// Band-passed and feature history at the feature rate, `featureRingLength` samples each.
  var featureRings: [Float]
  let featureRingLength: Int
  var signalLevel = 0.0
  /// The lowest signal level the amplitude drop may bring: `amplitudeDropFloor` of its value after the last
  /// beat.
  var signalLevelFloor = 0.0
  var noiseLevel = 0.0
  var lastBeat: Candidate?
  /// Whether the last beat is a held peak accepted by the deadline before the window where its rhythm
  /// expects the next beat had passed; its intervals are left out of `intervals`.
  var lastBeatUnconfirmed = false
  /// The last RR intervals (input samples) in a circular buffer, and their median.
  var intervals: [Int64] = []
  var intervalSlot = 0
  var medianInterval: Int64
  /// The first feature sample at which the search-back is due (``firstSample(reaching:)`` of its time).
  var searchBackSample = Int64.max
  /// Peaks since the last beat that were not taken for beats, oldest first.
  var pending: [Candidate] = []
  /// A premature, weak peak above the threshold whose decision waits for the next beat (the interloper
  /// check), or the first peak of a segment that starts with nothing learned when it lies within the
  /// T-wave window of the start (``resolveFirst(_:now:history:beats:)``), and the first feature sample at
  /// which it is decided (``firstSample(reaching:)`` of its deadline).
  var deferred: Candidate?
  var deferredSample = Int64.max

  static let intervalHistory = 8
  static let pendingLimit = 16

  /// What the classifier of a lead has learned, carried over a gap (see ``QRSDetector``): the signal and
  /// noise levels, the RR history and the last beat.
  struct Learned: Sendable {
    var signalLevel, signalLevelFloor, noiseLevel: Double
    var intervals: [Int64]
    var intervalSlot: Int
    var medianInterval: Int64
    var lastBeat: Candidate?
  }

  /// While the end of a segment is held (`QRSDetector.Segment.finish(holding:appendingTo:)`): beats from
  /// this input sample on are dropped, and ``learnedAtLastKeptBeat`` is what the classifier had learned
  /// when it took the last beat before it.
  var keptBeatCut: Int64?
  var learnedAtLastKeptBeat: Learned?

  /// What this classifier has learned so far.
  var learned: Learned {
    Learned(
      signalLevel: signalLevel, signalLevelFloor: signalLevelFloor, noiseLevel: noiseLevel,
      intervals: intervals, intervalSlot: intervalSlot, medianInterval: medianInterval, lastBeat: lastBeat)
  }

  /// Continues, at rest, what a classifier learned before a gap: its thresholds and RR history, and its
  /// last beat moved back by `shift` input samples (the distance from the earlier segment's first sample to
  /// this one's), so that the first peaks after the gap meet the thresholds, the refractory period and the
  /// T-wave test as any other. The interval across the gap is not an RR interval: it is not recorded. The
  /// search-back is due a search-back interval after the last beat, as without the gap (at the gap's end
  /// when that has passed), so that a QRS complex a short gap cut is taken as a missed beat is.
  mutating func resume(from learned: Learned, shift: Int64) {
    signalLevel = learned.signalLevel
    signalLevelFloor = learned.signalLevelFloor
    noiseLevel = learned.noiseLevel
    intervals = learned.intervals
    intervalSlot = learned.intervalSlot
    medianInterval = learned.medianInterval
    lastBeat = learned.lastBeat.map { Candidate(rPeak: $0.rPeak - shift, height: $0.height, slope: $0.slope) }
    lastBeatUnconfirmed = lastBeat != nil
    // The search-back stays due where the last beat put it (a QRS cut by a short gap is found by it, as a
    // missed beat is), but not before the gap's end.
    searchBackSample =
      lastBeat.map {
        firstSample(
          reaching: max(0, $0.rPeak + Int64((searchBackInterval * Double(medianInterval)).rounded())))
      } ?? .max
  }

  /// - Parameters:
  ///   - bandpassDelay: group delay of the band-pass at its center, feature samples.
  ///   - decimatorDelay: group delay of the anti-alias filter, input samples.
  init(
    configuration c: QRSDetector.Configuration, sampleRate: Double, decimationFactor: Int, integration: Int,
    halfWindow: Int, bandpassDelay: Double, derivativeDelay: Int, decimatorDelay: Int, blockSize: Int
  ) {
    func samples(_ seconds: Double) -> Int64 { Int64((seconds * sampleRate).rounded()) }
    self.factor = Int64(decimationFactor)
    self.halfWindow = Int64(halfWindow)
    self.qrsSpan = Int64(integration + derivativeDelay)
    // The band-passed extremum moved back by half the band-pass delay (the QRS's energy lies above the
    // pass band's center, where the delay is shorter) and by the anti-alias filter's delay.
    let placementOffset =
      Int64(decimatorDelay) + Int64((bandpassDelay / 2 * Double(decimationFactor)).rounded())
    let placementHalfWidth = samples(0.050)
    self.placementOffset = placementOffset
    self.placementHalfWidth = placementHalfWidth
    self.refractory = samples(c.refractoryPeriod)
    self.tWaveWindow = samples(c.tWaveWindow)
    self.tWaveSlopeRatio = Float(c.tWaveSlopeRatio)
    self.thresholdPosition = c.thresholdPosition
    self.searchBackThresholdRatio = c.searchBackThresholdRatio
    self.searchBackInterval = c.searchBackInterval
    // A feature sample `n` is decided when the last input sample it decimates has come, up to `factor − 1`
    // samples after `n·factor`, and deadlines fall on the first feature sample that reaches them, up to
    // `factor − 1` samples late: the bound the decisions use leaves room for both, and is rounded down.
    self.maximumLatency =
      Int64((c.maximumLatency * sampleRate).rounded(.down)) - 2 * Int64(decimationFactor - 1)
    self.interloperPrematurity = c.interloperPrematurity
    self.interloperHeightRatio = c.interloperHeightRatio
    self.interloperRegularity = c.interloperRegularity
    self.stepSlopeSymmetry = c.stepSlopeSymmetry
    let symmetryHalfWidth = samples(0.080)
    self.symmetryHalfWidth = symmetryHalfWidth
    self.symmetryLag = max(1, samples(0.010))
    self.amplitudeDropPause = samples(c.amplitudeDropPause)
    self.amplitudeDropFloor = c.amplitudeDropFloor
    self.medianInterval = samples(1)
    // The interloper check reads the feature back to a refractory period after a peak whose R peak lies up
    // to the latency bound in the past; the search for a masked QRS, two half-windows before a peak (a
    // half-window before now) and the QRS span before that.
    let featureHistory =
      halfWindow
      + max(2 * halfWindow + integration + derivativeDelay, Int(samples(c.maximumLatency)) / decimationFactor)
      + 4
    self.featureRingLength = Int.powerOfTwo(atLeast: blockSize + 1 + featureHistory)
    self.featureRings = [Float](repeating: 0, count: 2 * featureRingLength)
    // Placing a beat reads back to the placement window's start; the slope symmetry reads `symmetryHalfWidth`
    // (80 ms) around its R peak, which may lie a placement half-width before that start.
    let rawHistory =
      featureHistory * decimationFactor
      + Int(placementOffset + 2 * placementHalfWidth + symmetryHalfWidth) + 4
    self.rawRing = [Float](repeating: 0, count: Int.powerOfTwo(atLeast: blockSize + rawHistory))
    self.pending.reserveCapacity(Self.pendingLimit)
    self.intervals.reserveCapacity(Self.intervalHistory)
  }

  /// The band-passed signal and the feature at the feature rate, and the input at the input rate.
  struct History {
    let feature: UnsafeMutablePointer<Float>
    let featureMask: Int
    let featureLength: Int
    let raw: UnsafePointer<Float>
    let rawMask: Int
    @inline(__always) func band(_ index: Int64) -> Float { feature[Int(index) & featureMask] }
    @inline(__always) func feature(_ index: Int64) -> Float {
      feature[featureLength + Int(index) & featureMask]
    }
    @inline(__always) func raw(_ index: Int64) -> Float { raw[Int(index) & rawMask] }
  }

  /// Appends a block of input samples (at most the block size) to the raw history.
  mutating func appendRaw(_ block: UnsafeBufferPointer<Float>) {
    rawRing.withUnsafeMutableBufferPointer { Self.copy(block, into: $0, at: rawCount) }
    rawCount += Int64(block.count)
  }

  /// Copies `block` into the power-of-two ring `ring` from record index `index` on, wrapping around.
  private static func copy(
    _ block: UnsafeBufferPointer<Float>, into ring: UnsafeMutableBufferPointer<Float>, at index: Int64
  ) {
    let mask = ring.count - 1
    var slot = Int(index) & mask
    var copied = 0
    while copied < block.count {
      let run = min(block.count - copied, ring.count - slot)
      _ = UnsafeMutableBufferPointer(rebasing: ring[slot..<slot + run])
        .update(fromContentsOf: UnsafeBufferPointer(rebasing: block[copied..<copied + run]))
      copied += run
      slot = (slot + run) & mask
    }
  }

  /// Scans one block at the feature rate and appends decided beats (input indices) to `beats`.
  ///
  /// A feature peak is a sample `p` above zero and its predecessor, not below its successor, and not below
  /// any sample within `±halfWindow`; it is tested `halfWindow` samples later, at sample `n = p +
  /// halfWindow`. At each sample the deferred peak's deadline, the peak test and the search-back's due time
  /// are checked in that order; samples where none of them can fire (no local maximum, both times still
  /// ahead) are skipped eight at a time (``nextEvent(from:before:ring:mask:)``), and only local maxima, rare
  /// in a smoothed feature, take the look over the window: cheaper than a running maximum.
  mutating func scan(
    band: UnsafeBufferPointer<Float>, feature: UnsafeBufferPointer<Float>, beats: inout [Int64]
  ) {
    var rings: [Float] = []
    swap(&rings, &featureRings)
    defer { swap(&rings, &featureRings) }
    var raw: [Float] = []
    swap(&raw, &rawRing)
    defer { swap(&raw, &rawRing) }
    let mask = featureRingLength - 1
    raw.withUnsafeBufferPointer { raw in
      rings.withUnsafeMutableBufferPointer { storage in
        let history = History(
          feature: storage.baseAddress!, featureMask: mask, featureLength: featureRingLength,
          raw: raw.baseAddress!, rawMask: raw.count - 1)
        let length = featureRingLength
        // The block goes into the rings at once; the decisions at sample n read only samples up to n,
        // so they do not depend on where blocks end.
        Self.copy(band, into: UnsafeMutableBufferPointer(rebasing: storage[0..<length]), at: nextIndex)
        Self.copy(
          feature, into: UnsafeMutableBufferPointer(rebasing: storage[length..<2 * length]), at: nextIndex)
        let featureRing = storage.baseAddress! + length
        let end = nextIndex + Int64(band.count)
        var n = nextEvent(from: nextIndex, before: end, ring: featureRing, mask: mask)
        while n < end {
          if n >= deferredSample { resolveDeferred(now: n, history: history, beats: &beats) }
          if isPeak(now: n, ring: featureRing, mask: mask) {
            classify(
              peak: n - halfWindow, now: n, history: history, rawOldest: rawCount - Int64(raw.count) + 1,
              beats: &beats)
          }
          if deferred == nil && n >= searchBackSample { searchBack(now: n * factor, beats: &beats) }
          n = nextEvent(from: n + 1, before: end, ring: featureRing, mask: mask)
        }
        nextIndex = end
      }
    }
  }

  /// The first feature sample from `start` on, before `end`, at which ``scan(band:feature:beats:)`` acts: the
  /// deferred peak's deadline, the search-back's due time (while no peak is deferred), or a feature peak
  /// `halfWindow` samples back (``isLocalMaximum(at:ring:mask:)`` and
  /// ``isWindowMaximum(_:around:now:ring:mask:)``); `end` when there is none.
  ///
  /// Eight candidates are tested at once: for being local maxima, then, since a peak is not below any
  /// sample within `halfWindow`, for being not below the samples within 8 of them (which rules out most
  /// local maxima of a noisy feature), and only those left take the look over the whole window.
  @inline(__always)
  private func nextEvent(from start: Int64, before end: Int64, ring: UnsafeMutablePointer<Float>, mask: Int)
    -> Int64
  {
    var limit = min(end, max(start, deferredSample))
    if deferred == nil { limit = min(limit, max(start, searchBackSample)) }
    var n = max(start, halfWindow + 1)
    let ringLength = mask + 1
    let reach = Int(min(halfWindow, 8))
    while n < limit {
      let peak = n - halfWindow
      // Ring slot of the first sample the eight candidates' near test reads.
      let slot = (Int(peak) - reach) & mask
      if n + 8 <= limit && slot + 2 * reach + 8 <= ringLength {
        let samples = UnsafeRawPointer(ring + slot)
        func load(_ offset: Int) -> SIMD8<Float> {
          samples.loadUnaligned(fromByteOffset: 4 * (reach + offset), as: SIMD8<Float>.self)
        }
        let height = load(0)
        var found = (height .> SIMD8<Float>()) .& (height .> load(-1)) .& (height .>= load(1))
        if any(found) {
          for offset in stride(from: 2, through: reach, by: 1) {
            found = found .& .!(load(-offset) .> height) .& .!(load(offset) .> height)
          }
          if any(found) {
            for lane in 0..<8 where found[lane] {
              if isWindowMaximum(
                height[lane], around: peak + Int64(lane), now: n + Int64(lane), ring: ring, mask: mask)
              {
                return n + Int64(lane)
              }
            }
          }
        }
        n += 8
      } else {
        if isPeak(now: n, ring: ring, mask: mask) { return n }
        n += 1
      }
    }
    return limit
  }

  /// The first feature sample `n` whose input index `n·factor` reaches `time` (input samples).
  private func firstSample(reaching time: Int64) -> Int64 {
    time <= 0 ? 0 : (time - 1) / factor + 1
  }

  /// Whether the feature sample `halfWindow` before `now` is a feature peak (see
  /// ``scan(band:feature:beats:)``): a local maximum (``isLocalMaximum(at:ring:mask:)``) not below any
  /// sample within `±halfWindow` (``isWindowMaximum(_:around:now:ring:mask:)``).
  @inline(__always)
  private func isPeak(now n: Int64, ring: UnsafeMutablePointer<Float>, mask: Int) -> Bool {
    let peak = n - halfWindow
    return peak >= 1 && isLocalMaximum(at: peak, ring: ring, mask: mask)
      && isWindowMaximum(ring[Int(peak) & mask], around: peak, now: n, ring: ring, mask: mask)
  }

  /// Whether the feature at `peak` is above zero and its predecessor and not below its successor.
  @inline(__always)
  private func isLocalMaximum(at peak: Int64, ring: UnsafeMutablePointer<Float>, mask: Int) -> Bool {
    let height = ring[Int(peak) & mask]
    return height > 0 && height > ring[Int(peak - 1) & mask] && height >= ring[Int(peak + 1) & mask]
  }

  /// Whether no feature sample from `peak − halfWindow` to `now` exceeds `height`; eight samples at a time
  /// where they do not wrap around the ring.
  @inline(__always)
  private func isWindowMaximum(
    _ height: Float, around peak: Int64, now: Int64, ring: UnsafeMutablePointer<Float>, mask: Int
  ) -> Bool {
    var k = max(peak - halfWindow, 0)
    let ringLength = mask + 1
    let bound = SIMD8<Float>(repeating: height)
    while k <= now {
      let slot = Int(k) & mask
      if now - k >= 7 && slot + 8 <= ringLength {
        if any(UnsafeRawPointer(ring + slot).loadUnaligned(as: SIMD8<Float>.self) .> bound) { return false }
        k += 8
      } else {
        if ring[slot] > height { return false }
        k += 1
      }
    }
    return true
  }

  /// The QRS behind the feature peak at `peak` (feature samples), with the input up to `now` (input samples).
  private func candidate(peak: Int64, now: Int64, history: History, rawOldest: Int64) -> Candidate {
    // The band-passed samples whose slopes the integration window holds. (Before the record's start the
    // rings hold zeros.)
    var extremum: Float = -1
    var extremumIndex = peak
    for k in (peak - qrsSpan)...peak {
      let value = abs(history.band(k))
      if value > extremum {
        extremum = value
        extremumIndex = k
      }
    }
    return Candidate(
      rPeak: placeRPeak(
        center: extremumIndex * factor - placementOffset, now: now, history: history, oldest: rawOldest),
      height: Double(history.feature(peak)).squareRoot(), slope: qrsSlope(endingAt: peak, history: history))
  }

  /// Describes the feature peak at `peak` (feature samples; `now` is the current one) and classifies it.
  private mutating func classify(
    peak: Int64, now: Int64, history: History, rawOldest: Int64, beats: inout [Int64]
  ) {
    let nowInput = now * factor
    if deferred != nil { resolveDeferred(now: now, history: history, beats: &beats) }
    let candidate = candidate(peak: peak, now: nowInput, history: history, rawOldest: rawOldest)
    pruneStalePending(now: nowInput)
    guard let last = lastBeat else {
      if candidate.rPeak < tWaveWindow {
        deferred = candidate
        deferredSample = firstSample(reaching: candidate.rPeak + maximumLatency)
      } else {
        accept(candidate, learningRate: 1, beats: &beats)
      }
      return
    }
    if candidate.height >= primaryThreshold && candidate.rPeak - last.rPeak >= refractory
      && !isTWave(candidate, after: last)
    {
      let premature = Double(candidate.rPeak - last.rPeak) < interloperPrematurity * Double(medianInterval)
      let oneSided =
        slopeSymmetry(around: candidate.rPeak, now: nowInput, history: history, oldest: rawOldest)
        < stepSlopeSymmetry
      if oneSided,
        let masked = maskedQRS(
          before: peak, after: last, now: nowInput, history: history, rawOldest: rawOldest)
      {
        reject(candidate)
        accept(masked, learningRate: 0.125, beats: &beats)
      } else if oneSided && premature {
        reject(candidate)
      } else if premature && candidate.height < interloperHeightRatio * signalLevel && isRhythmRegular {
        deferred = candidate
        deferredSample = firstSample(reaching: candidate.rPeak + maximumLatency)
      } else {
        accept(candidate, learningRate: 0.125, beats: &beats)
      }
    } else {
      reject(candidate)
    }
  }

  /// The QRS complex that the one-sided peak of the feature at `peak` (feature samples) hides within its peak
  /// window, if any: the highest local maximum of the feature from two half-windows to half a half-window
  /// before `peak` (400 to 100 ms by default), when it stands for a two-sided QRS above the primary threshold,
  /// a refractory period after the beat `last`, not a T wave, and with its R peak within the latency bound
  /// of `now` (input samples).
  private func maskedQRS(
    before peak: Int64, after last: Candidate, now: Int64, history: History, rawOldest: Int64
  )
    -> Candidate?
  {
    guard
      let highest = highestLocalMaximum(
        from: peak - 2 * halfWindow, to: peak - halfWindow / 2, now: now / factor, history: history)
    else { return nil }
    let masked = candidate(peak: highest, now: now, history: history, rawOldest: rawOldest)
    guard
      masked.rPeak >= now - maximumLatency && masked.height >= primaryThreshold
        && masked.rPeak - last.rPeak >= refractory
        && !isTWave(masked, after: last)
        && slopeSymmetry(around: masked.rPeak, now: now, history: history, oldest: rawOldest)
          >= stepSlopeSymmetry
    else { return nil }
    return masked
  }

  /// The highest local maximum of the feature above zero from `low` to `high` (feature samples; the sample
  /// `now`, the last one known, counts when it rises), if any.
  private func highestLocalMaximum(from low: Int64, to high: Int64, now: Int64, history: History) -> Int64? {
    var highest: Float = 0
    var highestIndex: Int64?
    var k = low
    while k <= high {
      let value = history.feature(k)
      if value > highest && value > history.feature(k - 1) && (k == now || value >= history.feature(k + 1)) {
        highest = value
        highestIndex = k
      }
      k += 1
    }
    return highestIndex
  }

  /// Counts a peak that is not a beat into the noise level and keeps it for search-back.
  private mutating func reject(_ candidate: Candidate) {
    noiseLevel += 0.125 * (candidate.height - noiseLevel)
    if pending.count == Self.pendingLimit { pending.removeFirst() }
    pending.append(candidate)
  }

  /// Whether the last RR intervals (a full history) span at most `interloperRegularity` from shortest to
  /// longest.
  private var isRhythmRegular: Bool {
    guard intervals.count == Self.intervalHistory, let shortest = intervals.min(),
      let longest = intervals.max()
    else { return false }
    return Double(longest) <= interloperRegularity * Double(shortest)
  }

  /// Decides the deferred peak with the feature up to `now` (feature samples): an interloper, rejected,
  /// when a QRS-like rise follows it, at least a refractory period later, within ±15 % of the median RR
  /// interval of where the last beat's rhythm expects the next beat — the rhythm went on undisturbed, as
  /// it does around an artifact but not after a premature beat (a compensatory pause or a reset sinus
  /// node). A QRS-like rise is a local maximum of the feature (or its still rising last sample) above the
  /// primary threshold whose band-passed slope is at least `tWaveSlopeRatio` of the last beat's. A peak
  /// accepted before that window has passed is unconfirmed (see `lastBeatUnconfirmed`).
  private mutating func resolveDeferred(now: Int64, history: History, beats: inout [Int64]) {
    guard let candidate = deferred else { return }
    deferred = nil
    deferredSample = .max
    guard let last = lastBeat else {
      return resolveFirst(candidate, now: now, history: history, beats: &beats)
    }
    let median = Double(medianInterval)
    let qrsDelay = placementOffset + qrsSpan * factor
    let first = max(
      last.rPeak + Int64((0.85 * median).rounded()) + placementOffset, candidate.rPeak + refractory + qrsDelay
    )
    let expectedEnd = (last.rPeak + Int64((1.15 * median).rounded()) + qrsDelay) / factor
    let final = min(expectedEnd, now)
    let rise = highestLocalMaximum(from: first / factor, to: final, now: now, history: history)
    let highest = rise.map { history.feature($0) } ?? 0
    let slope = rise.map { qrsSlope(endingAt: $0, history: history) } ?? 0
    if Double(highest).squareRoot() >= primaryThreshold && slope >= tWaveSlopeRatio * last.slope {
      reject(candidate)
    } else {
      accept(candidate, learningRate: 0.125, unconfirmed: expectedEnd > now, beats: &beats)
    }
  }

  /// Decides, at feature sample `now`, on the held first peak of a segment that starts with nothing
  /// learned, `candidate`, whose R peak lies within the T-wave window of the start. Such a peak may be the
  /// T wave, or the end, of a QRS complex before the start, which the T-wave test cannot see: it is no beat
  /// (and counts into the noise level) when the band-passed signal from a refractory period after it to
  /// `now` is at least 1/`tWaveSlopeRatio` times as steep as its QRS (the T-wave test of Pan & Tompkins
  /// 1985 turned forward: the QRS complex after a T wave is the steeper one); otherwise it is the first beat
  /// and sets the signal level.
  private mutating func resolveFirst(
    _ candidate: Candidate, now: Int64, history: History, beats: inout [Int64]
  ) {
    // Band-passed samples lag the input by the placement offset.
    let from = (candidate.rPeak + refractory + placementOffset) / factor
    if candidate.slope < tWaveSlopeRatio * steepestSlope(from: from, through: now, history: history) {
      reject(candidate)
    } else {
      accept(candidate, learningRate: 1, beats: &beats)
    }
  }

  /// The R peak: within a ±50 ms window around `center` (input samples), the first peak of the input's
  /// distance (either way) from the line joining the window's ends that reaches half the largest
  /// distance (the line keeps baseline wander from moving it). For a QS complex this is the deepest point: the
  /// dominant deflection. Reads only samples up to `now`.
  private func placeRPeak(center: Int64, now: Int64, history: History, oldest: Int64) -> Int64 {
    let low = max(center - placementHalfWidth, oldest, 0)
    let high = min(center + placementHalfWidth, now)
    guard high > low else { return min(max(center, low), now) }
    let start = history.raw(low)
    let step = (history.raw(high) - start) / Float(high - low)
    let count = Int(high - low) + 1
    return withUnsafeTemporaryAllocation(of: Float.self, capacity: count) { deviations in
      var best: Float = 0
      for i in 0..<count {
        let deviation = abs(history.raw(low + Int64(i)) - start - step * Float(i))
        deviations[i] = deviation
        best = max(best, deviation)
      }
      // The first peak of the deviation that reaches half the largest: the R wave even where a deeper S
      // wave follows, and the same peak of a notched or M-shaped complex (bundle-branch block, paced or
      // ectopic beats) beat after beat, instead of whichever happens to be larger.
      let floor = 0.5 * best
      var previous = deviations[0]
      for i in 0..<count {
        let value = deviations[i]
        if value >= floor && value >= previous && (i == count - 1 || value >= deviations[i + 1]) {
          return low + Int64(i)
        }
        previous = value
      }
      return center
    }
  }

  /// The steepest step of the band-passed signal over the QRS behind the feature sample `peak` (the
  /// `qrsSpan` samples the integration window holds): a candidate's slope.
  private func qrsSlope(endingAt peak: Int64, history: History) -> Float {
    steepestSlope(from: peak - qrsSpan, through: peak, history: history)
  }

  /// The largest change of the band-passed signal from one feature sample to the next, over the samples
  /// `first` to `last` (each against the one before it); 0 when `first` is after `last`.
  private func steepestSlope(from first: Int64, through last: Int64, history: History) -> Float {
    guard first <= last else { return 0 }
    var slope: Float = 0
    var previous = history.band(first - 1)
    for k in first...last {
      let value = history.band(k)
      slope = max(slope, abs(value - previous))
      previous = value
    }
    return slope
  }

  /// The smaller of the input's steepest rise and steepest fall over `symmetryLag` samples within
  /// ±`symmetryHalfWidth` of `rPeak`, divided by the larger (1 for a flat window): near 1 for a spike that
  /// rises and falls alike, near 0 for a one-sided edge (a step). Reads only samples up to `now`.
  private func slopeSymmetry(around rPeak: Int64, now: Int64, history: History, oldest: Int64) -> Double {
    let low = max(rPeak - symmetryHalfWidth, oldest, 0)
    let high = min(rPeak + symmetryHalfWidth, now - symmetryLag)
    guard high >= low else { return 1 }
    var rise: Float = 0
    var fall: Float = 0
    for k in low...high {
      let change = history.raw(k + symmetryLag) - history.raw(k)
      rise = max(rise, change)
      fall = max(fall, -change)
    }
    let larger = max(rise, fall)
    return larger > 0 ? Double(min(rise, fall) / larger) : 1
  }

  private var primaryThreshold: Double { noiseLevel + thresholdPosition * (signalLevel - noiseLevel) }

  private func isTWave(_ candidate: Candidate, after last: Candidate) -> Bool {
    candidate.rPeak - last.rPeak < tWaveWindow && candidate.slope < tWaveSlopeRatio * last.slope
  }

  private mutating func pruneStalePending(now: Int64) {
    let stale = pending.prefix { $0.rPeak < now - maximumLatency }.count
    if stale > 0 { pending.removeFirst(stale) }
  }

  /// No beat for `searchBackInterval` median RR intervals: takes the highest recent peak above the
  /// secondary threshold, or, when there is none and no beat has come for `amplitudeDropPause`, halves
  /// the signal level.
  private mutating func searchBack(now: Int64, beats: inout [Int64]) {
    pruneStalePending(now: now)
    let threshold = searchBackThresholdRatio * primaryThreshold
    var best: Int?
    if let last = lastBeat {
      for (index, candidate) in pending.enumerated()
      where candidate.height >= threshold && candidate.rPeak - last.rPeak >= refractory
        && !isTWave(candidate, after: last) && candidate.height > (best.map { pending[$0].height } ?? 0)
      {
        best = index
      }
    }
    if let best {
      accept(pending[best], learningRate: 0.25, beats: &beats)
    } else {
      if now - (lastBeat?.rPeak ?? 0) >= amplitudeDropPause {
        signalLevel = max(0.5 * signalLevel, noiseLevel, signalLevelFloor)
      }
      searchBackSample = firstSample(reaching: now + medianInterval)
    }
  }

  private mutating func accept(
    _ candidate: Candidate, learningRate: Double, unconfirmed: Bool = false, beats: inout [Int64]
  ) {
    signalLevel += learningRate * (candidate.height - signalLevel)
    signalLevelFloor = amplitudeDropFloor * signalLevel
    // A beat taken before the rhythm after it could be seen may be an artifact: its intervals stay out of
    // the RR history, so that one such beat neither shortens the median RR interval nor makes a steady
    // rhythm look irregular (which would turn the interloper check off for the next 8 beats).
    if let last = lastBeat, !unconfirmed && !lastBeatUnconfirmed {
      recordInterval(candidate.rPeak - last.rPeak)
    }
    lastBeatUnconfirmed = unconfirmed
    lastBeat = candidate
    let kept = pending.drop { $0.rPeak <= candidate.rPeak }.count
    pending.removeFirst(pending.count - kept)
    searchBackSample = firstSample(
      reaching: candidate.rPeak + Int64((searchBackInterval * Double(medianInterval)).rounded()))
    beats.append(candidate.rPeak)
    if let cut = keptBeatCut, candidate.rPeak < cut { learnedAtLastKeptBeat = learned }
  }

  private mutating func recordInterval(_ interval: Int64) {
    if intervals.count < Self.intervalHistory {
      intervals.append(interval)
    } else {
      intervals[intervalSlot] = interval
      intervalSlot = (intervalSlot + 1) % Self.intervalHistory
    }
    medianInterval = intervals.withUnsafeBufferPointer { intervals in
      withUnsafeTemporaryAllocation(of: Int64.self, capacity: Self.intervalHistory) { sorted in
        let count = intervals.count
        for i in 0..<count {
          var j = i
          let value = intervals[i]
          while j > 0 && sorted[j - 1] > value {
            sorted[j] = sorted[j - 1]
            j -= 1
          }
          sorted[j] = value
        }
        return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
      }
    }
  }
}
