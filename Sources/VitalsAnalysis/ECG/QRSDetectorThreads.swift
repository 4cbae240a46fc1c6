import VitalsSupport

extension QRSDetector {
  /// Blocks handed from the filtering thread to the deciding one at a time, in
  /// ``processOnTwoThreads(_:appendingTo:)``.
  static let handOffBlockCount = 8

  /// ``process(_:appendingTo:)`` on two threads: a new thread filters the samples (the band-passes, the
  /// derivative, squaring and integration of the feature: about two thirds of the work) a few blocks
  /// ahead, while this one decides on the beats. The blocks are those of ``process(_:appendingTo:)`` and
  /// each thread runs its half of the detector on them in order, so the beats are exactly that one's.
  /// From the first missing sample on, the rest is fed as ``process(_:appendingTo:)`` feeds it, on this
  /// thread; so are samples fed inside a gap, and fewer than four hand-offs' worth.
  public mutating func processOnTwoThreads(
    _ samples: UnsafeBufferPointer<Float>, appendingTo beats: inout [Int64]
  ) {
    precondition(!finished, "the recording was finished: a new one needs a new detector")
    guard let current = segment, gapTracker.openGapStart == nil,
      samples.count >= 4 * Self.handOffBlockCount * Self.blockSize
    else {
      process(samples, appendingTo: &beats)
      return
    }
    let handOff = ConditionedBlocks(samples: samples, segment: current)
    startThread(stackSize: 8 << 20) { handOff.condition() }
    handOff.decide()
    var merged = handOff.conditioner
    merged.classifier = handOff.decider.classifier
    segment = merged
    gapTracker.advance(presentCount: handOff.conditionedCount)
    let start = segmentStart
    beats += handOff.beats.lazy.map { $0 + start }
    if handOff.conditionedCount < samples.count {
      process(UnsafeBufferPointer(rebasing: samples[handOff.conditionedCount...]), appendingTo: &beats)
    }
  }
}

/// The blocks that one thread conditions (``QRSDetector/Segment/condition(_:raw:band:feature:)``) and
/// another decides on (``QRSDetector/Segment/decide(raw:band:feature:appendingTo:)``), in three slots of
/// ``QRSDetector/handOffBlockCount`` blocks taken in turn.
///
/// `@unchecked Sendable`: the conditioning thread alone touches ``conditioner`` and a slot's buffers
/// between `ring`'s `beginWriting()` and `endWriting()`; the deciding thread alone touches ``decider``
/// and ``beats`` and a slot between `beginReading()` and `endReading()`; the caller reads the rest once
/// the deciding thread has seen the last slot, with no block, which the conditioning thread writes last
/// of all.
private final class ConditionedBlocks: @unchecked Sendable {
  static let slotCount = 3
  let samples: UnsafeBufferPointer<Float>
  var conditioner: QRSDetector.Segment
  var decider: QRSDetector.Segment
  /// Beats decided, as segment indices.
  var beats: [Int64] = []
  /// Input samples conditioned: all of them, or those before the block with the first missing sample.
  var conditionedCount = 0
  /// Per slot and block: input, band-passed and feature samples; input and feature counts; per slot: the
  /// blocks it holds (0 ends the hand-off).
  let raw, band, feature: UnsafeMutablePointer<Float>
  let inputCounts, featureCounts, blockCounts: UnsafeMutablePointer<Int>
  let ring = SlotRing(count: slotCount)

  init(samples: UnsafeBufferPointer<Float>, segment: QRSDetector.Segment) {
    self.samples = samples
    conditioner = segment
    decider = segment
    let blocks = Self.slotCount * QRSDetector.handOffBlockCount
    raw = .allocate(capacity: blocks * QRSDetector.blockSize)
    band = .allocate(capacity: blocks * QRSDetector.blockSize)
    feature = .allocate(capacity: blocks * QRSDetector.blockSize)
    inputCounts = .allocate(capacity: blocks)
    featureCounts = .allocate(capacity: blocks)
    blockCounts = .allocate(capacity: Self.slotCount)
  }

  deinit {
    for buffer in [raw, band, feature] { buffer.deallocate() }
    for counts in [inputCounts, featureCounts, blockCounts] { counts.deallocate() }
  }

  /// The conditioning thread's work: fills the slots in turn until the samples end or one is missing,
  /// then fills one with no block.
  func condition() {
    var position = 0
    var ended = false
    while true {
      let slot = ring.beginWriting()
      var blocks = 0
      while !ended && blocks < QRSDetector.handOffBlockCount && position < samples.count {
        let end = min(samples.count, position + QRSDetector.blockSize)
        let block = slot * QRSDetector.handOffBlockCount + blocks
        let at = block * QRSDetector.blockSize
        guard
          let count = conditioner.condition(
            UnsafeBufferPointer(rebasing: samples[position..<end]), raw: raw + at, band: band + at,
            feature: feature + at)
        else {
          ended = true
          break
        }
        (inputCounts[block], featureCounts[block]) = (end - position, count)
        blocks += 1
        position = end
      }
      ended = ended || position == samples.count
      if blocks == 0 { conditionedCount = position }
      blockCounts[slot] = blocks
      ring.endWriting()
      if blocks == 0 { return }
    }
  }

  /// The deciding thread's work: decides on the slots in turn until one holds no block.
  func decide() {
    while true {
      let slot = ring.beginReading()
      let blocks = blockCounts[slot]
      defer { ring.endReading() }  // every slot back, the last one too (see SlotRing)
      if blocks == 0 { return }
      for block in slot * QRSDetector.handOffBlockCount..<slot * QRSDetector.handOffBlockCount + blocks {
        let at = block * QRSDetector.blockSize
        decider.decide(
          raw: UnsafeBufferPointer(start: raw + at, count: inputCounts[block]),
          band: UnsafeBufferPointer(start: band + at, count: featureCounts[block]),
          feature: UnsafeBufferPointer(start: feature + at, count: featureCounts[block]), appendingTo: &beats)
      }
    }
  }
}
