/// A fixed-capacity ring buffer of the most recent `Float` samples of several channels sharing one sample
/// rate, which knows the record index and absolute time of every sample it holds.
///
/// The buffer is non-copyable: it owns one allocation (each channel a run of ``capacity`` slots) and
/// frees it when it goes away. The capacity is a power of two, so that slot arithmetic is a mask; indices
/// are checked only in debug builds where the public API already guarantees them. The contents of a
/// channel are handed out as at most two contiguous segments, oldest first (``withSegments(ofChannel:_:)``,
/// ``withSpans(ofChannel:_:)``).
///
/// **When full.** Appending never reallocates. The caller picks the policy per call:
/// ``append(_:)`` traps when the samples do not fit (a programmer error: size the buffer or read first);
/// ``appendIfRoom(_:)`` rejects the whole chunk and returns `false`; ``appendOverwritingOldest(_:)``
/// discards the oldest samples to make room and returns how many were lost.
///
/// Samples arrive in order: a chunk must start at the record index that follows the last sample
/// appended (``endSampleIndex``), at the buffer's sample rate. Times are computed from the record index,
/// never accumulated, so they do not drift.
///
/// Modeled on `RigidDeque` (swift-collections 1.6: one storage handle, a start slot and a count) and
/// `CircularBuffer` (swift-nio: power-of-two masking).
public struct SampleRingBuffer: ~Copyable {
  @usableFromInline let storage: UnsafeMutablePointer<Float>
  /// Samples each channel can hold: a power of two.
  public let capacity: Int
  /// Channels, each with its own run of ``capacity`` slots.
  public let channelCount: Int
  /// Samples per second of every channel.
  public let sampleRate: Double
  /// The time of record index `anchorIndex`, from which every sample time is computed.
  @usableFromInline let anchorTime: Timestamp
  @usableFromInline let anchorIndex: Int64
  /// Slot of the oldest sample.
  @usableFromInline var startSlot = 0
  /// Samples held per channel.
  public private(set) var count = 0
  /// Record index of the oldest sample held (of the next sample, when empty).
  public private(set) var oldestSampleIndex: Int64

  /// An empty buffer for `channelCount` channels of at least `minimumCapacity` samples each (rounded up to
  /// a power of two), whose next sample is record index `firstSampleIndex`, taken at `startTime`.
  public init(
    channelCount: Int, minimumCapacity: Int, sampleRate: Double, startTime: Timestamp,
    firstSampleIndex: Int64 = 0
  ) {
    precondition(channelCount >= 1, "a ring buffer holds at least one channel, got \(channelCount)")
    precondition(minimumCapacity >= 1, "a ring buffer holds at least one sample, got \(minimumCapacity)")
    precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive and finite")
    precondition(minimumCapacity <= 1 << 40, "capacity \(minimumCapacity) is out of range")
    self.capacity = .powerOfTwo(atLeast: minimumCapacity)
    self.channelCount = channelCount
    self.sampleRate = sampleRate
    self.anchorTime = startTime
    self.anchorIndex = firstSampleIndex
    self.oldestSampleIndex = firstSampleIndex
    self.storage = .allocate(capacity: capacity * channelCount)
    self.storage.initialize(repeating: 0, count: capacity * channelCount)
  }

  deinit {
    storage.deallocate()
  }

  /// Whether no sample is held.
  @inlinable public var isEmpty: Bool { count == 0 }
  /// Whether ``capacity`` samples are held.
  @inlinable public var isFull: Bool { count == capacity }
  /// Samples per channel that can be appended without discarding any.
  @inlinable public var freeCapacity: Int { capacity - count }
  /// Record index of the next sample to append (one past the newest held).
  @inlinable public var endSampleIndex: Int64 { oldestSampleIndex + Int64(count) }

  /// Absolute time of record index `index`.
  @inlinable
  public func time(ofSampleIndex index: Int64) -> Timestamp {
    anchorTime.advanced(bySamples: index - anchorIndex, rate: sampleRate)
  }

  /// Absolute time of the oldest sample held (of the next sample, when empty).
  @inlinable public var oldestTime: Timestamp { time(ofSampleIndex: oldestSampleIndex) }
  /// Absolute time of the next sample to append.
  @inlinable public var endTime: Timestamp { time(ofSampleIndex: endSampleIndex) }

  @inlinable
  var mask: Int { capacity &- 1 }

  /// The sample `offset` positions after the oldest held, of channel `channel`.
  @inlinable
  public subscript(channel channel: Int, offset offset: Int) -> Float {
    precondition(channel >= 0 && channel < channelCount, "channel \(channel) out of 0..<\(channelCount)")
    precondition(offset >= 0 && offset < count, "offset \(offset) out of 0..<\(count)")
    return storage[channel &* capacity &+ ((startSlot &+ offset) & mask)]
  }

  /// Calls `body` with the samples of `channel`, oldest first, as two contiguous segments: `first` then
  /// `second` (empty unless the contents wrap around the end of the storage). The pointers are valid only
  /// during the call.
  @inlinable
  public func withSegments<Result, Failure: Error>(
    ofChannel channel: Int,
    _ body: (_ first: UnsafeBufferPointer<Float>, _ second: UnsafeBufferPointer<Float>) throws(Failure) ->
      Result
  ) throws(Failure) -> Result {
    precondition(channel >= 0 && channel < channelCount, "channel \(channel) out of 0..<\(channelCount)")
    let base = UnsafePointer(storage + channel &* capacity)
    let firstCount = min(count, capacity &- startSlot)
    return try body(
      UnsafeBufferPointer(start: base + startSlot, count: firstCount),
      UnsafeBufferPointer(start: base, count: count &- firstCount))
  }

  /// Calls `body` with the samples of `channel`, oldest first, as two spans: `first` then `second` (empty
  /// unless the contents wrap around the end of the storage). The spans cannot outlive the call.
  @inlinable
  public func withSpans<Result, Failure: Error>(
    ofChannel channel: Int,
    _ body: (_ first: Span<Float>, _ second: Span<Float>) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withSegments(ofChannel: channel) { (first, second) throws(Failure) in
      try body(first.span, second.span)
    }
  }

  /// Copies `destination.count` samples of `channel`, starting `offset` positions after the oldest held,
  /// into `destination`.
  @inlinable
  public func copySamples(
    ofChannel channel: Int, from offset: Int, into destination: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(channel >= 0 && channel < channelCount, "channel \(channel) out of 0..<\(channelCount)")
    precondition(
      offset >= 0 && offset + destination.count <= count,
      "samples \(offset)..<\(offset + destination.count) out of 0..<\(count)")
    guard let target = destination.baseAddress else { return }
    let base = storage + channel &* capacity
    let slot = (startSlot &+ offset) & mask
    let firstCount = min(destination.count, capacity &- slot)
    target.update(from: base + slot, count: firstCount)
    (target + firstCount).update(from: base, count: destination.count &- firstCount)
  }

  /// Discards the `n` oldest samples of every channel.
  public mutating func removeFirst(_ n: Int) {
    precondition(n >= 0 && n <= count, "cannot remove \(n) of \(count) samples")
    startSlot = (startSlot &+ n) & mask
    count &-= n
    oldestSampleIndex += Int64(n)
    assert(checkInvariants())
  }

  /// Discards every sample; the next sample appended is still record index ``endSampleIndex``.
  public mutating func removeAll() {
    removeFirst(count)
  }

  // MARK: Appending chunks

  /// Appends `chunk`, trapping if it does not fit in ``freeCapacity``.
  /// - Precondition: the chunk has ``channelCount`` channels, the buffer's sample rate and starts at
  ///   ``endSampleIndex``; `chunk.sampleCount <= freeCapacity`.
  public mutating func append(_ chunk: SignalChunk) {
    precondition(
      chunk.sampleCount <= freeCapacity,
      "ring buffer overflow: \(chunk.sampleCount) samples for \(freeCapacity) free slots")
    write(chunk)
  }

  /// Appends `chunk` if it fits in ``freeCapacity``; otherwise leaves the buffer unchanged and returns
  /// `false`.
  /// - Precondition: the chunk has ``channelCount`` channels, the buffer's sample rate and starts at
  ///   ``endSampleIndex``.
  public mutating func appendIfRoom(_ chunk: SignalChunk) -> Bool {
    guard chunk.sampleCount <= freeCapacity else { return false }
    write(chunk)
    return true
  }

  /// Appends `chunk`, first discarding as many of the oldest samples as needed; returns the number of
  /// samples per channel lost: oldest held ones, plus the first ones of `chunk` when the chunk alone
  /// exceeds ``capacity``.
  /// - Precondition: the chunk has ``channelCount`` channels, the buffer's sample rate and starts at
  ///   ``endSampleIndex``.
  @discardableResult
  public mutating func appendOverwritingOldest(_ chunk: SignalChunk) -> Int {
    let skipped = max(0, chunk.sampleCount - capacity)
    let lost = makeRoom(for: chunk.sampleCount)
    write(chunk, skipping: skipped)
    return lost
  }

  // MARK: Appending interleaved frames

  /// Appends interleaved frames (`frames[i·channelCount + c]` is sample `i` of channel `c`), trapping if
  /// they do not fit in ``freeCapacity``.
  public mutating func append(interleaved frames: UnsafeBufferPointer<Float>) {
    let n = frameCount(frames)
    precondition(n <= freeCapacity, "ring buffer overflow: \(n) samples for \(freeCapacity) free slots")
    write(interleaved: frames, frames: n, skipping: 0)
  }

  /// Appends interleaved frames if they fit in ``freeCapacity``; otherwise leaves the buffer unchanged
  /// and returns `false`.
  public mutating func appendIfRoom(interleaved frames: UnsafeBufferPointer<Float>) -> Bool {
    let n = frameCount(frames)
    guard n <= freeCapacity else { return false }
    write(interleaved: frames, frames: n, skipping: 0)
    return true
  }

  /// Appends interleaved frames, first discarding as many of the oldest samples as needed; returns the
  /// number of samples per channel lost (see ``appendOverwritingOldest(_:)``).
  @discardableResult
  public mutating func appendOverwritingOldest(interleaved frames: UnsafeBufferPointer<Float>) -> Int {
    let n = frameCount(frames)
    let skipped = max(0, n - capacity)
    let lost = makeRoom(for: n)
    write(interleaved: frames, frames: n, skipping: skipped)
    return lost
  }
}

extension SampleRingBuffer {
  private func frameCount(_ frames: UnsafeBufferPointer<Float>) -> Int {
    precondition(
      frames.count % channelCount == 0,
      "\(frames.count) interleaved values are not whole frames of \(channelCount) channels")
    return frames.count / channelCount
  }

  /// Discards the oldest samples (all of them, and the record indices the input will skip, when `n`
  /// exceeds the capacity) so that the newest `min(n, capacity)` of `n` incoming samples fit; returns the
  /// samples per channel lost.
  private mutating func makeRoom(for n: Int) -> Int {
    guard n > freeCapacity else { return 0 }
    if n >= capacity {
      let lost = count + (n - capacity)
      removeAll()
      startSlot = 0
      oldestSampleIndex += Int64(n - capacity)
      return lost
    }
    let lost = n - freeCapacity
    removeFirst(lost)
    return lost
  }

  private mutating func write(_ chunk: SignalChunk, skipping skipped: Int = 0) {
    precondition(
      chunk.channels.count == channelCount,
      "chunk has \(chunk.channels.count) channels, buffer \(channelCount)")
    precondition(
      chunk.sampleRate == sampleRate, "chunk rate \(chunk.sampleRate) Hz ≠ buffer rate \(sampleRate) Hz")
    precondition(
      chunk.firstSampleIndex + Int64(skipped) == endSampleIndex,
      "chunk starts at sample \(chunk.firstSampleIndex); the buffer expects \(endSampleIndex - Int64(skipped))"
    )
    let n = chunk.sampleCount - skipped
    withSlots(for: n) { channel, sourceOffset, destination, length in
      chunk.channels[channel].withUnsafeBufferPointer { source in
        destination.update(from: source.baseAddress! + skipped + sourceOffset, count: length)
      }
    }
  }

  private mutating func write(
    interleaved frames: UnsafeBufferPointer<Float>, frames n: Int, skipping skipped: Int
  ) {
    let stride = channelCount
    withSlots(for: n - skipped) { channel, sourceOffset, destination, length in
      var source = frames.baseAddress! + (skipped + sourceOffset) * stride + channel
      for i in 0..<length {
        destination[i] = source.pointee
        source += stride
      }
    }
  }

  /// Appends `n ≤ freeCapacity` samples per channel, calling `copy(channel, sourceOffset, destination,
  /// length)` for each of the (at most two) contiguous runs of slots they fill in each channel.
  private mutating func withSlots(
    for n: Int, _ copy: (Int, Int, UnsafeMutablePointer<Float>, Int) -> Void
  ) {
    assert(n >= 0 && n <= freeCapacity, "internal: \(n) samples for \(freeCapacity) free slots")
    let slot = (startSlot &+ count) & mask
    let firstCount = min(n, capacity &- slot)
    for channel in 0..<channelCount {
      let base = storage + channel &* capacity
      copy(channel, 0, base + slot, firstCount)
      if n > firstCount { copy(channel, firstCount, base, n &- firstCount) }
    }
    count &+= n
    assert(checkInvariants())
  }

  /// The layout invariants (debug builds only, through `assert`).
  private func checkInvariants() -> Bool {
    capacity.nonzeroBitCount == 1 && (0..<capacity).contains(startSlot) && (0...capacity).contains(count)
  }
}

extension SampleRingBuffer: @unchecked Sendable {}
