import VitalsCore
import VitalsSupport

/// Writes signals as CSV, chunk by chunk: a `time_s` column (seconds from the first sample written,
/// from the chunks' start times, so gaps between chunks show) and one column per signal, named as
/// the source names it, in physical units. Values are written in their shortest round-trip form
/// (NaN as `NaN`); time with nanosecond resolution. Output goes through a 1 MiB buffer into an
/// ``AtomicFile``: the file appears under its name when ``close()`` completes, and not at all when the
/// writer is dropped before.
public final class CSVSignalWriter {
  /// The output path (`-`: standard output).
  public let path: String
  private let output: BufferedOutput
  private var origin: Timestamp?
  private let channelCount: Int

  /// Starts writing `path` (`-`: standard output; a file replaces any file of that name on
  /// ``close()``) with the header.
  public init(path: String, signalNames: [String]) throws(OutputError) {
    precondition(!signalNames.isEmpty, "at least one signal")
    self.path = path
    output = try BufferedOutput(path: path)
    channelCount = signalNames.count
    let header = (["time_s"] + signalNames.map(csvQuoted)).joined(separator: ",") + "\n"
    try output.write(Array(header.utf8))
  }

  /// Appends the chunk's samples as rows (formatted into one local buffer, then handed to the
  /// output: no per-value access to shared state).
  public func write(_ chunk: SignalChunk) throws(OutputError) {
    precondition(chunk.channels.count == channelCount, "the chunk must hold one channel per column")
    let origin = self.origin ?? chunk.startTime
    self.origin = origin
    let offset = chunk.startTime.nanosecondsSinceEpoch - origin.nanosecondsSinceEpoch
    var text = [UInt8]()
    text.reserveCapacity(chunk.sampleCount * (channelCount + 1) * 12)
    for i in 0..<chunk.sampleCount {
      appendDecimalSeconds(
        nanoseconds: offset + Int64((Double(i) * 1e9 / chunk.sampleRate).rounded()), to: &text)
      for c in 0..<channelCount {
        text.append(0x2C)
        let v = chunk.channels[c][i]
        if v.isNaN {
          text.append(contentsOf: "NaN".utf8)
        } else {
          text.append(contentsOf: v.description.utf8)
        }
      }
      text.append(0x0A)
    }
    try output.write(text)
  }

  /// Writes what is buffered and renames the file into place.
  public func close() throws(OutputError) { try output.close() }
}

/// Writes detected events as CSV with header `sample,time_s`: the sample index at the record's rate
/// and the time in seconds from the first sample; with labels, a third column `label`.
public enum EventCSVWriter {
  /// Writes `samples` (0-based indices at `sampleRate` Hz) to `path` (`-`: standard output),
  /// atomically (``AtomicFile``); with `labels` (one per sample, e.g. beat classes `N`, `S`, `V`), a
  /// `label` column.
  public static func write(samples: [Int64], sampleRate: Double, labels: [String]? = nil, to path: String)
    throws(OutputError)
  {
    precondition(sampleRate > 0 && sampleRate.isFinite, "sample rate must be positive and finite")
    precondition(labels.map { $0.count == samples.count } ?? true, "one label per event")
    let output = try BufferedOutput(path: path)
    var text = Array((labels == nil ? "sample,time_s\n" : "sample,time_s,label\n").utf8)
    for (index, sample) in samples.enumerated() {
      text.append(contentsOf: String(sample).utf8)
      text.append(0x2C)
      appendDecimalSeconds(nanoseconds: Int64((Double(sample) * 1e9 / sampleRate).rounded()), to: &text)
      if let labels {
        text.append(0x2C)
        text.append(contentsOf: labels[index].utf8)
      }
      text.append(0x0A)
    }
    try output.write(text)
    try output.close()
  }
}

/// `nanoseconds` as decimal seconds, trailing zeros of the fraction dropped (`0.25`, `3`, `-0.001`).
func appendDecimalSeconds(nanoseconds: Int64, to bytes: inout [UInt8]) {
  var magnitude = nanoseconds.magnitude
  if nanoseconds < 0 { bytes.append(0x2D) }
  let whole = magnitude / 1_000_000_000
  magnitude %= 1_000_000_000
  bytes.append(contentsOf: String(whole).utf8)
  guard magnitude > 0 else { return }
  bytes.append(0x2E)
  var digits = 9
  while magnitude % 10 == 0 {
    magnitude /= 10
    digits -= 1
  }
  let start = bytes.count
  bytes.append(contentsOf: repeatElement(0x30, count: digits))
  var k = start + digits - 1
  while magnitude > 0 {
    bytes[k] = UInt8(magnitude % 10) + 0x30
    magnitude /= 10
    k -= 1
  }
}

/// A name quoted when it holds a comma, quote or line break.
package func csvQuoted(_ name: String) -> String {
  guard name.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return name }
  return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}

/// A text output with a 1 MiB byte buffer: standard output (`-`), or an ``AtomicFile`` committed by
/// ``close()`` (an output discarded without `close()` leaves nothing under its path).
public final class BufferedOutput {
  /// The file written, or `-` for standard output.
  public let path: String
  /// The file written (`nil`: standard output).
  private let file: AtomicFile?
  private var bytes: [UInt8] = []
  private var closed = false

  /// An output to `path` (`-`: standard output); throws when the file's folder cannot take it.
  public init(path: String) throws(OutputError) {
    self.path = path
    file = path == "-" ? nil : try AtomicFile(path: path)
    bytes.reserveCapacity(1 << 20)
  }

  /// Buffers `text`, writing the buffer out once it holds 1 MiB or more.
  public func write(_ text: [UInt8]) throws(OutputError) {
    bytes.append(contentsOf: text)
    if bytes.count >= 1 << 20 { try flush() }
  }

  private func flush() throws(OutputError) {
    if let file {
      try file.write(bytes)
    } else if let reason = bytes.withUnsafeBytes({ FileSystem.writeAll($0, toDescriptor: 1) }) {
      throw OutputError(path: path, "write failed: \(reason)")
    }
    bytes.removeAll(keepingCapacity: true)
  }

  /// Writes out what is buffered and, for a file, renames it into place.
  public func close() throws(OutputError) {
    guard !closed else { return }
    closed = true
    try flush()
    try file?.commit()
  }
}
