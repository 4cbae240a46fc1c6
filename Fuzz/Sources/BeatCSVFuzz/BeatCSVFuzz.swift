import FuzzDriver
import Vitals

/// Any bytes as a CSV beat file (the `sample` column `vitals score` and `vitals hrv --beats` read) of a
/// record at 360 Hz: parsing either succeeds, with strictly increasing non-negative samples below the
/// record's length and within the longest recording, or throws `InputError`, never traps. The first byte
/// picks whether the record's length is known (and how long it is).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBeatCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 1 else { return 0 }
  let recordLength: Int64? = data[0] < 128 ? nil : Int64(data[0] - 128) * 1000
  let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let rate = 360.0
  guard
    let samples = try? BeatFile.parseCSV(
      bytes, path: "fuzz.csv", recordLength: recordLength, sampleRate: rate
    )
    .samples
  else {
    return 0
  }
  precondition(samples.allSatisfy { $0 >= 0 }, "a negative sample was accepted")
  precondition(
    samples.allSatisfy { $0 <= BeatFile.longestRecordingSamples(at: rate) },
    "a sample beyond the longest recording")
  precondition(
    samples.indices.dropFirst().allSatisfy { samples[$0 - 1] < samples[$0] }, "samples out of order")
  if let recordLength { precondition(samples.allSatisfy { $0 < recordLength }, "a sample beyond the record") }
  return 0
}

/// The process entry SwiftPM links an executable target to (`main` is `BeatCSVFuzz_main`):
/// hands the arguments and the test function to libFuzzer's driver.
@_cdecl("BeatCSVFuzz_main")
public func BeatCSVFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt
{
  runFuzzer(argc, argv, fuzzBeatCSV)
}
