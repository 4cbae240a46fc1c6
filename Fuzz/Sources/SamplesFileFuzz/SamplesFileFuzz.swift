import FuzzDriver
import Vitals

/// Any bytes as a samples file (JSON Lines): reading every line either succeeds or throws
/// `InputError`, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSamplesFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let reader = SamplesFileReader(
    bytes: Array(UnsafeBufferPointer(start: data, count: size)), name: "fuzz.jsonl")
  while let sample = try? reader.next() { _ = sample }
  return 0
}

/// The process entry SwiftPM links an executable target to (`main` is `SamplesFileFuzz_main`):
/// hands the arguments and the test function to libFuzzer's driver.
@_cdecl("SamplesFileFuzz_main")
public func SamplesFileFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>)
  -> CInt
{
  runFuzzer(argc, argv, fuzzSamplesFile)
}
