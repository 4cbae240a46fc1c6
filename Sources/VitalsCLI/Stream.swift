import ArgumentParser
import Foundation
import Vitals

extension StreamSampleFormat: ExpressibleByArgument {}

/// `vitals stream --signal ecg --rate HZ [--format csv|f32|i16] [--channels N] [--lead K]`: live events.
public struct StreamCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "stream",
    abstract: "Analyse samples arriving on standard input; write events and metrics as JSON Lines.",
    discussion: """
      Input: --format csv (lines of N numbers separated by commas, semicolons, tabs or spaces; a header \
      line is skipped), f32 or i16 (raw little-endian Float32 / Int16 frames of N interleaved channels). \
      The ECG is channel --lead of each frame.

      Output, one JSON object per line, flushed as it is decided: {"type":"beat","sample":…,"time_s":…} \
      at most 0.45 s of signal after each R peak (the same beats as `vitals analyze` finds in the same \
      samples); {"type":"heart_rate","bpm":…} every second; {"type":"hrv","SDNN":…,"RMSSD":…,"MeanNN":…, \
      "MeanHR":…,"window_s":300} every minute over the last 5 minutes; {"type":"irregular_rhythm_start"} \
      and {"type":"irregular_rhythm_end","duration_s":…} once decided (about a minute after the change); \
      at the end of input one {"type":"summary","ecg":{…}} line over the last 5 minutes. Every time_s \
      counts from the first sample. Memory stays constant over an unbounded stream.
      """)

  @Option(help: "The signal on the stream (ecg; ppg is not yet supported).")
  public var signal: BeatSignal = .ecg

  @Option(help: "Samples per second per channel.")
  public var rate: Double

  @Option(help: "Sample format: csv, f32 or i16.")
  public var format: StreamSampleFormat = .csv

  @Option(help: "Channels per frame.")
  public var channels = 1

  @Option(help: "The 0-based channel of each frame that holds the signal.")
  public var lead = 0

  public init() {}

  public func validate() throws {
    guard signal == .ecg else { throw ValidationError("--signal ppg: live PPG streams are not supported; use ecg") }
    guard rate > 0 && rate.isFinite else { throw ValidationError("--rate must be a positive number of Hz") }
    guard channels >= 1 else { throw ValidationError("--channels must be at least 1") }
    guard (0..<channels).contains(lead) else { throw ValidationError("--lead must be below --channels") }
  }

  public func run() throws {
    try exitingOneOnFileErrors {
      try stream(from: STDIN_FILENO) { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }
    }
  }

  /// The live analysis these options ask for; a rate the detector cannot take is a usage error.
  func liveAnalysis() throws -> LiveAnalysis {
    do {
      return try LiveAnalysis(
        signal: .ecg, sampleRate: rate, format: format, channelCount: channels, channels: [lead])
    } catch {
      throw ValidationError("--rate \(rate): \(error.reason)")
    }
  }

  /// Reads `descriptor` to its end, writing each output line through `write` as soon as it is decided.
  func stream(from descriptor: Int32, write: (String) -> Void) throws {
    var analysis = try liveAnalysis()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count < 0 && errno == EINTR { continue }
      if count < 0 { throw InputError(path: "-", "cannot read: \(String(cString: strerror(errno)))") }
      if count == 0 { break }
      try analysis.consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { write($0.jsonLine()) }
    }
    let section = try analysis.finish { write($0.jsonLine()) }
    write("{\"ecg\":\(encodeJSON(section)),\"type\":\"summary\"}")
  }
}
