import VitalsCore
import VitalsIO
import VitalsSupport

/// How samples arrive on a live stream.
public enum StreamSampleFormat: String, Sendable, CaseIterable, Codable {
  /// Text lines of `channelCount` fields separated by commas, semicolons or tabs (spaces around a field
  /// are ignored), or, in a line without any of these, by runs of spaces. Each field is read as the CSV
  /// reader reads one (`StreamDecoder.sample(_:count:)`): a decimal number with a `.` (`-1.5`, `4e1`,
  /// `"2"`), NaN for an empty field and `nan`/`na`/`n/a`/`null`/`-nan` (`1,,3` is three samples, the
  /// second NaN), `inf`/`-inf`/`infinity` and hexadecimal floats; a trailing delimiter after the last
  /// channel is ignored. Lines before the first line of samples (a header) and empty lines are skipped.
  case csv
  /// Raw little-endian IEEE 754 `Float32` frames, channels interleaved.
  case f32
  /// Raw little-endian `Int16` frames, channels interleaved (ADC units: the ECG pipeline is
  /// scale-free).
  case i16
}

/// Turns the bytes of a stream into interleaved frames of `Float` samples, keeping an incomplete line
/// or frame for the next call, so bytes may be split anywhere.
public struct StreamDecoder: Sendable {
  /// The format decoded.
  public let format: StreamSampleFormat
  /// Samples per frame.
  public let channelCount: Int
  var pending: [UInt8] = []
  /// Lines seen (CSV), for error messages.
  var line = 0
  /// Whether a numeric CSV line has been seen (lines before it are a header).
  var sawData = false
  /// Bytes decoded so far (binary formats), for error messages.
  var offset: Int64 = 0

  /// A decoder of frames of `channelCount` samples.
  public init(format: StreamSampleFormat, channelCount: Int) {
    precondition(channelCount >= 1, "a frame holds at least one channel")
    self.format = format
    self.channelCount = channelCount
  }

  /// Decodes `bytes` and appends every complete frame to `frames` (interleaved). Throws
  /// `InputError` for path `-` naming the line (CSV) when a line does not hold `channelCount`
  /// numbers.
  public mutating func decode(_ bytes: UnsafeRawBufferPointer, into frames: inout [Float]) throws(InputError)
  {
    switch format {
    case .csv:
      var start = 0
      for (i, byte) in bytes.enumerated() where byte == 0x0A {
        if pending.isEmpty {
          try parseLine(
            UnsafeRawBufferPointer(rebasing: bytes[start..<i]).assumingMemoryBound(to: UInt8.self),
            into: &frames)
        } else {
          pending.append(contentsOf: bytes[start..<i])
          let text = pending
          pending.removeAll(keepingCapacity: true)
          try parseLine(text, into: &frames)
        }
        start = i + 1
      }
      pending.append(contentsOf: bytes[start...])
    case .f32, .i16:
      let width = (format == .f32 ? 4 : 2) * channelCount
      pending.append(contentsOf: bytes)
      let whole = pending.count / width * width
      pending.withUnsafeBytes { raw in
        for k in Swift.stride(from: 0, to: whole, by: format == .f32 ? 4 : 2) {
          if format == .f32 {
            frames.append(
              Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: UInt32.self))))
          } else {
            frames.append(Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: Int16.self))))
          }
        }
      }
      pending.removeFirst(whole)
      offset += Int64(whole)
    }
  }

  /// Ends the stream: decodes a last CSV line without a newline; throws when a binary frame is cut short.
  public mutating func finish(into frames: inout [Float]) throws(InputError) {
    defer { pending.removeAll() }
    guard !pending.isEmpty else { return }
    switch format {
    case .csv:
      try parseLine(pending, into: &frames)
    case .f32, .i16:
      throw InputError(
        path: "-", location: .byteOffset(offset),
        "the stream ends inside a frame: \(pending.count) bytes of a \((format == .f32 ? 4 : 2) * channelCount)-byte frame"
      )
    }
  }

  /// Parses `text`, a line held in an array (a copy of ``pending``: the decoder's own storage cannot stay
  /// borrowed while parsing updates the decoder).
  private mutating func parseLine(_ text: [UInt8], into frames: inout [Float]) throws(InputError) {
    try text.withUnsafeBufferPointer { bytes throws(InputError) in try parseLine(bytes, into: &frames) }
  }

  /// Parses one line into `frames` in place, without allocating (unless a field needs
  /// `sample(_:count:)`'s text forms): the bytes are split into fields (see
  /// ``StreamSampleFormat/csv``) and each read by `sample(_:count:)`.
  private mutating func parseLine(_ bytes: UnsafeBufferPointer<UInt8>, into frames: inout [Float])
    throws(InputError)
  {
    line += 1
    let before = frames.count
    let (blank, numeric) = appendFields(of: bytes, to: &frames)
    let count = frames.count - before
    if numeric && !blank && count == channelCount {
      sawData = true
      return
    }
    frames.removeSubrange(before...)
    if blank || (!numeric && !sawData) { return }  // an empty line, or a header before the data
    let text = String(decoding: bytes, as: UTF8.self).trimmingScalars(where: \.isBlankOrNewline)
    throw InputError(
      path: "-", location: .line(line),
      numeric
        ? "expected \(channelCount) numbers, found \(count)"
        : "expected \(channelCount) numbers, found \"\(text.prefix(80))\"")
  }

  /// Appends the sample of each field of the line `bytes` to `frames`: `blank` for a line of spaces and
  /// a CR only (nothing appended), `numeric` false at the first field that holds no sample (the samples
  /// before it stay appended).
  private func appendFields(of bytes: UnsafeBufferPointer<UInt8>, to frames: inout [Float])
    -> (blank: Bool, numeric: Bool)
  {
    guard let base = bytes.baseAddress else { return (true, true) }
    let before = frames.count
    let n = bytes.count
    // Blank (spaces and a CR only), delimited, or fields separated by runs of spaces.
    var blank = true
    var delimited = false
    for i in 0..<n where base[i] != 0x20 && base[i] != 0x0D {
      blank = false
      if Self.isDelimiter(base[i]) {
        delimited = true
        break
      }
    }
    if blank { return (true, true) }
    var p = 0
    var last = 0..<0
    while p <= n {
      if !delimited {
        while p < n && (base[p] == 0x20 || base[p] == 0x0D) { p += 1 }
        if p == n { break }
      }
      var q = p
      while q < n && !(delimited ? Self.isDelimiter(base[q]) : base[q] == 0x20 || base[q] == 0x0D) {
        q += 1
      }
      guard let value = Self.sample(base + p, count: q - p) else { return (false, false) }
      frames.append(value)
      last = p..<q
      p = q + 1
    }
    // A trailing delimiter (an empty last field beyond the channels) is tolerated, as the CSV reader does.
    if delimited && frames.count - before == channelCount + 1
      && last.allSatisfy({ base[$0] == 0x20 || base[$0] == 0x0D || base[$0] == 0x22 })
    {
      frames.removeLast()
    }
    return (false, true)
  }

  /// Field delimiters: comma, semicolon and tab.
  private static func isDelimiter(_ byte: UInt8) -> Bool { byte == 0x2C || byte == 0x3B || byte == 0x09 }

  /// The sample one field holds, read by the CSV reader's rules for a field (`CSVSignalReader`), or
  /// nil when it holds none:
  /// - a decimal number as `DecimalNumber` scans it (spaces and double quotes around it allowed, a sign,
  ///   digits with at most one `.`, an optional exponent: `-1.5`, `"2"`, `4e1`, `.5`), correctly
  ///   rounded to `Float` (the same bits as `Float(String)`), within the range of `Float`;
  /// - otherwise `CSVSignalReader/nonNumericValue(_:)`: NaN for an empty field and for `nan`, `na`,
  ///   `n/a`, `null`, `-nan` in any case, an infinity for `inf` and `infinity`, signed or not.
  /// Other text (`nan(1)`, `1.5.2`, `12abc`, `0x10`, a decimal comma) and a number beyond `Float`
  /// (`1e39`) hold no sample.
  static func sample(_ start: UnsafePointer<UInt8>, count: Int) -> Float? {
    if let number = DecimalNumber.scan(start, count: count, separator: 0x2E) {
      let value = number.floatValue { fieldText(start, count: count) }
      return value.isFinite ? value : nil
    }
    return CSVSignalReader.nonNumericValue(fieldText(start, count: count))
  }
}

/// Pipelines run live over an unbounded stream of samples: bytes in (``StreamDecoder``), staged in a
/// `SampleRingBuffer`, fed to every pipeline as soon as they arrive, events out.
///
/// Every call to ``consume(_:emit:)`` processes all the complete frames it was given before it returns,
/// so an event leaves no later than the bytes that decide it are consumed: a beat at most the QRS
/// detector's latency (0.49 s of signal) after its R peak, a heart-rate reading with the sample of its
/// second, a step about 0.5 s after its peak inside a bout. Memory is constant: the ring buffer, the
/// decoder's partial line and the pipelines' bounded live state (``PipelineContext/live``).
public struct LiveAnalysis: ~Copyable {
  /// Samples per second.
  public let sampleRate: Double
  var decoder: StreamDecoder
  var ring: SampleRingBuffer
  var pipelines: [any RecordingPipeline]
  var frames: [Float] = []
  var chunk: [[Float]]
  var events: [PipelineEvent] = []

  /// A live analysis of `signal` at `sampleRate` Hz, frames of `channelCount` samples in `format`, the
  /// pipeline reading `channels` (indices into the frame). Throws when the pipeline is unavailable.
  public init(
    signal: SignalKind, sampleRate: Double, format: StreamSampleFormat, channelCount: Int, channels: [Int],
    registry: PipelineRegistry = .standard
  ) throws(PipelineUnavailable) {
    try self.init(
      signals: [(signal, channels)], sampleRate: sampleRate, format: format, channelCount: channelCount,
      registry: registry)
  }

  /// A live analysis of several kinds of signal in the same frames (e.g. an ECG lead and three
  /// accelerometer axes), each pipeline reading its `channels` (indices into the frame), at `sampleRate`
  /// Hz, frames of `channelCount` samples in `format`. Throws when a pipeline is unavailable.
  public init(
    signals kinds: [(kind: SignalKind, channels: [Int])], sampleRate: Double, format: StreamSampleFormat,
    channelCount: Int, registry: PipelineRegistry = .standard
  ) throws(PipelineUnavailable) {
    precondition(!kinds.isEmpty, "a live analysis runs at least one pipeline")
    precondition(
      kinds.allSatisfy { $0.channels.allSatisfy { (0..<channelCount).contains($0) } },
      "channels must be in the frame")
    self.sampleRate = sampleRate
    let signals = (0..<channelCount).map { channel in
      let kind = kinds.first { $0.channels.contains(channel) }?.kind.rawValue ?? "channel"
      return SignalDescription(name: "\(kind)\(channel)", unit: "", sampleRate: sampleRate, sampleCount: nil)
    }
    let accelerometer = kinds.first { $0.kind == .accelerometer }?.channels ?? []
    var pipelines: [any RecordingPipeline] = []
    for (kind, channels) in kinds {
      pipelines.append(
        try registry.makePipeline(
          kind,
          context: PipelineContext(
            path: "-", signals: signals, sampleRate: sampleRate, channels: channels,
            accelerometer: accelerometer,
            live: true)))
    }
    self.pipelines = pipelines
    decoder = StreamDecoder(format: format, channelCount: channelCount)
    ring = SampleRingBuffer(
      channelCount: channelCount, minimumCapacity: 4096, sampleRate: sampleRate, startTime: .epoch)
    chunk = Array(repeating: [], count: channelCount)
  }

  /// Decodes `bytes`, runs the pipeline over every complete frame and hands each event decided to `emit`.
  public mutating func consume(_ bytes: UnsafeRawBufferPointer, emit: (PipelineEvent) -> Void)
    throws(InputError)
  {
    frames.removeAll(keepingCapacity: true)
    try decoder.decode(bytes, into: &frames)
    run(emit: emit)
  }

  /// Ends the stream: decodes what is left, flushes the pipelines' pending events and returns their
  /// sections (ECG: over the live window), in the order the pipelines were given.
  public mutating func finish(emit: (PipelineEvent) -> Void) throws(InputError)
    -> [(kind: SignalKind, section: any PipelineSection)]
  {
    frames.removeAll(keepingCapacity: true)
    try decoder.finish(into: &frames)
    run(emit: emit)
    var sections: [(kind: SignalKind, section: any PipelineSection)] = []
    for k in pipelines.indices {
      sections.append((pipelines[k].kind, pipelines[k].finish(events: &events)))
      events.forEach(emit)
      events.removeAll()
    }
    return sections
  }

  /// Passes `frames` through the ring buffer to the pipeline, a ring's worth at a time.
  private mutating func run(emit: (PipelineEvent) -> Void) {
    let channelCount = ring.channelCount
    var start = 0
    while start < frames.count {
      let count = min(ring.freeCapacity * channelCount, frames.count - start)
      frames.withUnsafeBufferPointer { all in
        ring.append(interleaved: UnsafeBufferPointer(rebasing: all[start..<start + count]))
      }
      start += count
      let n = ring.count
      for c in 0..<channelCount {
        chunk[c] = [Float](unsafeUninitializedCapacity: n) { buffer, initialized in
          ring.copySamples(ofChannel: c, from: 0, into: buffer)
          initialized = n
        }
      }
      let signal = SignalChunk(
        channels: chunk, sampleRate: sampleRate, startTime: ring.oldestTime,
        firstSampleIndex: ring.oldestSampleIndex)
      ring.removeAll()
      for k in pipelines.indices {
        pipelines[k].process(signal, events: &events)
        events.forEach(emit)
        events.removeAll(keepingCapacity: true)
      }
    }
  }
}
