import FuzzDriver
import Vitals

/// Any bytes as the standard input of `vitals stream`: the first byte picks the configuration (sample
/// format csv/f32/i16, one to four channels, the signals analysed, the rate), the second the size of
/// the pieces the rest arrives in; the live analysis consumes every piece and finishes, either
/// succeeding or throwing `InputError`, never trapping.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStream(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 2 else { return 0 }
  let configuration = Int(data[0])
  let format = StreamSampleFormat.allCases[configuration % 3]
  let channelCount = 1 + configuration / 3 % 4
  let rates: [Double] = [50, 128, 250, 360]
  let rate = rates[configuration / 12 % rates.count]
  // ECG, PPG, or one of them with the accelerometer on the last three channels when there are enough.
  let lead = configuration / 48 % 2 == 0 ? SignalKind.ecg : .ppg
  var signals: [(kind: SignalKind, channels: [Int])] = [(lead, [0])]
  if configuration >= 96 && channelCount >= 4 { signals.append((.accelerometer, [1, 2, 3])) }
  let piece = 1 + Int(data[1])
  guard
    var analysis = try? LiveAnalysis(
      signals: signals, sampleRate: rate, format: format, channelCount: channelCount)
  else { return 0 }
  let body = UnsafeRawBufferPointer(start: data + 2, count: size - 2)
  do {
    var start = 0
    while start < body.count {
      let end = min(start + piece, body.count)
      try analysis.consume(UnsafeRawBufferPointer(rebasing: body[start..<end])) { _ = $0.jsonLine() }
      start = end
    }
    _ = try analysis.finish { _ = $0.jsonLine() }
  } catch {
    // Bad input is expected; only traps are findings.
  }
  return 0
}

/// The process entry SwiftPM links an executable target to (`main` is `StreamFuzz_main`):
/// hands the arguments and the test function to libFuzzer's driver.
@_cdecl("StreamFuzz_main")
public func StreamFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
  runFuzzer(argc, argv, fuzzStream)
}
