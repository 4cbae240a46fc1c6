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
  var count = argc
  var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
  return LLVMFuzzerRunDriver(&count, &arguments, fuzzHeader)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
