import FuzzDriver
import Vitals

/// Any bytes as an EDF/EDF+ file: reading either succeeds or throws `InputError`, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEDF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  // Header, samples and the annotation signal: every path that reads bytes.
  if var reader = try? EDFReader(contents: bytes, name: "fuzz.edf") {
    _ = try? reader.readAnnotations()
    while let chunk = try? reader.nextChunk(maxSamples: 37) { _ = chunk.sampleCount }
  }
  return 0
}

/// The process entry SwiftPM links an executable target to (`main` is `EDFFuzz_main`):
/// hands the arguments and the test function to libFuzzer's driver.
@_cdecl("EDFFuzz_main")
public func EDFFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
  runFuzzer(argc, argv, fuzzEDF)
}
