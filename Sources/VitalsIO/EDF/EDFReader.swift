import VitalsCore

/// Streams the signals of an EDF or EDF+ file (Kemp et al. 1992; Kemp & Olivan 2003) as chunks of
/// physical values.
///
/// **Mixed rates.** Signals in one file may have different rates, and a `SignalChunk` has one rate,
/// so the reader yields one *rate group*: without a selection, the ordinary (non-annotation) signals
/// sharing the rate of the first ordinary signal; with a selection, exactly the selected signals,
/// which must share a rate (read the file once per group to get every rate). ``availableSignals``
/// lists every ordinary signal with its rate.
///
/// **Scaling.** physical = digital × (pmax − pmin)/(dmax − dmin) + offset, edflib's mapping (the
/// one pyedflib `readSignal` applies), computed in `Float`.
///
/// **Time.** The header's date and time are read as UTC. In EDF+ each record's first TAL gives its
/// onset. The gaps between the records of an EDF+D file are missing data: they are yielded as NaN
/// samples, as many as the gap holds sample periods (rounded), so that the samples lie on one grid from
/// the first and every sample is within half a period of its time; the signals' `sampleCount` spans the
/// gaps too, and a file whose last record starts more than `SignalChunk.longestRecordingSeconds` after
/// its first throws.
/// ``readAnnotations()`` returns the annotations (of every `EDF Annotations` signal), record onsets
/// and gaps.
/// An onset that contradicts the variant throws, naming the record and the byte of its TAL: in
/// EDF+C, record k must start k record durations after record 0; in EDF+D, no record may start
/// before the previous one ends (within 1 µs).
///
/// Memory is bounded: records are read in batches of at most 4 MiB (one record when larger).
public struct EDFReader: SignalReader {
  /// The file's header as declared.
  public let header: EDFHeader
  /// Every ordinary (non-annotation) signal, in file order, with its rate.
  public let availableSignals: [SignalDescription]
  /// File indices (into `header.signals`) of the signals yielded, in chunk channel order.
  public let selectedSignals: [Int]
  public var formatName: String { header.variant }
  public let signals: [SignalDescription]
  public let chunkSampleRate: Double
  /// The header's start date and time (EDF always states one), plus the first data record's onset.
  public let startTime: Timestamp?

  private let input: ByteInput
  private let annotationSignal: Int?
  /// Byte offset of each signal within a record.
  private let signalOffsets: [Int]
  private let samplesPerRecord: Int
  private var nextRecord = 0
  /// Samples of `nextRecord` already yielded.
  private var sampleInRecord = 0
  private var samplesYielded: Int64 = 0
  /// Seconds from the file start at which the next sample to yield lies.
  private var expectedOnset: Double?
  /// Seconds from the file start of the first sample: EDF+D samples lie on its grid.
  private var gridOnset: Double?
  /// The last record whose onset was checked, that onset and record 0's.
  private var checkedRecord = -1
  private var previousOnset: Double?
  private var firstOnset: Double?
  private var buffer: [UInt8] = []

  /// Opens an EDF/EDF+ file.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - channels: signals to yield by label, 0-based index into ``availableSignals`` or rule (which
  ///     picks among the default rate group); `nil` for the default rate group: the signals at the
  ///     rate of the first.
  public init(path: String, channels: [ChannelSelector]? = nil) throws(InputError) {
    try self.init(input: ByteInput(path: path), channels: channels)
  }

  /// Reads an EDF/EDF+ file held in memory; `name` stands for the path in errors.
  public init(contents: [UInt8], name: String = "<memory>", channels: [ChannelSelector]? = nil)
    throws(InputError)
  {
    try self.init(input: ByteInput(bytes: contents, name: name), channels: channels)
  }

  private init(input: ByteInput, channels: [ChannelSelector]?) throws(InputError) {
    self.input = input
    let path = input.path
    let first = try input.bytes(at: 0, count: 256)
    let headerSize = try EDFHeader.declaredHeaderBytes(first, path: path)
    let headerBytes = try input.bytes(at: 0, count: headerSize)
    let header = try EDFHeader(bytes: headerBytes, path: path, fileSize: input.size)
    self.header = header
    var offsets = [Int]()
    var offset = 0
    for s in header.signals {
      offsets.append(offset)
      offset += 2 * s.samplesPerRecord
    }
    signalOffsets = offsets
    annotationSignal = header.isPlus ? header.signals.firstIndex(where: \.isAnnotation) : nil
    let ordinary = header.signals.indices.filter { !header.signals[$0].isAnnotation }
    guard !ordinary.isEmpty else {
      throw InputError(
        path: path, location: .byteOffset(256), "expected at least one signal besides the annotations")
    }
    guard header.recordDuration > 0 else {
      throw InputError(path: path, location: .byteOffset(244), "expected a data record duration > 0")
    }
    let duration = header.recordDuration
    guard Double(header.recordCount) * duration <= SignalChunk.longestRecordingSeconds else {
      throw InputError(
        path: path, location: .byteOffset(236),
        "\(header.recordCount) data records of \(duration) s: expected a recording of at most "
          + "\(SignalChunk.longestRecordingSeconds) s (366 days)")
    }
    let allSignals = header.signals
    let rate = { (i: Int) in Double(allSignals[i].samplesPerRecord) / duration }
    let span = try Self.discontinuousSpan(
      header: header, input: input, annotationSignal: annotationSignal, offsets: offsets)
    let available = ordinary.map { i in
      let s = header.signals[i]
      let stored = Int64(s.samplesPerRecord) * Int64(header.recordCount)
      return SignalDescription(
        name: s.label, unit: s.physicalDimension, sampleRate: rate(i),
        sampleCount: span.map {
          Self.gridIndex(of: $0.last, from: $0.first, rate: rate(i)) + Int64(s.samplesPerRecord)
        } ?? stored)
    }
    let firstRate = header.signals[ordinary[0]].samplesPerRecord
    // Indices into `available`.
    let defaultGroup = ordinary.indices.filter { header.signals[ordinary[$0]].samplesPerRecord == firstRate }
    let chosen: [Int]
    if let channels {
      chosen = try ChannelSelector.resolve(
        channels, names: available.map(\.name), defaults: defaultGroup, path: path
      ).map { ordinary[$0] }
      let rates = Set(chosen.map { header.signals[$0].samplesPerRecord })
      guard rates.count == 1 else {
        let listing = chosen.map { "\(header.signals[$0].label) (\(rate($0)) Hz)" }.joined(separator: ", ")
        throw InputError(path: path, "selected signals must share one sample rate, found \(listing)")
      }
    } else {
      chosen = defaultGroup.map { ordinary[$0] }
    }
    availableSignals = available
    selectedSignals = chosen
    signals = chosen.map { i in available[ordinary.firstIndex(of: i)!] }
    samplesPerRecord = header.signals[chosen[0]].samplesPerRecord
    chunkSampleRate = try supportedSampleRate(
      rate(chosen[0]),
      field: "signal \(chosen[0]) (\(header.signals[chosen[0]].label)): \(samplesPerRecord) samples per "
        + "record of \(duration) s",
      path: path,
      location: .byteOffset(Int64(256 + 216 * header.signals.count + 8 * chosen[0])))
    var start = header.startTime
    if header.recordCount > 0,
      let onset = try Self.recordOnset(
        0, header: header, input: input, annotationSignal: annotationSignal, offsets: offsets)
    {
      start = start.advanced(byNanoseconds: Int64(saturating: onset * 1e9))
    }
    startTime = start
  }

  /// Onset in seconds of record `r` from its first TAL, or `nil` without an annotation signal.
  private static func recordOnset(
    _ r: Int, header: EDFHeader, input: ByteInput, annotationSignal: Int?, offsets: [Int]
  ) throws(InputError) -> Double? {
    guard let a = annotationSignal else { return nil }
    let position = Int64(header.headerBytes) + Int64(r) * Int64(header.recordBytes) + Int64(offsets[a])
    let bytes = try input.bytes(at: position, count: 2 * header.signals[a].samplesPerRecord)
    return try TALParser.parse(bytes[...], path: input.path, byteOffset: position) { _, _, _ in }
  }

  /// EDF+D: the onsets (seconds) of record 0 and of the last record, which the samples span with their
  /// gaps (see the type's description); nil for other files and a single record. Throws when they lie
  /// more than `SignalChunk.longestRecordingSeconds` apart, naming the last record's TAL.
  private static func discontinuousSpan(
    header: EDFHeader, input: ByteInput, annotationSignal: Int?, offsets: [Int]
  ) throws(InputError) -> (first: Double, last: Double)? {
    guard header.variant == "EDF+D", header.recordCount > 1, let a = annotationSignal,
      let first = try recordOnset(0, header: header, input: input, annotationSignal: a, offsets: offsets),
      let last = try recordOnset(
        header.recordCount - 1, header: header, input: input, annotationSignal: a, offsets: offsets),
      last > first
    else { return nil }
    guard last - first <= SignalChunk.longestRecordingSeconds else {
      throw InputError(
        path: input.path,
        location: .byteOffset(
          Int64(header.headerBytes) + Int64(header.recordCount - 1) * Int64(header.recordBytes)
            + Int64(offsets[a])),
        "the last record starts \(last - first) s after the first: expected at most "
          + "\(SignalChunk.longestRecordingSeconds) s (366 days)")
    }
    return (first, last)
  }

  /// Reads the whole of every annotation signal: annotations, record onsets and EDF+D gaps (empty for
  /// plain EDF, whose records follow one another). The first annotation signal keeps the time (each
  /// record's first TAL gives its onset); further `EDF Annotations` signals, which EDF+ allows, add
  /// their annotations (every TAL's texts), and the annotations of a file with several are merged
  /// in onset order (stable: equal onsets stay in record, then signal, order). Reads one record's
  /// annotation bytes at a time.
  public func readAnnotations() throws(InputError) -> EDFAnnotationIndex {
    var annotations = [EDFAnnotation]()
    var onsets = [Double]()
    var gaps = [EDFGap]()
    guard let a = annotationSignal else {
      onsets = (0..<header.recordCount).map { Double($0) * header.recordDuration }
      return EDFAnnotationIndex(annotations: [], recordOnsets: onsets, gaps: [])
    }
    let others = header.signals.indices.filter { $0 != a && header.signals[$0].isAnnotation }
    var bytes = [UInt8](repeating: 0, count: 2 * header.signals[a].samplesPerRecord)
    for r in 0..<header.recordCount {
      let position =
        Int64(header.headerBytes) + Int64(r) * Int64(header.recordBytes) + Int64(signalOffsets[a])
      _ = try input.read(at: position, into: &bytes, count: bytes.count)
      let onset = try TALParser.parse(bytes[...], path: input.path, byteOffset: position) {
        onset, duration, text in
        if !text.isEmpty { annotations.append(EDFAnnotation(onset: onset, duration: duration, text: text)) }
      }
      guard let onset else {
        throw InputError(
          path: input.path, location: .byteOffset(position),
          "expected a time-keeping TAL at the start of record \(r)")
      }
      try Self.checkOnset(
        r, onset, previous: onsets.last, first: onsets.first, header: header, path: input.path, at: position)
      if let previous = onsets.last, onset - (previous + header.recordDuration) > 1e-6 {
        let end = previous + header.recordDuration
        gaps.append(EDFGap(record: r, start: end, duration: onset - end))
      }
      onsets.append(onset)
      for other in others {
        try readTALs(of: other, record: r) { annotations.append($0) }
      }
    }
    if !others.isEmpty {
      annotations = annotations.enumerated().sorted {
        ($0.element.onset, $0.offset) < ($1.element.onset, $1.offset)
      }
      .map(\.element)
    }
    return EDFAnnotationIndex(annotations: annotations, recordOnsets: onsets, gaps: gaps)
  }

  /// The annotations with text of annotation signal `a` in record `r` (every TAL, the first included).
  private func readTALs(of a: Int, record r: Int, _ body: (EDFAnnotation) -> Void) throws(InputError) {
    let position =
      Int64(header.headerBytes) + Int64(r) * Int64(header.recordBytes) + Int64(signalOffsets[a])
    let bytes = try input.bytes(at: position, count: 2 * header.signals[a].samplesPerRecord)
    _ = try TALParser.parse(bytes[...], path: input.path, byteOffset: position) { onset, duration, text in
      if !text.isEmpty { body(EDFAnnotation(onset: onset, duration: duration, text: text)) }
    }
  }

  /// Refuses the onset of record `r` (after `previous`, record `r − 1`'s, and `first`, record 0's) when
  /// it contradicts the variant: EDF+C records follow one another (record `r` at `first + r ×`
  /// duration), EDF+D records do not overlap or go back (at or after `previous +` duration); 1 µs of
  /// rounding is allowed. `position` is the byte of the record's TAL.
  private static func checkOnset(
    _ r: Int, _ onset: Double, previous: Double?, first: Double?, header: EDFHeader, path: String,
    at position: Int64
  ) throws(InputError) {
    let duration = header.recordDuration
    if header.variant == "EDF+C", let first {
      let expected = first + Double(r) * duration
      guard abs(onset - expected) <= 1e-6 else {
        throw InputError(
          path: path, location: .byteOffset(position),
          "record \(r) starts at \(onset) s: expected \(expected) s, \(r) records of \(duration) s after record 0 "
            + "(EDF+C records follow one another)")
      }
    } else if header.variant == "EDF+D", let previous, onset < previous + duration - 1e-6 {
      throw InputError(
        path: path, location: .byteOffset(position),
        "record \(r) starts at \(onset) s, before record \(r - 1) ends (\(previous + duration) s): expected "
          + "EDF+D records in time order, without overlap")
    }
  }

  /// The onset of record ``nextRecord`` from the time-keeping TAL of annotation signal `a` at
  /// `buffer[talOffset...]` (the file's byte `batchStart + talOffset`), checked against the records
  /// before it (``checkOnset(_:_:previous:first:header:path:at:)``) the first time the record is met.
  private mutating func timeKeepingOnset(at talOffset: Int, of a: Int, batchStart: Int64) throws(InputError)
    -> Double
  {
    let position = batchStart + Int64(talOffset)
    let talCount = 2 * header.signals[a].samplesPerRecord
    let parsed = try TALParser.parse(
      buffer[talOffset..<talOffset + talCount], path: input.path, byteOffset: position
    ) { _, _, _ in }
    guard let onset = parsed else {
      throw InputError(
        path: input.path, location: .byteOffset(position),
        "expected a time-keeping TAL at the start of record \(nextRecord)")
    }
    if checkedRecord != nextRecord {
      try Self.checkOnset(
        nextRecord, onset, previous: previousOnset, first: firstOnset, header: header, path: input.path,
        at: position)
      checkedRecord = nextRecord
      previousOnset = onset
      if firstOnset == nil { firstOnset = onset }
    }
    return onset
  }

  public mutating func nextChunk(maxSamples: Int) throws(InputError) -> SignalChunk? {
    precondition(maxSamples > 0, "maxSamples must be positive")
    guard nextRecord < header.recordCount else { return nil }
    let recordBytes = header.recordBytes
    let batchLimit = max(1, (4 << 20) / recordBytes)
    var channels = [[Float]](repeating: [], count: selectedSignals.count)
    for c in channels.indices { channels[c].reserveCapacity(maxSamples) }
    var produced = 0
    var chunkOnset: Double?
    let firstIndex = samplesYielded
    let discontinuous = header.variant == "EDF+D"
    readLoop: while produced < maxSamples && nextRecord < header.recordCount {
      let remainingRecords =
        (maxSamples - produced + sampleInRecord + samplesPerRecord - 1) / samplesPerRecord
      let batch = min(batchLimit, remainingRecords, header.recordCount - nextRecord)
      let position = Int64(header.headerBytes) + Int64(nextRecord) * Int64(recordBytes)
      let needed = batch * recordBytes
      if buffer.count < needed { buffer = [UInt8](repeating: 0, count: needed) }
      let got = try input.read(at: position, into: &buffer, count: needed)
      guard got == needed else {
        throw InputError(
          path: input.path, location: .byteOffset(position + Int64(got)),
          "truncated data record \(nextRecord + got / recordBytes): expected \(recordBytes) bytes")
      }
      for k in 0..<batch {
        let recordStart = k * recordBytes
        var onset = Double(nextRecord) * header.recordDuration
        if let a = annotationSignal {
          onset = try timeKeepingOnset(at: recordStart + signalOffsets[a], of: a, batchStart: position)
        }
        let sampleOnset = onset + Double(sampleInRecord) / chunkSampleRate
        if discontinuous, sampleInRecord == 0, let expected = expectedOnset,
          fillGap(before: sampleOnset, into: &channels, produced: &produced, maxSamples: maxSamples)
        {
          if chunkOnset == nil { chunkOnset = expected }
          if produced == maxSamples { break readLoop }
        }
        if gridOnset == nil { gridOnset = sampleOnset }
        if chunkOnset == nil { chunkOnset = discontinuous ? expectedOnset ?? sampleOnset : sampleOnset }
        let take = min(samplesPerRecord - sampleInRecord, maxSamples - produced)
        buffer.withUnsafeBytes { raw in
          for (c, s) in selectedSignals.enumerated() {
            let signal = header.signals[s]
            let source = UnsafeRawBufferPointer(
              rebasing: raw[(recordStart + signalOffsets[s] + 2 * sampleInRecord)...].prefix(2 * take))
            let base = channels[c].count
            channels[c].append(contentsOf: repeatElement(0, count: take))
            channels[c].withUnsafeMutableBufferPointer { out in
              EDFSampleDecoder.decode(
                source, scale: Float(signal.scale), offset: Float(signal.offset),
                into: UnsafeMutableBufferPointer(rebasing: out[base..<base + take]))
            }
          }
        }
        produced += take
        sampleInRecord += take
        // EDF+D samples lie on one grid from the first, so after a gap at most half a sample from their
        // onset; the others follow their record's onset.
        expectedOnset =
          discontinuous
          ? gridOnset! + Double(samplesYielded + Int64(produced)) / chunkSampleRate
          : onset + Double(sampleInRecord) / chunkSampleRate
        if sampleInRecord == samplesPerRecord {
          sampleInRecord = 0
          nextRecord += 1
        }
        if produced == maxSamples { break readLoop }
      }
    }
    guard produced > 0 else { return nil }
    samplesYielded += Int64(produced)
    let start = header.startTime.advanced(byNanoseconds: Int64(saturating: (chunkOnset ?? 0) * 1e9))
    return SignalChunk(
      channels: channels, sampleRate: chunkSampleRate, startTime: start, firstSampleIndex: firstIndex)
  }
}

extension EDFReader {
  /// The sample of the grid that starts at `first` (seconds) with `rate` Hz nearest to `onset`: where an
  /// EDF+D record starting at `onset` begins among the samples read (``BeatFile`` places annotations
  /// with it too, so that both round alike).
  static func gridIndex(of onset: Double, from first: Double, rate: Double) -> Int64 {
    Int64(((onset - first) * rate).rounded())
  }

  /// An EDF+D gap before a record starting at `onset` (seconds from the file's start): appends to every
  /// channel the missing samples (NaN) up to the record's grid sample (``gridIndex(of:from:rate:)``), at
  /// most as many as bring `produced` to `maxSamples`, and advances ``expectedOnset``; returns whether
  /// there were any. The count is an integer difference, so it does not depend on the chunking.
  fileprivate mutating func fillGap(
    before onset: Double, into channels: inout [[Float]], produced: inout Int, maxSamples: Int
  ) -> Bool {
    let yielded = samplesYielded + Int64(produced)
    let missing = Int(Self.gridIndex(of: onset, from: gridOnset!, rate: chunkSampleRate) - yielded)
    guard missing > 0 else { return false }
    let fill = min(missing, maxSamples - produced)
    for c in channels.indices { channels[c].append(contentsOf: repeatElement(.nan, count: fill)) }
    produced += fill
    expectedOnset = gridOnset! + Double(samplesYielded + Int64(produced)) / chunkSampleRate
    return true
  }
}

/// The EDF sample kernel: little-endian 16-bit two's complement to physical `Float`.
public enum EDFSampleDecoder {
  /// Decodes `source.count / 2` samples: `output[i] = Float(int16_le(source[2i…])) × scale + offset`.
  ///
  /// - Precondition: `output.count == source.count / 2`.
  @inlinable
  public static func decode(
    _ source: UnsafeRawBufferPointer, scale: Float, offset: Float,
    into output: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(output.count == source.count / 2, "output must hold one Float per 16-bit sample")
    guard let base = source.baseAddress, let out = output.baseAddress else { return }
    for i in 0..<output.count {
      let v = Int16(littleEndian: base.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self))
      out[i] = Float(v) * scale + offset
    }
  }
}
