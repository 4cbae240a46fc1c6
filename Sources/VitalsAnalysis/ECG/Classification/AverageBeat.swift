import VitalsCore
import VitalsSupport

/// The average beat of a short recording and the measures taken against it: P-wave presence, the share
/// of beats of the dominant form, the spread of the QRS amplitudes, and the fibrillatory-wave power left
/// when the average beat is subtracted from every beat.
///
/// The average is the per-sample median (the lower middle value for an even count) of the windows around
/// the normal beats (all beats when fewer than 3 are normal; at most ``maximumMembers``, evenly spaced),
/// from ``windowStart`` before to ``windowEnd`` after the R peak, of the lead
/// band-passed 0.5–40 Hz (zero-phase). Subtracting it from each beat to expose the atrial activity is the
/// average beat subtraction of Slocum et al. (1992), "Diagnosis of atrial fibrillation from surface
/// electrocardiograms based on computer-detected atrial activity", J Electrocardiol 25:1–8, and of Stridh &
/// Sörnmo (2001); the 4–9 Hz band of the residual holds the fibrillatory waves (their dominant frequency
/// lies at 4–9 Hz: Bollmann et al. 2006, Europace 8:911–926). P-wave and f-wave measures of this kind were
/// among the features of the PhysioNet/CinC 2017 entries of Datta et al. (2017) and Zabihi et al. (2017).
struct AverageBeat {
  /// Seconds before and after the R peak that the average beat spans.
  static let windowStart = 0.30
  static let windowEnd = 0.45
  /// The QRS complex, seconds on either side of the R peak.
  static let qrsHalfWidth = 0.06
  /// The P-wave window, seconds before the R peak (the PR interval).
  static let pWaveWindow: ClosedRange<Double> = 0.07...0.25
  /// Most beats the average is taken over.
  static let maximumMembers = 30
  /// Seconds on either side of the R peak searched for the QRS complex's edges.
  static let qrsSearch = 0.12
  /// Share of the largest slope that marks the QRS complex's edges.
  static let qrsSlopeShare = 0.15
  /// Correlation over the QRS complex at or above which a beat is of the average beat's form.
  static let matchingCorrelation = 0.9

  let before: Int
  let after: Int
  /// The median beat, `before + after` samples, R peak at index `before`.
  let samples: [Double]
  /// Peak-to-peak amplitude of the average beat's QRS complex (signal units; positive).
  let qrsAmplitude: Double

  /// The average of `beats` in `filtered` (the lead band-passed 0.5–40 Hz), using the beats flagged in
  /// `isNormal` when at least 3 of them fit; nil when fewer than 3 beats' windows fit or the QRS is flat.
  init?(filtered: [Float], beats: [Int64], isNormal: [Bool], sampleRate: Double) {
    let before = Int((Self.windowStart * sampleRate).rounded())
    let after = Int((Self.windowEnd * sampleRate).rounded())
    self.before = before
    self.after = after
    let fitting = beats.indices.filter { beats[$0] >= before && Int(beats[$0]) + after <= filtered.count }
    let normal = fitting.filter { isNormal[$0] }
    let chosen = normal.count >= 3 ? normal : fitting
    // At most `maximumMembers`, evenly spaced: the median of more costs time and changes little.
    let step = max(1, (chosen.count + Self.maximumMembers - 1) / Self.maximumMembers)
    let members = stride(from: 0, to: chosen.count, by: step).map { chosen[$0] }
    guard members.count >= 3 else { return nil }
    var column = [Float](repeating: 0, count: members.count)
    var average = [Double](repeating: 0, count: before + after)
    for t in 0..<(before + after) {
      for (m, beat) in members.enumerated() { column[m] = filtered[Int(beats[beat]) - before + t] }
      average[t] = Double(Self.median(&column))
    }
    let half = Int((Self.qrsHalfWidth * sampleRate).rounded())
    let qrs = average[(before - half)...(before + half)]
    qrsAmplitude = qrs.max()! - qrs.min()!
    guard qrsAmplitude > 0 else { return nil }
    samples = average
  }

  /// Peak-to-peak amplitude of the average beat in the P-wave window, its least-squares line removed,
  /// over the QRS amplitude: about 0.1–0.2 with a P wave, near 0 without (fibrillatory waves average out).
  func pWaveAmplitude(sampleRate: Double) -> Double {
    let window = pWave(samples[...], at: before, sampleRate: sampleRate)
    return (window.max()! - window.min()!) / qrsAmplitude
  }

  /// Width of the average beat's QRS complex, seconds: the span, within ``qrsSearch`` of the R peak,
  /// from the first to the last sample whose slope (central difference) reaches ``qrsSlopeShare`` of the
  /// largest slope there (wide in bundle-branch block and ventricular rhythms; Hamilton 2002 and de Chazal
  /// et al. 2004 use the QRS width to tell beats apart).
  func qrsWidth(sampleRate: Double) -> Double {
    let reach = Int((Self.qrsSearch * sampleRate).rounded())
    let span = max(1, before - reach)...min(samples.count - 2, before + reach)
    let slopes = span.map { abs(samples[$0 + 1] - samples[$0 - 1]) }
    let limit = Self.qrsSlopeShare * slopes.max()!
    let first = slopes.firstIndex { $0 >= limit }!
    let last = slopes.lastIndex { $0 >= limit }!
    return Double(last - first) / sampleRate
  }

  /// Median over the beats whose P-wave window fits in `filtered` of the correlation of their P-wave
  /// window with the average beat's (both with their least-squares line removed): near 1 when P waves of
  /// one shape precede the beats, low for fibrillatory waves (the idea of Babaeizadeh et al. 2009,
  /// against one template for the whole recording); NaN when no window fits.
  func pWaveConsistency(filtered: [Float], beats: [Int64], sampleRate: Double) -> Double {
    let reference = pWave(samples, at: before, sampleRate: sampleRate)
    let reach = Int((Self.pWaveWindow.upperBound * sampleRate).rounded())
    let correlations = beats.map(Int.init).filter { $0 - reach >= 0 && $0 < filtered.count }.map {
      AtrialActivity.correlation(pWave(filtered, at: $0, sampleRate: sampleRate)[...], reference)
    }.filter { !$0.isNaN }.sorted()
    return correlations.isEmpty ? .nan : DescriptiveStatistics.median(sorted: correlations)
  }

  /// The P-wave window before the R peak at index `peak` of `signal`, its least-squares line removed.
  private func pWave<Signal: RandomAccessCollection<Value>, Value: BinaryFloatingPoint>(
    _ signal: Signal, at peak: Int, sampleRate: Double
  ) -> [Double] where Signal.Index == Int {
    let first = peak - Int((Self.pWaveWindow.upperBound * sampleRate).rounded())
    let last = peak - Int((Self.pWaveWindow.lowerBound * sampleRate).rounded())
    let window = signal[(signal.startIndex + first)...(signal.startIndex + last)].map { Double($0) }
    let meanTime = Double(window.count - 1) / 2
    let mean = window.reduce(0, +) / Double(window.count)
    var products = 0.0
    var squares = 0.0
    for (t, value) in window.enumerated() {
      products += (Double(t) - meanTime) * (value - mean)
      squares += (Double(t) - meanTime) * (Double(t) - meanTime)
    }
    let slope = products / squares
    return window.enumerated().map { $1 - mean - slope * (Double($0) - meanTime) }
  }

  /// The median of `values` (the lower middle one for an even count), found by quickselect (Hoare 1961);
  /// reorders `values`.
  static func median(_ values: inout [Float]) -> Float {
    var low = 0
    var high = values.count - 1
    let middle = (values.count - 1) / 2
    while low < high {
      let pivot = values[(low + high) / 2]
      var i = low
      var j = high
      while i <= j {
        while values[i] < pivot { i += 1 }
        while values[j] > pivot { j -= 1 }
        if i <= j {
          values.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      if middle <= j { high = j } else if middle >= i { low = i } else { break }
    }
    return values[middle]
  }

  /// Per beat whose QRS complex fits in `filtered`: its peak-to-peak amplitude and its correlation with the
  /// average beat over the QRS complex.
  func compare(filtered: [Float], beats: [Int64], sampleRate: Double) -> (
    amplitudes: [Double], correlations: [Double]
  ) {
    let half = Int((Self.qrsHalfWidth * sampleRate).rounded())
    let reference = samples[(before - half)...(before + half)]
    var amplitudes: [Double] = []
    var correlations: [Double] = []
    for beat in beats.map(Int.init) where beat - half >= 0 && beat + half < filtered.count {
      let window = filtered[(beat - half)...(beat + half)].map(Double.init)
      amplitudes.append(window.max()! - window.min()!)
      correlations.append(AtrialActivity.correlation(window[...], Array(reference)))
    }
    return (amplitudes, correlations)
  }

  /// The lead with the average beat subtracted at every beat (each sample from the beat nearest to it,
  /// within the average beat's span), band-passed by `atrialBand` (4–9 Hz, causal), outside the QRS complexes
  /// and between the first and the last beat: its RMS over the QRS amplitude, in dB (20 log₁₀); NaN when
  /// no sample remains.
  func residualPower(filtered: [Float], beats: [Int64], atrialBand: SecondOrderSections, sampleRate: Double)
    -> Double
  {
    var residual = filtered
    for (k, beat) in beats.map(Int.init).enumerated() {
      let previous = k > 0 ? (Int(beats[k - 1]) + beat + 1) / 2 : 0
      let next = k + 1 < beats.count ? (beat + Int(beats[k + 1]) + 1) / 2 : filtered.count
      let lower = max(beat - before, previous, 0)
      let upper = min(beat + after, next, filtered.count)
      for i in lower..<max(lower, upper) { residual[i] -= Float(samples[i - beat + before]) }
    }
    guard let first = beats.first, let last = beats.last, !residual.isEmpty else { return .nan }
    // Causal: only the power counts, not the phase.
    var filter = SOSFilter(atrialBand, steadyStateFor: Double(residual[0]))
    let band = filter.filtered(residual)
    let half = Int((Self.qrsHalfWidth * sampleRate).rounded())
    var inQRS = [Bool](repeating: false, count: filtered.count)
    for beat in beats.map(Int.init) {
      for i in max(0, beat - half)..<min(filtered.count, beat + half + 1) { inQRS[i] = true }
    }
    var squares = 0.0
    var count = 0
    for i in Int(first)..<Int(last) where !inQRS[i] {
      squares += Double(band[i]) * Double(band[i])
      count += 1
    }
    guard count > 0 else { return .nan }
    return 10 * log10(squares / Double(count) / (qrsAmplitude * qrsAmplitude))
  }
}
