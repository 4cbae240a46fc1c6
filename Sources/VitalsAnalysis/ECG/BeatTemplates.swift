/// The morphology stage of ``BeatClassifier``: a small set of running-average beat templates over every
/// lead, the dominant one among them, and how a beat compares with it.
///
/// Each beat is a window of samples around its R peak on every lead. It joins the template it
/// correlates with best when that correlation reaches the match threshold and its amplitude lies within
/// 0.6–1.6 times the template's (the template then moves 1/8 of the way toward it); otherwise it starts a
/// template of its own, in place of the least used one when all ``capacity`` are taken (template
/// matching as in P. S. Hamilton, "Open source ECG analysis", Computers in Cardiology 29:101–104, 2002,
/// the OSEA software).
///
/// The dominant template is the one with the most beats at normal timing (not premature against the
/// reference RR interval), counted with exponential forgetting: the rhythm's own beats, not necessarily
/// the most frequent morphology (in ventricular bigeminy, half the beats are ectopic).
///
/// Correlation over several leads is the Pearson correlation per lead, averaged with the template's
/// energy on each lead as weights, so that a lead without a QRS does not decide.
struct BeatTemplates: Sendable {
  /// Templates kept at most: the lanes of `SIMD8`, in which their amplitudes are kept.
  static let capacity = 8

  /// What is known of one template besides its samples.
  struct Template: Sendable {
    /// Beats matched, with forgetting.
    var beats: Double
    /// Beats matched at normal timing, with forgetting.
    var normallyTimedBeats: Double
    /// QRS width (``BeatTemplates/width(of:)``) of the template, seconds, when known (it is measured when
    /// first needed after a change).
    var width: Double?

    /// The share of its beats that came at normal timing.
    var normalTimingShare: Double { beats > 0 ? normallyTimedBeats / beats : 0 }
  }

  /// How a beat compares with the templates.
  struct Comparison: Sendable {
    /// Index of the template the beat joined (or started).
    var template: Int
    /// Correlation with the dominant template, −1…1.
    var dominantCorrelation: Double
  }

  let leadCount: Int
  let windowLength: Int
  let sampleRate: Double
  let matchThreshold: Double
  let forgetting: Double
  var templates: [Template] = []
  var dominant = 0
  /// Every template's window samples (lead after lead, mean removed per lead), one template after another.
  private var samples: [Float]
  /// Every template's root energy on each lead: lane `t` of element `l` is template `t`'s on lead `l`.
  private var amplitudes: [SIMD8<Double>]
  /// The root energies per lead of the beat being added.
  private var beatAmplitudes: [Double]

  init(leadCount: Int, windowLength: Int, sampleRate: Double, matchThreshold: Double, memory: Double) {
    self.leadCount = leadCount
    self.windowLength = windowLength
    self.sampleRate = sampleRate
    self.matchThreshold = matchThreshold
    self.forgetting = 1 - 1 / memory
    templates.reserveCapacity(Self.capacity)
    samples = [Float](repeating: 0, count: Self.capacity * leadCount * windowLength)
    amplitudes = [SIMD8<Double>](repeating: SIMD8(), count: leadCount)
    beatAmplitudes = [Double](repeating: 0, count: leadCount)
  }

  /// Compares `beat` (``windowLength`` samples per lead, lead after lead, mean removed per lead) with the
  /// templates, adds it to one, and updates the dominant template; `normallyTimed` says whether the beat
  /// came at normal timing.
  mutating func add(_ beat: [Float], normallyTimed: Bool) -> Comparison {
    beat.withUnsafeBufferPointer { beat in
      for lead in 0..<leadCount {
        beatAmplitudes[lead] = Double(
          Self.dot(
            beat.baseAddress! + lead * windowLength, beat.baseAddress! + lead * windowLength, windowLength)
        ).squareRoot()
      }
    }
    // Only templates of a similar amplitude can take the beat: the others' correlations are not needed.
    let ratios = amplitudeRatios()
    var correlations = SIMD8<Double>(repeating: .nan)
    var best: Int?
    var bestCorrelation = -Double.infinity
    for index in templates.indices where ratios[index] > 0.6 && ratios[index] < 1.6 {
      correlations[index] = correlation(of: beat, with: index)
      if correlations[index] > bestCorrelation {
        best = index
        bestCorrelation = correlations[index]
      }
    }
    let joined: Int
    if let best, bestCorrelation >= matchThreshold {
      joined = best
      moveTemplate(best, toward: beat)
    } else {
      joined = startTemplate(beat)
    }
    templates[joined].beats += 1
    if normallyTimed { templates[joined].normallyTimedBeats += 1 }
    for index in templates.indices {
      templates[index].beats *= forgetting
      templates[index].normallyTimedBeats *= forgetting
    }
    dominant = templates.indices.max { lhs, rhs in
      (templates[lhs].normallyTimedBeats, templates[lhs].beats)
        < (templates[rhs].normallyTimedBeats, templates[rhs].beats)
    }!
    // The joined template has changed; any other compared above still is as it was.
    let known = dominant != joined && !correlations[dominant].isNaN
    return Comparison(
      template: joined,
      dominantCorrelation: known ? correlations[dominant] : correlation(of: beat, with: dominant))
  }

  /// The QRS width of `beat` minus the dominant template's, seconds.
  mutating func widening(of beat: [Float]) -> Double {
    let stride = leadCount * windowLength
    let dominantWidth =
      templates[dominant].width
      ?? samples.withUnsafeBufferPointer { width(of: $0.baseAddress! + dominant * stride) }
    templates[dominant].width = dominantWidth
    return beat.withUnsafeBufferPointer { width(of: $0.baseAddress!) } - dominantWidth
  }

  /// Moves template `index` 1/8 of the way toward `beat` and measures its amplitudes again.
  private mutating func moveTemplate(_ index: Int, toward beat: [Float]) {
    let (leadCount, windowLength) = (leadCount, windowLength)
    samples.withUnsafeMutableBufferPointer { samples in
      beat.withUnsafeBufferPointer { beat in
        let template = samples.baseAddress! + index * leadCount * windowLength
        let count = leadCount * windowLength
        var k = 0
        while k + 8 <= count {
          let t = UnsafeRawPointer(template + k).loadUnaligned(as: SIMD8<Float>.self)
          let b = UnsafeRawPointer(beat.baseAddress! + k).loadUnaligned(as: SIMD8<Float>.self)
          UnsafeMutableRawPointer(template + k).storeBytes(of: t + (b - t) / 8, as: SIMD8<Float>.self)
          k += 8
        }
        for tail in k..<count { template[tail] += (beat[tail] - template[tail]) / 8 }
      }
    }
    for lead in 0..<leadCount {
      let start = (index * leadCount + lead) * windowLength
      amplitudes[lead][index] = samples.withUnsafeBufferPointer { samples in
        Double(Self.dot(samples.baseAddress! + start, samples.baseAddress! + start, windowLength))
          .squareRoot()
      }
    }
    templates[index].width = nil
  }

  /// Starts a template from `beat` (whose root energies per lead are `beatAmplitudes`), in place of the
  /// least used one when all are taken.
  private mutating func startTemplate(_ beat: [Float]) -> Int {
    let index: Int
    if templates.count < Self.capacity {
      index = templates.count
      templates.append(Template(beats: 0, normallyTimedBeats: 0, width: nil))
    } else {
      index = templates.indices.min { templates[$0].beats < templates[$1].beats }!
      templates[index] = Template(beats: 0, normallyTimedBeats: 0, width: nil)
    }
    let stride = leadCount * windowLength
    samples.withUnsafeMutableBufferPointer { samples in
      _ = UnsafeMutableBufferPointer(rebasing: samples[index * stride..<(index + 1) * stride])
        .update(fromContentsOf: beat)
    }
    for lead in 0..<leadCount { amplitudes[lead][index] = beatAmplitudes[lead] }
    return index
  }

  /// The ratio of the beat's amplitude to each template's (root energies, weighted per lead by the
  /// template's): lanes past the templates' count are NaN.
  private func amplitudeRatios() -> SIMD8<Double> {
    var beatAmplitude = SIMD8<Double>()
    var templateAmplitude = SIMD8<Double>()
    for lead in 0..<leadCount {
      beatAmplitude += amplitudes[lead] * beatAmplitudes[lead]
      templateAmplitude += amplitudes[lead] * amplitudes[lead]
    }
    return beatAmplitude / templateAmplitude
  }

  /// The correlation of `beat` (root energies per lead in `beatAmplitudes`) with template `index`: the
  /// Pearson correlation per lead, averaged with the template's root energy on each lead as weights
  /// (0 when the template has none).
  func correlation(of beat: [Float], with index: Int) -> Double {
    var correlation = 0.0
    var totalWeight = 0.0
    beat.withUnsafeBufferPointer { beat in
      samples.withUnsafeBufferPointer { samples in
        let template = samples.baseAddress! + index * leadCount * windowLength
        for lead in 0..<leadCount {
          let offset = lead * windowLength
          let cross = Double(Self.dot(beat.baseAddress! + offset, template + offset, windowLength))
          let weight = amplitudes[lead][index]
          let scale = beatAmplitudes[lead] * weight
          if scale > 0 { correlation += weight * cross / scale }
          totalWeight += weight
        }
      }
    }
    return totalWeight > 0 ? correlation / totalWeight : 0
  }

  /// The dot product of `count` samples from `a` and `b`, eight lanes at a time, in two sums that overlap.
  private static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ count: Int) -> Float {
    // Multiply, then add: `addProduct` is a call to `fmaf` per lane where the build's target lacks FMA.
    var even = SIMD8<Float>()
    var odd = SIMD8<Float>()
    var k = 0
    while k + 16 <= count {
      even +=
        UnsafeRawPointer(a + k).loadUnaligned(as: SIMD8<Float>.self)
        * UnsafeRawPointer(b + k).loadUnaligned(as: SIMD8<Float>.self)
      odd +=
        UnsafeRawPointer(a + k + 8).loadUnaligned(as: SIMD8<Float>.self)
        * UnsafeRawPointer(b + k + 8).loadUnaligned(as: SIMD8<Float>.self)
      k += 16
    }
    if k + 8 <= count {
      even +=
        UnsafeRawPointer(a + k).loadUnaligned(as: SIMD8<Float>.self)
        * UnsafeRawPointer(b + k).loadUnaligned(as: SIMD8<Float>.self)
      k += 8
    }
    var sum = (even + odd).sum()
    while k < count {
      sum += a[k] * b[k]
      k += 1
    }
    return sum
  }

  /// QRS width of the window at `window` (``leadCount`` × ``windowLength`` samples), seconds: the span
  /// from the first to the last sample where the slope energy (squared first differences summed over the
  /// leads) reaches a fifth of its largest value.
  func width(of window: UnsafePointer<Float>) -> Double {
    var largest: Float = 0
    var first = 0
    var last = 0
    withUnsafeTemporaryAllocation(of: Float.self, capacity: windowLength - 1) { energy in
      energy.initialize(repeating: 0)
      for lead in 0..<leadCount {
        let samples = window + lead * windowLength
        for k in 0..<windowLength - 1 {
          let step = samples[k + 1] - samples[k]
          energy[k] += step * step
        }
      }
      for k in 0..<windowLength - 1 { largest = max(largest, energy[k]) }
      let floor = 0.2 * largest
      first = energy.firstIndex { $0 >= floor } ?? 0
      last = energy.lastIndex { $0 >= floor } ?? 0
    }
    return Double(last - first) / sampleRate
  }
}
