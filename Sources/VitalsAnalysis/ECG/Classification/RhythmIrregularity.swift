import VitalsSupport

/// Irregularity measures of a short series of NN intervals (ectopic beats and the intervals around them
/// already left out), after Dash et al. (2009), "Automatic real time detection of atrial fibrillation",
/// Ann Biomed Eng 37:1701–1709: the normalized RMSSD, the turning point ratio and the Shannon entropy,
/// each computed once over the whole series (the paper uses 128-beat windows; a 30-s recording has
/// 20–75 beats).
enum RhythmIrregularity {
  /// RMSSD over mean interval (unitless), from the successive differences of intervals that follow each
  /// other (``NNSeries/followsPrevious``); NaN without such a pair.
  static func normalizedRMSSD(_ series: NNSeries) -> Double {
    var squares = 0.0
    var pairs = 0
    for k in series.intervals.indices.dropFirst() where series.followsPrevious[k] {
      let d = series.intervals[k] - series.intervals[k - 1]
      squares += d * d
      pairs += 1
    }
    guard pairs > 0 else { return .nan }
    let mean = series.intervals.reduce(0, +) / Double(series.intervals.count)
    return (squares / Double(pairs)).squareRoot() / mean
  }

  /// Share of the inner intervals of runs of three successive intervals that are a local maximum or
  /// minimum (turning points; Dash et al. 2009): about 2/3 for independent intervals, lower for a smooth
  /// rhythm. NaN without such a run.
  static func turningPointRatio(_ series: NNSeries) -> Double {
    var turning = 0
    var triples = 0
    let x = series.intervals
    for k in x.indices.dropFirst().dropLast() where series.followsPrevious[k] && series.followsPrevious[k + 1]
    {
      triples += 1
      if (x[k] > x[k - 1] && x[k] > x[k + 1]) || (x[k] < x[k - 1] && x[k] < x[k + 1]) { turning += 1 }
    }
    return triples > 0 ? Double(turning) / Double(triples) : .nan
  }

  /// Shannon entropy of the intervals' histogram in `bins` equal bins from their minimum to their
  /// maximum, over ln(`bins`) (0…1; Dash et al. 2009 use 16 bins); 0 when all are equal, NaN for fewer
  /// than 2 intervals.
  static func shannonEntropy(_ intervals: [Double], bins: Int = 16) -> Double {
    guard intervals.count >= 2, let low = intervals.min(), let high = intervals.max() else { return .nan }
    guard high > low else { return 0 }
    var counts = [Int](repeating: 0, count: bins)
    for value in intervals {
      counts[min(bins - 1, Int((value - low) / (high - low) * Double(bins)))] += 1
    }
    var entropy = 0.0
    for count in counts where count > 0 {
      let p = Double(count) / Double(intervals.count)
      entropy -= p * log(p)
    }
    return entropy / log(Double(bins))
  }

  /// Coefficient of variation (standard deviation over mean) of `intervals`; NaN for fewer than 2.
  static func coefficientOfVariation(_ intervals: [Double]) -> Double {
    guard intervals.count >= 2 else { return .nan }
    let mean = intervals.reduce(0, +) / Double(intervals.count)
    let variance = intervals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(intervals.count - 1)
    return variance.squareRoot() / mean
  }
}
