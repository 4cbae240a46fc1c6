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

  /// The chunkings of every stage test here: the standard ones, the sizes 2, 7, 64 and 1000 (block and
  /// tail boundaries of the kernels) and random sizes from 0 to 100.
  static let chunkings: [Chunking] =
    Chunking.standard + [.fixed(2), .fixed(7), .fixed(64), .fixed(1000), .random(0...100, seed: 42)]
}
