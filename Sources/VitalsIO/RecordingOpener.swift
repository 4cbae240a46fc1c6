import VitalsCore
import VitalsSupport

/// A signal chosen by name (as the file names it), by 0-based index into the reader's signals, or by a
/// rule over the names of the signals the reader yields by default.
public enum ChannelSelector: Sendable, Equatable, Hashable {
  case name(String)
  case index(Int)
  /// The signal `rule` picks among the reader's default signals (a WFDB record's signals, a CSV file's
  /// signal columns, an EDF file's first rate group): a choice that depends on what the file holds, made
  /// while the reader opens, so that no second opening is needed to read the chosen signal alone.
  case rule(ChannelRule)

  /// `"3"` is an index, anything else a name.
  public init(_ text: String) {
    if let i = Int(text), i >= 0 { self = .index(i) } else { self = .name(text) }
  }

  /// Parses a comma-separated list (`MLII,V5` or `0,2`).
  public static func list(_ text: String) -> [ChannelSelector] {
    text.split(separator: ",").map { ChannelSelector(String($0).trimmingSpaces()) }
  }

  /// Indices into `names` of `selectors`, in their order. Names match exactly, then ignoring case; a name
  /// that several signals share is an error (the file does not say which is meant). A rule
  /// picks among the names at `defaults` (indices into `names` of the reader's default signals; all of
  /// them when `nil`).
  public static func resolve(
    _ selectors: [ChannelSelector], names: [String], defaults: [Int]? = nil, path: String
  ) throws(InputError) -> [Int] {
    guard !selectors.isEmpty else { throw InputError(path: path, "expected at least one channel to select") }
    var result = [Int]()
    for selector in selectors {
      switch selector {
      case .rule(let rule):
        let candidates = defaults ?? Array(names.indices)
        guard let picked = rule.pick(candidates.map { names[$0] }) else {
          throw InputError(
            path: path,
            candidates.isEmpty
              ? "no signals to choose \(rule) from"
              : "no channel is \(rule) (channels: \(candidates.map { names[$0] }.joined(separator: ", ")))")
        }
        precondition(
          candidates.indices.contains(picked), "rule '\(rule)' picked \(picked) of \(candidates.count)")
        result.append(candidates[picked])
      case .index(let i):
        guard i < names.count else {
          throw InputError(path: path, "no channel \(i): the file has \(names.count) (0–\(names.count - 1))")
        }
        result.append(i)
      case .name(let name):
        let exact = names.indices.filter { names[$0] == name }
        let matches =
          exact.isEmpty ? names.indices.filter { names[$0].lowercased() == name.lowercased() } : exact
        guard let i = matches.first else {
          throw InputError(
            path: path, "no channel named \"\(name)\" (channels: \(names.joined(separator: ", ")))")
        }
        guard matches.count == 1 else {
          throw InputError(
            path: path,
            "\(matches.count) channels are named \"\(name)\" (\(matches.map { "\($0)" }.joined(separator: ", "))):"
              + " select one by its index")
        }
        result.append(i)
      }
    }
    return result
  }
}

/// A named way of picking one signal from the names of a reader's default signals
/// (``ChannelSelector/rule(_:)``). Rules are equal when their descriptions are: a description stands for
/// one way of picking.
public struct ChannelRule: Sendable, Hashable, CustomStringConvertible {
  /// What the rule picks (`the ECG lead`), for messages.
  public let description: String
  /// The index into `names` of the signal picked, or `nil` when none fits.
  let pick: @Sendable (_ names: [String]) -> Int?

  /// A rule described by `description` that picks with `pick`.
  public init(_ description: String, pick: @escaping @Sendable (_ names: [String]) -> Int?) {
    self.description = description
    self.pick = pick
  }

  public static func == (lhs: ChannelRule, rhs: ChannelRule) -> Bool { lhs.description == rhs.description }

  public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

/// What the opener needs to know beyond the path.
public struct RecordingOptions: Sendable, Equatable {
  /// Signals to read; `nil` for each reader's default.
  public var channels: [ChannelSelector]?
  /// How to read CSV/TSV files.
  public var csv: CSVOptions
  /// The absolute time of the first sample, given by the user (`--start`): it replaces the file's,
  /// or supplies one where the file states none; `nil` keeps the file's.
  public var startTime: Timestamp?

  /// Options: `nil` channels select each reader's default.
  public init(channels: [ChannelSelector]? = nil, csv: CSVOptions = CSVOptions(), startTime: Timestamp? = nil)
  {
    self.channels = channels
    self.csv = csv
    self.startTime = startTime
  }
}

/// Recognizes a recording's format from its content and opens the matching reader.
public enum RecordingOpener {
  /// The formats the opener recognizes.
  public enum Kind: String, Sendable, CaseIterable, Codable {
    case wfdb = "WFDB"
    case edf = "EDF"
    case csv = "CSV"
    case appleHealthECG = "Apple Health ECG"
  }

  /// Extensions (with the dot, lower-cased) of files that are recordings of their own even beside a WFDB
  /// header of the same stem (``detectKind(path:)``).
  public static let recordingExtensions: Set<String> = [".csv", ".tsv", ".txt", ".edf", ".bdf"]

  /// The kind of the recording at `path` (`-`: CSV on standard input): WFDB for a header path
  /// (`dir/100.hea`) or a record path with a header beside it (`dir/100`); otherwise from the first
  /// bytes: `0` + spaces and a 256-byte header for EDF, a `… hertz` header line for Apple Health ECG,
  /// text for CSV/TSV. A file with a header of its stem beside it (`dir/100.dat`, `dir/100.atr`) is
  /// refused as a part of that record unless its extension is one of ``recordingExtensions``.
  public static func detectKind(path: String) throws(InputError) -> Kind {
    if path == "-" { return .csv }
    if path.hasSuffix(".hea") || (!FileSystem.isRegularFile(path) && FileSystem.isRegularFile(path + ".hea"))
    {
      return .wfdb
    }
    let stem = FileSystem.deletingPathExtension(path)
    let fileExtension = path.dropFirst(stem.count).lowercased()
    if stem != path, !Self.recordingExtensions.contains(fileExtension),
      FileSystem.isRegularFile(stem + ".hea")
    {
      // `101.dat` beside `101.hea` is a signal (or annotation) file of a record, not a recording of its own.
      throw InputError(
        path: path,
        "is a file of the WFDB record \(stem) (its header \(stem).hea is beside it): give the record"
          + " (\(stem)) or its header")
    }
    let input = try ByteInput(path: path)
    let head = try input.bytes(at: 0, count: 4096)
    return try detectKind(head: head, path: path)
  }

  /// The kind of a recording whose first (up to 4096) bytes are `head`.
  public static func detectKind(head: [UInt8], path: String) throws(InputError) -> Kind {
    guard !head.isEmpty else { throw InputError(path: path, "empty file") }
    if head.count >= 256, head[0] == 0x30, head[1...7].allSatisfy({ $0 == 0x20 }) { return .edf }
    let lines = head.split(separator: 0x0A, omittingEmptySubsequences: true).map { Array($0) }
    if AppleHealthECGReader.looksLikeECGExport(lines) { return .appleHealthECG }
    let printable = head.prefix(1024).allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    guard printable else {
      throw InputError(
        path: path, location: .byteOffset(0),
        "unknown format: expected an EDF header, an Apple Health ECG export or CSV/TSV text")
    }
    return .csv
  }

  /// Opens the recording at `path` with the reader for its kind; with ``RecordingOptions/startTime``,
  /// its start time and chunk times are moved to start there.
  public static func open(path: String, options: RecordingOptions = RecordingOptions()) throws(InputError)
    -> any SignalReader
  {
    let reader = try openReader(path: path, options: options)
    guard let start = options.startTime else { return reader }
    return StartTimeOverride(base: reader, startTime: start)
  }

  private static func openReader(path: String, options: RecordingOptions) throws(InputError)
    -> any SignalReader
  {
    switch try detectKind(path: path) {
    case .wfdb: return try WFDBRecordReader(path: path, selecting: options.channels)
    case .edf: return try EDFReader(path: path, channels: options.channels)
    case .csv: return try CSVSignalReader(path: path, options: options.csv, channels: options.channels)
    case .appleHealthECG:
      let reader = try AppleHealthECGReader(path: path)
      if let channels = options.channels {
        _ = try ChannelSelector.resolve(channels, names: reader.signals.map(\.name), path: path)
      }
      return reader
    }
  }
}

/// A reader whose recording starts at a time the user gave: every chunk moves by the same amount.
private struct StartTimeOverride: SignalReader {
  var base: any SignalReader
  let startTime: Timestamp?
  /// Nanoseconds added to every chunk's start time: from the first chunk's time to ``startTime``.
  private var shift: Int64?

  init(base: any SignalReader, startTime: Timestamp) {
    self.base = base
    self.startTime = startTime
  }

  var formatName: String { base.formatName }
  var signals: [SignalDescription] { base.signals }
  var chunkSampleRate: Double { base.chunkSampleRate }

  mutating func nextChunk(maxSamples: Int) throws(InputError) -> SignalChunk? {
    guard var chunk = try base.nextChunk(maxSamples: maxSamples) else { return nil }
    let shift = self.shift ?? startTime!.nanosecondsSinceEpoch &- chunk.startTime.nanosecondsSinceEpoch
    self.shift = shift
    chunk.startTime = chunk.startTime.advanced(byNanoseconds: shift)
    return chunk
  }
}

/// What a recording holds, for `vitals info`: read to the end when the header does not state the
/// length (CSV, Apple Health), which also checks every sample parses.
public struct RecordingSummary: Sendable, Equatable {
  /// The path as given.
  public var path: String
  /// The recognized kind of file.
  public var kind: RecordingOpener.Kind
  /// The reader's format name (`EDF+C`, `CSV`, `TSV`, `Apple Health ECG`).
  public var format: String
  /// Absolute time of the first sample; `nil` when the file does not state one (see
  /// ``RecordingOptions/startTime`` for supplying it).
  public var startTime: Timestamp?
  /// Every signal the file holds (for EDF with mixed rates, all rate groups) with its length.
  public var signals: [SignalDescription]
  /// Number of annotations (EDF+), `nil` when the format has none.
  public var annotationCount: Int?
  /// Discontinuities: EDF+D's gaps between records, or a time-stamped CSV file's gaps (both read as
  /// missing samples).
  public var gapCount: Int?
  /// Other facts, by name (Apple Health classification, lead, device; CSV timing; `notes`: what the
  /// WFDB or EDF header reader assumed, joined by `; `; `samples_per_frame`: the WFDB signals of
  /// several samples per frame, read at the frame rate averaged, see
  /// ``WFDBRecordReader/averagedSignalNotes``). Never personal data.
  public var metadata: [String: String]
  /// What a time-stamped CSV file's stamps showed (gaps, jitter), read to its end; `nil` for other
  /// formats and CSV without a time column.
  public var timeStamps: TimeStampTimeline?
  /// Files of the recording that could not be read and were left out (a damaged annotation file
  /// beside a WFDB record), each with the reason naming the file and place.
  public var problems: [String]
  /// Per-signal scans of every sample, when asked for (``RecordingOpener/summarize(path:options:scanning:)``).
  public var scans: [SignalScan]?
}

extension RecordingOpener {
  /// A WFDB record's metadata besides its annotation files: record name, where its length comes
  /// from, the header reader's notes and the signals read at the frame rate, averaged.
  private static func wfdbMetadata(_ reader: WFDBRecordReader) -> [String: String] {
    var metadata = ["record": reader.header.recordName]
    if reader.header.frameCount == nil { metadata["length"] = "from the signal file's size" }
    if !reader.header.notes.isEmpty { metadata["notes"] = reader.header.notes.joined(separator: "; ") }
    if !reader.averagedSignalNotes.isEmpty {
      metadata["samples_per_frame"] = reader.averagedSignalNotes.joined(separator: "; ")
    }
    return metadata
  }

  /// Opens the recording, gathers its summary and closes it. Formats whose header does not state the
  /// length (CSV, Apple Health) are read to the end to count the samples; with `scanning`, every
  /// format is, in the same pass, and the summary carries each signal's ``SignalScan``.
  public static func summarize(
    path: String, options: RecordingOptions = RecordingOptions(), scanning: Bool = false
  )
    throws(InputError)
    -> RecordingSummary
  {
    let kind = try detectKind(path: path)
    switch kind {
    case .wfdb:
      let reader = try WFDBRecordReader(path: path)
      var metadata = wfdbMetadata(reader)
      var annotators: [(annotator: String, count: Int)] = []
      var problems: [String] = []
      for (annotator, result) in WFDBAnnotationFile.filesBeside(record: path) {
        switch result {
        case .success(let count):
          annotators.append((annotator, count))
          metadata["annotations.\(annotator)"] = "\(count)"
        case .failure(let error):
          problems.append("not read as an annotation file: \(error)")
        }
      }
      return RecordingSummary(
        path: path, kind: kind, format: reader.formatName, startTime: options.startTime ?? reader.startTime,
        signals: try selected(reader.signals, options.channels, path: path).map {
          withCount($0, reader.frameCount)
        },
        annotationCount: annotators.isEmpty ? nil : annotators.reduce(0) { $0 + $1.count }, gapCount: nil,
        metadata: metadata, timeStamps: nil, problems: problems,
        scans: scanning ? try scans(open(path: path, options: options)) : nil)
    case .edf:
      let reader = try EDFReader(path: path, channels: options.channels)
      let index = try reader.readAnnotations()
      var metadata = ["record_duration_s": "\(reader.header.recordDuration)"]
      if !reader.header.recording.isEmpty { metadata["recording"] = reader.header.recording }
      if !reader.header.notes.isEmpty { metadata["notes"] = reader.header.notes.joined(separator: "; ") }
      // A scan reads the signals of the rate group the reader yields; the summary then lists those.
      return RecordingSummary(
        path: path, kind: kind, format: reader.formatName, startTime: options.startTime ?? reader.startTime,
        signals: options.channels == nil && !scanning ? reader.availableSignals : reader.signals,
        annotationCount: index.annotations.count, gapCount: reader.header.isPlus ? index.gaps.count : nil,
        metadata: metadata, timeStamps: nil, problems: [], scans: scanning ? try scans(reader) : nil)
    case .csv:
      let reader = try CSVSignalReader(path: path, options: options.csv, channels: options.channels)
      let scans = scanning ? try scans(reader) : nil
      let count = if let scans { scans.first?.count ?? 0 } else { try countSamples(reader) }
      let metadata = csvMetadata(reader)
      let timeStamps = reader.timing == .fixedRate ? nil : reader.timeline
      return RecordingSummary(
        path: path, kind: kind, format: reader.formatName, startTime: options.startTime ?? reader.startTime,
        signals: reader.signals.map { withCount($0, count) }, annotationCount: nil,
        gapCount: timeStamps?.gapCount,
        metadata: metadata, timeStamps: timeStamps, problems: [], scans: scans)
    case .appleHealthECG:
      let reader = try AppleHealthECGReader(path: path)
      let scans = scanning ? try scans(reader) : nil
      let count = if let scans { scans.first?.count ?? 0 } else { try countSamples(reader) }
      let m = reader.metadata
      var metadata = [String: String]()
      for (key, value) in [
        ("recorded_date", m.recordedDateText), ("classification", m.classification), ("symptoms", m.symptoms),
        ("software_version", m.softwareVersion), ("device", m.device), ("lead", m.lead),
      ] {
        if let value, !value.isEmpty { metadata[key] = value }
      }
      return RecordingSummary(
        path: path, kind: kind, format: reader.formatName, startTime: options.startTime ?? reader.startTime,
        signals: reader.signals.map { withCount($0, count) }, annotationCount: nil, gapCount: nil,
        metadata: metadata, timeStamps: nil, problems: [], scans: scans)
    }
  }

  /// A CSV file's timing, time column and the rows dropped as repeats, for its summary (read to its
  /// end).
  private static func csvMetadata(_ reader: CSVSignalReader) -> [String: String] {
    var metadata = [String: String]()
    switch reader.timing {
    case .fixedRate: metadata["timing"] = "fixed rate"
    case .uniformTimestamps: metadata["timing"] = "uniform time stamps"
    case .resampled(let method):
      metadata["timing"] = "resampled from irregular time stamps (\(method.rawValue))"
    }
    if let time = reader.timeColumnName { metadata["time_column"] = time }
    let count = reader.duplicateRowCount
    if count > 0 {
      metadata["notes"] =
        count == 1
        ? "a row repeating the row before it (stamp and values) dropped: line \(reader.firstDuplicateLine)"
        : "\(count) rows repeating the row before them (stamp and values) dropped, the first on line "
          + "\(reader.firstDuplicateLine)"
    }
    return metadata
  }

  private static func countSamples(_ reader: some SignalReader) throws(InputError) -> Int64 {
    var reader = reader
    var count: Int64 = 0
    while let chunk = try reader.nextChunk(maxSamples: SignalChunk.defaultSampleCount) {
      count += Int64(chunk.sampleCount)
    }
    return count
  }

  /// The scans of every signal of `reader`, read to its end.
  private static func scans(_ reader: some SignalReader) throws(InputError) -> [SignalScan] {
    var reader = reader
    return try SignalScan.scan(&reader)
  }

  /// The signals `channels` selects, in selection order (all of them when `nil`).
  private static func selected(_ signals: [SignalDescription], _ channels: [ChannelSelector]?, path: String)
    throws(InputError) -> [SignalDescription]
  {
    guard let channels else { return signals }
    return try ChannelSelector.resolve(channels, names: signals.map(\.name), path: path).map { signals[$0] }
  }

  private static func withCount(_ signal: SignalDescription, _ count: Int64) -> SignalDescription {
    var signal = signal
    signal.sampleCount = count
    return signal
  }
}
