import FuzzDriver
import Vitals

/// Any bytes as an annotation file: parsing succeeds or throws `InputError`; annotations the
/// writer can express (codes 1–49, samples in order, short aux) survive encode → parse unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnnotations(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let annotations = try? WFDBAnnotationFile.parse(bytes, path: "fuzz.atr") else { return 0 }
  var previous: Int64 = 0
  for annotation in annotations {
    guard (1...49).contains(annotation.code), annotation.code != 22 || annotation.sample != 0,
      annotation.sample >= previous, annotation.aux.utf8.count <= 255
    else { return 0 }
    previous = annotation.sample
  }
  let again = try? WFDBAnnotationFile.parse(WFDBAnnotationFile.encode(annotations), path: "fuzz.atr")
  precondition(again == annotations, "annotations changed through encode → parse")
  return 0
}

/// The process entry SwiftPM links an executable target to (`main` is `WFDBAnnotationFuzz_main`):
/// hands the arguments and the test function to libFuzzer's driver.
@_cdecl("WFDBAnnotationFuzz_main")
public func WFDBAnnotationFuzzMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
  runFuzzer(argc, argv, fuzzAnnotations)
}
