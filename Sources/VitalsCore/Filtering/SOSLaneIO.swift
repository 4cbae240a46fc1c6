extension LaneCascade {
  /// Runs `count` samples on every lane: lane `i` reads `inputs[i][n·stride]` and writes
  /// `outputs[i][n·stride]` for `n` in `0..<count`. The tables hold `L.laneCount` pointers. Lanes that carry
  /// no channel of their own repeat a real lane's pointers: they compute the same values, and lanes are
  /// written from the last to the first, so the real lane's write lands last.
  mutating func run(
    count: Int, stride: Int, inputs: UnsafePointer<UnsafePointer<Float>>,
    outputs: UnsafePointer<UnsafeMutablePointer<Float>>
  ) {
    run(
      count: count,
      load: { index in
        var lanes = L(repeating: 0)
        for lane in 0..<L.laneCount { lanes[lane: lane] = Double(inputs[lane][index * stride]) }
        return lanes
      },
      store: { index, lanes in
        for lane in (0..<L.laneCount).reversed() { outputs[lane][index * stride] = Float(lanes[lane: lane]) }
      })
  }
}
