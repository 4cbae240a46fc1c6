import Testing
import VitalsCore

/// Every test runs over every layout of a small buffer: each start slot × each count, so every wrapped
/// and unwrapped arrangement of the two segments is exercised (as swift-collections' `withEveryDeque`).
@Suite struct RingBufferTests {
  static let capacity = 8
  static let rate = 4.0
  static let start = Timestamp(nanosecondsSinceEpoch: 1_700_000_000_000_000_000)

  /// The value stored for record index `index` of `channel`.
  static func value(_ index: Int64, channel: Int) -> Float { Float(index) + 0.25 * Float(channel) }

  static func chunk(from first: Int64, count: Int, channels: Int = 2) -> SignalChunk {
    SignalChunk(
      channels: (0..<channels).map { c in (0..<count).map { value(first + Int64($0), channel: c) } },
      sampleRate: rate, startTime: start.advanced(bySamples: first, rate: rate), firstSampleIndex: first)
  }

  static func interleaved(from first: Int64, count: Int, channels: Int = 2) -> [Float] {
    (0..<count).flatMap { i in (0..<channels).map { value(first + Int64(i), channel: $0) } }
  }

  /// A buffer whose oldest sample sits in slot `startSlot` and which holds `count` samples.
  static func makeBuffer(startSlot: Int, count: Int) -> SampleRingBuffer {
    var buffer = SampleRingBuffer(
      channelCount: 2, minimumCapacity: capacity, sampleRate: rate, startTime: start)
    buffer.append(chunk(from: 0, count: startSlot))
    buffer.removeFirst(startSlot)
    buffer.append(chunk(from: Int64(startSlot), count: count))
    return buffer
  }

  static var everyLayout: [(startSlot: Int, count: Int)] {
    (0..<capacity).flatMap { s in (0...capacity).map { (s, $0) } }
  }

  /// The contents of `channel`, oldest first, and whether they came in two segments.
  static func contents(_ buffer: borrowing SampleRingBuffer, channel: Int) -> (values: [Float], wrapped: Bool)
  {
    buffer.withSegments(ofChannel: channel) { first, second in (Array(first) + Array(second), !second.isEmpty)
    }
  }

  /// Checks that `buffer` holds exactly the record indices `range`, with their times.
  static func expectHolds(_ buffer: borrowing SampleRingBuffer, _ range: Range<Int64>) {
    #expect(buffer.count == range.count)
    #expect(buffer.oldestSampleIndex == range.lowerBound && buffer.endSampleIndex == range.upperBound)
    #expect(buffer.oldestTime == start.advanced(bySamples: range.lowerBound, rate: rate))
    for channel in 0..<2 {
      #expect(contents(buffer, channel: channel).values == range.map { value($0, channel: channel) })
    }
  }

  @Test func capacityIsRoundedUpToAPowerOfTwo() {
    let buffer = SampleRingBuffer(channelCount: 3, minimumCapacity: 1000, sampleRate: 360, startTime: .epoch)
    let (capacity, free, isEmpty) = (buffer.capacity, buffer.freeCapacity, buffer.isEmpty)
    #expect(capacity == 1024 && free == 1024 && isEmpty)
  }

  @Test func segmentsCoverEveryLayout() {
    for (startSlot, count) in Self.everyLayout {
      let buffer = Self.makeBuffer(startSlot: startSlot, count: count)
      let first = Int64(startSlot)
      Self.expectHolds(buffer, first..<first + Int64(count))
      #expect(Self.contents(buffer, channel: 1).wrapped == (startSlot + count > Self.capacity))
      let isFull = buffer.isFull
      #expect(isFull == (count == Self.capacity))
      let spanned = buffer.withSpans(ofChannel: 0) { first, second in
        first.indices.map { first[$0] } + second.indices.map { second[$0] }
      }
      #expect(spanned == Self.contents(buffer, channel: 0).values)
      for offset in 0..<count {
        #expect(buffer[channel: 1, offset: offset] == Self.value(first + Int64(offset), channel: 1))
        let tail = count - offset
        let copied = [Float](unsafeUninitializedCapacity: tail) { destination, initialized in
          buffer.copySamples(ofChannel: 0, from: offset, into: destination)
          initialized = tail
        }
        #expect(copied == (0..<tail).map { Self.value(first + Int64(offset + $0), channel: 0) })
      }
    }
  }

  @Test func appendIfRoomAcceptsWhatFitsAndRejectsTheRest() {
    for (startSlot, count) in Self.everyLayout {
      for n in 0...(Self.capacity + 2) {
        var buffer = Self.makeBuffer(startSlot: startSlot, count: count)
        let first = Int64(startSlot)
        let end = first + Int64(count)
        let fits = n <= Self.capacity - count
        #expect(buffer.appendIfRoom(Self.chunk(from: end, count: n)) == fits)
        Self.expectHolds(buffer, first..<(fits ? end + Int64(n) : end))

        var interleavedBuffer = Self.makeBuffer(startSlot: startSlot, count: count)
        let accepted = Self.interleaved(from: end, count: n).withUnsafeBufferPointer {
          interleavedBuffer.appendIfRoom(interleaved: $0)
        }
        #expect(accepted == fits)
        Self.expectHolds(interleavedBuffer, first..<(fits ? end + Int64(n) : end))
      }
    }
  }

  @Test func overwritingDropsTheOldestAndCountsThem() {
    for (startSlot, count) in Self.everyLayout {
      for n in 0...(2 * Self.capacity + 1) {
        let first = Int64(startSlot)
        let end = first + Int64(count) + Int64(n)
        let expectedLost = max(0, count + n - Self.capacity)
        let kept = (end - Int64(min(Self.capacity, count + n)))..<end

        var buffer = Self.makeBuffer(startSlot: startSlot, count: count)
        #expect(
          buffer.appendOverwritingOldest(Self.chunk(from: first + Int64(count), count: n)) == expectedLost)
        Self.expectHolds(buffer, kept)

        var interleavedBuffer = Self.makeBuffer(startSlot: startSlot, count: count)
        let lost = Self.interleaved(from: first + Int64(count), count: n).withUnsafeBufferPointer {
          interleavedBuffer.appendOverwritingOldest(interleaved: $0)
        }
        #expect(lost == expectedLost)
        Self.expectHolds(interleavedBuffer, kept)
      }
    }
  }

  @Test func trappingAppendFillsToCapacity() {
    for (startSlot, count) in Self.everyLayout {
      var buffer = Self.makeBuffer(startSlot: startSlot, count: count)
      let end = Int64(startSlot + count)
      Self.interleaved(from: end, count: Self.capacity - count).withUnsafeBufferPointer {
        buffer.append(interleaved: $0)
      }
      let isFull = buffer.isFull
      #expect(isFull)
      Self.expectHolds(buffer, Int64(startSlot)..<end + Int64(Self.capacity - count))
    }
  }

  @Test func removingKeepsTimesAndIndices() {
    var buffer = Self.makeBuffer(startSlot: 5, count: 6)
    buffer.removeFirst(4)
    Self.expectHolds(buffer, 9..<11)
    buffer.removeAll()
    Self.expectHolds(buffer, 11..<11)
    let endTime = buffer.endTime
    #expect(endTime == Self.start.advanced(bySamples: 11, rate: Self.rate))
    let accepted = buffer.appendIfRoom(Self.chunk(from: 11, count: 8))
    #expect(accepted)
    Self.expectHolds(buffer, 11..<19)
  }

  @Test func appendTrapsWhenTheChunkDoesNotFit() async {
    await #expect(processExitsWith: .failure) {
      var buffer = SampleRingBuffer(channelCount: 1, minimumCapacity: 4, sampleRate: 4, startTime: .epoch)
      buffer.append(
        SignalChunk(channels: [[1, 2, 3, 4, 5]], sampleRate: 4, startTime: .epoch, firstSampleIndex: 0))
    }
  }

  @Test func appendTrapsOnAGapInTheRecord() async {
    await #expect(processExitsWith: .failure) {
      var buffer = SampleRingBuffer(channelCount: 1, minimumCapacity: 4, sampleRate: 4, startTime: .epoch)
      _ = buffer.appendIfRoom(
        SignalChunk(channels: [[1]], sampleRate: 4, startTime: .epoch, firstSampleIndex: 3))
    }
  }
}
