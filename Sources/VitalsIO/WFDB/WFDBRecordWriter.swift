import VitalsCore
import VitalsSupport

/// Writes a WFDB record (PhysioNet `header(5)`, `signal(5)`): `NAME.dat`, every signal interleaved by
/// frame in storage format 16, 24 or 32 (little-endian), and `NAME.hea`, with the length, the record
/// line's rate, counter and base time, each signal's gain, baseline, units, ADC resolution and zero,
/// first value and checksum, and comment lines — what `vitals convert -o OUT.hea` makes.
///
/// Both files are ``AtomicFile``s: ``finish()`` renames the `.dat` into place, then the `.hea`; a
/// writer dropped before (an error, an interrupted conversion) leaves neither.
///
/// Values: ``append(_:)`` takes physical values and writes `round(value × gain + baseline)`;
/// ``appendDigital(_:frames:invalid:)`` takes digital values as they are. NaN (and a source's
/// invalid-sample marker) becomes the format's invalid marker (−32768 in format 16); any other value
/// the format cannot hold (outside ±32767 in format 16, infinite) throws ``OutputError`` naming the
/// signal and the sample — never clipped. A chunk that starts more than 1.5 sample periods after the
/// end of the previous one (a gap in the source's time) is preceded by invalid samples that fill the gap, so
/// that every sample keeps its time. Streams: each append writes its samples and keeps nothing.
public final class WFDBRecordWriter {
  /// How one signal is written: name, unit and the digital scale (a header signal line).
  public struct Signal: Sendable, Equatable {
    /// The description field (the signal's name).
    public var name: String
    /// The physical unit (empty: none written, which WFDB reads as `mV`).
    public var unit: String
    /// Digital units (adu) per physical unit.
    public var gain: Double
    /// Digital value of physical zero.
    public var baseline: Int
    /// ADC resolution in bits (0: not stated).
    public var adcResolution: Int
    /// Digital value of the ADC's mid-range.
    public var adcZero: Int
    /// Samples of this signal in each frame (digital input only; physical chunks need 1).
    public var samplesPerFrame: Int

    /// A signal scaled by `gain` and `baseline`.
    public init(
      name: String, unit: String, gain: Double, baseline: Int = 0, adcResolution: Int = 0, adcZero: Int = 0,
      samplesPerFrame: Int = 1
    ) {
      precondition(gain.isFinite && gain != 0, "gain must be finite and non-zero")
      precondition(samplesPerFrame >= 1, "at least one sample per frame")
      self.name = name
      self.unit = unit
      self.gain = gain
      self.baseline = baseline
      self.adcResolution = adcResolution
      self.adcZero = adcZero
      self.samplesPerFrame = samplesPerFrame
    }

    /// The signal of a WFDB header, kept as it is: gain, baseline, units, ADC resolution and zero,
    /// samples per frame.
    public init(keeping spec: WFDBSignalSpec) {
      self.init(
        name: spec.description, unit: spec.units, gain: spec.gain, baseline: spec.baseline,
        adcResolution: spec.adcResolution, adcZero: spec.adcZero, samplesPerFrame: spec.samplesPerFrame)
    }
  }

  /// The record line's fields besides the name, signal count and length, and the comment lines.
  public struct Record: Sendable {
    /// Frames per second.
    public var frameRate: Double
    /// Counter ticks per second, written when it differs from ``frameRate``.
    public var counterFrequency: Double
    /// Counter value of the first frame, written with a counter frequency that differs.
    public var baseCounter: Double
    /// Time of day of the first frame, seconds after midnight (written to the millisecond).
    public var baseTimeOfDay: Double?
    /// Date of the first frame.
    public var baseDate: (year: Int, month: Int, day: Int)?
    /// Comment lines, without the `#`.
    public var comments: [String]

    /// A record at `frameRate` whose first frame is at `startTime` (written as UTC time and date;
    /// `nil`: no base time).
    public init(frameRate: Double, startTime: Timestamp? = nil, comments: [String] = []) {
      precondition(frameRate > 0 && frameRate.isFinite, "frame rate must be positive")
      self.frameRate = frameRate
      counterFrequency = frameRate
      baseCounter = 0
      self.comments = comments
      if let startTime {
        let dayNanoseconds: Int64 = 86_400_000_000_000
        let nanoseconds = startTime.nanosecondsSinceEpoch
        var days = nanoseconds / dayNanoseconds
        if nanoseconds % dayNanoseconds < 0 { days -= 1 }
        baseTimeOfDay = Double(nanoseconds - days * dayNanoseconds) * 1e-9
        baseDate = Timestamp.civilDate(daysSinceEpoch: days)
      }
    }

    /// The record line and comments of `header`, as they are.
    public init(keeping header: WFDBHeader) {
      frameRate = header.frameRate
      counterFrequency = header.counterFrequency
      baseCounter = header.baseCounter
      baseTimeOfDay = header.baseTimeOfDay
      baseDate = header.baseDate
      comments = header.comments
    }
  }

  /// Adu per physical unit used when none is given: 1000 for `mV` (1 µV steps, ±32.767 mV),
  /// 1 for `uV`/`µV`, 100 otherwise.
  public static func defaultGain(unit: String) -> Double {
    switch unit {
    case "mV": 1000
    case "uV", "µV": 1
    default: 100
    }
  }

  /// The header and signal file a record written at `path` (`dir/NAME.hea` or `dir/NAME`) is made of.
  public static func files(forPath path: String) -> (header: String, signals: String) {
    let header = path.hasSuffix(".hea") ? path : path + ".hea"
    return (header, String(header.dropLast(4)) + ".dat")
  }

  /// The output formats, from the smallest.
  public static let formats: [WFDBStorageFormat] = [.int16, .int24, .int32]

  /// The digital values `format` (16, 24 or 32) holds besides its invalid-sample marker.
  public static func validRange(of format: WFDBStorageFormat) -> ClosedRange<Int64> {
    let bits: Int64 =
      switch format {
      case .int16: 16
      case .int24: 24
      case .int32: 32
      default: preconditionFailure("the writer writes formats 16, 24 and 32")
      }
    return (-(1 << (bits - 1)) + 1)...((1 << (bits - 1)) - 1)
  }

  /// The smallest format whose ``validRange(of:)`` holds `range`, or nil when none does.
  public static func smallestFormat(holding range: ClosedRange<Int64>) -> WFDBStorageFormat? {
    formats.first {
      validRange(of: $0).contains(range.lowerBound) && validRange(of: $0).contains(range.upperBound)
    }
  }

  private let headerPath: String
  private let recordName: String
  private let dataFile: AtomicFile
  private let signals: [Signal]
  private let record: Record
  private let format: WFDBStorageFormat
  private let valid: ClosedRange<Int64>
  private let invalid: Int32
  private let bytesPerSample: Int
  private var checksums: [Int32]
  private var initialValues: [Int32?]
  private var frames: Int64 = 0
  /// Time of the first physical chunk, to place later chunks (gaps).
  private var origin: Timestamp?
  /// The encoded frames of the chunk being written (reused).
  private var bytes: [UInt8] = []

  /// Starts the record at `path` (`dir/NAME.hea` or `dir/NAME`): its signal file is `dir/NAME.dat`
  /// in `format` (16, 24 or 32).
  public init(path: String, signals: [Signal], record: Record, format: WFDBStorageFormat = .int16)
    throws(OutputError)
  {
    precondition(Self.formats.contains(format), "the writer writes formats 16, 24 and 32")
    let files = Self.files(forPath: path)
    headerPath = files.header
    let base = files.header.dropLast(4)
    recordName = String(base[(base.lastIndex(of: "/").map { base.index(after: $0) } ?? base.startIndex)...])
    self.signals = signals
    self.record = record
    self.format = format
    valid = Self.validRange(of: format)
    invalid = format.invalidSample!
    bytesPerSample = format.bytesPerGroup
    checksums = Array(repeating: 0, count: signals.count)
    initialValues = Array(repeating: nil, count: signals.count)
    dataFile = try AtomicFile(path: files.signals)
  }

  /// Starts a record of `signals` in format 16 with baseline 0 and `gains` (adu per unit; default
  /// ``defaultGain(unit:)``); `startTime` (when not `nil`) becomes the base time and date.
  public convenience init(
    path: String, signals: [SignalDescription], frameRate: Double, startTime: Timestamp? = nil,
    gains: [Double]? = nil
  ) throws(OutputError) {
    precondition(gains == nil || gains!.count == signals.count, "one gain per signal")
    let gains = gains ?? signals.map { Self.defaultGain(unit: $0.unit) }
    try self.init(
      path: path,
      signals: zip(signals, gains).map { Signal(name: $0.name, unit: $0.unit, gain: $1) },
      record: Record(frameRate: frameRate, startTime: startTime))
  }

  /// Appends a chunk of physical values whose channels are the writer's signals, in order (each of
  /// one sample per frame).
  public func append(_ chunk: SignalChunk) throws(OutputError) {
    precondition(chunk.channels.count == signals.count, "one channel per signal")
    precondition(signals.allSatisfy { $0.samplesPerFrame == 1 }, "physical chunks hold one sample per frame")
    try fillGap(before: chunk)
    let count = chunk.sampleCount
    prepareBuffer(frames: count)
    for (index, channel) in chunk.channels.enumerated() {
      let signal = signals[index]
      for (frame, value) in channel.enumerated() {
        let digital: Int32
        if value.isNaN {
          digital = invalid
        } else {
          let scaled = (Double(value) * signal.gain + Double(signal.baseline)).rounded()
          guard scaled.isFinite, valid.contains(Int64(scaled)) else {
            throw unrepresentable(
              signal: index, sample: frames + Int64(frame), value: "\(value) \(signal.unit)")
          }
          digital = Int32(scaled)
        }
        store(digital, signal: index, at: frame * signals.count + index)
      }
    }
    try flush(frames: count)
  }

  /// Appends `frames` frames of digital values: per signal, `frames × samplesPerFrame` values in
  /// order. A value equal to the signal's `invalid` marker (the source format's; `nil`: none) is
  /// written as this format's marker.
  public func appendDigital(_ samples: [[Int32]], frames count: Int, invalid markers: [Int32?])
    throws(OutputError)
  {
    precondition(samples.count == signals.count && markers.count == signals.count, "one array per signal")
    let frameWidth = signals.reduce(0) { $0 + $1.samplesPerFrame }
    prepareBuffer(frames: count, frameWidth: frameWidth)
    var position = 0
    for (index, signal) in signals.enumerated() {
      let perFrame = signal.samplesPerFrame
      precondition(samples[index].count == count * perFrame, "frames × samples per frame values")
      for frame in 0..<count {
        for k in 0..<perFrame {
          let value = samples[index][frame * perFrame + k]
          let digital: Int32
          if value == markers[index] {
            digital = invalid
          } else {
            guard valid.contains(Int64(value)) else {
              throw unrepresentable(
                signal: index, sample: (frames + Int64(frame)) * Int64(perFrame) + Int64(k),
                value: "digital \(value)")
            }
            digital = value
          }
          store(digital, signal: index, at: frame * frameWidth + position + k)
        }
      }
      position += perFrame
    }
    try flush(frames: count)
  }

  /// Writes the header, then renames the signal file and the header into place; call once, after
  /// the last chunk.
  public func finish() throws(OutputError) {
    let header = try AtomicFile(path: headerPath)
    try header.write(Array(headerText().utf8))
    try dataFile.close()
    try header.close()
    try dataFile.commit()
    try header.commit()
  }

  /// Abandons the record: its temporary files are removed and nothing is written under its names.
  public func discard() { dataFile.discard() }

  private func unrepresentable(signal: Int, sample: Int64, value: String) -> OutputError {
    OutputError(
      path: dataFile.path,
      "signal \(signal) (\(signals[signal].name)), sample \(sample): \(value) cannot be written in format "
        + "\(format.rawValue) with gain \(shortestText(signals[signal].gain)) "
        + "and baseline \(signals[signal].baseline)"
        + " (digital values \(valid.lowerBound)...\(valid.upperBound))")
  }

  /// Writes invalid frames for the time between the last chunk's end and `chunk`'s start when that is
  /// more than 1.5 sample periods.
  private func fillGap(before chunk: SignalChunk) throws(OutputError) {
    guard let origin else {
      origin = chunk.startTime
      return
    }
    let elapsed = Double(chunk.startTime.nanosecondsSinceEpoch - origin.nanosecondsSinceEpoch) * 1e-9
    let missing = (elapsed * record.frameRate).rounded() - Double(frames)
    guard elapsed * record.frameRate - Double(frames) > 1.5 else { return }
    guard missing <= 100_000_000 else {
      throw OutputError(
        path: dataFile.path,
        "a gap of \(missing) frames before sample \(frames) is too long to fill with invalid samples")
    }
    var left = Int(missing)
    while left > 0 {
      let count = min(left, 65_536)
      prepareBuffer(frames: count)
      for frame in 0..<count {
        for index in signals.indices { store(invalid, signal: index, at: frame * signals.count + index) }
      }
      try flush(frames: count)
      left -= count
    }
  }

  private func prepareBuffer(frames count: Int, frameWidth: Int? = nil) {
    let needed = count * (frameWidth ?? signals.count) * bytesPerSample
    if bytes.count != needed { bytes = [UInt8](repeating: 0, count: needed) }
  }

  /// Stores `digital` as sample `slot` of the buffer (little-endian) and adds it to the checksum.
  private func store(_ digital: Int32, signal: Int, at slot: Int) {
    let word = UInt32(bitPattern: digital)
    let offset = slot * bytesPerSample
    for byte in 0..<bytesPerSample { bytes[offset + byte] = UInt8(truncatingIfNeeded: word >> (8 * byte)) }
    checksums[signal] &+= digital
    if initialValues[signal] == nil { initialValues[signal] = digital }
  }

  private func flush(frames count: Int) throws(OutputError) {
    if !bytes.isEmpty { try dataFile.write(bytes) }
    frames += Int64(count)
  }

  /// The header file's text.
  func headerText() -> String {
    var frequency = shortestText(record.frameRate)
    if record.counterFrequency != record.frameRate {
      frequency += "/" + shortestText(record.counterFrequency)
      if record.baseCounter != 0 { frequency += "(" + shortestText(record.baseCounter) + ")" }
    }
    var text = "\(recordName) \(signals.count) \(frequency) \(frames)"
    if record.baseTimeOfDay != nil || record.baseDate != nil {
      let milliseconds = min(86_399_999, max(0, Int(((record.baseTimeOfDay ?? 0) * 1000).rounded())))
      let whole = milliseconds / 1000
      text += " " + pad(whole / 3600) + ":" + pad(whole / 60 % 60) + ":" + pad(whole % 60)
      if milliseconds % 1000 != 0 { text += "." + String(String(1000 + milliseconds % 1000).dropFirst()) }
      if let date = record.baseDate { text += " \(pad(date.day))/\(pad(date.month))/\(date.year)" }
    }
    text += "\n"
    let fileName = String(
      dataFile.path[
        (dataFile.path.lastIndex(of: "/").map { dataFile.path.index(after: $0) } ?? dataFile.path.startIndex)...
      ])
    for (index, signal) in signals.enumerated() {
      let format = String(format.rawValue) + (signal.samplesPerFrame > 1 ? "x\(signal.samplesPerFrame)" : "")
      let unit = signal.unit.isEmpty ? "" : "/" + signal.unit.filter { !$0.isWhitespace }
      let first = initialValues[index] ?? Int32(signal.adcZero)
      let checksum = Int16(truncatingIfNeeded: checksums[index])
      text +=
        "\(fileName) \(format) \(shortestText(signal.gain))(\(signal.baseline))\(unit) "
        + "\(signal.adcResolution) \(signal.adcZero) \(first) \(checksum) 0 \(Self.oneLine(signal.name))\n"
    }
    for comment in record.comments {
      for line in comment.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
        text += "#" + line + "\n"
      }
    }
    return text
  }

  private func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// `text` with line breaks turned into spaces.
  private static func oneLine(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 })
  }
}
