import CFFTW
import Foundation
import Testing
import VitalsFFT

@Suite("RealFFT")
struct RealFFTTests {
  /// Powers of two, odd, prime and composite sizes, including the degenerate 1 and 2.
  static let sizes = [
    1, 2, 3, 4, 5, 7, 8, 11, 12, 16, 17, 31, 32, 64, 97, 100, 127, 128, 255, 256, 257, 360, 1009, 1024,
  ]

  @Test("Float forward equals the naive DFT", arguments: sizes)
  func forwardFloat(n: Int) throws {
    try checkForward(Float.self, n: n, tolerance: 2e-6)
  }

  @Test("Double forward equals the naive DFT", arguments: sizes)
  func forwardDouble(n: Int) throws {
    try checkForward(Double.self, n: n, tolerance: 1e-13)
  }

  func checkForward<Scalar: FFTScalar>(_: Scalar.Type, n: Int, tolerance: Double) throws {
    let signal = randomSignal(count: n, seed: UInt64(n))
    let input = signal.map { Scalar($0) }
    let fft = try RealFFT<Scalar>(count: n)
    let output = try fft.forward(input)
    #expect(output.count == n / 2 + 1)
    let reference = naiveDFT(
      real: input.map { Double($0) }, imaginary: [Double](repeating: 0, count: n), bins: n / 2 + 1, sign: -1)
    let expected = zip(reference.real, reference.imaginary).flatMap { [$0, $1] }
    #expect(relativeL2Error(flatten(output), expected) < tolerance)
  }

  @Test("Inverse equals the naive inverse DFT of the Hermitian extension", arguments: sizes)
  func inverse(n: Int) throws {
    let fft = try RealFFT<Double>(count: n)
    let bins = n / 2 + 1
    var re = randomSignal(count: bins, seed: 1000 + UInt64(n))
    var im = randomSignal(count: bins, seed: 2000 + UInt64(n))
    let spectrum = (0..<bins).map { FFTComplex(real: re[$0], imaginary: im[$0]) }
    // The transform ignores the imaginary parts of bin 0 and (even n) bin n/2.
    im[0] = 0
    if n % 2 == 0 { im[bins - 1] = 0 }
    for k in bins..<n {
      re.append(re[n - k])
      im.append(-im[n - k])
    }
    let reference = naiveDFT(real: re, imaginary: im, bins: n, sign: +1)
    let single = try RealFFT<Float>(count: n).inverse(
      spectrum.map { FFTComplex(real: Float($0.real), imaginary: Float($0.imaginary)) })
    #expect(relativeL2Error(try fft.inverse(spectrum), reference.real) < 1e-13)
    #expect(relativeL2Error(single.map { Double($0) }, reference.real) < 2e-6)
  }

  @Test("A cache with a capacity drops the plan used least recently, and a dropped plan still runs")
  func cacheCapacity() throws {
    let cache = FFTPlanCache(rigor: .estimate, capacity: 2)
    func key(_ size: Int) -> FFTPlan.Key { FFTPlan.Key(size: size, kind: .realForward, precision: .double) }
    let kept = try RealFFT<Double>(count: 10, directions: .forwardOnly, cache: cache)
    _ = try cache.plan(key(11))
    _ = try cache.plan(key(10))  // 10 is now the more recent
    _ = try cache.plan(key(12))
    #expect(cache.count == 2)
    #expect(cache.holdsPlan(for: key(10)) && cache.holdsPlan(for: key(12)) && !cache.holdsPlan(for: key(11)))
    _ = try cache.plan(key(13))
    #expect(!cache.holdsPlan(for: key(10)))
    // The transform made before its plan left the cache still holds it.
    let x = (0..<10).map { Double($0 * $0 % 7) }
    let bins = try kept.forward(x)
    #expect(abs(bins[0].real - x.reduce(0, +)) < 1e-12)
  }

  @Test("inverse(forward(x)) is n·x", arguments: [1, 6, 13, 128, 4096, 65536])
  func roundTrip(n: Int) throws {
    let signal = randomSignal(count: n, seed: 99)
    let double = try RealFFT<Double>(count: n)
    let single = try RealFFT<Float>(count: n)
    let scale = 1 / Double(n)
    let backDouble = try double.inverse(double.forward(signal)).map { $0 * scale }
    let backSingle = try single.inverse(single.forward(signal.map { Float($0) })).map { Double($0) * scale }
    #expect(zip(backDouble, signal).allSatisfy { abs($0 - $1) < 1e-13 })
    #expect(zip(backSingle, signal).allSatisfy { abs($0 - $1) < 1e-5 })
  }

  @Test("The buffer API leaves the inverse's input intact and equals the allocating API")
  func bufferAPI() throws {
    let n = 60
    let fft = try RealFFT<Float>(count: n)
    let input = randomSignal(count: n, seed: 5).map { Float($0) }
    var spectrum = [FFTComplex<Float>](repeating: FFTComplex(real: 0, imaginary: 0), count: fft.binCount)
    var output = [Float](repeating: 0, count: n)
    try input.withUnsafeBufferPointer { source in
      try spectrum.withUnsafeMutableBufferPointer { try fft.forward(source, into: $0) }
    }
    #expect(spectrum == (try fft.forward(input)))
    let before = spectrum
    try spectrum.withUnsafeBufferPointer { source in
      try output.withUnsafeMutableBufferPointer { try fft.inverse(source, into: $0) }
    }
    #expect(spectrum == before)
    #expect(output == (try fft.inverse(spectrum)))
  }

  @Test("A forward-only transform plans no inverse and transforms like the full one")
  func forwardOnly() throws {
    let cache = FFTPlanCache(rigor: .estimate)
    let forwardOnly = try RealFFT<Double>(count: 96, directions: .forwardOnly, cache: cache)
    #expect(cache.count == 1)
    let full = try RealFFT<Double>(count: 96, cache: cache)
    #expect(cache.count == 2)
    let signal = randomSignal(count: 96, seed: 11)
    #expect(try forwardOnly.forward(signal) == full.forward(signal))
  }

  @Test("Misaligned buffers run through an FFTW_UNALIGNED plan with the same results")
  func misaligned() throws {
    let n = 256
    let cache = FFTPlanCache(rigor: .estimate)
    let fft = try RealFFT<Float>(count: n, cache: cache)
    #expect(cache.count == 2)
    let signal = randomSignal(count: n, seed: 3).map { Float($0) }
    let expected = try fft.forward(signal)
    // One float past an FFTW-aligned address is misaligned for FFTW's SIMD kernels.
    let raw = fftwf_alloc_real(n + 1)!
    defer { fftwf_free(raw) }
    let input = UnsafeMutableBufferPointer(start: raw + 1, count: n)
    _ = input.initialize(from: signal)
    #expect(fftwf_alignment_of(raw + 1) != 0)
    var output = [FFTComplex<Float>](repeating: FFTComplex(real: 0, imaginary: 0), count: fft.binCount)
    try output.withUnsafeMutableBufferPointer { try fft.forward(UnsafeBufferPointer(input), into: $0) }
    #expect(cache.count == 3)
    #expect(relativeL2Error(flatten(output), flatten(expected)) < 1e-6)
  }

  @Test("Wrong lengths throw errors naming expected and actual lengths")
  func lengthErrors() throws {
    let fft = try RealFFT<Double>(count: 16)
    #expect(throws: FFTError.lengthMismatch(buffer: "input", expected: 16, actual: 15)) {
      try fft.forward([Double](repeating: 0, count: 15))
    }
    #expect(throws: FFTError.lengthMismatch(buffer: "input", expected: 9, actual: 16)) {
      try fft.inverse([FFTComplex<Double>](repeating: FFTComplex(real: 0, imaginary: 0), count: 16))
    }
    let input = [Double](repeating: 0, count: 16)
    var output = [FFTComplex<Double>](repeating: FFTComplex(real: 0, imaginary: 0), count: 8)
    let error = #expect(throws: FFTError.self) {
      try input.withUnsafeBufferPointer { source in
        try output.withUnsafeMutableBufferPointer { try fft.forward(source, into: $0) }
      }
    }
    #expect(error == .lengthMismatch(buffer: "output", expected: 9, actual: 8))
    #expect(error?.description == "output: expected 9 elements, got 8")
  }

  @Test("The cache plans once per (size, kind, precision) and releases on removeAll")
  func cache() throws {
    let cache = FFTPlanCache(rigor: .measure)
    let a = try cache.realFFT(Float.self, count: 64)
    _ = try cache.realFFT(Float.self, count: 64)
    #expect(cache.count == 2)
    _ = try cache.realFFT(Double.self, count: 64)
    #expect(cache.count == 4)
    let forward = try cache.plan(FFTPlan.Key(size: 64, kind: .realForward, precision: .single))
    #expect(forward === (try cache.plan(FFTPlan.Key(size: 64, kind: .realForward, precision: .single))))
    #expect(forward.rigor == .measure)
    cache.removeAll()
    #expect(cache.count == 0)
    // A transform keeps its plans alive after the cache lets go of them.
    let signal = randomSignal(count: 64, seed: 8).map { Float($0) }
    let reference = naiveDFT(
      real: signal.map { Double($0) }, imaginary: .init(repeating: 0, count: 64), bins: 33, sign: -1)
    #expect(
      relativeL2Error(
        flatten(try a.forward(signal)), zip(reference.real, reference.imaginary).flatMap { [$0, $1] }) < 2e-6)
  }

  @Test("Many tasks plan and execute concurrently with the results of a serial run")
  func concurrent() async throws {
    let cache = FFTPlanCache(rigor: .estimate)
    let sizes = [64, 100, 127, 256, 1000, 4096]
    let inputs = sizes.map { n in randomSignal(count: n, seed: UInt64(n)).map { Float($0) } }
    let results = try await withThrowingTaskGroup(of: (Int, [FFTComplex<Float>]).self) { group in
      for task in 0..<48 {
        let index = task % sizes.count
        let input = inputs[index]
        group.addTask {
          let fft = try cache.realFFT(Float.self, count: input.count)
          var last: [FFTComplex<Float>] = []
          for _ in 0..<20 { last = try fft.forward(input) }
          return (index, last)
        }
      }
      var collected: [(Int, [FFTComplex<Float>])] = []
      for try await result in group { collected.append(result) }
      return collected
    }
    #expect(results.count == 48)
    #expect(cache.count == 2 * sizes.count)
    for (index, output) in results {
      #expect(output == (try cache.realFFT(Float.self, count: sizes[index]).forward(inputs[index])))
    }
  }
}
