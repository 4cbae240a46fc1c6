import VitalsCore

/// Per-signal facts that need every sample: what `vitals info --scan` reports, and a whole-file
/// check that every sample decodes.
public struct SignalScan: Sendable, Equatable, Codable {
  /// Samples read.
  public var count: Int64 = 0
  /// Samples that were NaN or infinite (invalid-sample markers, empty CSV fields, gaps, values beyond
  /// `Float`'s range).
  public var invalidCount: Int64 = 0
  /// Smallest and largest valid (finite) sample, in the signal's unit (`nil` when there is none).
  public var minimum: Float?
  public var maximum: Float?
  /// Sum of the valid samples, in `Double`.
  public var sum: Double = 0

  public init() {}

  /// Mean of the valid samples, in the signal's unit (`nil` when there is none).
  public var mean: Double? { count > invalidCount ? sum / Double(count - invalidCount) : nil }

  /// Adds `samples` to the scan.
  public mutating func add(_ samples: [Float]) {
    samples.withUnsafeBufferPointer { add($0) }
  }

  /// Adds `samples` to the scan, eight lanes at a time (the sum's rounding depends on the lane
  /// order, not on how the samples were split into calls beyond that).
  public mutating func add(_ samples: UnsafeBufferPointer<Float>) {
    var low = SIMD8<Float>(repeating: .infinity)
    var high = SIMD8<Float>(repeating: -.infinity)
    var total = SIMD8<Double>()
    var valid = SIMD8<Int32>()
    let raw = UnsafeRawBufferPointer(samples)
    var index = 0
    while index + 8 <= samples.count {
      let x = raw.loadUnaligned(fromByteOffset: index * 4, as: SIMD8<Float>.self)
      // x − x is 0 for a finite x and NaN otherwise.
      let isValid = x - x .== 0
      // Lane selects as `pointwiseMin`/`pointwiseMax` choose between equal lanes (signed zeros),
      // which are not inlined; invalid lanes change nothing.
      low.replace(with: x, where: isValid .& (x .< low))
      high.replace(with: x, where: isValid .& (x .>= high))
      total += SIMD8<Double>(x.replacing(with: 0, where: .!isValid))
      valid &+= SIMD8<Int32>().replacing(with: 1, where: isValid)
      index += 8
    }
    var lowest = low.min()
    var highest = high.max()
    var sumOfValid = total.sum()
    var validCount = Int(valid.wrappedSum())
    while index < samples.count {
      let sample = samples[index]
      index += 1
      guard sample.isFinite else { continue }
      lowest = Swift.min(lowest, sample)
      highest = Swift.max(highest, sample)
      sumOfValid += Double(sample)
      validCount += 1
    }
    count += Int64(samples.count)
    invalidCount += Int64(samples.count - validCount)
    sum += sumOfValid
    if validCount > 0 {
      minimum = Swift.min(minimum ?? lowest, lowest)
      maximum = Swift.max(maximum ?? highest, highest)
    }
  }

  /// Reads `reader` to its end, `maxSamples` per chunk, scanning each of its channels.
  public static func scan(_ reader: inout some SignalReader, maxSamples: Int = SignalChunk.defaultSampleCount)
    throws(InputError)
    -> [SignalScan]
  {
    var scans = [SignalScan](repeating: SignalScan(), count: reader.signals.count)
    while let chunk = try reader.nextChunk(maxSamples: maxSamples) {
      for (index, channel) in chunk.channels.enumerated() { scans[index].add(channel) }
    }
    return scans
  }
}
