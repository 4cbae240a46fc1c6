#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import VitalsCore

/// Writes signals in physical units as a WFDB record in storage format 16: `NAME.dat`
/// (little-endian int16, interleaved by frame) and `NAME.hea`, written by ``finish()`` with the
/// length, base time/date (UTC) and per-signal checksums — what `vitals convert -o OUT.hea` makes.
///
/// Digital value = `round(physical × gain)` with baseline 0, clamped to ±32767; NaN becomes the
/// invalid marker −32768. Streams: each ``append(_:)`` writes its chunk and keeps nothing.
/// Failures to write throw ``OutputError`` naming the output file.
public final class WFDBRecordWriter {
  /// Adu per physical unit used when none is given: 1000 for `mV` (1 µV steps, ±32.767 mV),
  /// 1 for `uV`/`µV`, 100 otherwise.
  public static func defaultGain(unit: String) -> Double {
    switch unit {
    case "mV": 1000
    case "uV", "µV": 1
    default: 100
    }
  }

  private let headerPath: String
  private let dataPath: String
  private let recordName: String
  private let signals: [SignalDescription]
  private let gains: [Double]
  private let frameRate: Double
  private let startTime: Timestamp?
  private let descriptor: Int32
  private var checksums: [Int16]
  private var frames: Int64 = 0
  /// Interleaved frames of the chunk being written (grown as needed, freed in `deinit`).
  private var buffer = UnsafeMutableBufferPointer<Int16>(start: nil, count: 0)

  /// Creates `path` (`dir/NAME.hea` or `dir/NAME`) and its `NAME.dat`. `gains` (adu per unit)
  /// default to ``defaultGain(unit:)``; `startTime` (when not `nil`) becomes the base time and date.
  public init(
    path: String, signals: [SignalDescription], frameRate: Double, startTime: Timestamp? = nil,
    gains: [Double]? = nil
  ) throws(OutputError) {
    precondition(frameRate > 0 && frameRate.isFinite, "frame rate must be positive")
    precondition(gains == nil || gains!.count == signals.count, "one gain per signal")
    headerPath = path.hasSuffix(".hea") ? path : path + ".hea"
    let base = String(headerPath.dropLast(4))
    recordName = String(base[(base.lastIndex(of: "/").map { base.index(after: $0) } ?? base.startIndex)...])
    dataPath = base + ".dat"
    self.signals = signals
    self.gains = gains ?? signals.map { Self.defaultGain(unit: $0.unit) }
    self.frameRate = frameRate
    self.startTime = startTime
    checksums = Array(repeating: 0, count: signals.count)
    descriptor = open(dataPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else {
      throw OutputError(path: dataPath, "cannot create: \(String(cString: strerror(errno)))")
    }
  }

  deinit {
    close(descriptor)
    buffer.deallocate()
  }

  /// Appends a chunk whose channels are the writer's signals, in order.
  public func append(_ chunk: SignalChunk) throws(OutputError) {
    precondition(chunk.channels.count == signals.count, "one channel per signal")
    let count = chunk.sampleCount
    let width = signals.count
    if buffer.count < count * width {
      buffer.deallocate()
      buffer = .allocate(capacity: count * width)
    }
    for (signal, channel) in chunk.channels.enumerated() {
      let gain = gains[signal]
      var sum = checksums[signal]
      for (frame, value) in channel.enumerated() {
        let digital: Int16 =
          value.isNaN ? Int16.min : Int16(max(-32767, min(32767, (Double(value) * gain).rounded())))
        buffer[frame * width + signal] = Int16(littleEndian: digital)
        sum &+= digital
      }
      checksums[signal] = sum
    }
    if count > 0 { try writeAll(descriptor, buffer.baseAddress!, count * width * 2, path: dataPath) }
    frames += Int64(count)
  }

  /// Writes the header; call once, after the last chunk.
  public func finish() throws(OutputError) {
    var text = "\(recordName) \(signals.count) \(format(frameRate)) \(frames)"
    if let startTime {
      let dayNanos: Int64 = 86_400_000_000_000
      let nanos = startTime.nanosecondsSinceEpoch
      var days = nanos / dayNanos
      if nanos % dayNanos < 0 { days -= 1 }
      let milliseconds = Int(((Double(nanos - days * dayNanos) * 1e-6)).rounded())
      let (year, month, day) = Timestamp.civilDate(daysSinceEpoch: Int64(days))
      let whole = milliseconds / 1000
      text += " " + pad(whole / 3600) + ":" + pad(whole / 60 % 60) + ":" + pad(whole % 60)
      if milliseconds % 1000 != 0 { text += "." + String(String(1000 + milliseconds % 1000).dropFirst()) }
      text += " \(pad(day))/\(pad(month))/\(year)"
    }
    text += "\n"
    for (index, signal) in signals.enumerated() {
      let unit = signal.unit.isEmpty ? "" : "/" + signal.unit.filter { !$0.isWhitespace }
      text +=
        "\(recordName).dat 16 \(format(gains[index]))(0)\(unit) 16 0 0 \(checksums[index]) 0 \(signal.name)\n"
    }
    let header = open(headerPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard header >= 0 else {
      throw OutputError(path: headerPath, "cannot create: \(String(cString: strerror(errno)))")
    }
    defer { close(header) }
    let bytes = Array(text.utf8)
    try writeAll(header, bytes, bytes.count, path: headerPath)
  }

  private func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// Shortest text for a value: integers without a fraction.
  private func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }
}

/// Writes all `count` bytes or throws naming `path`.
private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, path: String)
  throws(OutputError)
{
  if let reason = FileSystem.writeAll(
    UnsafeRawBufferPointer(start: bytes, count: count), toDescriptor: descriptor)
  {
    throw OutputError(path: path, "write failed: \(reason)")
  }
}
