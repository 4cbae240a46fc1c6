import FuzzDriver
import Vitals

/// Any bytes as an Apple Health `export.xml`: reading every sample either succeeds or throws
/// `InputError`, never traps. The first byte picks the scanner's initial block size (16 to 4 111
/// bytes), so tags are cut at every place a block boundary can fall.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHealthExport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let blockSize = 16 + 16 * Int(bytes.first ?? 0)
  let reader = HealthExportReader(bytes: bytes, name: "fuzz.xml", blockSize: blockSize)
  while let sample = try? reader.next() { _ = sample }
  return 0
}

/// The process entry SwiftPM links an executable target to (`main` is `HealthExportFuzz_main`):
/// hands the arguments and the test function to libFuzzer's driver.
@_cdecl("HealthExportFuzz_main")
public func HealthExportFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>)
  -> CInt
{
  runFuzzer(argc, argv, fuzzHealthExport)
}
