import Testing

/// A way to cut an input of `count` samples into consecutive chunks that together cover it.
public struct Chunking: Sendable, CustomStringConvertible {
  /// How the sizes are chosen, e.g. `37` or `random 0...300 (seed 7)`.
  public let description: String
  private let makeSizes: @Sendable (_ count: Int) -> [Int]

  /// A chunking whose sizes for `count` samples are `sizes(count)`; they must sum to `count`.
  public init(description: String, sizes: @escaping @Sendable (_ count: Int) -> [Int]) {
    self.description = description
    makeSizes = sizes
  }

  /// The chunk sizes for `count` samples; they sum to `count`.
  public func sizes(count: Int) -> [Int] {
    let sizes = makeSizes(count)
    precondition(
      sizes.allSatisfy { $0 >= 0 } && sizes.reduce(0, +) == count, "\(self) does not cover \(count)")
    return sizes
  }

  /// Chunks of `size` samples, the last one shorter.
  public static func fixed(_ size: Int) -> Chunking {
    precondition(size > 0, "a fixed chunk holds samples")
    return Chunking(description: "\(size)") { count in
      stride(from: 0, to: count, by: size).map { min(size, count - $0) }
    }
  }

  /// Sizes drawn uniformly from `sizes` by `SplitMix64(state: seed)` (empty chunks when `sizes` holds
  /// 0), the last one cut to what is left.
  public static func random(_ sizes: ClosedRange<Int>, seed: UInt64) -> Chunking {
    precondition(sizes.lowerBound >= 0 && sizes.upperBound > 0, "random chunks make progress")
    return Chunking(description: "random \(sizes) (seed \(seed))") { count in
      var generator = SplitMix64(state: seed)
      var result: [Int] = []
      var left = count
      while left > 0 {
        let size = min(left, Int.random(in: sizes, using: &generator))
        result.append(size)
        left -= size
      }
      return result
    }
  }

  /// 1-sample chunks, a prime size (37) and seeded random sizes from 0 (empty chunks) to 300.
  public static let standard: [Chunking] = [.fixed(1), .fixed(37), .random(0...300, seed: 7)]
}

/// Expects a streaming stage to give the same outputs whatever the chunks its input comes in — the
/// project's chunk-invariance rule.
///
/// The reference is a fresh stage (`makeStage`) fed the whole input `0 ..< count` as one chunk, then
/// `finish`ed. For each of `chunkings`, another fresh stage is fed the consecutive ranges of that
/// chunking, then finished; its outputs, concatenated in order, must equal the reference's element
/// for element by `areEquivalent`. `feed` reads the input range it is given (samples, channels, bytes)
/// and returns the outputs the stage emitted for it; `finish` returns what the stage still holds
/// (flushed events, a final filter state). A difference is recorded as an issue naming the chunking,
/// the first differing output and the counts.
///
/// - Returns: the reference outputs, for the caller's checks that they are not trivial.
@discardableResult
public func expectChunkInvariant<Stage: ~Copyable, Output>(
  count: Int,
  chunkings: [Chunking] = Chunking.standard,
  by areEquivalent: (Output, Output) -> Bool,
  _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  makeStage: () throws -> Stage,
  feed: (inout Stage, Range<Int>) throws -> [Output],
  finish: (inout Stage) throws -> [Output]
) rethrows -> [Output] {
  func run(_ sizes: [Int]) throws -> [Output] {
    var stage = try makeStage()
    var outputs: [Output] = []
    var start = 0
    for size in sizes {
      outputs += try feed(&stage, start..<start + size)
      start += size
    }
    return try outputs + finish(&stage)
  }
  let whole = try run([count])
  for chunking in chunkings {
    let chunked = try run(chunking.sizes(count: count))
    let shared = min(chunked.count, whole.count)
    let mismatch = (0..<shared).first { !areEquivalent(chunked[$0], whole[$0]) }
    guard chunked.count != whole.count || mismatch != nil else { continue }
    let difference = mismatch.map { ", first at output \($0): \(chunked[$0]) against \(whole[$0])" } ?? ""
    let context = comment.map { "\($0): " } ?? ""
    let message =
      "\(context)chunks of \(chunking) give \(chunked.count) outputs against \(whole.count) for the whole"
    Issue.record("\(message)\(difference)", sourceLocation: sourceLocation)
  }
  return whole
}

/// ``expectChunkInvariant(count:chunkings:by:_:sourceLocation:makeStage:feed:finish:)`` with outputs
/// that must be equal by `==` (for floating point: the same value, so a NaN output never matches).
@discardableResult
public func expectChunkInvariant<Stage: ~Copyable, Output: Equatable>(
  count: Int,
  chunkings: [Chunking] = Chunking.standard,
  _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  makeStage: () throws -> Stage,
  feed: (inout Stage, Range<Int>) throws -> [Output],
  finish: (inout Stage) throws -> [Output]
) rethrows -> [Output] {
  try expectChunkInvariant(
    count: count, chunkings: chunkings, by: ==, comment, sourceLocation: sourceLocation,
    makeStage: makeStage, feed: feed, finish: finish)
}

/// ``expectChunkInvariant(count:chunkings:_:sourceLocation:makeStage:feed:finish:)`` for a stage that
/// holds nothing back: every output comes from `feed`.
@discardableResult
public func expectChunkInvariant<Stage: ~Copyable, Output: Equatable>(
  count: Int,
  chunkings: [Chunking] = Chunking.standard,
  _ comment: Comment? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  makeStage: () throws -> Stage,
  feed: (inout Stage, Range<Int>) throws -> [Output]
) rethrows -> [Output] {
  try expectChunkInvariant(
    count: count, chunkings: chunkings, comment, sourceLocation: sourceLocation, makeStage: makeStage,
    feed: feed, finish: { _ in [] })
}
