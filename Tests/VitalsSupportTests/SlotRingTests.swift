import Synchronization
import Testing
import VitalsSupport

/// Values written by one thread and read by another through a ring of three slots.
private final class RingHandOff: @unchecked Sendable {
  let ring = SlotRing(count: 3)
  let slots = UnsafeMutablePointer<Int>.allocate(capacity: 3)
  /// Slots the consumer has given back, and the most slots the producer held beyond them.
  let returned = Atomic(0)
  let mostAhead = Atomic(0)

  deinit { slots.deallocate() }

  /// Writes 0..<count, then -1 (the end).
  func produce(count: Int) {
    for value in Array(0..<count) + [-1] {
      let slot = ring.beginWriting()
      _ = mostAhead.max(value < 0 ? 0 : value + 1 - returned.load(ordering: .acquiring), ordering: .relaxed)
      slots[slot] = value
      ring.endWriting()
    }
  }

  /// Reads up to the end.
  func consume() -> [Int] {
    var values: [Int] = []
    while true {
      let value = slots[ring.beginReading()]
      _ = returned.add(1, ordering: .releasing)  // before the slot goes back, so never counted late
      ring.endReading()
      if value < 0 { return values }
      values.append(value)
    }
  }
}

@Test func slotRingHandsValuesOverInOrderAtMostCountAhead() {
  let handOff = RingHandOff()
  startThread(stackSize: 1 << 20) { handOff.produce(count: 20_000) }
  let values = handOff.consume()
  #expect(values == Array(0..<20_000))
  #expect(handOff.mostAhead.load(ordering: .relaxed) <= handOff.ring.count)
  #expect(handOff.mostAhead.load(ordering: .relaxed) >= 1)
}
