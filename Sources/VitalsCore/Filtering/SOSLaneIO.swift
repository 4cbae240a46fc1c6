extension LaneCascade {
  /// Runs `count` frames whose lanes are consecutive `Float`s: lane `i` of frame `n` is
  /// `source[n·stride + i]`, its output goes to `destination[n·stride + i]` (which may be `source`). One
  /// vector load and one vector store per frame. Never inlined: each lane type's kernel is compiled as a
  /// function of its own, whose loop the optimizer treats the same whatever calls it.
  @inline(never)
  mutating func run(
    frames source: UnsafePointer<Float>, stride: Int, count: Int,
    into destination: UnsafeMutablePointer<Float>
  ) {
    run(
      count: count, input: FloatFrames<L>(base: UnsafeMutablePointer(mutating: source), stride: stride),
      output: FloatFrames<L>(base: destination, stride: stride))
  }

  /// Runs `count` samples on lanes gathered from anywhere: lane `i < inputs.count` reads
  /// `inputs[i][n·stride]` and writes `outputs[i][n·stride]`; lanes beyond `inputs.count` run on zeros and
  /// are discarded. Blocks of samples are transposed into consecutive lanes in a scratch buffer, filtered
  /// there with vector loads and stores, and transposed back, which keeps the gathers out of the loop that
  /// carries the recurrences. An output may be the memory of its input.
  @inline(never)
  mutating func run(
    count: Int, stride: Int, inputs: [UnsafePointer<Float>], outputs: [UnsafeMutablePointer<Float>]
  ) {
    precondition(inputs.count == outputs.count && inputs.count <= L.laneCount, "one output per input lane")
    let width = L.laneCount
    let block = Self.blockLength
    withUnsafeTemporaryAllocation(of: Float.self, capacity: block * width) { scratch in
      let frames = scratch.baseAddress!
      scratch.initialize(repeating: 0)
      var start = 0
      while start < count {
        let length = min(block, count - start)
        for (lane, input) in inputs.enumerated() {
          let source = input + start * stride
          for index in 0..<length { frames[index * width + lane] = source[index * stride] }
        }
        run(frames: frames, stride: width, count: length, into: frames)
        for (lane, output) in outputs.enumerated() {
          let destination = output + start * stride
          for index in 0..<length { destination[index * stride] = frames[index * width + lane] }
        }
        start += length
      }
    }
  }
}
