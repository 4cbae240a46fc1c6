import FuzzDriver
import Vitals

/// Any bytes as a header file: parsing either succeeds or throws `InputError`, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let header = try? WFDBHeader.parse(bytes, path: "fuzz.hea") {
    _ = header.startTime
  }
  return 0
}

/// The process entry SwiftPM links an executable target to (`main` is `WFDBHeaderFuzz_main`):
/// hands the arguments and the test function to libFuzzer's driver.
@_cdecl("WFDBHeaderFuzz_main")
public func WFDBHeaderFuzzMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
  runFuzzer(argc, argv, fuzzHeader)
}
