import Foundation
import VitalsCore
import VitalsIO
import VitalsTestSupport

/// Everything a reader yields, chunk by chunk.
struct ReadResult {
  var channels: [[Float]]
  var chunks: [SignalChunk]
}

/// Reads a reader to the end in chunks of `maxSamples`, checking the chunks' bookkeeping.
func readAll(_ reader: some SignalReader, maxSamples: Int = 1 << 20) throws -> ReadResult {
  var reader = reader
  var channels = [[Float]](repeating: [], count: reader.signals.count)
  var chunks = [SignalChunk]()
  while let chunk = try reader.nextChunk(maxSamples: maxSamples) {
    precondition(chunk.sampleCount <= maxSamples && chunk.sampleCount > 0)
    for c in channels.indices { channels[c] += chunk.channels[c] }
    chunks.append(chunk)
  }
  return ReadResult(channels: channels, chunks: chunks)
}

/// Path of a committed fixture under `Fixtures/io/`.
func ioFixture(_ relative: String) -> String { TestData.fixture("io/" + relative).path }

/// The bytes of a committed fixture.
func ioFixtureBytes(_ relative: String) throws -> [UInt8] {
  Array(try Data(contentsOf: TestData.fixture("io/" + relative)))
}

/// Largest |a − b| relative to max(1, |b|).
func maxRelativeError(_ a: [Float], _ b: [Double]) -> Double {
  precondition(a.count == b.count, "lengths differ: \(a.count) vs \(b.count)")
  return zip(a, b).map { abs(Double($0) - $1) / max(1, abs($1)) }.max() ?? 0
}

/// The error a throwing expression throws, as `InputError`.
func inputError(_ body: () throws -> Void) -> InputError? {
  do {
    try body()
    return nil
  } catch let error as InputError {
    return error
  } catch {
    return nil
  }
}
