/// `Σᵢ a[i]·b[i]` over `count` `Float`s, accumulated in two `SIMD8<Float>` lanes then a scalar tail.
///
/// The order of the additions depends only on `count`, never on where the operands lie in memory, so a
/// filter fed in chunks of any size produces bit-for-bit the same outputs as when fed the whole signal.
@inlinable
@inline(__always)
func _dotProduct(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
  let rawA = UnsafeRawPointer(a)
  let rawB = UnsafeRawPointer(b)
  let stride = MemoryLayout<Float>.stride
  var accumulator0 = SIMD8<Float>()
  var accumulator1 = SIMD8<Float>()
  var i = 0
  while i &+ 16 <= count {
    let offset0 = i &* stride
    let offset1 = (i &+ 8) &* stride
    accumulator0 +=
      rawA.loadUnaligned(fromByteOffset: offset0, as: SIMD8<Float>.self)
      * rawB.loadUnaligned(fromByteOffset: offset0, as: SIMD8<Float>.self)
    accumulator1 +=
      rawA.loadUnaligned(fromByteOffset: offset1, as: SIMD8<Float>.self)
      * rawB.loadUnaligned(fromByteOffset: offset1, as: SIMD8<Float>.self)
    i &+= 16
  }
  if i &+ 8 <= count {
    let offset = i &* stride
    accumulator0 +=
      rawA.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
      * rawB.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
    i &+= 8
  }
  var sum = (accumulator0 + accumulator1).sum()
  while i < count {
    sum += a[i] * b[i]
    i &+= 1
  }
  return sum
}

/// `count` consecutive outputs of a plain FIR filter: `output[j] = Σᵢ taps[i]·window[j + i]` for
/// `i` in `0..<length` (`taps` time-reversed), vectorized across outputs: each tap is broadcast and
/// multiplied with 32 (then 8) consecutive inputs, so no horizontal reduction is needed, and the four
/// independent accumulators of a 32-output block keep the adders busy while each waits on its last sum.
///
/// Every output, in a vector lane or in the scalar tail, sums its products in the same order (`i`
/// ascending, one product at a time, from zero), so the result of an output does not depend on its
/// position in a chunk: a filter fed in chunks of any size produces bit-for-bit the same outputs as when
/// fed at once.
@inlinable
@inline(__always)
func _filterRun(
  _ taps: UnsafePointer<Float>, _ window: UnsafePointer<Float>, length: Int, count: Int,
  into output: UnsafeMutablePointer<Float>
) {
  _accumulateRun(taps, length: length, count: count, into: output) { i, j in window + (j &+ i) }
}

/// `count` outputs `output[j] = Σᵢ taps[i]·source(i, j).pointee` for `i` in `0..<length`, the products added
/// in increasing `i` from zero: 32 outputs at a time, then 8 (``_accumulateBlock(_:length:vectors:into:_:)``;
/// `source(i, j)` then points at the inputs tap `i` meets for outputs `j`, `j + 1`, …, which must be
/// contiguous), then one at a time.
@inlinable
@inline(__always)
func _accumulateRun(
  _ taps: UnsafePointer<Float>, length: Int, count: Int, into output: UnsafeMutablePointer<Float>,
  _ source: (_ tap: Int, _ output: Int) -> UnsafePointer<Float>
) {
  var j = 0
  while j &+ 32 <= count {
    _accumulateBlock(taps, length: length, vectors: 4, into: output + j) { i in source(i, j) }
    j &+= 32
  }
  while j &+ 8 <= count {
    _accumulateBlock(taps, length: length, vectors: 1, into: output + j) { i in source(i, j) }
    j &+= 8
  }
  while j < count {
    var sum: Float = 0
    for i in 0..<length { sum += taps[i] * source(i, j).pointee }
    output[j] = sum
    j &+= 1
  }
}

/// `8·vectors` outputs `output[l] = Σᵢ taps[i]·source(i)[l]` (`vectors` 1 or 4), the products added in
/// increasing `i` from zero, in `vectors` `SIMD8<Float>` accumulators (four independent ones keep the adders
/// busy while each waits on its last sum); `source(i)` points at the inputs tap `i` meets.
@inlinable
@inline(__always)
func _accumulateBlock(
  _ taps: UnsafePointer<Float>, length: Int, vectors: Int, into output: UnsafeMutablePointer<Float>,
  _ source: (Int) -> UnsafePointer<Float>
) {
  var accumulator0 = SIMD8<Float>()
  var accumulator1 = SIMD8<Float>()
  var accumulator2 = SIMD8<Float>()
  var accumulator3 = SIMD8<Float>()
  for i in 0..<length {
    let tap = SIMD8<Float>(repeating: taps[i])
    let inputs = UnsafeRawPointer(source(i))
    accumulator0 += tap * inputs.loadUnaligned(as: SIMD8<Float>.self)
    if vectors == 4 {
      accumulator1 += tap * inputs.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self)
      accumulator2 += tap * inputs.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self)
      accumulator3 += tap * inputs.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self)
    }
  }
  let destination = UnsafeMutableRawPointer(output)
  destination.storeBytes(of: accumulator0, as: SIMD8<Float>.self)
  if vectors == 4 {
    destination.storeBytes(of: accumulator1, toByteOffset: 32, as: SIMD8<Float>.self)
    destination.storeBytes(of: accumulator2, toByteOffset: 64, as: SIMD8<Float>.self)
    destination.storeBytes(of: accumulator3, toByteOffset: 96, as: SIMD8<Float>.self)
  }
}

/// `count` outputs of an FIR filter decimated by `down`: `output[j] = Σᵢ taps[i]·window[j·down + i]` for
/// `i` in `0..<length` (`taps` time-reversed). The inputs are first split into their `down` phases
/// (`phases[ρ·phaseStride + m] = window[m·down + ρ]`; two phases with vector shuffles), so that the inputs
/// of consecutive outputs for one tap are contiguous in one phase: tap `i = q·down + ρ` reads phase `ρ`
/// shifted by `q`, from `phases + tapOffsets[i]` (``_decimationTapOffsets(length:down:phaseStride:)``).
/// Each tap is then broadcast against them, as in ``_filterRun``.
///
/// Every output, in a vector lane or in the scalar tail, sums its products in the same order (`i`
/// ascending, one product at a time, from zero), so chunks of any size give bit-for-bit the output of the
/// whole.
@inlinable
@inline(__always)
func _decimateRun(
  _ taps: UnsafePointer<Float>, _ window: UnsafePointer<Float>, length: Int, down: Int, count: Int,
  phases: UnsafeMutablePointer<Float>, phaseStride: Int, tapOffsets: UnsafePointer<Int>,
  into output: UnsafeMutablePointer<Float>
) {
  _splitPhases(window, length: length, down: down, count: count, into: phases, phaseStride: phaseStride)
  _accumulateRun(taps, length: length, count: count, into: output) { i, j in
    UnsafePointer(phases + (tapOffsets[i] &+ j))
  }
}

/// Where each of the `length` taps of ``_decimateRun`` reads in the phases: `(i mod down)·phaseStride +
/// ⌊i / down⌋` for tap `i`.
func _decimationTapOffsets(length: Int, down: Int, phaseStride: Int) -> [Int] {
  (0..<length).map { i in i % down * phaseStride + i / down }
}

/// Copies the inputs `count` decimated outputs of a `length`-tap filter read into their `down` phases:
/// `phases[ρ·phaseStride + m] = window[m·down + ρ]` for the `count + (length − 1 − ρ) / down` samples of
/// phase `ρ`. Two phases are split 8 samples at a time (one 16-sample load, its even and its odd half).
@inlinable
@inline(__always)
func _splitPhases(
  _ window: UnsafePointer<Float>, length: Int, down: Int, count: Int,
  into phases: UnsafeMutablePointer<Float>,
  phaseStride: Int
) {
  var done = 0
  if down == 2 && length >= 2 {
    // Phase 1 has the fewer samples; both have at least `done` after the loop.
    let pairs = count &+ (length &- 2) / 2
    let odd = phases + phaseStride
    let raw = UnsafeRawPointer(window)
    while done &+ 8 <= pairs {
      let both = raw.loadUnaligned(fromByteOffset: done &* 8, as: SIMD16<Float>.self)
      UnsafeMutableRawPointer(phases + done).storeBytes(of: both.evenHalf, as: SIMD8<Float>.self)
      UnsafeMutableRawPointer(odd + done).storeBytes(of: both.oddHalf, as: SIMD8<Float>.self)
      done &+= 8
    }
  }
  for phase in 0..<min(down, length) {
    let samples = count &+ (length &- 1 &- phase) / down
    let destination = phases + phase &* phaseStride
    var source = window + (done &* down &+ phase)
    var m = done
    while m < samples {
      destination[m] = source.pointee
      source += down
      m &+= 1
    }
  }
}

/// The streaming engine behind ``FIRFilter``, ``Decimator`` and ``PolyphaseResampler``: an FIR filter
/// `h` applied to the input upsampled by `up` (zeros inserted), keeping every `down`-th output.
///
/// Output `k` is `y[k] = Σₙ x[n]·h[t − n·up]` with `t = k·down + offset` (the definition of
/// `scipy.signal.upfirdn`, shifted by `offset` taps). It is computed as one dot product of the polyphase
/// branch `t mod up` with the `branchLength` inputs ending at `x[t / up]`: every output costs
/// `⌈taps / up⌉` multiply–adds, and no product with an inserted zero is formed. At `up = down = 1` (a plain
/// FIR filter) whole blocks of outputs are computed at once by ``_filterRun``, and at `up = 1 < down` (plain
/// decimation) by ``_decimateRun``, except for the outputs cut by a `limit`. Inputs before the first
/// are zero. An output is emitted as soon as its last input `x[t / up]` has arrived.
///
/// Input is copied, a block at a time, after the `branchLength − 1` retained samples of a linear work
/// buffer, so each dot product reads contiguous memory; nothing is allocated after `init`.
@usableFromInline
struct _PolyphaseFIRCore: Sendable {
  /// Upsampling factor (branches).
  @usableFromInline let up: Int
  /// Downsampling factor.
  @usableFromInline let down: Int
  /// Taps per branch, `⌈taps / up⌉`, or that rounded up to a multiple of 8 (see `init`); short branches are
  /// padded with zero taps on their oldest side.
  @usableFromInline let branchLength: Int
  /// `up` branches of `branchLength` taps each, time-reversed: `branches[p·L + i] = h[p + (L − 1 − i)·up]`
  /// multiplies `x[t/up − (L − 1 − i)]`, so a branch and its inputs are walked in the same direction.
  @usableFromInline let branches: [Float]
  /// Samples the work buffer takes per block.
  @usableFromInline let blockSize: Int
  /// `branchLength − 1` retained inputs followed by room for one block.
  @usableFromInline var work: [Float]
  /// Inputs consumed since the start (index of the first input of the next block).
  @usableFromInline var consumed: Int
  /// Index of the newest input the next output needs (`t / up`).
  @usableFromInline var nextNewest: Int
  /// Branch of the next output (`t mod up`).
  @usableFromInline var nextBranch: Int
  /// `offset`, kept to reset the stream.
  @usableFromInline let offset: Int
  /// Scratch for ``_decimateRun`` (plain decimation, `up = 1 < down`): `down` phases of `phaseStride`
  /// samples; empty otherwise.
  @usableFromInline var phases: [Float]
  @usableFromInline let phaseStride: Int
  /// Where each tap reads in ``phases`` (``_decimationTapOffsets(length:down:phaseStride:)``), built once;
  /// empty unless `up = 1 < down`.
  @usableFromInline let tapOffsets: [Int]

  /// - Parameters:
  ///   - taps: `h`, in `y[n] = Σ h[k]·x[n − k]` order.
  ///   - up, down: rate factors, ≥ 1.
  ///   - offset: taps by which output 0 is shifted into the filter (0 for a causal filter; half the length
  ///     of a symmetric filter to center it, as `resample_poly`), ≥ 0.
  @usableFromInline
  init(taps: [Float], up: Int, down: Int, offset: Int, blockSize: Int = 1024) {
    precondition(!taps.isEmpty, "a filter has at least one tap")
    precondition(up >= 1 && down >= 1, "rate factors must be at least 1, got up \(up), down \(down)")
    precondition(offset >= 0, "the output offset must not be negative")
    // Outputs of a rate-changing filter are single dot products: a branch whose scalar tail would exceed
    // 3 products is padded to whole `SIMD8` vectors (measured faster; shorter tails are cheaper as is).
    let shortest = (taps.count + up - 1) / up
    let length = up == 1 && down == 1 || shortest % 8 <= 3 ? shortest : (shortest + 7) / 8 * 8
    var branches = [Float](repeating: 0, count: up * length)
    for p in 0..<up {
      for i in 0..<length {
        let tap = p + (length - 1 - i) * up
        if tap < taps.count { branches[p * length + i] = taps[tap] }
      }
    }
    self.up = up
    self.down = down
    self.branchLength = length
    self.branches = branches
    self.blockSize = blockSize
    self.work = [Float](repeating: 0, count: length - 1 + blockSize)
    self.offset = offset
    let phaseStride = blockSize / down + length / down + 2
    self.phaseStride = phaseStride
    let decimates = up == 1 && down > 1
    self.phases = [Float](repeating: 0, count: decimates ? down * phaseStride : 0)
    self.tapOffsets =
      decimates ? _decimationTapOffsets(length: length, down: down, phaseStride: phaseStride) : []
    self.consumed = 0
    self.nextNewest = offset / up
    self.nextBranch = offset % up
  }

  /// Forgets every input: the next sample is treated as the first of a new signal.
  @usableFromInline
  mutating func reset() {
    for i in work.indices { work[i] = 0 }
    consumed = 0
    nextNewest = offset / up
    nextBranch = offset % up
  }

  /// Whether `count` floats from `a` and `otherCount` from `b` share memory.
  @inlinable
  static func overlaps(
    _ a: UnsafeMutablePointer<Float>, _ count: Int, _ b: UnsafePointer<Float>, _ otherCount: Int
  ) -> Bool {
    UnsafePointer(a) < b + otherCount && b < UnsafePointer(a) + count
  }

  /// One block of `count` inputs at `block` through a one-rate filter (`up = down = 1`): writes the
  /// outputs from `newest` to the block's end to `output`, advances `newest` and the retained inputs at
  /// the start of `window`, and returns how many outputs it wrote. Only the outputs that reach back into
  /// the previous block read `window` (the retained inputs, then the block's first ones); the rest read
  /// the block where it lies, unless the outputs overwrite it (in place), when the whole block goes
  /// through `window`. Each output sums the same products in the same order either way.
  @inlinable
  @inline(__always)
  static func filterBlock(
    _ taps: UnsafePointer<Float>, length: Int, window: UnsafeMutablePointer<Float>,
    block: UnsafePointer<Float>,
    count: Int, consumed: Int, newest: inout Int, into output: UnsafeMutablePointer<Float>
  ) -> Int {
    let retained = length - 1
    let blockEnd = consumed + count
    let head = overlaps(output, count, block, count) ? count : min(count, retained)
    (window + retained).update(from: block, count: head)
    var produced = 0
    let split = consumed + head
    if newest < split {
      _filterRun(taps, window + (newest - consumed), length: length, count: split - newest, into: output)
      produced = split - newest
      newest = split
    }
    if newest < blockEnd {
      _filterRun(
        taps, block + (newest - retained - consumed), length: length, count: blockEnd - newest,
        into: output + produced)
      produced += blockEnd - newest
      newest = blockEnd
    }
    if head < count {
      window.update(from: block + (count - retained), count: retained)
    } else {
      window.update(from: window + count, count: retained)
    }
    return produced
  }

  /// Outputs that `count` more inputs can complete, at most: `⌊count·up / down⌋ + 1` (0 for no input).
  @inlinable
  static func maximumOutputCount(forInputCount count: Int, up: Int, down: Int) -> Int {
    count == 0 ? 0 : count * up / down + 1
  }

  /// ``process(_:into:)`` into a caller's buffer, after checking it can take every output `input` may
  /// complete (the entry point of the public rate changers).
  @inlinable
  mutating func process(
    _ input: UnsafeBufferPointer<Float>, intoBuffer output: UnsafeMutableBufferPointer<Float>
  )
    -> Int
  {
    let capacity = Self.maximumOutputCount(forInputCount: input.count, up: up, down: down)
    precondition(output.count >= capacity, "output holds \(output.count) samples; up to \(capacity) may come")
    guard let destination = output.baseAddress else { return 0 }
    return process(input, into: destination)
  }

  /// Consumes `input` and writes the outputs it completes, at most `limit`, to `output`; returns how many.
  /// Once `limit` stops the outputs, later outputs are lost (used only to end a signal).
  /// `output` may be the memory of `input`, as long as each output slot follows the inputs it overwrites.
  @inlinable
  mutating func process(
    _ input: UnsafeBufferPointer<Float>, into output: UnsafeMutablePointer<Float>, limit: Int = .max
  ) -> Int {
    var produced = 0
    var position = 0
    var consumed = self.consumed
    var newest = self.nextNewest
    var branch = self.nextBranch
    let (up, down, length, blockSize) = (self.up, self.down, self.branchLength, self.blockSize)
    let retained = length - 1
    let phaseStride = self.phaseStride
    var phases: [Float] = []
    swap(&phases, &self.phases)
    defer { swap(&phases, &self.phases) }
    phases.withUnsafeMutableBufferPointer { phases in
      tapOffsets.withUnsafeBufferPointer { tapOffsets in
        branches.withUnsafeBufferPointer { branches in
          work.withUnsafeMutableBufferPointer { work in
            let window = work.baseAddress!
            let taps = branches.baseAddress!
            while position < input.count {
              let n = min(input.count - position, blockSize)
              let block = input.baseAddress! + position
              let blockEnd = consumed + n
              if up == 1 && down == 1 && limit == .max {
                produced += Self.filterBlock(
                  taps, length: length, window: window, block: block, count: n, consumed: consumed,
                  newest: &newest, into: output + produced)
              } else {
                (window + retained).update(from: block, count: n)
                if up == 1 && limit == .max {
                  let count = newest < blockEnd ? (blockEnd &- 1 &- newest) / down &+ 1 : 0
                  _decimateRun(
                    taps, window + (newest - consumed), length: length, down: down, count: count,
                    phases: phases.baseAddress!, phaseStride: phaseStride,
                    tapOffsets: tapOffsets.baseAddress!,
                    into: output + produced)
                  produced += count
                  newest += count &* down
                } else {
                  while newest < blockEnd && produced < limit {
                    output[produced] = _dotProduct(
                      taps + branch * length, window + (newest - consumed), count: length)
                    produced += 1
                    branch += down
                    if branch >= up {
                      newest += branch / up
                      branch %= up
                    }
                  }
                }
                window.update(from: window + n, count: retained)
              }
              consumed = blockEnd
              position += n
            }
          }
        }
      }
    }
    self.consumed = consumed
    self.nextNewest = newest
    self.nextBranch = branch
    return produced
  }
}

/// The outputs `process` writes for `input` into a buffer of `capacity` samples, as a new array: the
/// array form of the rate changers' buffer-taking `process(_:into:)`.
func collectOutputs(
  of input: [Float], capacity: Int,
  _ process: (UnsafeBufferPointer<Float>, UnsafeMutableBufferPointer<Float>) -> Int
) -> [Float] {
  [Float](unsafeUninitializedCapacity: capacity) { output, initialized in
    output.initialize(repeating: 0)
    initialized = input.withUnsafeBufferPointer { process($0, output) }
  }
}
