import FoundationEssentials
import VitalsIO
import VitalsStatistics

import VitalsSupport

/// The recordings named by command-line inputs: files as given, directories searched recursively,
/// and glob patterns (`*`, `?`, `[…]`, for shells that did not expand them) matched.
public enum InputExpansion {
  /// File extensions (lower-cased) taken as recordings inside directories; WFDB records are found by
  /// their `.hea` headers and named without the extension.
  public static let recordingExtensions: Set<String> = ["hea", "edf", "bdf", "csv", "tsv"]

  /// The recordings of `inputs`, in order: each directory's recordings sorted by path; a pattern's
  /// matching recordings sorted (files with a ``recordingExtensions`` extension, as in directories, so
  /// `mitdb/1*` names each record once and not its `.dat` and `.atr` files); a file named explicitly
  /// is kept as is (reading it reports what is wrong), and so is a pattern that matches no recording (it
  /// fails as a missing file does). A file named twice, by any spelling or link, is kept once.
  ///
  /// With `outputDirectory` (where the command writes its results, `--out`), the event tables found
  /// there by a directory or a pattern (`NAME.beats.csv`, `NAME.pulses.csv`, `NAME.steps.csv`:
  /// ``BatchOutputLayout/eventTableSuffixes``) are results, not recordings, and are left out, so that a
  /// run whose output directory lies among its inputs resumes.
  public static func expand(_ inputs: [String], outputDirectory: String? = nil) -> [String] {
    var result: [String] = []
    var seenFiles: Set<FileIdentity> = []
    var seenPaths: Set<String> = []
    let results = outputDirectory.flatMap(FileIdentity.init)
    func add(_ path: String) {
      // A file named twice (`a.csv`, `./a.csv`, a link to it) is one recording; a WFDB record is its header.
      let identity = FileIdentity(path) ?? FileIdentity(path + ".hea")
      let new = identity.map { seenFiles.insert($0).inserted } ?? seenPaths.insert(path).inserted
      if new { result.append(path) }
    }
    func addFound(_ path: String) {
      if let results, isEventTable(path),
        FileIdentity(URL(fileURLWithPath: path).deletingLastPathComponent().path) == results
      {
        return
      }
      add(path)
    }
    for input in inputs {
      if FileSystem.exists(input) {
        if FileSystem.isDirectory(input) { recordings(in: input).forEach(addFound) } else { add(input) }
      } else if input.contains(where: { "*?[".contains($0) }) {
        let found = glob(input).flatMap { match in
          FileSystem.isDirectory(match) ? recordings(in: match) : recording(match).map { [$0] } ?? []
        }
        // A pattern that matches no recording stays an input, so that it fails as a missing file does.
        if found.isEmpty { add(input) }
        found.forEach(addFound)
      } else {
        add(input)
      }
    }
    return result
  }

  /// Whether `path` is named as an event table of ``BatchOutputLayout`` (`NAME.beats.csv`, …).
  static func isEventTable(_ path: String) -> Bool {
    BatchOutputLayout.eventTableSuffixes.contains { path.hasSuffix(".\($0).csv") }
  }

  /// Recordings under `directory`, recursively, sorted.
  static func recordings(in directory: String) -> [String] {
    let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    // Enumerate the directory a symbolic link points to; name the recordings under the path as given.
    let target = URL(fileURLWithPath: base).resolvingSymlinksInPath().path
    return FileSystem.descendants(of: target).compactMap { recording(base + "/" + $0) }.sorted()
  }

  /// The recording a found file stands for: itself for a recording extension, the record name for a
  /// WFDB header, nil for hidden files and anything else (signal and annotation files, notes).
  static func recording(_ path: String) -> String? {
    let name = FileSystem.lastPathComponent(path)
    guard !name.hasPrefix(".") else { return nil }
    let ext = FileSystem.pathExtension(name).lowercased()
    guard recordingExtensions.contains(ext) else { return nil }
    return ext == "hea" ? String(path.dropLast(4)) : path
  }

  /// The files the recording at `path` is read from, each once: the path itself and, for a WFDB record,
  /// its header and the signal files the header names (`InputProtection/files(ofRecording:annotations:)`).
  static func files(of path: String) -> Set<String> {
    Set(InputProtection.files(ofRecording: path, annotations: false))
  }

  /// The paths matching the shell pattern `pattern` (POSIX `glob`), sorted.
  static func glob(_ pattern: String) -> [String] {
    var matches = glob_t()
    defer { globfree(&matches) }
    guard Glibc.glob(pattern, 0, nil, &matches) == 0 else { return [] }
    return (0..<Int(matches.gl_pathc)).compactMap { matches.gl_pathv[$0].map { String(cString: $0) } }
      .sorted()
  }
}

/// Where `vitals analyze --out DIR` puts each recording's results: `DIR/NAME.json` (the summary, one
/// JSON line), `DIR/NAME.SUFFIX.csv` per event table (``PipelineSection/eventTables``, e.g.
/// `NAME.beats.csv` and `NAME.steps.csv` with header `sample,time_s`) and `DIR/NAME.samples.jsonl`, the
/// derived HealthKit-style samples (``RecordingAnalysis/derivedSamples(parameters:)``, one `SamplesFile`
/// line each with the offsets of ``derived``'s time zone: ``samplesFileText(of:parameters:)``) that
/// `vitals stats` reads. The summary is written last, so its presence marks a finished recording:
/// ``isDone(input:name:)``.
public struct BatchOutputLayout: Sendable {
  /// The output directory.
  public let directory: String
  /// Windows, thresholds, time zone and source of the derived samples.
  public var derived: DerivedMetrics.Parameters

  /// A layout in `directory` (created when missing by ``prepare()``) whose derived samples follow
  /// `derived`.
  public init(directory: String, derived: DerivedMetrics.Parameters = DerivedMetrics.Parameters()) {
    self.directory = directory
    self.derived = derived
  }

  /// The suffixes of the event tables the pipelines write (ECG `beats`, PPG `pulses`, accelerometer
  /// `steps`).
  public static let eventTableSuffixes = ["beats", "pulses", "steps"]

  /// Creates the directory (and its parents) if needed and removes the temporary files that killed
  /// runs left in it (`AtomicFile/removeAbandonedTemporaries(in:)`).
  public func prepare() throws(OutputError) {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw OutputError(
        path: directory, "cannot create the directory: \(systemReason(error))")
    }
    AtomicFile.removeAbandonedTemporaries(in: directory)
  }

  /// Every file output `name` may be written to: the summary, each event table, the derived samples.
  public func outputPaths(name: String) -> [String] {
    [summaryPath(name: name), samplesPath(name: name)]
      + Self.eventTableSuffixes.map { tablePath(name: name, suffix: $0) }
  }

  /// A distinct output name per input: the file name without its extension (`mitdb/100` → `100`),
  /// with parent directories prepended (`a_100`, `b_100`) where names would clash (`.` and `..` are
  /// not directories' names and are skipped); inputs that still clash (`100` and `100.hea`) are
  /// numbered in input order after the first (`x/100`, `x/100.hea` → `x_100`, `x_100_2`).
  public static func names(for inputs: [String]) -> [String] {
    let parts = inputs.map { input -> [String] in
      var components: [String] = input.split(separator: "/").map { String($0) }
        .filter { (part: String) -> Bool in part != "." && part != ".." }
      if let last = components.last {
        let stem = FileSystem.deletingPathExtension(last)
        components[components.count - 1] = stem.isEmpty ? last : stem
      }
      return components.isEmpty ? ["stdin"] : components
    }
    var depth = [Int](repeating: 1, count: inputs.count)
    func name(_ i: Int) -> String { parts[i].suffix(depth[i]).joined(separator: "_") }
    while true {
      let groups = Dictionary(grouping: inputs.indices, by: name)
      let clashing = groups.values.filter { $0.count > 1 }.flatMap { $0 }.filter {
        depth[$0] < parts[$0].count
      }
      guard !clashing.isEmpty else { break }
      for i in clashing { depth[i] += 1 }
    }
    var taken = Set<String>()
    return inputs.indices.map { i in
      let base = name(i)
      var candidate = base
      var number = 1
      while !taken.insert(candidate).inserted {
        number += 1
        candidate = "\(base)_\(number)"
      }
      return candidate
    }
  }

  /// The summary file of output `name`.
  public func summaryPath(name: String) -> String { directory + "/" + name + ".json" }

  /// The event table `suffix` of output `name`.
  public func tablePath(name: String, suffix: String) -> String {
    directory + "/" + name + "." + suffix + ".csv"
  }

  /// The derived samples file of output `name`.
  public func samplesPath(name: String) -> String { directory + "/" + name + SamplesFile.fileExtension }

  /// Whether the recording at `input` was analyzed into `name` already: the summary exists and was
  /// written after the input's files (WFDB: header and signal file) last changed. Temporary files of
  /// an interrupted write are never taken for a summary.
  public func isDone(input: String, name: String) -> Bool {
    guard let written = FileSystem.modificationTime(summaryPath(name: name)) else { return false }
    let changed = InputExpansion.files(of: input).compactMap(FileSystem.modificationTime).max()
    return changed.map { written >= $0 } ?? false
  }

  /// The derived samples of `analysis` (``RecordingAnalysis/derivedSamples(parameters:)``) as the text
  /// of a samples file (`SamplesFile`, one line each, times with the offsets of `parameters`' time
  /// zone), as ``write(_:name:)`` writes it to `NAME.samples.jsonl`; nil when the recording states no
  /// start time.
  public static func samplesFileText(of analysis: RecordingAnalysis, parameters: DerivedMetrics.Parameters)
    -> String?
  {
    analysis.derivedSamples(parameters: parameters).map { samples in
      samples.map { SamplesFile.line($0, timeZone: parameters.timeZone) + "\n" }.joined()
    }
  }

  /// Writes the event tables, the derived samples, then the summary line, each atomically
  /// (`AtomicFile`), creating the directory if needed.
  public func write(_ analysis: RecordingAnalysis, name: String) throws(OutputError) {
    if !FileSystem.isDirectory(directory) { try prepare() }
    for (_, section) in analysis.sections {
      for (suffix, samples) in section.eventTables.sorted(by: { $0.key < $1.key }) {
        precondition(Self.eventTableSuffixes.contains(suffix), "event table '\(suffix)' is not listed")
        try EventCSVWriter.write(
          samples: samples, sampleRate: section.sampleRate, labels: section.eventLabels[suffix],
          to: tablePath(name: name, suffix: suffix))
      }
    }
    if let samples = Self.samplesFileText(of: analysis, parameters: derived) {
      try AtomicFile.write(samples, to: samplesPath(name: name))
    }
    try AtomicFile.write(analysis.jsonLine() + "\n", to: summaryPath(name: name))
  }
}
