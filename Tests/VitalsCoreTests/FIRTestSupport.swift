import VitalsTestSupport
import Foundation

/// Deterministic inputs and chunkings for the tests of stateful stages.
enum StreamTesting {
  /// `count` samples of a tone plus uniform noise in [−0.5, 0.5).
  static func signal(count: Int, seed: UInt64 = 1) -> [Float] {
    var generator = SplitMix64(state: seed)
    return (0..<count).map { i in
      Float(sin(Double(i) * 0.05)) + Float.random(in: -0.5..<0.5, using: &generator)
    }
  }

  /// Named ways to cut `count` samples into chunks: fixed sizes 1, 2, 7 and 64, and random sizes 0–100.
  static func chunkings(count: Int) -> [(name: String, sizes: [Int])] {
    func fixed(_ size: Int) -> [Int] {
      stride(from: 0, to: count, by: size).map { min(size, count - $0) }
    }
    var generator = SplitMix64(state: 42)
    var random: [Int] = []
    var left = count
    while left > 0 {
      let size = min(left, Int.random(in: 0...100, using: &generator))
      random.append(size)
      left -= size
    }
    return [("1", fixed(1)), ("2", fixed(2)), ("7", fixed(7)), ("64", fixed(64)), ("random", random)]
  }

  /// `signal` cut into chunks of `sizes`, each passed to `body`; the outputs concatenated.
  static func streamed(_ signal: [Float], sizes: [Int], _ body: ([Float]) -> [Float]) -> [Float] {
    var output: [Float] = []
    var start = 0
    for size in sizes {
      output += body(Array(signal[start..<start + size]))
      start += size
    }
    return output
  }
}
