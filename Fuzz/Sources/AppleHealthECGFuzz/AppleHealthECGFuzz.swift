import FuzzDriver
import Vitals

/// Any bytes as an Apple Health ECG export: reading either succeeds or throws `InputError`, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppleHealthECG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let reader = try? AppleHealthECGReader(contents: bytes, name: "fuzz.csv") {
    while let chunk = try? reader.nextChunk(maxSamples: 41) { _ = chunk.sampleCount }
  }
  return 0
}

/// The process entry SwiftPM links an executable target to (`main` is `AppleHealthECGFuzz_main`):
/// hands the arguments and the test function to libFuzzer's driver.
@_cdecl("AppleHealthECGFuzz_main")
public func AppleHealthECGFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>)
  -> CInt
{
  runFuzzer(argc, argv, fuzzAppleHealthECG)
}
