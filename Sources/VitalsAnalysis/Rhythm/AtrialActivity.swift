import VitalsCore
import VitalsSupport

/// Consistency of the atrial activity before each beat: whether P waves of one shape precede the QRS
/// complexes (sinus rhythm, also between ectopic beats) or not (atrial fibrillation's fibrillatory
/// waves). The idea of judging AF by RR irregularity together with P-wave presence and P-wave
/// morphology similarity is that of Babaeizadeh et al. (2009), "Improvements in atrial fibrillation
/// detection for real-time monitoring", J Electrocardiol 42:522–526; the measure here is a simple one:
///
/// 1. the lead is band-passed zero-phase (Butterworth order 2, SciPy `sosfiltfilt`; `band`, 1–20 Hz by
///    default: P waves and f-waves, without baseline wander or the QRS's upper harmonics);
/// 2. the window from `window.upperBound` to `window.lowerBound` seconds before each beat (the PR
///    interval; 250–70 ms by default), with its least-squares line removed, is the beat's atrial window;
/// 3. a beat's consistency is the Pearson correlation of its window with the per-sample median of the
///    windows of the `neighbors` beats around it (itself included): near 1 when a P wave of a stable
///    shape precedes the beats (an ectopic beat's window lowers only its own value, not the median's),
///    low for independent fibrillatory waves.
///
/// Beats whose window does not fit in the signal, or lies within a second of a missing sample, get NaN, and
/// so do beats whose window may reach back into the preceding beat's T wave (their windows still enter
/// their neighbors' median): those whose preceding interval RR is shorter than the window's start plus
/// the QT interval at that rate, taken as Bazett's (1920) QT = QTc·√RR with QTc 0.44 s, the upper limit
/// of normal (with the default window, beats after intervals shorter than about 0.59 s, rates above about
/// 100/min, where a T wave of one shape would pass for a P wave).
enum AtrialActivity {
  /// Consistency (Pearson correlation, −1…1, NaN where undefined) of each beat's atrial window with
  /// its neighbors' median window.
  ///
  /// - Parameters:
  ///   - signal: the lead the beats were found in, any unit; NaN and infinite samples are missing: they
  ///     are replaced by the last finite one (0 before the first) for the filter, and no window within a
  ///     second of one (the band-pass's settling time at its 1 Hz corner, both ways for a zero-phase
  ///     filter) is measured.
  ///   - beats: R-peak sample indices into `signal`, increasing.
  ///   - band: pass band, Hz; its upper edge must lie below the Nyquist frequency.
  /// - Returns: nil when the signal is too short to filter or the band does not fit the rate.
  static func consistency(
    signal: [Float], beats: [Int64], sampleRate: Double, window: ClosedRange<Double>,
    band: ClosedRange<Double>, neighbors: Int
  ) -> [Double]? {
    guard
      let design = try? SecondOrderSections.butterworth(
        order: 2, band: .bandpass(low: band.lowerBound, high: band.upperBound), sampleRate: sampleRate)
    else { return nil }
    var held: Float = 0
    // Missing samples up to each index (prefix counts), to find the windows near one.
    var missingBefore = [Int](repeating: 0, count: signal.count + 1)
    let finite = signal.enumerated().map { i, value -> Float in
      missingBefore[i + 1] = missingBefore[i] + (value.isFinite ? 0 : 1)
      if value.isFinite { held = value }
      return held
    }
    let settling = Int64(sampleRate.rounded(.up))
    func nearMissing(_ span: Range<Int64>) -> Bool {
      let lower = Int(max(0, span.lowerBound - settling))
      let upper = Int(min(Int64(signal.count), span.upperBound + settling))
      return lower < upper && missingBefore[upper] > missingBefore[lower]
    }
    guard let filtered = try? design.zeroPhaseFiltered(finite) else { return nil }
    let first = Int64((window.upperBound * sampleRate).rounded())
    let last = Int64((window.lowerBound * sampleRate).rounded())
    let length = Int(first - last)
    guard length >= 3 else { return nil }
    // Detrended windows, one row per beat; `valid` marks the beats whose window fits.
    var windows = [Double](repeating: 0, count: beats.count * length)
    var valid = [Bool](repeating: false, count: beats.count)
    let meanT = Double(length - 1) / 2
    var sumTT = 0.0
    for t in 0..<length { sumTT += (Double(t) - meanT) * (Double(t) - meanT) }
    for (b, beat) in beats.enumerated()
    where beat - first >= 0 && beat - last <= Int64(filtered.count)
      && !nearMissing(beat - first..<beat - last)
    {
      let start = Int(beat - first)
      var mean = 0.0
      for t in 0..<length { mean += Double(filtered[start + t]) }
      mean /= Double(length)
      var sumTW = 0.0
      for t in 0..<length { sumTW += (Double(t) - meanT) * (Double(filtered[start + t]) - mean) }
      let slope = sumTW / sumTT
      for t in 0..<length {
        let trend = mean + slope * (Double(t) - meanT)
        windows[b * length + t] = Double(filtered[start + t]) - trend
      }
      valid[b] = true
    }
    var result = [Double](repeating: .nan, count: beats.count)
    var template = [Double](repeating: 0, count: length)
    var column: [Double] = []
    column.reserveCapacity(neighbors)
    var members: [Int] = []
    members.reserveCapacity(neighbors)
    for b in beats.indices
    where valid[b]
      && (b == 0 || clearsTWave(interval: Double(beats[b] - beats[b - 1]) / sampleRate, window: window))
    {
      let low = max(0, min(b - neighbors / 2, beats.count - neighbors))
      members.removeAll(keepingCapacity: true)
      for m in low..<min(beats.count, low + neighbors) where valid[m] { members.append(m) }
      guard members.count >= 3 else { continue }
      for t in 0..<length {
        column.removeAll(keepingCapacity: true)
        for m in members { column.append(windows[m * length + t]) }
        column.sort()
        template[t] = DescriptiveStatistics.median(sorted: column)
      }
      result[b] = correlation(windows[(b * length)..<((b + 1) * length)], template)
    }
    return result
  }

  /// Whether a window starting `window.upperBound` seconds before a beat begins after the T wave of the
  /// beat `interval` seconds before it: interval ≥ window start + 0.44 s · √(interval / 1 s) (Bazett).
  static func clearsTWave(interval: Double, window: ClosedRange<Double>) -> Bool {
    interval >= window.upperBound + 0.44 * interval.squareRoot()
  }

  /// Pearson correlation of two equally long sequences; NaN when either is constant.
  static func correlation(_ x: ArraySlice<Double>, _ y: [Double]) -> Double {
    let n = Double(y.count)
    let meanX = x.reduce(0, +) / n
    let meanY = y.reduce(0, +) / n
    var xy = 0.0
    var xx = 0.0
    var yy = 0.0
    for (a, b) in zip(x, y) {
      xy += (a - meanX) * (b - meanY)
      xx += (a - meanX) * (a - meanX)
      yy += (b - meanY) * (b - meanY)
    }
    return xx > 0 && yy > 0 ? xy / (xx * yy).squareRoot() : .nan
  }
}
