/// A streaming min/max envelope of a signal, for drawing long signals at screen resolution: every bin
/// keeps the minimum and maximum of its samples, and when the bins reach twice ``columns`` neighboring
/// pairs are merged and the bin width doubles. Memory is O(columns) whatever the length; NaN and infinite
/// samples (missing data) are ignored (a bin of them only is NaN).
public struct MinMaxEnvelope: Sendable, Equatable {
  /// The number of bins the envelope keeps at least (at most twice that).
  public let columns: Int
  /// Samples per bin (a power of two).
  public private(set) var samplesPerBin = 1
  /// Samples appended.
  public private(set) var sampleCount: Int64 = 0
  var minima: [Float] = []
  var maxima: [Float] = []
  var currentMin = Float.nan
  var currentMax = Float.nan
  var currentCount = 0

  /// An envelope that keeps between `columns` and `2 · columns` bins.
  public init(columns: Int) {
    precondition(columns >= 1, "an envelope has at least one column")
    self.columns = columns
  }

  /// Appends samples.
  public mutating func append(_ samples: some Sequence<Float>) {
    for value in samples {
      if value.isFinite {
        currentMin = currentMin.isNaN ? value : Swift.min(currentMin, value)
        currentMax = currentMax.isNaN ? value : Swift.max(currentMax, value)
      }
      currentCount += 1
      sampleCount += 1
      if currentCount == samplesPerBin { closeBin() }
    }
  }

  private mutating func closeBin() {
    minima.append(currentMin)
    maxima.append(currentMax)
    (currentMin, currentMax, currentCount) = (.nan, .nan, 0)
    guard minima.count == 2 * columns else { return }
    for k in 0..<columns {
      minima[k] = Self.combine(minima[2 * k], minima[2 * k + 1], Swift.min)
      maxima[k] = Self.combine(maxima[2 * k], maxima[2 * k + 1], Swift.max)
    }
    minima.removeLast(columns)
    maxima.removeLast(columns)
    samplesPerBin *= 2
  }

  private static func combine(_ a: Float, _ b: Float, _ pick: (Float, Float) -> Float) -> Float {
    a.isNaN ? b : b.isNaN ? a : pick(a, b)
  }

  /// The bins, oldest first, the last one possibly partial: (index of the bin's first sample, min, max).
  public var bins: [(start: Int64, min: Float, max: Float)] {
    var result = minima.indices.map { (Int64($0 * samplesPerBin), minima[$0], maxima[$0]) }
    if currentCount > 0 { result.append((Int64(minima.count * samplesPerBin), currentMin, currentMax)) }
    return result
  }
}
