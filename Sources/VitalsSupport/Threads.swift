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
