import Testing
import VitalsCore
import VitalsSimulation
import VitalsTestSupport

/// One generated sample: its record index, its channels' values, its time when the timing is irregular
/// and the truth events it carries.
struct GeneratedSample: Equatable {
  var index: Int64
  var values: [Float]
  var time: Timestamp?
  var events: [TruthEvent]
}

/// Expects the simulator `make()` returns to generate the same record (samples, times, events) whatever
/// the `maxSamples` of each `next`: the sizes of `chunkings` (a size of 0 skips the call), then calls
/// of the whole count to the end. Every chunk must hold at least one sample and at most `maxSamples`,
/// and carry only the events of its samples. Returns the samples of the whole record.
@discardableResult
func expectSimulatorChunkInvariant<Simulator: SignalSimulator>(
  chunkings: [Chunking] = Chunking.standard, sourceLocation: SourceLocation = #_sourceLocation,
  _ make: () -> Simulator
) -> [GeneratedSample] {
  let count = Int(make().sampleCount)
  /// The samples of one call of at most `maxSamples`.
  func generate(_ simulator: inout Simulator, maxSamples: Int) -> [GeneratedSample]? {
    guard let chunk = simulator.next(maxSamples: maxSamples) else { return nil }
    let samples =
      chunk.signal.firstSampleIndex..<chunk.signal.firstSampleIndex + Int64(chunk.signal.sampleCount)
    #expect(
      !samples.isEmpty && samples.count <= maxSamples
        && chunk.events.allSatisfy { samples.contains($0.sampleIndex) },
      sourceLocation: sourceLocation)
    return (0..<chunk.signal.sampleCount).map { k in
      GeneratedSample(
        index: samples.lowerBound + Int64(k), values: chunk.signal.channels.map { $0[k] },
        time: chunk.sampleTimes?[k],
        events: chunk.events.filter { $0.sampleIndex == samples.lowerBound + Int64(k) })
    }
  }
  return expectChunkInvariant(
    count: count, chunkings: chunkings, sourceLocation: sourceLocation, makeStage: make,
    feed: { simulator, range in range.isEmpty ? [] : generate(&simulator, maxSamples: range.count) ?? [] },
    finish: { simulator in
      var samples: [GeneratedSample] = []
      while let more = generate(&simulator, maxSamples: max(count, 1)) { samples += more }
      return samples
    })
}
