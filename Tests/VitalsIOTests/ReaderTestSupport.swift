import Foundation
import Testing
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

/// One sample a reader yielded: its record index, the bit patterns of its channels' values (NaN equals
/// NaN, −0 differs from 0) and, for the record's first sample, its time.
struct ReadSample: Equatable {
  var index: Int64
  var bits: [UInt32]
  var time: Timestamp?
}

/// Expects the reader `open()` makes to yield the same samples whatever the `maxSamples` of each read:
/// the sizes of `chunkings` over the record's `count` samples (a size of 0 skips the read), then reads
/// of `count` to the end. Every chunk must hold at least one sample and at most `maxSamples`. Returns
/// the samples of the whole read.
@discardableResult
func expectReaderChunkInvariant<Reader: SignalReader>(
  count: Int, chunkings: [Chunking] = Chunking.standard, _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation, open: () throws -> Reader
) throws -> [ReadSample] {
  /// The samples of one read of at most `maxSamples`.
  func read(_ reader: inout Reader, maxSamples: Int) throws -> [ReadSample]? {
    guard let chunk = try reader.nextChunk(maxSamples: maxSamples) else { return nil }
    #expect(chunk.sampleCount > 0 && chunk.sampleCount <= maxSamples, comment, sourceLocation: sourceLocation)
    return (0..<chunk.sampleCount).map { k in
      let index = chunk.firstSampleIndex + Int64(k)
      return ReadSample(
        index: index, bits: chunk.channels.map { $0[k].bitPattern }, time: index == 0 ? chunk.startTime : nil)
    }
  }
  return try expectChunkInvariant(
    count: count, chunkings: chunkings, comment, sourceLocation: sourceLocation, makeStage: open,
    feed: { reader, range in range.isEmpty ? [] : try read(&reader, maxSamples: range.count) ?? [] },
    finish: { reader in
      var samples: [ReadSample] = []
      while let more = try read(&reader, maxSamples: max(count, 1)) { samples += more }
      return samples
    })
}

/// Path of a committed fixture under `Fixtures/io/`.
func ioFixture(_ relative: String) -> String { TestData.fixture("io/" + relative).path }

/// The bytes of a committed fixture.
func ioFixtureBytes(_ relative: String) throws -> [UInt8] {
  Array(try Data(contentsOf: TestData.fixture("io/" + relative)))
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
