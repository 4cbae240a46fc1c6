import VitalsCore

/// Any reader narrowed to some of its channels, in the order chosen: how a selection is applied to a
/// reader that always yields every signal (WFDB).
public struct ChannelSelectingReader<Base: SignalReader>: SignalReader {
  private var base: Base
  /// Indices into the base reader's signals, in output order.
  public let channelIndices: [Int]

  /// Narrows `base` to the signals `selectors` name; throws when a selector matches none.
  public init(_ base: Base, selecting selectors: [ChannelSelector], path: String) throws(InputError) {
    self.channelIndices = try ChannelSelector.resolve(selectors, names: base.signals.map(\.name), path: path)
    self.base = base
  }

  public var formatName: String { base.formatName }
  public var signals: [SignalDescription] { channelIndices.map { base.signals[$0] } }
  public var chunkSampleRate: Double { base.chunkSampleRate }
  public var startTime: Timestamp { base.startTime }

  public mutating func nextChunk(maxSamples: Int) throws(InputError) -> SignalChunk? {
    guard var chunk = try base.nextChunk(maxSamples: maxSamples) else { return nil }
    chunk.channels = channelIndices.map { chunk.channels[$0] }
    return chunk
  }
}
