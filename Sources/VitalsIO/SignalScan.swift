import VitalsCore

/// Per-signal facts that need every sample: what `vitals info --scan` reports, and a whole-file
/// check that every sample decodes.
public struct SignalScan: Sendable, Equatable, Codable {
  /// Samples read.
  public var count: Int64 = 0
  /// Samples that were NaN (invalid-sample markers, empty CSV fields, gaps).
  public var invalidCount: Int64 = 0
  /// Smallest and largest valid sample, in the signal's unit (`nil` when there is none).
  public var minimum: Float?
  public var maximum: Float?
  /// Sum of the valid samples, in `Double`.
  public var sum: Double = 0

  public init() {}

  /// Mean of the valid samples, in the signal's unit (`nil` when there is none).
  public var mean: Double? { count > invalidCount ? sum / Double(count - invalidCount) : nil }

  /// Adds `samples` to the scan.
  public mutating func add(_ samples: [Float]) {
    var low = Float.infinity
    var high = -Float.infinity
    var invalid = 0
    var total = 0.0
    for sample in samples {
      if sample.isNaN {
        invalid += 1
        continue
      }
      low = Swift.min(low, sample)
      high = Swift.max(high, sample)
      total += Double(sample)
    }
    count += Int64(samples.count)
    invalidCount += Int64(invalid)
    sum += total
    if invalid < samples.count {
      minimum = Swift.min(minimum ?? low, low)
      maximum = Swift.max(maximum ?? high, high)
    }
  }

  /// Reads `reader` to its end, `maxSamples` per chunk, scanning each of its channels.
  public static func scan(_ reader: inout some SignalReader, maxSamples: Int = 65_536) throws(InputError)
    -> [SignalScan]
  {
    var scans = [SignalScan](repeating: SignalScan(), count: reader.signals.count)
    while let chunk = try reader.nextChunk(maxSamples: maxSamples) {
      for (index, channel) in chunk.channels.enumerated() { scans[index].add(channel) }
    }
    return scans
  }
}
