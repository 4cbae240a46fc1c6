import VitalsCore
import VitalsFFT

import VitalsSupport

/// Why a PPG heart-rate estimator or pulse detector could not be set up.
public enum PPGAnalysisError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The sample rate is below the supported minimum (25 Hz) or not finite.
  case unsupportedSampleRate(Double)
  /// A configuration value is out of range: the field's name and the value.
  case invalidConfiguration(String, Double)

  public var description: String {
    switch self {
    case .unsupportedSampleRate(let rate):
      "PPG analysis needs a sample rate of at least \(PPGHeartRateEstimator.minimumSampleRate) Hz, got \(rate) Hz"
    case .invalidConfiguration(let name, let value): "PPG option \(name) is out of range: \(value)"
    }
  }
}

extension PPGAnalysisError {
  /// Throws ``invalidConfiguration(_:_:)`` unless `range` holds `value`.
  static func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(PPGAnalysisError) {
    guard range.contains(value) else { throw .invalidConfiguration(name, value) }
  }

  /// The causal Butterworth band-pass (order 2 per corner) from `low` to `high` Hz at `sampleRate` Hz, for a
  /// rate of at least ``PPGHeartRateEstimator/minimumSampleRate``; throws ``unsupportedSampleRate(_:)`` for
  /// a lower or non-finite rate.
  static func bandPass(low: Double, high: Double, sampleRate: Double) throws(PPGAnalysisError) -> SOSFilter {
    guard sampleRate >= PPGHeartRateEstimator.minimumSampleRate && sampleRate.isFinite else {
      throw .unsupportedSampleRate(sampleRate)
    }
    do {
      return SOSFilter(
        try .butterworth(
          order: 2, band: .bandpass(low: low, high: min(high, 0.45 * sampleRate)), sampleRate: sampleRate))
    } catch {
      preconditionFailure("band-pass design failed at \(sampleRate) Hz: \(error)")
    }
  }
}

/// Motion-robust heart rate from one or more PPG channels and, when there is one, a 3-axis accelerometer:
/// one estimate per window (default 8 s every 2 s), causal — window `j` covers `[j·step, j·step + window)`
/// seconds from the first sample and is reported once its last sample has arrived, from that signal and
/// the earlier windows only. Feeding a recording in chunks of any sizes gives exactly the same windows.
///
/// Method, per window: band-pass 0.5–4 Hz and decimation to 25–50 Hz; periodograms of the PPG channels
/// (averaged) and of the accelerometer axes (bin-wise maximum, each axis weighted by how periodic it is);
/// spectral subtraction of the motion spectrum (TROIKA: Zhang, Pi & Liu 2015, IEEE TBME 62(2)); a causal
/// Viterbi tracker over the spectral bins with a penalty on the rate's change, for which the bins on a
/// strong motion line are uninformative rather than empty and, in locomotion, rates under a floor are
/// unlikely; the estimate refined by quadratic peak interpolation (Smith & Serra 1987).
/// <doc:PPGHeartRate> gives each step and its settings.
///
/// Quality is the share of the cleaned spectrum's power (in locomotion, weighted by the rate floor's
/// prior) within one main-lobe width of the estimate, scaled by ``unverifiedQualityScale`` without an
/// accelerometer and by ``motionCoincidenceScale`` on a strong motion line; it is 0 when the band-passed
/// PPG of a window without missing samples does not last through it (a quarter of it holds under
/// ``sustainedPowerRatio`` of the variance of another: a transient, no pulse). A window is reliable when its quality reaches
/// ``Configuration/reliableQuality``.
/// Windows whose PPG is flat have a NaN rate, quality 0, and leave the tracker as it was.
///
/// Gaps: a sample that is NaN or infinite in any channel is missing (see ``gaps``). A window more than
/// ``maximumMissingShare`` missing has a NaN rate and quality 0; a window with fewer missing samples is
/// estimated but never reliable.
///
/// Accuracy: `make eval-ppg` on the shared IEEE SPC 2015 and BAMI-1 recordings against their chest-ECG
/// heart rate, with leave-one-recording-out cross-validation (docs/accuracy.md); method, choices and
/// protocol in <doc:PPGHeartRate>.
public struct PPGHeartRateEstimator: Sendable {
  /// The method's parameters (where each default comes from: <doc:PPGHeartRate>).
  public struct Configuration: Sendable, Hashable {
    /// Window length, seconds (2…60).
    public var window = 8.0
    /// Time between window starts, seconds (0.1…60).
    public var step = 2.0
    /// The heart rates searched, beats per minute: every estimate lies in it (within 30…240).
    public var rateRange: ClosedRange<Double> = 36...210
    /// Weight λ of the accelerometer spectrum subtracted from the PPG spectrum (0…5).
    public var motionSubtraction = 1.0
    /// The tracker's evidence for a bin on a strong motion line (at least
    /// ``PPGHeartRateEstimator/motionLineLevel``), as a multiple of the cleaned spectrum's mean over the
    /// band (0…10): such a bin keeps at least this much, so that a pulse at the cadence is neither erased
    /// by the subtraction nor trusted.
    public var motionLineEvidence = 2.0
    /// In locomotion (an accelerometer axis fully periodic: ``HeartRateWindow/periodicMotion`` 1, as in
    /// walking and running), the rate below which the
    /// evidence is scaled down, by `exp(−(floor − rate) / 5 BPM)`, BPM (30…150): locomotion raises the
    /// heart rate above rest, and below this floor lie the arm swing's low-frequency remnants.
    public var locomotionRateFloor = 80.0
    /// Penalty on the tracked rate's change, per (BPM/s)², in log-spectrum units (0…10).
    public var transitionPenalty = 0.08
    /// Largest change of the tracked rate, BPM per second (0.5…50).
    public var maximumChange = 2.5
    /// Quality from which a window is reliable (0…1).
    public var reliableQuality = 0.3

    public init() {}
  }

  /// The lowest supported input rate, Hz.
  public static let minimumSampleRate = 25.0
  /// Factor applied to the quality of windows estimated without an accelerometer.
  public static let unverifiedQualityScale = 0.75
  /// Factor applied to the quality of windows whose estimate falls on a strong motion line: the pulse
  /// cannot be told from the cadence there.
  public static let motionCoincidenceScale = 0.5
  /// The level of the motion spectrum (each axis's spectrum is a share of its strongest line, weighted by
  /// its periodicity) from which a bin is on a strong motion line.
  public static let motionLineLevel: Float = 0.5
  /// An axis's periodicity is the share of its band power within one main-lobe half-width of its peak;
  /// its spectrum counts fully from this share, not at all up to the aperiodic share
  /// (`PPGHeartRateEstimator.aperiodicAxisShare`), and in proportion between: an axis that only carries
  /// sensor noise or aperiodic movement at rest is flat, and normalized to its peak it would mark lines
  /// everywhere.
  public static let periodicAxisShare: Float = 0.4
  /// See ``periodicAxisShare``.
  public static let aperiodicAxisShare: Float = 0.15
  /// The scale of the evidence's decay below ``Configuration/locomotionRateFloor``, BPM.
  public static let locomotionPriorScale = 5.0
  /// Largest share of a window's samples that may be missing for it to be estimated (it is then not
  /// reliable): a quarter, so that three quarters of the window (6 s of the default 8 s) still hold the
  /// periodicity the spectrum measures.
  public static let maximumMissingShare = 0.25
  /// Smallest ratio of a window quarter's band-passed PPG variance to the largest quarter's for the window
  /// to hold a pulse (30 dB): a transient, such as the ringing of the band-pass after a lone spike, decays
  /// far faster (its spectrum, normalized, would pass for a periodicity).
  public static let sustainedPowerRatio: Float = 1e-3
  /// Floor added to the evidence before its logarithm (bounds the cost of a bin with
  /// no power).
  static let emissionFloor: Float = 1e-2

  /// The parameters in use.
  public let configuration: Configuration
  /// Input samples per second.
  public let sampleRate: Double
  /// Number of PPG channels given to ``process(ppg:acceleration:appendingTo:)``.
  public let ppgChannelCount: Int
  /// Number of accelerometer axes given (0 without an accelerometer).
  public let accelerationAxisCount: Int
  /// Rate of the band-passed signal the spectra are taken from, Hz.
  public let analysisRate: Double

  let factor: Int
  let windowLength: Int
  let fft: RealFFT<Float>
  let bandStart: Int
  let bandCount: Int
  /// Width of one spectral bin, BPM.
  let binRate: Double
  let qualityHalfWidth: Int
  let jumpLimit: Int
  let penalties: [Float]
  /// Per bin, the factor on the evidence in locomotion (``Configuration/locomotionRateFloor``).
  let locomotionPrior: [Float]

  var filters: [SOSFilter]
  /// Whether the band-passes have been set to the steady state for the current segment's first samples.
  var filtersStarted = false
  var gapTracker = GapTracker()
  /// Per channel (PPG first, then axes), the last band-passed samples at the analysis rate.
  var history: [[Float]]
  var filtered: [Float] = []
  var inputCount: Int64 = 0
  var analysisCount: Int64 = 0
  var nextWindow = 0
  var fftInput: [Float]
  var fftOutput: [FFTComplex<Float>]
  var ppgSpectrum: [Float]
  var motionSpectrum: [Float]
  /// The PPG spectrum less the motion spectrum, on the PPG spectrum's scale.
  var cleaned: [Float]
  /// The tracker's evidence per bin: ``cleaned``, on strong motion lines at least
  /// ``Configuration/motionLineEvidence`` times its band mean, in locomotion times ``locomotionPrior``.
  var evidence: [Float]
  var score: [Float]
  /// The largest periodicity weight of the accelerometer axes in the current window.
  var periodicMotion: Float = 0
  /// Whether every PPG channel that adds to the current window's spectrum lasts through the window
  /// (``isSustained(_:)``).
  var ppgSustained = true
  /// The scores before the last step, with ``jumpLimit`` bins of −∞ on either side (scratch).
  var previous: [Float]
  var tracking = false

  /// An estimator for `ppgChannelCount` PPG channels and `accelerationAxisCount` accelerometer axes (0 or
  /// more) sampled at `sampleRate` Hz.
  ///
  /// - Throws: ``PPGAnalysisError`` for a rate below ``minimumSampleRate`` or an option out of range.
  public init(
    sampleRate: Double, ppgChannelCount: Int = 1, accelerationAxisCount: Int = 0,
    configuration: Configuration = Configuration()
  ) throws(PPGAnalysisError) {
    precondition(ppgChannelCount >= 1 && accelerationAxisCount >= 0, "need at least one PPG channel")
    let bandPass = try PPGAnalysisError.bandPass(low: 0.5, high: 4, sampleRate: sampleRate)
    let c = configuration
    let check = PPGAnalysisError.check
    try check("window", c.window, 2...60)
    try check("step", c.step, 0.1...60)
    try check("rateRange.lowerBound", c.rateRange.lowerBound, 30...200)
    try check("rateRange.upperBound", c.rateRange.upperBound, c.rateRange.lowerBound + 10...240)
    try check("motionSubtraction", c.motionSubtraction, 0...5)
    try check("motionLineEvidence", c.motionLineEvidence, 0...10)
    try check("locomotionRateFloor", c.locomotionRateFloor, 30...150)
    try check("transitionPenalty", c.transitionPenalty, 0...10)
    try check("maximumChange", c.maximumChange, 0.5...50)
    try check("reliableQuality", c.reliableQuality, 0...1)
    self.configuration = c
    self.sampleRate = sampleRate
    self.ppgChannelCount = ppgChannelCount
    self.accelerationAxisCount = accelerationAxisCount
    factor = max(1, Int(sampleRate / Self.minimumSampleRate))
    analysisRate = sampleRate / Double(factor)
    windowLength = Int((c.window * analysisRate).rounded())
    // Bins of at most 25 / 2048 Hz (0.73 BPM), and at least the window.
    var size = 1
    while size < windowLength || analysisRate / Double(size) > 25.0 / 2048 { size *= 2 }
    do {
      fft = try RealFFT(count: size, directions: .forwardOnly)
    } catch {
      preconditionFailure("FFTW could not plan a \(size)-point transform: \(error)")
    }
    let binHz = analysisRate / Double(size)
    bandStart = Int((c.rateRange.lowerBound / 60 / binHz).rounded(.up))
    bandCount = Int((c.rateRange.upperBound / 60 / binHz).rounded(.down)) - bandStart + 1
    let binRate = binHz * 60
    self.binRate = binRate
    qualityHalfWidth = max(1, Int((1 / c.window / binHz).rounded()))
    let jumpLimit = max(1, Int((c.maximumChange * c.step / binRate).rounded(.up)))
    self.jumpLimit = jumpLimit
    penalties = (-jumpLimit...jumpLimit).map { offset in
      let change = Double(offset) * binRate / c.step
      return Float(c.transitionPenalty * change * change)
    }
    let firstBin = bandStart
    locomotionPrior = (0..<bandCount).map { i in
      let rate = Double(firstBin + i) * binRate
      return Float(exp(-max(0, c.locomotionRateFloor - rate) / Self.locomotionPriorScale))
    }
    let channelCount = ppgChannelCount + accelerationAxisCount
    filters = Array(repeating: bandPass, count: channelCount)
    history = Array(repeating: [], count: channelCount)
    for k in history.indices { history[k].reserveCapacity(windowLength + Int(c.step * analysisRate) + 2) }
    fftInput = Array(repeating: 0, count: size)
    fftOutput = Array(repeating: FFTComplex(real: 0, imaginary: 0), count: size / 2 + 1)
    ppgSpectrum = Array(repeating: 0, count: bandCount)
    motionSpectrum = ppgSpectrum
    cleaned = ppgSpectrum
    evidence = ppgSpectrum
    score = ppgSpectrum
    previous = Array(repeating: -.infinity, count: bandCount + 2 * jumpLimit)
  }

  /// Analysis-rate index one past the last sample of window `j`.
  func windowEnd(_ j: Int) -> Int64 {
    Int64(((Double(j) * configuration.step + configuration.window) * analysisRate).rounded())
  }

  /// The gaps so far: runs of samples missing (NaN or infinite) in any channel, as input sample ranges
  /// counted from the first sample fed; a gap still open ends at the last sample fed.
  public var gaps: [Range<Int64>] { gapTracker.gaps }

  /// Feeds the next samples of every channel (all the same count; `ppg` has ``ppgChannelCount`` buffers,
  /// `acceleration` ``accelerationAxisCount``) and appends each window that ends within them.
  /// Accelerometer units do not matter (spectra are normalized).
  public mutating func process(
    ppg: [UnsafeBufferPointer<Float>], acceleration: [UnsafeBufferPointer<Float>],
    appendingTo windows: inout [HeartRateWindow]
  ) {
    precondition(
      ppg.count == ppgChannelCount && acceleration.count == accelerationAxisCount,
      "expected \(ppgChannelCount) PPG and \(accelerationAxisCount) accelerometer buffers")
    let channels = ppg + acceleration
    let count = channels[0].count
    precondition(channels.allSatisfy { $0.count == count }, "every channel needs the same sample count")
    // The scratch buffer is taken out of `self` while its pointer is live (no overlapping access).
    var scratch: [Float] = []
    swap(&scratch, &filtered)
    defer { swap(&scratch, &filtered) }
    var offset = 0
    while offset < count {
      // Feed up to the last input sample of the next window, then estimate it.
      let lastInput = (windowEnd(nextWindow) - 1) * Int64(factor)
      let piece = Int(min(Int64(count - offset), max(1, lastInput + 1 - inputCount)))
      let firstKept = Int((Int64(factor) - inputCount % Int64(factor)) % Int64(factor))
      if scratch.count < piece { scratch = Array(repeating: 0, count: piece) }
      // The piece's runs of present and missing samples; nil when all are present outside a gap.
      var present = gapTracker.openGapStart == nil
      for channel in channels where present {
        present = GapTracker.allPresent(UnsafeBufferPointer(rebasing: channel[offset..<offset + piece]))
      }
      let runs: [GapTracker.Run]?
      if present {
        gapTracker.advance(presentCount: piece)
        runs = nil
      } else {
        runs = gapTracker.runs(
          in: channels.map { UnsafeBufferPointer(rebasing: $0[offset..<offset + piece]) })
      }
      let starting = !filtersStarted
      filtersStarted = runs?.last.map { !$0.isMissing } ?? true
      for k in channels.indices {
        scratch.withUnsafeMutableBufferPointer { output in
          let slice = UnsafeMutableBufferPointer(rebasing: output[0..<piece])
          let input = UnsafeBufferPointer(rebasing: channels[k][offset..<offset + piece])
          // Band-passes a run of present samples; a new segment's filter starts in the steady state.
          func filter(_ offsets: Range<Int>, restarting: Bool) {
            if restarting {
              filters[k] = SOSFilter(filters[k].design, steadyStateFor: Double(input[offsets.lowerBound]))
            }
            filters[k].process(
              UnsafeBufferPointer(rebasing: input[offsets]),
              into: UnsafeMutableBufferPointer(rebasing: slice[offsets]))
          }
          if let runs {
            for run in runs {
              if run.isMissing {
                UnsafeMutableBufferPointer(rebasing: slice[run.offsets]).update(repeating: 0)
              } else {
                filter(run.offsets, restarting: run.offsets.lowerBound > 0 || starting)
              }
            }
          } else {
            filter(0..<piece, restarting: starting)
          }
          var i = firstKept
          while i < piece {
            history[k].append(slice[i])
            i += factor
          }
          if history[k].count > windowLength { history[k].removeFirst(history[k].count - windowLength) }
        }
      }
      if firstKept < piece { analysisCount += Int64((piece - 1 - firstKept) / factor + 1) }
      inputCount += Int64(piece)
      offset += piece
      while windowEnd(nextWindow) <= analysisCount {
        windows.append(estimateWindow())
        nextWindow += 1
      }
    }
  }

  /// Feeds the next samples of every channel as arrays (see ``process(ppg:acceleration:appendingTo:)``)
  /// and returns the windows that end within them.
  public mutating func process(ppg: [[Float]], acceleration: [[Float]] = []) -> [HeartRateWindow] {
    var windows: [HeartRateWindow] = []
    withBuffers((ppg + acceleration)[...], []) { buffers in
      process(
        ppg: Array(buffers[..<ppgChannelCount]), acceleration: Array(buffers[ppgChannelCount...]),
        appendingTo: &windows)
    }
    return windows
  }

  /// Adds the band's normalized power spectrum of the last window of channel `k` to ``ppgSpectrum``, or
  /// with `motion` takes the larger of it, weighted by the axis's periodicity (``periodicAxisShare``), and
  /// ``motionSpectrum`` bin by bin; false when the window is flat or not finite (nothing added).
  mutating func addSpectrum(channel k: Int, motion: Bool) -> Bool {
    let samples = history[k]
    guard samples.count == windowLength else { return false }
    var mean: Float = 0
    for x in samples { mean += x }
    mean /= Float(windowLength)
    for i in 0..<windowLength { fftInput[i] = samples[i] - mean }
    let fft = self.fft
    fftInput.withUnsafeBufferPointer { input in
      fftOutput.withUnsafeMutableBufferPointer { output in
        do { try fft.forward(input, into: output) } catch { preconditionFailure("\(error)") }
      }
    }
    var largest: Float = 0
    var peak = 0
    var total: Float = 0
    for i in 0..<bandCount {
      let power = fftOutput[bandStart + i].magnitudeSquared
      total += power
      if power > largest { (largest, peak) = (power, i) }
    }
    guard largest > 0 && largest.isFinite else { return false }
    if motion {
      var near: Float = 0
      for i in max(0, peak - qualityHalfWidth)...min(bandCount - 1, peak + qualityHalfWidth) {
        near += fftOutput[bandStart + i].magnitudeSquared
      }
      let periodicity =
        (near / total - Self.aperiodicAxisShare) / (Self.periodicAxisShare - Self.aperiodicAxisShare)
      let weight = min(max(periodicity, 0), 1)
      periodicMotion = max(periodicMotion, weight)
      let scale = weight / largest
      for i in 0..<bandCount {
        motionSpectrum[i] = max(motionSpectrum[i], fftOutput[bandStart + i].magnitudeSquared * scale)
      }
    } else {
      let scale = 1 / largest
      for i in 0..<bandCount { ppgSpectrum[i] += fftOutput[bandStart + i].magnitudeSquared * scale }
      ppgSustained = ppgSustained && Self.isSustained(samples)
    }
    return true
  }

  /// Estimates window `nextWindow` from the history and advances the tracker.
  mutating func estimateWindow() -> HeartRateWindow {
    let start = Double(nextWindow) * configuration.step
    let end = start + configuration.window
    let last = windowEnd(nextWindow) * Int64(factor)
    let span = last - Int64(windowLength * factor)..<last
    let missing = gapTracker.missingCount(in: span)
    guard Double(missing) <= Self.maximumMissingShare * Double(span.count) else {
      return HeartRateWindow(
        startTime: start, endTime: end, beatsPerMinute: .nan, quality: 0, isReliable: false)
    }
    for i in 0..<bandCount {
      ppgSpectrum[i] = 0
      motionSpectrum[i] = 0
    }
    var ppgValid = false
    ppgSustained = true
    for k in 0..<ppgChannelCount { ppgValid = addSpectrum(channel: k, motion: false) || ppgValid }
    guard ppgValid else {
      return HeartRateWindow(
        startTime: start, endTime: end, beatsPerMinute: .nan, quality: 0, isReliable: false)
    }
    var motionValid = false
    periodicMotion = 0
    for k in ppgChannelCount..<ppgChannelCount + accelerationAxisCount {
      motionValid = addSpectrum(channel: k, motion: true) || motionValid
    }
    Self.normalize(&ppgSpectrum)
    // The cleaned spectrum stays on the PPG spectrum's scale: where motion explains most of the PPG's
    // power, every bin's evidence is weak and the tracker holds its course.
    var cleanedPeak: Float = 0
    if motionValid {
      let lambda = Float(configuration.motionSubtraction)
      for i in 0..<bandCount {
        cleaned[i] = max(ppgSpectrum[i] - lambda * motionSpectrum[i], 0)
        cleanedPeak = max(cleanedPeak, cleaned[i])
      }
    }
    if cleanedPeak == 0 {
      for i in 0..<bandCount { cleaned[i] = ppgSpectrum[i] }
    }
    var cleanedSum: Float = 0
    for i in 0..<bandCount { cleanedSum += cleaned[i] }
    let lineEvidence = Float(configuration.motionLineEvidence) * cleanedSum / Float(bandCount)
    for i in 0..<bandCount {
      evidence[i] = motionSpectrum[i] >= Self.motionLineLevel ? max(cleaned[i], lineEvidence) : cleaned[i]
    }
    let locomotion = periodicMotion >= 1
    if locomotion {
      for i in 0..<bandCount { evidence[i] *= locomotionPrior[i] }
    }
    track()
    var best = 0
    for i in 1..<bandCount where score[i] > score[best] { best = i }
    // A window with missing samples (zero-filled, never reliable) keeps its spectral quality.
    let quality =
      ppgSustained || missing > 0
      ? spectralQuality(at: best, locomotion: locomotion, motionValid: motionValid) : 0
    // Sub-bin position: the vertex of the parabola through a local maximum of the evidence and
    // its two neighbors (Smith & Serra 1987, quadratic peak interpolation).
    var offset = 0.0
    if best > 0 && best < bandCount - 1 {
      let (a, b, c) = (Double(evidence[best - 1]), Double(evidence[best]), Double(evidence[best + 1]))
      if b >= a && b >= c && a - 2 * b + c < 0 { offset = 0.5 * (a - c) / (a - 2 * b + c) }
    }
    let rate = (Double(bandStart + best) + offset) * binRate
    return HeartRateWindow(
      startTime: start, endTime: end, beatsPerMinute: rate, quality: quality,
      isReliable: quality >= configuration.reliableQuality && missing == 0,
      periodicMotion: motionValid ? Double(periodicMotion) : nil)
  }

  /// The quality of an estimate at bin `best`: the share of the cleaned spectrum's power (times the
  /// locomotion prior in `locomotion`) within ``qualityHalfWidth`` bins of it, scaled by
  /// ``unverifiedQualityScale`` without motion spectrum and by ``motionCoincidenceScale`` on a strong
  /// motion line.
  func spectralQuality(at best: Int, locomotion: Bool, motionValid: Bool) -> Double {
    var near: Float = 0
    var total: Float = 0
    for i in 0..<bandCount {
      let power = locomotion ? cleaned[i] * locomotionPrior[i] : cleaned[i]
      total += power
      if abs(i - best) <= qualityHalfWidth { near += power }
    }
    var quality = total > 0 ? Double(near / total) : 0
    if !motionValid {
      quality *= Self.unverifiedQualityScale
    } else if motionSpectrum[best] >= Self.motionLineLevel {
      // The rate coincides with a strong motion line: the pulse may be locked to the cadence.
      quality *= Self.motionCoincidenceScale
    }
    return quality
  }

  /// Whether band-passed `samples` last through their window: each quarter's variance is at least
  /// ``sustainedPowerRatio`` times the largest quarter's (false for a flat quarter).
  static func isSustained(_ samples: [Float]) -> Bool {
    let quarter = samples.count / 4
    var smallest = Float.infinity
    var largest: Float = 0
    for q in 0..<4 {
      let part = samples[q * quarter..<(q + 1) * quarter]
      var mean: Float = 0
      for x in part { mean += x }
      mean /= Float(quarter)
      var variance: Float = 0
      for x in part { variance += (x - mean) * (x - mean) }
      smallest = min(smallest, variance)
      largest = max(largest, variance)
    }
    return smallest > 0 && smallest >= sustainedPowerRatio * largest
  }

  /// Scales `values` to a maximum of 1 (left alone when the maximum is 0).
  static func normalize(_ values: inout [Float]) {
    var largest: Float = 0
    for v in values { largest = max(largest, v) }
    guard largest > 0 else { return }
    let scale = 1 / largest
    for i in values.indices { values[i] *= scale }
  }

  /// `score[i] = max(score[i], candidates[i] − cost)` for every bin, eight at a time (`max` as Swift's:
  /// the candidate where it is not below the score). Written out in vectors because the compiler, not
  /// knowing that the two buffers are apart, keeps the element-wise loop scalar.
  static func raise(
    _ score: UnsafeMutableBufferPointer<Float>, to candidates: UnsafeBufferPointer<Float>, less cost: Float
  ) {
    precondition(candidates.count == score.count, "one candidate per bin")
    guard let scoreStart = score.baseAddress, let candidateStart = candidates.baseAddress else { return }
    let count = score.count
    let (scores, offered) = (UnsafeMutableRawPointer(scoreStart), UnsafeRawPointer(candidateStart))
    var i = 0
    while i &+ 8 <= count {
      let current = scores.loadUnaligned(fromByteOffset: 4 &* i, as: SIMD8<Float>.self)
      let candidate =
        offered.loadUnaligned(fromByteOffset: 4 &* i, as: SIMD8<Float>.self) - SIMD8(repeating: cost)
      scores.storeBytes(
        of: current.replacing(with: candidate, where: candidate .>= current), toByteOffset: 4 &* i,
        as: SIMD8<Float>.self)
      i &+= 8
    }
    while i < count {
      score[i] = max(score[i], candidates[i] - cost)
      i &+= 1
    }
  }

  /// One forward Viterbi step: `score[i] ← max_o (score[i+o] − penalty[o]) + log(evidence[i] + floor)`,
  /// shifted so that the best score is 0.
  mutating func track() {
    let n = bandCount
    let limit = jumpLimit
    let first = !tracking
    tracking = true
    var top = -Float.infinity
    evidence.withUnsafeBufferPointer { evidence in
      penalties.withUnsafeBufferPointer { penalty in
        previous.withUnsafeMutableBufferPointer { padded in
          score.withUnsafeMutableBufferPointer { score in
            if first {
              for i in 0..<n { score[i] = 0 }
            } else {
              // `padded` holds the last scores between `limit` bins of −∞ on either side, so that every
              // offset runs over all bins, element-wise.
              _ = UnsafeMutableBufferPointer(rebasing: padded[limit..<limit + n]).update(
                fromContentsOf: score)
              for i in 0..<n { score[i] = -.infinity }
              for o in 0...2 * limit {
                Self.raise(score, to: UnsafeBufferPointer(rebasing: padded[o..<o + n]), less: penalty[o])
              }
            }
            for i in 0..<n {
              score[i] += logf(evidence[i] + Self.emissionFloor)
              top = max(top, score[i])
            }
            for i in 0..<n { score[i] -= top }
          }
        }
      }
    }
  }

}

/// Calls `body` with buffers over `arrays` (after the `prefix` already opened).
func withBuffers<Result>(
  _ arrays: ArraySlice<[Float]>, _ prefix: [UnsafeBufferPointer<Float>],
  _ body: ([UnsafeBufferPointer<Float>]) -> Result
) -> Result {
  guard let first = arrays.first else { return body(prefix) }
  return first.withUnsafeBufferPointer { withBuffers(arrays.dropFirst(), prefix + [$0], body) }
}
