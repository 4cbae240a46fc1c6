/// The one piece every fuzz target shares: handing the process's arguments and the target's test
/// function to libFuzzer's driver (`LLVMFuzzerRunDriver`, linked in by `-sanitize=fuzzer`).
///
/// A target defines `LLVMFuzzerTestOneInput` and the entry SwiftPM links its executable to
/// (`<Target>_main`), which calls ``runFuzzer(_:_:_:)``.
public func runFuzzer(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
  _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt {
  var count = argc
  var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
  return LLVMFuzzerRunDriver(&count, &arguments, test)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
