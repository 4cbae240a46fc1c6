import FuzzDriver
import Vitals

/// Any bytes as CSV/TSV text: reading either succeeds or throws `InputError`, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  // Detection on the first bytes, then the CSV reader with detected and with forced options.
  _ = try? RecordingOpener.detectKind(head: Array(bytes.prefix(4096)), path: "fuzz.csv")
  for options in [
    CSVOptions(), CSVOptions(sampleRate: 100), CSVOptions(delimiter: 0x3B, timeColumn: .index(0)),
  ] {
    if let reader = try? CSVSignalReader(contents: bytes, name: "fuzz.csv", options: options) {
      while let chunk = try? reader.nextChunk(maxSamples: 29) { _ = chunk.sampleCount }
    }
  }
  return 0
}

/// The process entry SwiftPM links an executable target to (`main` is `CSVFuzz_main`):
/// hands the arguments and the test function to libFuzzer's driver.
@_cdecl("CSVFuzz_main")
public func CSVFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
  runFuzzer(argc, argv, fuzzCSV)
}
