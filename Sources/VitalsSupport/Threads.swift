import Dispatch

/// The work of a thread started by ``startThread(stackSize:_:)``.
private final class ThreadWork: Sendable {
  let body: @Sendable () -> Void
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Runs `body` on a new detached POSIX thread whose stack holds `stackSize` bytes (the analysis of a
/// recording recurses deeper than the default stacks of secondary threads allow). Unlike the work items of
/// a Dispatch queue, the thread starts whatever the other threads are doing: work that waits for another
/// thread's work may run on it without the risk of waiting for itself.
package func startThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  pthread_attr_setstacksize(&attributes, stackSize)
  pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
  let work = Unmanaged.passRetained(ThreadWork(body)).toOpaque()
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let status = pthread_create(
    &thread, &attributes,
    { work in
      Unmanaged<ThreadWork>.fromOpaque(work!).takeRetainedValue().body()
      return nil
    }, work)
  precondition(status == 0, "cannot start a thread: \(String(cString: strerror(status)))")
}

/// The turn-taking of a bounded hand-off from one producing thread to one consuming thread through
/// ``count`` slots used in turn (0, 1, …, `count` − 1, 0, …): the producer may be up to `count` slots
/// ahead. The slots' storage is the caller's; the ring says which slot each side may touch, and when.
///
/// Each side brackets its use of a slot: the producer between ``beginWriting()`` and ``endWriting()``, the
/// consumer between ``beginReading()`` and ``endReading()``. Every slot written must be read and ended
/// before the ring is released (libdispatch traps on a semaphore released below its initial value), so
/// a hand-off ends with a slot the producer writes last and the consumer recognizes as the end.
///
/// `@unchecked Sendable`: the producing thread alone touches the write position and the consuming
/// thread alone the read position; the semaphores order each slot's writes before its reads and its
/// reads before its next writes.
package final class SlotRing: @unchecked Sendable {
  /// The number of slots.
  package let count: Int
  private let filled = DispatchSemaphore(value: 0)
  private let empty: DispatchSemaphore
  private var writePosition = 0
  private var readPosition = 0

  /// A ring of `count` slots, all free.
  package init(count: Int) {
    precondition(count > 0, "a slot ring needs a slot")
    self.count = count
    empty = DispatchSemaphore(value: count)
  }

  /// Producer: waits until the next slot is free and returns its index.
  package func beginWriting() -> Int {
    empty.wait()
    return writePosition
  }

  /// Producer: hands the slot of the last ``beginWriting()`` to the consumer.
  package func endWriting() {
    writePosition = (writePosition + 1) % count
    filled.signal()
  }

  /// Consumer: waits until the next slot is written and returns its index.
  package func beginReading() -> Int {
    filled.wait()
    return readPosition
  }

  /// Consumer: gives the slot of the last ``beginReading()`` back to the producer.
  package func endReading() {
    readPosition = (readPosition + 1) % count
    empty.signal()
  }
}
