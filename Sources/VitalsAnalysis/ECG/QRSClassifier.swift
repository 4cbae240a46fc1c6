/// The decision stage of ``QRSDetector``: finds feature peaks, classifies them with adaptive thresholds,
/// T-wave discrimination and latency-bounded search-back, and places each beat on its R peak. Works one
/// sample at a time over blocks the detector has filtered, so its decisions do not depend on block sizes.
struct QRSClassifier: Sendable {
  /// A feature peak: where it lies, how high it is, and the QRS it stands for.
  struct Candidate: Sendable {
    /// Record index of the R peak.
    var rPeak: Int64
    /// Height of the feature peak (band-passed derivative squared and averaged).
    var height: Double
    /// Steepest slope of the band-passed signal in the QRS, input units per sample.
    var slope: Float
  }

  let halfWindow: Int64
  let qrsSpan: Int64
  let bandpassDelay: Int64
  let placementHalfWidth: Int64
  let tWaveWindow: Int64
  let tWaveSlopeRatio: Float
  let thresholdPosition: Double
  let searchBackThresholdRatio: Double
  let searchBackInterval: Double
  let maximumLatency: Int64
  let ringMask: Int
  let ringLength: Int

  /// Index of the next sample to scan.
  var nextIndex: Int64 = 0
  /// Raw, band-passed and feature history, `ringLength` samples each, one after the other.
  var rings: [Float]
  var signalLevel = 0.0
  var noiseLevel = 0.0
  var lastBeat: Candidate?
  /// The last RR intervals (samples) in a circular buffer, and their median.
  var intervals: [Int64] = []
  var intervalSlot = 0
  var medianInterval: Int64
  var searchBackDue = Int64.max
  /// Peaks since the last beat that were not taken for beats, oldest first.
  var pending: [Candidate] = []

  static let intervalHistory = 8
  static let pendingLimit = 16

  init(
    configuration c: QRSDetector.Configuration, sampleRate: Double, integration: Int, halfWindow: Int,
    bandpassDelay: Int, derivativeDelay: Int
  ) {
    func samples(_ seconds: Double) -> Int64 { Int64((seconds * sampleRate).rounded()) }
    self.halfWindow = Int64(halfWindow)
    self.qrsSpan = Int64(integration + derivativeDelay)
    self.bandpassDelay = Int64(bandpassDelay)
    self.placementHalfWidth = samples(0.050)
    self.tWaveWindow = samples(c.tWaveWindow)
    self.tWaveSlopeRatio = Float(c.tWaveSlopeRatio)
    self.thresholdPosition = c.thresholdPosition
    self.searchBackThresholdRatio = c.searchBackThresholdRatio
    self.searchBackInterval = c.searchBackInterval
    self.maximumLatency = samples(c.maximumLatency)
    self.medianInterval = samples(1)
    let history =
      halfWindow + integration + derivativeDelay + max(bandpassDelay, 0) + 2 * Int(placementHalfWidth) + 4
    var length = 1
    while length < history { length <<= 1 }
    self.ringLength = length
    self.ringMask = length - 1
    self.rings = [Float](repeating: 0, count: 3 * length)
    self.pending.reserveCapacity(16)
    self.intervals.reserveCapacity(Self.intervalHistory)
  }

  /// The record's samples are in ring `slot` of: 0 raw, 1 band-passed, 2 feature.
  struct History {
    let base: UnsafeMutablePointer<Float>
    let mask: Int
    let length: Int
    @inline(__always) func raw(_ index: Int64) -> Float { base[Int(index) & mask] }
    @inline(__always) func band(_ index: Int64) -> Float { base[length + Int(index) & mask] }
    @inline(__always) func feature(_ index: Int64) -> Float { base[2 * length + Int(index) & mask] }
  }

  /// Scans one filtered block: `maximum[i]` is the feature's maximum over the `2·halfWindow + 1` samples
  /// ending at sample `i`. Appends decided beats (record indices) to `beats`.
  mutating func scan(
    raw: UnsafeBufferPointer<Float>, band: UnsafeBufferPointer<Float>, feature: UnsafeBufferPointer<Float>,
    maximum: UnsafeBufferPointer<Float>, beats: inout [Int64]
  ) {
    var rings: [Float] = []
    swap(&rings, &self.rings)
    defer { swap(&rings, &self.rings) }
    rings.withUnsafeMutableBufferPointer { storage in
      let history = History(base: storage.baseAddress!, mask: ringMask, length: ringLength)
      let rawRing = storage.baseAddress!
      let bandRing = rawRing + ringLength
      let featureRing = bandRing + ringLength
      var n = nextIndex
      for i in 0..<raw.count {
        let slot = Int(n) & ringMask
        rawRing[slot] = raw[i]
        bandRing[slot] = band[i]
        let value = feature[i]
        featureRing[slot] = value
        let peak = n - halfWindow
        if peak >= 1 {
          let height = featureRing[Int(peak) & ringMask]
          if height == maximum[i] && height > 0 && height > featureRing[Int(peak - 1) & ringMask] {
            classify(peak: peak, now: n, history: history, beats: &beats)
          }
        }
        if n >= searchBackDue { searchBack(now: n, beats: &beats) }
        n += 1
      }
      nextIndex = n
    }
  }

  /// Describes the feature peak at `peak` and classifies it.
  private mutating func classify(peak: Int64, now: Int64, history: History, beats: inout [Int64]) {
    let oldest = now - Int64(ringLength) + 1
    // The QRS behind the feature peak: the band-passed samples whose slopes the integration window holds.
    let qrsStart = max(peak - qrsSpan, oldest + 1)
    var slope: Float = 0
    var extremum: Float = -1
    var extremumIndex = peak
    var previous = history.band(qrsStart - 1)
    for k in qrsStart...peak {
      let value = history.band(k)
      slope = max(slope, abs(value - previous))
      if abs(value) > extremum {
        extremum = abs(value)
        extremumIndex = k
      }
      previous = value
    }
    let candidate = Candidate(
      rPeak: placeRPeak(bandPeak: extremumIndex, now: now, history: history, oldest: oldest),
      height: Double(history.feature(peak)).squareRoot(), slope: slope)
    pruneStalePending(now: now)
    guard let last = lastBeat else {
      signalLevel = candidate.height
      accept(candidate, learningRate: 1, beats: &beats)
      return
    }
    if candidate.height >= primaryThreshold && candidate.rPeak - last.rPeak >= halfWindow
      && !isTWave(candidate, after: last)
    {
      accept(candidate, learningRate: 0.125, beats: &beats)
    } else {
      noiseLevel += 0.125 * (candidate.height - noiseLevel)
      if pending.count == Self.pendingLimit { pending.removeFirst() }
      pending.append(candidate)
    }
  }

  /// The R peak: the sample of the input farthest (either way) from the line joining the ends of a
  /// ±50 ms window around the band-passed extremum moved back by half the band-pass delay (the QRS's
  /// energy lies above the pass band's centre, where the delay is shorter), so that baseline wander
  /// does not move it. For a QS complex this is the deepest point: the dominant deflection.
  private func placeRPeak(bandPeak: Int64, now: Int64, history: History, oldest: Int64) -> Int64 {
    let center = bandPeak - bandpassDelay / 2
    let low = max(center - placementHalfWidth, oldest)
    let high = min(center + placementHalfWidth, now)
    guard high > low else { return min(max(center, oldest), now) }
    let start = history.raw(low)
    let step = (history.raw(high) - start) / Float(high - low)
    var best = -Float.infinity
    var bestIndex = center
    for k in low...high {
      let deviation = abs(history.raw(k) - start - step * Float(k - low))
      if deviation > best {
        best = deviation
        bestIndex = k
      }
    }
    return bestIndex
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
  /// secondary threshold, or lowers the signal level when there is none.
  private mutating func searchBack(now: Int64, beats: inout [Int64]) {
    pruneStalePending(now: now)
    let threshold = searchBackThresholdRatio * primaryThreshold
    var best: Int?
    if let last = lastBeat {
      for (index, candidate) in pending.enumerated()
      where candidate.height >= threshold && candidate.rPeak - last.rPeak >= halfWindow
        && !isTWave(candidate, after: last) && candidate.height > (best.map { pending[$0].height } ?? 0)
      {
        best = index
      }
    }
    if let best {
      accept(pending[best], learningRate: 0.25, beats: &beats)
    } else {
      signalLevel = max(0.5 * signalLevel, noiseLevel)
      searchBackDue = now + medianInterval
    }
  }

  private mutating func accept(_ candidate: Candidate, learningRate: Double, beats: inout [Int64]) {
    signalLevel += learningRate * (candidate.height - signalLevel)
    if let last = lastBeat { recordInterval(candidate.rPeak - last.rPeak) }
    lastBeat = candidate
    let kept = pending.drop { $0.rPeak <= candidate.rPeak }.count
    pending.removeFirst(pending.count - kept)
    searchBackDue = candidate.rPeak + Int64((searchBackInterval * Double(medianInterval)).rounded())
    beats.append(candidate.rPeak)
  }

  private mutating func recordInterval(_ interval: Int64) {
    if intervals.count < Self.intervalHistory {
      intervals.append(interval)
    } else {
      intervals[intervalSlot] = interval
      intervalSlot = (intervalSlot + 1) % Self.intervalHistory
    }
    medianInterval = withUnsafeTemporaryAllocation(of: Int64.self, capacity: Self.intervalHistory) { sorted in
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
