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
  /// Templates kept at most.
  static let capacity = 8

  struct Template: Sendable {
    /// Window samples, lead after lead, mean removed per lead.
    var samples: [Float]
    /// Beats matched, with forgetting.
    var beats: Double
    /// Beats matched at normal timing, with forgetting.
    var normallyTimedBeats: Double
    /// QRS width (``BeatTemplates/width(of:)``) of `samples`, seconds, when known (it is measured when
    /// first needed after a change).
    var width: Double?
    /// Root energy of `samples` on each lead.
    var amplitudes: [Double]

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
  /// The root energies per lead of the beat being added (kept to reuse its storage).
  private var beatAmplitudes: [Double]

  init(leadCount: Int, windowLength: Int, sampleRate: Double, matchThreshold: Double, memory: Double) {
    self.leadCount = leadCount
    self.windowLength = windowLength
    self.sampleRate = sampleRate
    self.matchThreshold = matchThreshold
    self.forgetting = 1 - 1 / memory
    templates.reserveCapacity(Self.capacity)
    beatAmplitudes = [Double](repeating: 0, count: leadCount)
  }

  /// Compares `beat` (``windowLength`` samples per lead, lead after lead, mean removed per lead) with the
  /// templates, adds it to one, and updates the dominant template; `normallyTimed` says whether the beat
  /// came at normal timing.
  mutating func add(_ beat: [Float], normallyTimed: Bool) -> Comparison {
    measureAmplitudes(of: beat, into: &beatAmplitudes)
    let amplitudes = beatAmplitudes
    var best: Int?
    var bestCorrelation = -Double.infinity
    for index in templates.indices {
      let (correlation, amplitude) = compare(beat, amplitudes, with: templates[index])
      if correlation > bestCorrelation && amplitude > 0.6 && amplitude < 1.6 {
        best = index
        bestCorrelation = correlation
      }
    }
    let joined: Int
    if let best, bestCorrelation >= matchThreshold {
      joined = best
      templates[best].samples.withUnsafeMutableBufferPointer { template in
        beat.withUnsafeBufferPointer { beat in
          for k in beat.indices { template[k] += (beat[k] - template[k]) / 8 }
        }
      }
      templates[best].width = nil
      let samples = templates[best].samples
      measureAmplitudes(of: samples, into: &templates[best].amplitudes)
    } else {
      joined = startTemplate(beat, amplitudes: amplitudes)
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
    return Comparison(
      template: joined, dominantCorrelation: compare(beat, amplitudes, with: templates[dominant]).correlation)
  }

  /// The QRS width of `beat` minus the dominant template's, seconds.
  mutating func widening(of beat: [Float]) -> Double {
    let dominantWidth = templates[dominant].width ?? width(of: templates[dominant].samples)
    templates[dominant].width = dominantWidth
    return width(of: beat) - dominantWidth
  }

  /// Starts a template from `beat` (whose root energies per lead are `amplitudes`), in place of the least
  /// used one when all are taken.
  private mutating func startTemplate(_ beat: [Float], amplitudes: [Double]) -> Int {
    guard templates.count == Self.capacity else {
      // Copies of its own: the callers reuse the storage of `beat` and `amplitudes` for the next beat.
      templates.append(
        Template(
          samples: Array(unsafeUninitializedCapacity: beat.count) { buffer, count in
            _ = buffer.initialize(from: beat)
            count = beat.count
          }, beats: 0, normallyTimedBeats: 0, width: nil,
          amplitudes: Array(unsafeUninitializedCapacity: amplitudes.count) { buffer, count in
            _ = buffer.initialize(from: amplitudes)
            count = amplitudes.count
          }))
      return templates.count - 1
    }
    // The least used template's storage takes the new one: no allocation once all are taken.
    let least = templates.indices.min { templates[$0].beats < templates[$1].beats }!
    templates[least].samples.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: beat) }
    templates[least].amplitudes.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: amplitudes) }
    templates[least].beats = 0
    templates[least].normallyTimedBeats = 0
    templates[least].width = nil
    return least
  }

  /// Writes the root energy of each lead of `window` into `amplitudes` (``leadCount`` values).
  func measureAmplitudes(of window: [Float], into amplitudes: inout [Double]) {
    window.withUnsafeBufferPointer { window in
      for lead in 0..<leadCount {
        amplitudes[lead] =
          Double(
            Self.dot(
              window.baseAddress! + lead * windowLength, window.baseAddress! + lead * windowLength,
              windowLength
            )
          )
          .squareRoot()
      }
    }
  }

  /// The energy-weighted correlation of `beat` (root energies per lead `beatAmplitudes`) with `template`
  /// over the leads, and the ratio of their amplitudes (root energies, weighted alike).
  func compare(_ beat: [Float], _ beatAmplitudes: [Double], with template: Template)
    -> (correlation: Double, amplitude: Double)
  {
    var correlation = 0.0
    var beatAmplitude = 0.0
    var templateAmplitude = 0.0
    var totalWeight = 0.0
    beat.withUnsafeBufferPointer { beat in
      template.samples.withUnsafeBufferPointer { samples in
        for lead in 0..<leadCount {
          let offset = lead * windowLength
          let cross = Double(
            Self.dot(beat.baseAddress! + offset, samples.baseAddress! + offset, windowLength))
          let weight = template.amplitudes[lead]
          let scale = beatAmplitudes[lead] * weight
          if scale > 0 { correlation += weight * cross / scale }
          beatAmplitude += weight * beatAmplitudes[lead]
          templateAmplitude += weight * weight
          totalWeight += weight
        }
      }
    }
    guard totalWeight > 0 else { return (0, 0) }
    return (correlation / totalWeight, beatAmplitude / templateAmplitude)
  }

  /// The dot product of `count` samples from `a` and `b`, eight lanes at a time.
  private static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ count: Int) -> Float {
    var lanes = SIMD8<Float>()
    var k = 0
    while k + 8 <= count {
      let x = UnsafeRawPointer(a + k).loadUnaligned(as: SIMD8<Float>.self)
      let y = UnsafeRawPointer(b + k).loadUnaligned(as: SIMD8<Float>.self)
      lanes.addProduct(x, y)
      k += 8
    }
    var sum = lanes.sum()
    while k < count {
      sum += a[k] * b[k]
      k += 1
    }
    return sum
  }

  /// QRS width of a window, seconds: the span from the first to the last sample where the slope energy
  /// (squared first differences summed over the leads) reaches a fifth of its largest value.
  func width(of window: [Float]) -> Double {
    var largest: Float = 0
    var first = 0
    var last = 0
    withUnsafeTemporaryAllocation(of: Float.self, capacity: windowLength - 1) { energy in
      energy.initialize(repeating: 0)
      window.withUnsafeBufferPointer { window in
        for lead in 0..<leadCount {
          let samples = window.baseAddress! + lead * windowLength
          for k in 0..<windowLength - 1 {
            let step = samples[k + 1] - samples[k]
            energy[k] += step * step
          }
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
