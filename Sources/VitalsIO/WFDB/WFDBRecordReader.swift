import VitalsCore
import VitalsSupport

/// A WFDB record (`NAME.hea` and its signal files) read as a stream of `SignalChunk`s.
///
/// Reads storage formats 8, 16, 24, 32, 61, 80, 160, 212, 310 and 311 (PhysioNet `signal(5)`),
/// several signals per file interleaved by frame, byte offsets and skew. Samples are physical
/// values `(digital − baseline) / gain` in each signal's unit; invalid-sample markers become NaN.
///
/// Chunks run at the record's frame rate (``WFDBHeader/frameRate``). A signal with several
/// samples per frame (`212x4`) yields the mean of each frame's digital samples, truncated toward
/// zero, then scaled — exactly as wfdb-python's `rdrecord(smooth_frames=True)` (WFDB's `getvec`
/// likewise averages); ``nextDigitalChunk(maxFrames:)`` gives every sample at full rate. A skewed signal's samples that would lie beyond the record's end are NaN
/// (as in `rdrecord`).
///
/// Multi-segment records (`name/nseg`) are read segment after segment, one open at a time, as
/// wfdb-python's `rdrecord` joins them: a variable layout's signals are those of its layout
/// segment, matched by name in each segment; a fixed layout's are the first segment's, and every
/// segment must declare the same signals in the same order (an error names the segment's line).
/// Signals a segment lacks, and null segments (`~`), are NaN. Chunks end at segment
/// boundaries. Digital access (``nextDigitalChunk(maxFrames:)``, ``mismatchedChecksums()``) is
/// per segment: open the segment records for it.
///
/// Refused with an ``InputError`` naming the file and line or byte: a record without signals, a
/// segment that is itself multi-segment, a signal file that ends inside a frame when the header
/// states no length, and — when the last frame is read, after the whole record from frame 0 —
/// a signal whose samples do not sum to its header's checksum (see ``mismatchedChecksums()``; a
/// checksum of 0, or a header length short of its file's end, is not checked).
///
/// A reader opened with channel selectors reads only those signals (``signals``, chunks, digital
/// access and checksums hold them alone, in the selectors' order): in a single-segment record the
/// other signals' samples are never converted, and a signal file holding none of them is not read
/// (a multi-segment record's segments are still read whole, then narrowed).
///
/// Memory is bounded by the chunk size: each call reads only the bytes of the frames it yields
/// (plus the largest skew), decoding 65 536 frames at a time. ``readAll()`` is the bulk path:
/// one call for the whole record. Not thread-safe; one reader per thread.
public final class WFDBRecordReader: SignalReader {
  /// The parsed header.
  public let header: WFDBHeader
  /// `WFDB` and the storage format(s), e.g. `WFDB 212` or `WFDB 16+24`.
  public let formatName: String
  /// One per signal read (every header signal, in header order, unless opened with selectors);
  /// rates are the frame rate (see the type's notes).
  public let signals: [SignalDescription]
  /// The header index of each signal read (of the layout segment's signals for a multi-segment
  /// record), in output order.
  public let signalIndices: [Int]
  /// One sentence per signal read that has several samples per frame, naming it, its own rate and
  /// the frame rate it is read at, each frame's samples averaged (see the type's description):
  /// `signal 0 (A) has 2 samples per frame (500 Hz): read at the frame rate, 250 Hz, each frame's
  /// samples averaged`. Empty when every signal has one sample per frame.
  public let averagedSignalNotes: [String]
  /// The record's frame rate in Hz.
  public var chunkSampleRate: Double { header.frameRate }
  /// Base date and time of the header (UTC); `nil` when it states no base date (a base time alone
  /// is a time of day on an unknown day, and chunk times then count from it after the epoch).
  public var startTime: Timestamp? { header.baseDate == nil ? nil : header.startTime }
  /// Frames in the record (from the header, or from the signal file's length when it omits it).
  public let frameCount: Int64
  /// The next frame to read.
  public private(set) var position: Int64 = 0

  private var files: [SignalFile]
  /// The header file, named by checksum errors.
  private var headerPath = ""
  /// Whether a checksum that differs throws when the last frame is read (off while
  /// ``mismatchedChecksums()`` reads).
  private var throwsOnChecksum = true
  /// The segments of a multi-segment record (`nil` for a single-segment one).
  private let segments: SegmentCursor?
  /// The arrays of the chunk handed out last, written over in place when its holder has let go of them
  /// (else copy-on-write gives fresh ones): a chunk of the same size as the last needs no allocation
  /// and no zero-filling.
  private var recycled: [[Float]] = []

  /// Opens the record whose header is `path` (`dir/100` or `dir/100.hea`); signal files and
  /// segment headers are looked up beside the header. With `selectors`, only the signals they name
  /// (by name, header index or rule over all the signals, see
  /// ``ChannelSelector/resolve(_:names:defaults:path:)``) are read, in their order; a selector that
  /// matches no signal throws.
  public convenience init(path: String, selecting selectors: [ChannelSelector]? = nil) throws(InputError) {
    let headerPath = path.hasSuffix(".hea") ? path : path + ".hea"
    let header = try WFDBHeader.parse(try ByteInput(path: headerPath).readAll(), path: headerPath)
    let directory = headerPath.lastIndex(of: "/").map { String(headerPath[...$0]) } ?? ""
    if !header.segments.isEmpty {
      try self.init(multiSegment: header, directory: directory, headerPath: headerPath, selectors: selectors)
      return
    }
    var sources: [String: ByteInput] = [:]
    for signal in header.signals where sources[signal.fileName] == nil {
      sources[signal.fileName] = try ByteInput(path: directory + signal.fileName)
    }
    try self.init(header: header, sources: sources, headerPath: headerPath, selectors: selectors)
  }

  /// The header indices `selectors` name among `names` (all of them without selectors).
  private static func indices(_ selectors: [ChannelSelector]?, names: [String], path: String)
    throws(InputError)
    -> [Int]
  {
    guard let selectors else { return Array(names.indices) }
    return try ChannelSelector.resolve(selectors, names: names, path: path)
  }

  /// Reads a record whose signal files are already in memory, keyed by the header's file names
  /// (used by benchmarks and fuzzing; `path` names the record in errors); `selectors` as in
  /// ``init(path:selecting:)``.
  public convenience init(
    header: WFDBHeader, files: [String: [UInt8]], path: String = "<memory>",
    selecting selectors: [ChannelSelector]? = nil
  ) throws(InputError) {
    guard header.segments.isEmpty else {
      throw InputError(path: path, "a multi-segment record is read from its segment headers: open it by path")
    }
    var sources: [String: ByteInput] = [:]
    for signal in header.signals where sources[signal.fileName] == nil {
      guard let bytes = files[signal.fileName] else {
        throw InputError(path: path, "no bytes given for signal file '\(signal.fileName)'")
      }
      sources[signal.fileName] = ByteInput(bytes: bytes, name: signal.fileName)
    }
    try self.init(header: header, sources: sources, headerPath: path, selectors: selectors)
  }

  private init(
    multiSegment header: WFDBHeader, directory: String, headerPath: String, selectors: [ChannelSelector]?
  ) throws(InputError) {
    try Self.checkSignalsDeclared(header, path: headerPath)
    var segments = header.segments
    let variableLayout = segments[0].frameCount == 0 && !segments[0].isNull
    guard let layoutIndex = variableLayout ? 0 : segments.firstIndex(where: { !$0.isNull }) else {
      throw InputError(path: headerPath, "a multi-segment record of null segments only holds no signals")
    }
    let layoutName = segments[layoutIndex].name
    if variableLayout { segments.removeFirst() }
    let layoutPath = directory + layoutName + ".hea"
    let layout = try WFDBHeader.parse(try ByteInput(path: layoutPath).readAll(), path: layoutPath)
    guard layout.segments.isEmpty else {
      throw InputError(
        path: headerPath, location: .line(header.segmentLineNumbers[layoutIndex]),
        "segment '\(layoutName)' is a multi-segment record: expected a single-segment record")
    }
    try Self.checkSignalsDeclared(layout, path: layoutPath)
    self.header = header
    files = []
    self.segments = SegmentCursor(
      directory: directory, segments: segments, layout: layout, layoutName: layoutName,
      variableLayout: variableLayout, frameRate: header.frameRate)
    let frames = segments.reduce(0) { $0 + $1.frameCount }
    try Self.checkLength(frames, frameSize: 1, header: header, path: headerPath)
    frameCount = frames
    formatName = "WFDB multi-segment"
    let indices = try Self.indices(selectors, names: layout.signals.map(\.description), path: headerPath)
    signalIndices = indices
    signals = Self.descriptions(
      of: layout.signals, indices: indices, frameRate: header.frameRate, frames: frames)
    averagedSignalNotes = Self.averagedNotes(
      of: layout.signals, indices: indices, frameRate: header.frameRate)
  }

  private init(
    header: WFDBHeader, sources: [String: ByteInput], headerPath: String, selectors: [ChannelSelector]?
  ) throws(InputError) {
    try Self.checkSignalsDeclared(header, path: headerPath)
    self.header = header
    self.headerPath = headerPath
    segments = nil
    var files: [SignalFile] = []
    for (index, signal) in header.signals.enumerated() {
      if let existing = files.firstIndex(where: { $0.name == signal.fileName }) {
        guard files[existing].format == signal.format, files[existing].byteOffset == signal.byteOffset else {
          throw InputError(
            path: headerPath,
            "signals in file '\(signal.fileName)' must share one storage format and byte offset")
        }
        files[existing].add(signal: index, spec: signal)
      } else {
        var file = SignalFile(name: signal.fileName, source: sources[signal.fileName]!, spec: signal)
        file.add(signal: index, spec: signal)
        files.append(file)
      }
    }
    let frames: Int64
    if let stated = header.frameCount {
      frames = stated
    } else {
      for file in files { try file.checkWholeFrames() }
      frames = files[0].wholeFrames
    }
    try Self.checkLength(
      frames, frameSize: files.map(\.frameSize).max() ?? 1, header: header, path: headerPath)
    for index in files.indices {
      let file = files[index]
      let needed = file.byteOffset + file.format.byteCount(forSamples: frames * Int64(file.frameSize))
      if (file.source.size ?? 0) < needed {
        throw InputError(
          path: file.source.path, location: .byteOffset(file.source.size ?? 0),
          ((file.source.size ?? 0) == 0 ? "empty signal file" : "truncated signal file")
            + ": the header declares \(frames) frames, needing \(needed) bytes, but the file holds "
            + "\(file.source.size ?? 0)")
      }
      // The record is the whole file (up to the padding of a last packing group): its checksums hold.
      files[index].spansFile = (file.source.size ?? 0) - needed < Int64(file.format.bytesPerGroup)
    }
    let indices = try Self.indices(selectors, names: header.signals.map(\.description), path: headerPath)
    for (output, signal) in indices.enumerated() {
      let file = files.firstIndex { $0.holds(signal: signal) }!
      files[file].read(signal: signal, into: output)
    }
    self.files = files
    frameCount = frames
    let names = Set(files.map { String($0.format.rawValue) }).sorted()
    formatName = "WFDB " + names.joined(separator: "+")
    signalIndices = indices
    signals = Self.descriptions(
      of: header.signals, indices: indices, frameRate: header.frameRate, frames: frames)
    averagedSignalNotes = Self.averagedNotes(
      of: header.signals, indices: indices, frameRate: header.frameRate)
  }

  /// ``averagedSignalNotes`` of the signals `specs[indices]`, numbered by header index.
  private static func averagedNotes(of specs: [WFDBSignalSpec], indices: [Int], frameRate: Double) -> [String]
  {
    indices.filter { specs[$0].samplesPerFrame > 1 }.map { i in
      let perFrame = specs[i].samplesPerFrame
      return "signal \(i) (\(specs[i].description)) has \(perFrame) samples per frame "
        + "(\(shortestText(frameRate * Double(perFrame))) Hz): read at the frame rate, \(shortestText(frameRate)) Hz, "
        + "each frame's samples averaged"
    }
  }

  /// The descriptions of the signals `specs[indices]`, in that order, at the record's frame rate.
  private static func descriptions(
    of specs: [WFDBSignalSpec], indices: [Int], frameRate: Double, frames: Int64
  )
    -> [SignalDescription]
  {
    indices.map {
      SignalDescription(
        name: specs[$0].description, unit: specs[$0].units, sampleRate: frameRate, sampleCount: frames)
    }
  }

  /// Refuses a record without signals (nothing to read), naming its record line.
  private static func checkSignalsDeclared(_ header: WFDBHeader, path: String) throws(InputError) {
    let none = header.segments.isEmpty ? header.signals.isEmpty : header.signalCount == 0
    if none {
      throw InputError(path: path, location: .line(header.recordLineNumber), "the record declares no signals")
    }
  }

  /// Refuses lengths no file can hold, so that every sample index and time stays far from
  /// Int64's limits.
  private static func checkLength(_ frames: Int64, frameSize: Int, header: WFDBHeader, path: String)
    throws(InputError)
  {
    let duration = Double(frames) / header.frameRate * 1e9
    guard frames <= 1 << 48 / Int64(max(1, frameSize)),
      abs(Double(header.startTime.nanosecondsSinceEpoch)) + duration < 9e18
    else {
      throw InputError(
        path: path,
        "the header declares \(frames) frames at \(header.frameRate) Hz: more than a record can hold")
    }
  }

  /// Reads the next chunk of at most `maxSamples` frames, in physical units, or `nil` at the end
  /// (at once for a record without signals, whatever length its header states).
  public func nextChunk(maxSamples: Int) throws(InputError) -> SignalChunk? {
    precondition(maxSamples > 0, "maxSamples must be positive")
    if let segments {
      guard let channels = try segments.next(maxFrames: maxSamples) else { return nil }
      let chunk = SignalChunk(
        channels: signalIndices.map { channels[$0] }, sampleRate: header.frameRate,
        startTime: header.startTime.advanced(bySamples: position, rate: header.frameRate),
        firstSampleIndex: position
      )
      position += Int64(chunk.sampleCount)
      return chunk
    }
    let count = Int(min(Int64(maxSamples), frameCount - position))
    guard count > 0, !files.isEmpty else { return nil }
    var channels = recycled
    recycled = []
    if channels.count != signals.count { channels = [[Float]](repeating: [], count: signals.count) }
    for index in files.indices where files[index].isRead {
      try files[index].physical(frames: position, count: count, frameCount: frameCount, into: &channels)
    }
    if position + Int64(count) == frameCount { try verifyChecksums() }
    recycled = channels
    let chunk = SignalChunk(
      channels: channels, sampleRate: header.frameRate,
      startTime: header.startTime.advanced(bySamples: position, rate: header.frameRate),
      firstSampleIndex: position)
    position += Int64(count)
    return chunk
  }

  /// The rest of the record as one chunk (the bulk path: one read and one decode per file).
  public func readAll() throws(InputError) -> SignalChunk? {
    try nextChunk(maxSamples: Int(max(1, frameCount - position)))
  }

  /// Reads the next `maxFrames` frames (or fewer at the end) as digital samples: per signal read, all
  /// `frames × samplesPerFrame` samples in order, skew applied, invalid markers kept as stored
  /// (skewed samples beyond the record's end are the format's invalid marker). `nil` at the end.
  public func nextDigitalChunk(maxFrames: Int) throws(InputError) -> [[Int32]]? {
    precondition(maxFrames > 0, "maxFrames must be positive")
    precondition(segments == nil, "digital samples are per segment: open the segment records")
    let count = Int(min(Int64(maxFrames), frameCount - position))
    guard count > 0, !files.isEmpty else { return nil }
    var channels = [[Int32]](repeating: [], count: signals.count)
    for index in files.indices where files[index].isRead {
      try files[index].digital(frames: position, count: count, frameCount: frameCount, into: &channels)
    }
    if position + Int64(count) == frameCount { try verifyChecksums() }
    position += Int64(count)
    return channels
  }

  /// Reads the whole record (from frame 0, in bounded memory) and compares each signal's 16-bit
  /// sum of stored samples (`header(5)`'s checksum: the samples of frames 0 to ``frameCount`` − 1 as
  /// the file stores them, before skew) with the header's checksum; returns the header indices of the
  /// signals read that differ (signals without a checksum are not checked), without throwing for them.
  /// Leaves ``position`` at the end.
  public func mismatchedChecksums() throws(InputError) -> [Int] {
    precondition(segments == nil, "checksums are per segment: open the segment records")
    position = 0
    for index in files.indices { files[index].resetDifferences() }
    throwsOnChecksum = false
    defer { throwsOnChecksum = true }
    while try nextDigitalChunk(maxFrames: 1 << 16) != nil {}
    let mismatched = Set(
      files.flatMap { $0.mismatchedChecksums(frameCount: frameCount, onlyVerifiable: false).map(\.signal) })
    return signalIndices.filter { mismatched.contains($0) }
  }

  /// After the last frame: throws for the first signal read whose stored samples' 16-bit sum
  /// differs from the checksum its header line states, when the record's frames were read from the
  /// first and span the whole signal file. A stated checksum of 0 is taken as not computed (writers
  /// that compute none write 0, as the CinC 2017 headers do; a true sum is 0 once in 65 536), and a
  /// header whose length stops short of its file's end (an excerpt) keeps the file's checksum, so
  /// neither is checked.
  private func verifyChecksums() throws(InputError) {
    guard throwsOnChecksum else { return }
    for file in files {
      guard let (signal, sum) = file.firstMismatch(frameCount: frameCount, onlyVerifiable: true) else {
        continue
      }
      let spec = header.signals[signal]
      let line: InputError.Location =
        header.signalLineNumbers.indices.contains(signal) ? .line(header.signalLineNumbers[signal]) : .file
      throw InputError(
        path: headerPath, location: line,
        "checksum mismatch in signal \(signal) (\(spec.description)): the header states \(spec.checksum ?? 0), "
          + "the samples of \(file.name) sum to \(sum) (16-bit)")
    }
  }
}

/// Where a multi-segment reader stands: the open segment and how its signals map to the record's.
private final class SegmentCursor {
  let directory: String
  let segments: [WFDBSegment]
  /// The header whose signals the record's are (the layout segment, or a fixed layout's first segment).
  let layout: WFDBHeader
  let layoutName: String
  let names: [String]
  let variableLayout: Bool
  let frameRate: Double
  private var index = 0
  private var offset: Int64 = 0
  private var reader: WFDBRecordReader?
  /// For each record signal, its channel in the open segment (`nil`: absent, NaN).
  private var mapping: [Int?] = []

  init(
    directory: String, segments: [WFDBSegment], layout: WFDBHeader, layoutName: String, variableLayout: Bool,
    frameRate: Double
  ) {
    self.directory = directory
    self.segments = segments
    self.layout = layout
    self.layoutName = layoutName
    names = layout.signals.map(\.description)
    self.variableLayout = variableLayout
    self.frameRate = frameRate
  }

  /// The next at most `maxFrames` frames of the record, within one segment; `nil` at the end.
  func next(maxFrames: Int) throws(InputError) -> [[Float]]? {
    while index < segments.count {
      let segment = segments[index]
      let left = segment.frameCount - offset
      guard left > 0 else {
        index += 1
        offset = 0
        reader = nil
        continue
      }
      let count = Int(min(Int64(maxFrames), left))
      offset += Int64(count)
      if segment.isNull { return Array(repeating: Array(repeating: .nan, count: count), count: names.count) }
      let reader = try open(segment)
      guard let chunk = try reader.nextChunk(maxSamples: count), chunk.sampleCount == count else {
        throw InputError(
          path: directory + segment.name + ".hea",
          "segment holds \(reader.frameCount) frames, the master header lists \(segment.frameCount)")
      }
      return mapping.map { $0.map { chunk.channels[$0] } ?? Array(repeating: .nan, count: count) }
    }
    return nil
  }

  private func open(_ segment: WFDBSegment) throws(InputError) -> WFDBRecordReader {
    if let reader { return reader }
    let opened = try WFDBRecordReader(path: directory + segment.name)
    guard opened.header.segments.isEmpty, opened.chunkSampleRate == frameRate else {
      throw InputError(
        path: directory + segment.name + ".hea",
        "a segment must be a single-segment record at the master's \(frameRate) Hz")
    }
    let segmentNames = opened.signals.map(\.name)
    if !variableLayout { try checkSameSignals(opened.header, path: directory + segment.name + ".hea") }
    mapping = names.indices.map { signal in
      variableLayout
        ? segmentNames.firstIndex(of: names[signal]) : (signal < segmentNames.count ? signal : nil)
    }
    reader = opened
    return opened
  }

  /// A fixed layout's segments hold the first segment's signals, in its order: refuses another count
  /// (naming the segment's record line) or another name at a position (naming the signal line). A
  /// signal without a description (named `record NAME, signal N` after its own record) matches any.
  private func checkSameSignals(_ header: WFDBHeader, path: String) throws(InputError) {
    guard header.signals.count == layout.signals.count else {
      throw InputError(
        path: path, location: .line(header.recordLineNumber),
        "the segment declares \(header.signals.count) signals, the first segment '\(layoutName)' "
          + "\(layout.signals.count): the segments of a fixed-layout record hold the same signals")
    }
    func named(_ header: WFDBHeader, _ index: Int) -> String? {
      let name = header.signals[index].description
      return name == "record \(header.recordName), signal \(index)" ? nil : name
    }
    for index in header.signals.indices {
      guard let ours = named(header, index), let first = named(layout, index), ours != first else { continue }
      throw InputError(
        path: path, location: .line(header.signalLineNumbers[index]),
        "signal \(index) is '\(ours)' where the first segment '\(layoutName)' has '\(first)': the segments "
          + "of a fixed-layout record hold the same signals in the same order")
    }
  }
}

/// One signal file of a record and the signals it interleaves.
private struct SignalFile {
  struct Member {
    var signal: Int
    /// Position of the signal's first sample within a frame.
    var column: Int
    var samplesPerFrame: Int
    var skew: Int
    var baseline: Float
    var scale: Float
    var initialValue: Int32
    /// The checksum the header line states, if any.
    var checksum: Int?
    /// Running 16-bit sum (in 32 bits, wrapping) of the stored samples of frames
    /// `0..<SignalFile.summedFrames`, kept for a signal that is read and has a checksum.
    var sum: Int32 = 0
    /// The output channels this signal goes to (none: not read).
    var outputs: [Int] = []

    /// Whether the running sum is kept.
    var isSummed: Bool { checksum != nil && !outputs.isEmpty }
  }

  let name: String
  let source: ByteInput
  let format: WFDBStorageFormat
  let byteOffset: Int64
  private(set) var members: [Member] = []
  /// Samples per frame in this file.
  private(set) var frameSize = 0
  private var maxSkew = 0
  private var bytes: [UInt8] = []
  private var samples: [Int32] = []
  /// Format 8: each member's value at the end of the last frame handed out.
  private var differenceState: [Int32] = []
  private var nextFrame: Int64 = 0
  /// Stored frames summed into the members' checksums, from frame 0 in order.
  private var summedFrames: Int64 = 0
  /// Whether the record's frames are the whole file (set by the reader): only then do the header's
  /// checksums describe them.
  var spansFile = false

  init(name: String, source: ByteInput, spec: WFDBSignalSpec) {
    self.name = name
    self.source = source
    format = spec.format
    byteOffset = spec.byteOffset
  }

  mutating func add(signal: Int, spec: WFDBSignalSpec) {
    members.append(
      Member(
        signal: signal, column: frameSize, samplesPerFrame: spec.samplesPerFrame, skew: spec.skew,
        baseline: Float(spec.baseline), scale: Float(1 / spec.gain),
        initialValue: Int32(truncatingIfNeeded: spec.initialValue), checksum: spec.checksum))
    frameSize += spec.samplesPerFrame
    maxSkew = max(maxSkew, spec.skew)
    differenceState.append(Int32(truncatingIfNeeded: spec.initialValue))
  }

  /// Whether the file holds header signal `signal`.
  func holds(signal: Int) -> Bool { members.contains { $0.signal == signal } }

  /// Reads header signal `signal` (held by this file) into output channel `output` too.
  mutating func read(signal: Int, into output: Int) {
    members[members.firstIndex { $0.signal == signal }!].outputs.append(output)
  }

  /// Whether any of the file's signals is read.
  var isRead: Bool { members.contains { !$0.outputs.isEmpty } }

  mutating func resetDifferences() {
    differenceState = members.map(\.initialValue)
    nextFrame = 0
    summedFrames = 0
    for index in members.indices { members[index].sum = 0 }
  }

  /// Whole frames the file holds after its byte offset.
  var wholeFrames: Int64 {
    format.sampleCount(forBytes: max(0, (source.size ?? 0) - byteOffset)) / Int64(frameSize)
  }

  /// For a record whose length is the file's: refuses a file that ends inside a frame (bytes that
  /// hold part of a frame, beyond what a last packing group needs), naming the byte the partial
  /// frame starts at.
  func checkWholeFrames() throws(InputError) {
    guard let size = source.size else { return }
    let frames = wholeFrames
    let used = byteOffset + format.byteCount(forSamples: frames * Int64(frameSize))
    guard size > used else { return }
    throw InputError(
      path: source.path, location: .byteOffset(used),
      "the file ends inside frame \(frames): \(size - used) bytes after \(frames) whole frames of "
        + "\(frameSize) samples in format \(format.rawValue) (the header states no length: the file's size "
        + "gives it)")
  }

  /// The signals read whose running sum, after all `frameCount` frames, differs from the stated
  /// checksum, with that sum; with `onlyVerifiable`, only when the frames span the file and for
  /// checksums other than 0 (see ``WFDBRecordReader``'s checksum rule).
  func mismatchedChecksums(frameCount: Int64, onlyVerifiable: Bool) -> [(signal: Int, sum: Int16)] {
    members.indices.compactMap {
      mismatch(member: $0, frameCount: frameCount, onlyVerifiable: onlyVerifiable)
    }
  }

  /// The first of ``mismatchedChecksums(frameCount:onlyVerifiable:)``, without allocating (it runs at
  /// the end of every read).
  func firstMismatch(frameCount: Int64, onlyVerifiable: Bool) -> (signal: Int, sum: Int16)? {
    for index in members.indices {
      if let found = mismatch(member: index, frameCount: frameCount, onlyVerifiable: onlyVerifiable) {
        return found
      }
    }
    return nil
  }

  private func mismatch(member index: Int, frameCount: Int64, onlyVerifiable: Bool) -> (
    signal: Int, sum: Int16
  )? {
    let member = members[index]
    guard summedFrames == frameCount, spansFile || !onlyVerifiable, member.isSummed,
      let checksum = member.checksum, checksum != 0 || !onlyVerifiable
    else { return nil }
    let sum = Int16(truncatingIfNeeded: member.sum)
    return sum == Int16(truncatingIfNeeded: checksum) ? nil : (member.signal, sum)
  }

  /// Adds the stored samples of frames `[start, start + count)`, held in `samples` from flat index
  /// `first`, to the running sums, when they continue the frames summed so far.
  private mutating func sum(start: Int64, count: Int, first: Int64) {
    guard start == summedFrames else { return }
    summedFrames += Int64(count)
    let width = frameSize
    samples.withUnsafeBufferPointer { samples in
      let frames = samples.baseAddress! + Int(start * Int64(width) - first)
      // Frames of at most 16 samples, one per signal: over a period of lcm(8, width) values, the value at
      // position p belongs to column p mod width, so one pass of SIMD8 lanes sums every column.
      if width <= 16 && members.allSatisfy({ !$0.isSummed || $0.samplesPerFrame == 1 }) {
        let period = 8 / Self.gcd(8, width) * width
        withUnsafeTemporaryAllocation(of: SIMD8<Int32>.self, capacity: period / 8) { lanes in
          Self.wrappingPeriodSums(frames, count: count * width, into: lanes)
          for index in members.indices where members[index].isSummed {
            for position in Swift.stride(from: members[index].column, to: period, by: width) {
              members[index].sum &+= lanes[position / 8][position % 8]
            }
          }
        }
        return
      }
      for index in members.indices where members[index].isSummed {
        let (column, perFrame) = (members[index].column, members[index].samplesPerFrame)
        var total = members[index].sum
        for frame in 0..<count {
          for sub in 0..<perFrame { total &+= frames[frame &* width &+ column &+ sub] }
        }
        members[index].sum = total
      }
    }
  }

  /// Per lane `l` of eight, the wrapping sum of the `count` values at `values` whose index is `l` mod 8.
  private static func wrappingLaneSums(_ values: UnsafePointer<Int32>, count: Int) -> SIMD8<Int32> {
    var lanes = SIMD8<Int32>()
    let raw = UnsafeRawPointer(values)
    var i = 0
    while i &+ 8 <= count {
      lanes &+= raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Int32>.self)
      i &+= 8
    }
    while i < count {
      lanes[i % 8] &+= values[i]
      i &+= 1
    }
    return lanes
  }

  /// The wrapping sums of the `count` values at `values` by their index modulo `lanes.count · 8` (a
  /// multiple of 8): the sum of index p mod that period in `lanes[p / 8][p % 8]`. A wrapping sum does not
  /// depend on the order of its terms.
  private static func wrappingPeriodSums(
    _ values: UnsafePointer<Int32>, count: Int, into lanes: UnsafeMutableBufferPointer<SIMD8<Int32>>
  ) {
    if lanes.count == 1 {  // a period of 8 (frames of 1, 2, 4 or 8): the sums stay in one register
      lanes[0] = wrappingLaneSums(values, count: count)
      return
    }
    let period = lanes.count &* 8
    for v in lanes.indices { lanes[v] = SIMD8() }
    let raw = UnsafeRawPointer(values)
    var i = 0
    while i &+ period <= count {
      for v in lanes.indices {
        lanes[v] &+= raw.loadUnaligned(fromByteOffset: (i &+ v &* 8) &* 4, as: SIMD8<Int32>.self)
      }
      i &+= period
    }
    while i < count {
      let position = i % period
      lanes[position / 8][position % 8] &+= values[i]
      i &+= 1
    }
  }

  /// The greatest common divisor of two positive numbers.
  private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

  /// Decodes stored frames `[start, min(start + count + maxSkew, frameCount))` into `samples`;
  /// returns the flat sample index held by `samples[0]`.
  private mutating func decodeWindow(start: Int64, count: Int, frameCount: Int64) throws(InputError) -> Int64
  {
    let group = Int64(format.samplesPerGroup)
    let end = min(start + Int64(count + maxSkew), frameCount)
    var first = start * Int64(frameSize)
    first -= first % group
    let sampleCount = Int(end * Int64(frameSize) - first)
    let byteCount = Int(format.byteCount(forSamples: Int64(sampleCount)))
    if samples.count < sampleCount { samples = [Int32](repeating: 0, count: sampleCount) }
    let offset = byteOffset + first / group * Int64(format.bytesPerGroup)
    try source.readExactly(at: offset, count: byteCount, into: &bytes)
    bytes.withUnsafeBytes { raw in
      samples.withUnsafeMutableBufferPointer { output in
        format.decode(raw, count: sampleCount, into: output.baseAddress!)
      }
    }
    if format == .difference8 { integrateDifferences(start: start, count: count, windowEnd: end) }
    return first
  }

  /// Format 8: turns the window's differences into values, continuing from the state at `start`.
  private mutating func integrateDifferences(start: Int64, count: Int, windowEnd: Int64) {
    precondition(start == nextFrame, "format 8 is read strictly in order")
    let frames = Int(windowEnd - start)
    for (index, member) in members.enumerated() {
      var value = differenceState[index]
      for frame in 0..<frames {
        let base = frame * frameSize + member.column
        for sub in 0..<member.samplesPerFrame {
          value &+= samples[base + sub]
          samples[base + sub] = value
        }
        if frame == count - 1 { differenceState[index] = value }
      }
    }
    nextFrame = start + Int64(count)
  }

  mutating func digital(frames start: Int64, count: Int, frameCount: Int64, into channels: inout [[Int32]])
    throws(InputError)
  {
    let first = try decodeWindow(start: start, count: count, frameCount: frameCount)
    sum(start: start, count: count, first: first)
    let invalid = format.invalidSample ?? 0
    for member in members where !member.outputs.isEmpty {
      let perFrame = member.samplesPerFrame
      let values = [Int32](unsafeUninitializedCapacity: count * perFrame) {
        output, initialized in
        for frame in 0..<count {
          let stored = start + Int64(frame + member.skew)
          for sub in 0..<perFrame {
            output[frame * perFrame + sub] =
              stored < frameCount
              ? samples[Int(stored * Int64(frameSize) - first) + member.column + sub] : invalid
          }
        }
        initialized = count * perFrame
      }
      for output in member.outputs { channels[output] = values }
    }
  }

  /// Frames decoded at a time: the bytes and digital samples of one block stay in cache, and
  /// the scratch buffers stay small whatever the chunk size (`readAll()` included).
  static let blockFrames = 65_536

  /// Frames `[start, start + count)` of the file's signals that are read into their output channels,
  /// written over every sample: an output array that already holds `count` samples (the last chunk's)
  /// is reused, others are replaced.
  mutating func physical(frames start: Int64, count: Int, frameCount: Int64, into channels: inout [[Float]])
    throws(InputError)
  {
    for member in members {
      if let output = member.outputs.first, channels[output].count != count {
        channels[output] = [Float](repeating: 0, count: count)
      }
    }
    let pairs = format == .packed212 && frameSize == 2 && maxSkew == 0 && members.count == 2
    var done = 0
    while done < count {
      let block = min(Self.blockFrames, count - done)
      if pairs {
        try physical212Pairs(start: start + Int64(done), count: block, offset: done, into: &channels)
      } else {
        try physicalBlock(
          start: start + Int64(done), count: block, offset: done, frameCount: frameCount, into: &channels)
      }
      done += block
    }
    for member in members {
      for output in member.outputs.dropFirst() { channels[output] = channels[member.outputs[0]] }
    }
  }

  /// Frames `[start, start + count)` into `channels[…][offset...]`, through the digital buffer.
  private mutating func physicalBlock(
    start: Int64, count: Int, offset: Int, frameCount: Int64, into channels: inout [[Float]]
  ) throws(InputError) {
    let first = try decodeWindow(start: start, count: count, frameCount: frameCount)
    sum(start: start, count: count, first: first)
    // Format 8 has no invalid marker: Int64.min never equals a decoded Int32.
    let invalid = format.invalidSample.map(Int64.init) ?? Int64.min
    for member in members {
      guard let channel = member.outputs.first else { continue }
      let perFrame = member.samplesPerFrame
      // Frames whose (skewed) stored frame lies inside the record; the rest are NaN.
      let inside = Int(max(0, min(Int64(count), frameCount - start - Int64(member.skew))))
      let (baseline, scale) = (member.baseline, member.scale)
      channels[channel].withUnsafeMutableBufferPointer { output in
        samples.withUnsafeBufferPointer { samples in
          let output = output.baseAddress! + offset
          var index = Int((start + Int64(member.skew)) * Int64(frameSize) - first) + member.column
          if perFrame == 1 {
            for frame in 0..<inside {
              let digital = samples[index]
              output[frame] = Int64(digital) == invalid ? .nan : (Float(digital) - baseline) * scale
              index += frameSize
            }
          } else {
            for frame in 0..<inside {
              var sum = Int64(samples[index])
              for sub in 1..<perFrame { sum += Int64(samples[index + sub]) }
              let digital = sum / Int64(perFrame)
              output[frame] = digital == invalid ? .nan : (Float(digital) - baseline) * scale
              index += frameSize
            }
          }
          for frame in inside..<count { output[frame] = .nan }
        }
      }
    }
  }

  /// The MIT-BIH layout (two 212 signals, one sample per frame each, no skew): bytes straight
  /// to `Float`, without the digital buffer; a signal that is not read is not converted.
  private mutating func physical212Pairs(
    start: Int64, count: Int, offset: Int, into channels: inout [[Float]]
  )
    throws(InputError)
  {
    try source.readExactly(at: byteOffset + 3 * start, count: 3 * count, into: &bytes)
    let (a, b) = (members[0], members[1])
    // Both outputs out of `channels` at once, so that both buffers can be written together.
    var first: [Float] = []
    var second: [Float] = []
    if let output = a.outputs.first { swap(&first, &channels[output]) }
    if let output = b.outputs.first { swap(&second, &channels[output]) }
    let sums = first.withUnsafeMutableBufferPointer { first in
      second.withUnsafeMutableBufferPointer { second in
        bytes.withUnsafeBytes { raw in
          decode212Pairs(
            raw.baseAddress!, frames: count, first: a.outputs.isEmpty ? nil : first.baseAddress! + offset,
            second: b.outputs.isEmpty ? nil : second.baseAddress! + offset,
            baselines: (a.baseline, b.baseline), scales: (a.scale, b.scale))
        }
      }
    }
    if start == summedFrames {
      summedFrames += Int64(count)
      members[0].sum &+= sums.0
      members[1].sum &+= sums.1
    }
    if let output = a.outputs.first { swap(&first, &channels[output]) }
    if let output = b.outputs.first { swap(&second, &channels[output]) }
  }
}
