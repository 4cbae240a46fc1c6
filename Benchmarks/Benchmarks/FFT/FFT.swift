import Benchmark

// Placeholder suite; replaced by the suite's real benchmarks.
let benchmarks: @Sendable () -> Void = {}
