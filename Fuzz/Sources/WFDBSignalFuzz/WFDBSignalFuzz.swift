import FuzzDriver
import Vitals

/// Input: header text, a zero byte, then the bytes of every signal file the header names (all
/// files share them); the first byte also picks the chunk size. Reading the whole record, in
/// physical and digital form, and verifying checksums either succeeds or throws `InputError`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSignal(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let split = bytes.firstIndex(of: 0),
    let header = try? WFDBHeader.parse(bytes[..<split], path: "fuzz.hea")
  else { return 0 }
  let body = Array(bytes[(split + 1)...])
  var files: [String: [UInt8]] = [:]
  for signal in header.signals { files[signal.fileName] = body }
  let chunk = 1 + Int(bytes[0] % 97)
  do {
    let reader = try WFDBRecordReader(header: header, files: files)
    while let samples = try reader.nextChunk(maxSamples: chunk) {
      precondition(samples.channels.count == header.signals.count)
    }
    let digital = try WFDBRecordReader(header: header, files: files)
    while try digital.nextDigitalChunk(maxFrames: chunk) != nil {}
    _ = try digital.mismatchedChecksums()
  } catch {
    // Bad input is expected; only traps are findings.
  }
  return 0
}

/// The process entry SwiftPM links an executable target to (`main` is `WFDBSignalFuzz_main`):
/// hands the arguments and the test function to libFuzzer's driver.
@_cdecl("WFDBSignalFuzz_main")
public func WFDBSignalFuzzMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
  runFuzzer(argc, argv, fuzzSignal)
}
