import Foundation

/// CPU seconds of the calling thread (the peers are timed in CPU seconds too: scripts/peers/timing.py):
/// time the thread spends descheduled on a shared machine does not count.
public func threadCPUSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The least CPU time of `repeats` runs of `work`, seconds.
public func best(_ repeats: Int = 3, _ work: () throws -> Void) rethrows -> Double {
  var best = Double.infinity
  for _ in 0..<repeats {
    let start = threadCPUSeconds()
    try work()
    best = min(best, threadCPUSeconds() - start)
  }
  return best
}
