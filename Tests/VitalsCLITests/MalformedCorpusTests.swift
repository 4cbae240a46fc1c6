import Foundation
import Testing
import VitalsTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The malformed corpus: inputs derived from the committed fixtures and from slices of the shared
// recordings — truncated at every structural boundary, bit-flipped, with length and count fields set
// to 0, 1, the largest value and a negative one, in another format than their extension says — each
// run through the built `vitals` binary (`info --scan` and one analysis) as a child process bounded
// in time (`processTimeLimit`) and address space (`processMemoryLimitKiB`).
//
// What is checked for every case and command:
// - the process ends by itself within the time bound, not by a signal, with status 0, 1 or 2;
// - a status other than 0 comes with stderr naming a file of the case;
// - per the case's ``MalformedCase/Expectation``: a truncated input that still exits 0 prints what the
//   part present prints when declared consistently (the reference input), or says so on stderr; an
//   input whose declared length the data does not hold fails or says so on stderr.
// What is not checked: text cut inside a line (a WFDB header field, a CSV value, an Apple Health line)
// is a shorter but valid text the reader cannot tell from a complete one, and a bit flip or a field set
// to an extreme value may yield another valid input: for those only the process rules hold.

/// Wall-clock seconds one `vitals` run may take (the inputs are at most 10 s of signal).
private let processTimeLimit: Double = 10
/// Address space of one `vitals` run, KiB (`ulimit -v` in the child): 2 GiB.
private let processMemoryLimitKiB = 2 << 20

/// Where ``MalformedCorpusTests/writeCorpus()`` writes the corpus: `$VITALS_MALFORMED_OUT` when set and not empty.
private let corpusOutput = ProcessInfo.processInfo.environment["VITALS_MALFORMED_OUT"].flatMap {
  $0.isEmpty ? nil : $0
}

/// One input of the corpus and what its result must satisfy.
struct MalformedCase: Sendable, CustomTestStringConvertible {
  /// What a run must satisfy beyond the process rules every case holds to.
  enum Expectation: Sendable {
    /// Only the process rules: no signal, no timeout, status 0/1/2, an error naming a file.
    case cleanExit
    /// Status 0 only with stdout equal to that of `reference` (the part of the input that is present,
    /// declared consistently, or the same content under its proper name) or with a note on stderr.
    case matches(reference: MalformedInput)
    /// The input declares more than it holds: status 0 only with a note on stderr.
    case failureOrNote
  }

  /// `base/kind-detail`, e.g. `mitdb-101/dat-cut-frame-1800`.
  var name: String
  var input: MalformedInput
  var expectation: Expectation

  var testDescription: String { name }
}

/// The files of one input (name → bytes), the file the commands are given and the analysis run on it.
struct MalformedInput: Sendable {
  enum Analysis: Sendable {
    /// `vitals beats INPUT`.
    case beats
    /// `vitals score --reference FILE --test FILE`, both files of the input.
    case score(reference: String, test: String)
  }

  var files: [String: [UInt8]]
  /// The file `info --scan` (and `beats`) is given.
  var main: String
  var analysis: Analysis

  /// A copy with `file` replaced by `bytes` (or removed for `nil`).
  func replacing(_ file: String, with bytes: [UInt8]?) -> MalformedInput {
    var copy = self
    copy.files[file] = bytes
    return copy
  }

  /// The two command lines run on the input written into `directory`.
  func commands(in directory: URL) -> [[String]] {
    let path = { (file: String) in directory.appendingPathComponent(file).path }
    let analysisArguments =
      switch analysis {
      case .beats: ["beats", path(main)]
      case .score(let reference, let test): ["score", "--reference", path(reference), "--test", path(test)]
      }
    return [["info", "--scan", path(main)], analysisArguments]
  }
}

/// How one run of `vitals` ended.
private struct RunOutcome {
  var status: Int32
  var killedBySignal: Bool
  var timedOut: Bool
  var out: String
  var err: String
}

/// Runs `vitals arguments` under the time and memory bounds, stdout and stderr into files in `scratch`.
private func runBounded(_ arguments: [String], scratch: URL) throws -> RunOutcome {
  let outURL = scratch.appendingPathComponent("stdout")
  let errURL = scratch.appendingPathComponent("stderr")
  _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
  _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
  let out = try FileHandle(forWritingTo: outURL)
  let err = try FileHandle(forWritingTo: errURL)
  defer {
    try? out.close()
    try? err.close()
  }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments =
    ["-c", "ulimit -v \(processMemoryLimitKiB) && exec \"$0\" \"$@\"", VitalsProcess.binary.path] + arguments
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let deadline = Date().addingTimeInterval(processTimeLimit)
  while process.isRunning && Date() < deadline { usleep(2_000) }
  let timedOut = process.isRunning
  if timedOut { kill(process.processIdentifier, SIGKILL) }
  process.waitUntilExit()
  return RunOutcome(
    status: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal,
    timedOut: timedOut, out: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
    err: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}

/// Writes `input` into a fresh directory, runs its commands and returns each outcome with its output
/// made comparable across directories (the directory replaced by `<dir>` in stdout and stderr, the main
/// file's name by `<input>` in stdout).
private func runInput(_ input: MalformedInput) throws -> [(arguments: [String], outcome: RunOutcome)] {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "vitals-malformed-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let scratch = directory.appendingPathComponent(".out")
  try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  for (name, bytes) in input.files {
    try Data(bytes).write(to: directory.appendingPathComponent(name))
  }
  return try input.commands(in: directory).map { arguments in
    var outcome = try runBounded(arguments, scratch: scratch)
    outcome.out = outcome.out.replacingOccurrences(of: directory.path, with: "<dir>")
      .replacingOccurrences(of: input.main, with: "<input>")
    outcome.err = outcome.err.replacingOccurrences(of: directory.path, with: "<dir>")
    return (arguments, outcome)
  }
}

/// Checks every rule for `malformed`; records an issue per broken rule.
private func check(_ malformed: MalformedCase) throws {
  let runs = try runInput(malformed.input)
  var references: [(arguments: [String], outcome: RunOutcome)]?
  for (k, (arguments, outcome)) in runs.enumerated() {
    let command = arguments[0]
    func expect(_ holds: Bool, _ message: @autoclosure () -> String) {
      #expect(
        holds,
        Comment(
          rawValue: "\(malformed.name): vitals \(command): \(message())\nstderr: \(outcome.err.prefix(400))"))
    }
    expect(!outcome.timedOut, "took over \(processTimeLimit) s")
    expect(!outcome.killedBySignal, "ended by signal \(outcome.status)")
    guard !outcome.timedOut && !outcome.killedBySignal else { continue }
    expect([0, 1, 2].contains(outcome.status), "exit status \(outcome.status)")
    if outcome.status != 0 {
      // A file of the input, or one its header names (a missing signal file, say).
      expect(
        outcome.err.contains("<dir>/") || malformed.input.files.keys.contains { outcome.err.contains($0) },
        "the error names no file of the input")
      continue
    }
    let noted = !outcome.err.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    switch malformed.expectation {
    case .cleanExit: break
    case .failureOrNote:
      expect(noted, "exit 0 without a note although the input declares more than it holds")
    case .matches(let reference):
      if noted { break }
      if references == nil { references = try runInput(reference) }
      let expected = references![k].outcome
      expect(
        expected.status == 0 && outcome.out == expected.out,
        "exit 0 without a note, and the output differs from that of the part present\n--- got\n"
          + "\(outcome.out.prefix(600))\n--- expected (status \(expected.status))\n\(expected.out.prefix(600))"
      )
    }
  }
}

@Suite("malformed corpus")
struct MalformedCorpusTests {
  @Test(
    "committed fixtures, malformed: vitals exits cleanly, names the file, changes no result silently",
    .enabled(if: hasBinary, "needs the built vitals binary"),
    arguments: MalformedCorpus.fixtureCases)
  func fixtureCase(_ malformed: MalformedCase) throws {
    try check(malformed)
  }

  @Test(
    "shared recordings, malformed: vitals exits cleanly, names the file, changes no result silently",
    .enabled(if: hasBinary, "needs the built vitals binary"),
    .enabled(if: TestData.hasSharedData, "needs ../shared/data"),
    arguments: MalformedCorpus.sharedCases)
  func sharedCase(_ malformed: MalformedCase) throws {
    try check(malformed)
  }

  /// With `VITALS_MALFORMED_OUT=DIR` (`make malformed MALFORMED_OUT=DIR`), writes every case's files to
  /// `DIR/CASE/` (the case name's `/` as `-`), to inspect a case or seed a fuzz target with the corpus.
  @Test(
    "writes the corpus to $VITALS_MALFORMED_OUT",
    .enabled(if: corpusOutput != nil, "VITALS_MALFORMED_OUT unset"))
  func writeCorpus() throws {
    let root = URL(fileURLWithPath: corpusOutput!)
    for malformed in MalformedCorpus.fixtureCases + MalformedCorpus.sharedCases {
      let directory = root.appendingPathComponent(malformed.name.replacingOccurrences(of: "/", with: "-"))
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      for (name, bytes) in malformed.input.files {
        try Data(bytes).write(to: directory.appendingPathComponent(name))
      }
      #expect(
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(malformed.input.main).path))
    }
  }

  @Test("the corpus covers every kind of damage on every format, with unique names")
  func corpusShape() {
    let cases = MalformedCorpus.fixtureCases + MalformedCorpus.sharedCases
    #expect(Set(cases.map(\.name)).count == cases.count)
    for kind in [
      "hea-cut-line", "dat-cut-frame", "dat-cut-mid-frame", "atr-cut-word", "atr-cut-mid-word",
      "beat-csv-cut-mid-line", "edf-cut-header", "edf-cut-signal-headers", "edf-cut-record",
      "edf-cut-mid-record", "csv-cut-mid-line", "flip", "nsig-", "nsamp-", "fs-", "gain-", "format-",
      "header-bytes-", "record-count-", "samples-per-record-", "record-duration-", "edf-as-csv", "csv-as-edf",
      "binary-as-hea", "binary-as-atr",
    ] {
      #expect(cases.contains { $0.name.contains("/" + kind) }, "no case \(kind)")
    }
  }
}

/// Derives the cases. Every mutation is deterministic (bit flips from a fixed-seed ``SplitMix64``), so
/// a case's name always stands for the same bytes.
enum MalformedCorpus {
  static let fixtureCases: [MalformedCase] = {
    let records = "wfdb/records/"
    let fmt16 = MalformedInput(
      files: [
        "fmt16.hea": fixture(records + "fmt16.hea"), "fmt16.dat": fixture(records + "fmt16.dat"),
        "fmt16.atr": fixture("wfdb/annotations/written.atr"),
        "fmt16.qrs": fixture("wfdb/annotations/written.atr"),
      ], main: "fmt16.hea", analysis: .beats)
    return wfdbCases("fmt16", fmt16, record: "fmt16", frameBytes: 4, seed: 1)
      + annotationCases("fmt16", fmt16, record: "fmt16", seed: 2)
      + edfCases("plain", fixture("io/edf/plain.edf"), seed: 3)
      + edfCases("discontinuous", fixture("io/edf/discontinuous.edf"), seed: 4)
      + csvCases("seconds", fixture("io/csv/seconds.csv"), seed: 5)
      + csvCases("simulated-ecg", firstLines(fixture("examples/simulated-ecg.csv"), 2501), seed: 6)
      + csvCases("apple-ecg", fixture("io/apple/ecg_english.csv"), seed: 7)
  }()

  /// Slices of two shared recordings: MIT-BIH 101's first 10 s (format 212, its `.atr` to the same
  /// sample) and the first two 5-s records of the EDF+ `r01.edf`; empty when `../shared/data` is absent.
  static let sharedCases: [MalformedCase] = {
    guard TestData.hasSharedData,
      let header = try? Data(contentsOf: TestData.sharedData("mitdb/101.hea")),
      let signal = try? Data(contentsOf: TestData.sharedData("mitdb/101.dat")),
      let annotations = try? Data(contentsOf: TestData.sharedData("mitdb/101.atr")),
      let edf = try? Data(contentsOf: TestData.sharedData("edf/r01.edf"))
    else { return [] }
    let frames = 3600
    let atr = annotationPrefix([UInt8](annotations), throughSample: Int64(frames))
    let mitdb = MalformedInput(
      files: [
        "101.hea": setRecordField([UInt8](header), field: 3, to: "\(frames)"),
        "101.dat": Array([UInt8](signal).prefix(frames * 3)), "101.atr": atr, "101.qrs": atr,
      ], main: "101.hea", analysis: .beats)
    return wfdbCases("mitdb-101", mitdb, record: "101", frameBytes: 3, seed: 11)
      + annotationCases("mitdb-101", mitdb, record: "101", seed: 12)
      + edfCases("r01", edfPrefix([UInt8](edf), records: 2), seed: 13)
  }()

  // MARK: - WFDB records

  /// Cases from a WFDB record `record` (`record.hea`, `record.dat` of frames of `frameBytes` bytes).
  static func wfdbCases(
    _ base: String, _ input: MalformedInput, record: String, frameBytes: Int, seed: UInt64
  )
    -> [MalformedCase]
  {
    let hea = record + ".hea"
    let dat = record + ".dat"
    let header = input.files[hea]!
    let signal = input.files[dat]!
    var cases: [MalformedCase] = []
    func add(_ kind: String, _ variant: MalformedInput, _ expectation: MalformedCase.Expectation) {
      cases.append(MalformedCase(name: "\(base)/\(kind)", input: variant, expectation: expectation))
    }
    // Header cut after each line that leaves signal lines missing, and inside the record and signal lines.
    let lines = lineEnds(header)
    let signalCount = Int(fields(ofLine: 0, header)[1]) ?? 0
    for (k, end) in lines.enumerated() where k < signalCount {
      add("hea-cut-line-\(k + 1)", input.replacing(hea, with: Array(header[..<end])), .failureOrNote)
    }
    add("hea-cut-line-0", input.replacing(hea, with: []), .failureOrNote)
    for end in [lines[0] - 3, lines[0] + 5, lines[1] - 4] {
      add("hea-cut-mid-line-at-\(end)", input.replacing(hea, with: Array(header[..<end])), .cleanExit)
    }
    // Signal file cut at frame boundaries and inside frames; the reference declares the frames present.
    let frames = signal.count / frameBytes
    for cut in Set([0, 1, frames / 3, frames / 2, frames - 1]).sorted() {
      add(
        "dat-cut-frame-\(cut)", input.replacing(dat, with: Array(signal.prefix(cut * frameBytes))),
        .matches(reference: consistentWFDB(input, hea: hea, dat: dat, frames: cut, frameBytes: frameBytes)))
      for extra in 1..<frameBytes where cut == frames / 2 || (cut == 1 && extra == 1) {
        add(
          "dat-cut-mid-frame-\(cut)+\(extra)",
          input.replacing(dat, with: Array(signal.prefix(cut * frameBytes + extra))),
          .matches(reference: consistentWFDB(input, hea: hea, dat: dat, frames: cut, frameBytes: frameBytes)))
      }
    }
    // Record and first-signal fields at 0, 1, the largest value and a negative one.
    let extremes = ["0", "1", "max", "-1"]
    for value in extremes {
      let count = value == "max" ? "2147483647" : value
      add(
        "nsig-\(value)", input.replacing(hea, with: setRecordField(header, field: 1, to: count)), .cleanExit)
      let rate = value == "max" ? "1.7976931348623157e308" : value
      add("fs-\(value)", input.replacing(hea, with: setRecordField(header, field: 2, to: rate)), .cleanExit)
      let length = value == "max" ? "9223372036854775807" : value
      add(
        "nsamp-\(value)", input.replacing(hea, with: setRecordField(header, field: 3, to: length)),
        value == "max" ? .failureOrNote : .cleanExit)
      let gain = value == "max" ? "1.7976931348623157e308" : value
      add("gain-\(value)", input.replacing(hea, with: setSignalGain(header, to: gain)), .cleanExit)
      let format = value == "max" ? "2147483647" : value
      add(
        "format-\(value)", input.replacing(hea, with: setSignalField(header, field: 1, to: format)),
        .cleanExit)
    }
    // A length beyond what any file holds, with a signal file of one frame.
    add(
      "nsamp-huge-one-frame",
      input.replacing(hea, with: setRecordField(header, field: 3, to: "4611686018427387904"))
        .replacing(dat, with: Array(signal.prefix(frameBytes))), .failureOrNote)
    // Bit flips in the header and in the signal file.
    var random = SplitMix64(state: seed)
    for k in 1...6 {
      add(
        "flip-hea-\(k)", input.replacing(hea, with: flipBits(header, count: k, random: &random)), .cleanExit)
      add(
        "flip-dat-\(k)", input.replacing(dat, with: flipBits(signal, count: k * 3, random: &random)),
        .cleanExit)
    }
    // Binary bytes behind a header's name.
    add("binary-as-hea", input.replacing(hea, with: Array(signal.prefix(512))), .failureOrNote)
    return cases
  }

  /// `input` with the header declaring `frames` frames and the signal file holding exactly those.
  static func consistentWFDB(_ input: MalformedInput, hea: String, dat: String, frames: Int, frameBytes: Int)
    -> MalformedInput
  {
    input.replacing(hea, with: setRecordField(input.files[hea]!, field: 3, to: "\(frames)"))
      .replacing(dat, with: Array(input.files[dat]!.prefix(frames * frameBytes)))
  }

  // MARK: - WFDB annotations

  /// Cases from the annotation file `record.atr` beside the record (`record.qrs` holds the same
  /// annotations, intact, as the other side of `score`).
  static func annotationCases(_ base: String, _ record: MalformedInput, record name: String, seed: UInt64)
    -> [MalformedCase]
  {
    let atr = name + ".atr"
    let input = MalformedInput(
      files: record.files, main: record.main, analysis: .score(reference: atr, test: name + ".qrs"))
    let annotations = input.files[atr]!
    var cases: [MalformedCase] = []
    func add(_ kind: String, _ variant: MalformedInput, _ expectation: MalformedCase.Expectation) {
      cases.append(MalformedCase(name: "\(base)/\(kind)", input: variant, expectation: expectation))
    }
    // Cut at every annotation boundary (at most 24, evenly spread) and inside words; the reference ends
    // the annotations present with the end-of-file word.
    let boundaries = annotationBoundaries(annotations)
    let step = max(1, boundaries.count / 24)
    for (k, cut) in boundaries.enumerated() where k % step == 0 {
      let reference = input.replacing(atr, with: Array(annotations.prefix(cut)) + [0, 0])
      add(
        "atr-cut-word-at-\(cut)", input.replacing(atr, with: Array(annotations.prefix(cut))),
        .matches(reference: reference))
      if k % (step * 6) == 0 {
        add(
          "atr-cut-mid-word-at-\(cut + 1)", input.replacing(atr, with: Array(annotations.prefix(cut + 1))),
          .matches(reference: reference))
      }
    }
    // SKIP words with the largest and the most negative interval before the annotations.
    for (label, interval) in [("max", Int32.max), ("min", Int32.min)] {
      let bits = UInt32(bitPattern: interval)
      let skip: [UInt8] = [
        0, 59 << 2, UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24), UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF),
      ]
      add("atr-skip-\(label)", input.replacing(atr, with: skip + annotations), .cleanExit)
    }
    var random = SplitMix64(state: seed)
    for k in 1...6 {
      add(
        "flip-atr-\(k)", input.replacing(atr, with: flipBits(annotations, count: k, random: &random)),
        .cleanExit)
    }
    add(
      "binary-as-atr", input.replacing(atr, with: Array(input.files[name + ".dat"]!.prefix(600))), .cleanExit)
    // The same positions as a CSV beat file (`sample,label`), cut inside lines and bit-flipped.
    let csvName = name + ".csv"
    let csv = Array(
      ("sample,label\n" + annotationSamples(annotations).map { "\($0),N\n" }.joined()).utf8)
    let beats = MalformedInput(
      files: input.files.merging([csvName: csv]) { $1 }, main: csvName,
      analysis: .score(reference: csvName, test: name + ".qrs"))
    let ends = lineEnds(csv)
    for line in Set([0, 1, ends.count / 2, ends.count - 1]).sorted() {
      let cut = ends[line] - 2
      add(
        "beat-csv-cut-mid-line-\(line + 1)-at-\(cut)", beats.replacing(csvName, with: Array(csv.prefix(cut))),
        .cleanExit)
    }
    for k in 1...4 {
      add(
        "flip-beat-csv-\(k)", beats.replacing(csvName, with: flipBits(csv, count: k, random: &random)),
        .cleanExit)
    }
    return cases
  }

  /// The words of an MIT annotation file that start an annotation (a SKIP word with the annotation after
  /// it, an annotation word otherwise; not the NUM, SUB, CHN and AUX words that modify the annotation
  /// before them): byte offset, code, sample; the end-of-file word last (code 0), when present.
  static func annotationStarts(_ bytes: [UInt8]) -> [(offset: Int, code: Int, sample: Int64)] {
    var starts: [(offset: Int, code: Int, sample: Int64)] = []
    var sample: Int64 = 0
    var offset = 0
    var skipOffset: Int?
    while offset + 1 < bytes.count {
      let word = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
      let code = word >> 10
      if word == 0 {
        starts.append((offset, 0, sample))
        break
      }
      switch code {
      case 59:  // SKIP: a 32-bit interval follows, high half first
        guard offset + 6 <= bytes.count else { return starts }
        let high = Int32(bytes[offset + 2]) | Int32(bytes[offset + 3]) << 8
        let low = Int32(bytes[offset + 4]) | Int32(bytes[offset + 5]) << 8
        sample += Int64(high << 16 | low)
        skipOffset = offset
        offset += 6
      case 63:  // AUX: the text, padded to an even length
        offset += 2 + (word & 0x3FF + 1) & ~1
      case 60, 61, 62:
        offset += 2
      default:
        sample += Int64(word & 0x3FF)
        starts.append((skipOffset ?? offset, code, sample))
        skipOffset = nil
        offset += 2
      }
    }
    return starts
  }

  /// The byte offset of every annotation of an MIT annotation file but the first, and of its end-of-file word.
  static func annotationBoundaries(_ bytes: [UInt8]) -> [Int] {
    annotationStarts(bytes).map(\.offset).filter { $0 > 0 }
  }

  /// The sample of every annotation of an MIT annotation file.
  static func annotationSamples(_ bytes: [UInt8]) -> [Int64] {
    annotationStarts(bytes).filter { $0.code != 0 }.map(\.sample)
  }

  /// The annotations of `bytes` whose sample is at most `last`, ended with the end-of-file word.
  static func annotationPrefix(_ bytes: [UInt8], throughSample last: Int64) -> [UInt8] {
    let end = annotationStarts(bytes).first { $0.code == 0 || $0.sample > last }?.offset ?? bytes.count
    return Array(bytes.prefix(end)) + [0, 0]
  }

  // MARK: - EDF

  /// Cases from an EDF/EDF+ file.
  static func edfCases(_ base: String, _ edf: [UInt8], seed: UInt64) -> [MalformedCase] {
    let name = base + ".edf"
    let input = MalformedInput(files: [name: edf], main: name, analysis: .beats)
    let signalCount = Int(text(edf, 252, 4)) ?? 0
    let headerBytes = 256 * (signalCount + 1)
    let recordCount = Int(text(edf, 236, 8)) ?? 0
    let recordBytes = (edf.count - headerBytes) / max(1, recordCount)
    var cases: [MalformedCase] = []
    func add(_ kind: String, _ variant: MalformedInput, _ expectation: MalformedCase.Expectation) {
      cases.append(MalformedCase(name: "\(base)/\(kind)", input: variant, expectation: expectation))
    }
    func cut(_ count: Int) -> MalformedInput { input.replacing(name, with: Array(edf.prefix(count))) }
    func consistent(records: Int) -> MalformedInput {
      input.replacing(
        name, with: setText(Array(edf.prefix(headerBytes + records * recordBytes)), 236, 8, "\(records)"))
    }
    for count in [100, 256] { add("edf-cut-header-at-\(count)", cut(count), .failureOrNote) }
    add(
      "edf-cut-signal-headers-at-\(256 + signalCount * 16 + 5)", cut(256 + signalCount * 16 + 5),
      .failureOrNote)
    add(
      "edf-cut-signal-headers-at-\(headerBytes)", cut(headerBytes),
      .matches(reference: consistent(records: 0)))
    for records in 1..<recordCount {
      add(
        "edf-cut-record-\(records)", cut(headerBytes + records * recordBytes),
        .matches(reference: consistent(records: records)))
    }
    for records in Set([0, recordCount / 2, recordCount - 1]).sorted() {
      for extra in [1, recordBytes / 2, recordBytes - 1] {
        add(
          "edf-cut-mid-record-\(records)+\(extra)", cut(headerBytes + records * recordBytes + extra),
          .matches(reference: consistent(records: records)))
      }
    }
    // Fields at 0, 1, the largest value the field holds and a negative one.
    let perRecordField = 256 + signalCount * 216
    for (value, largest) in [("0", "0"), ("1", "1"), ("max", "99999999"), ("-1", "-1")] {
      func set(_ offset: Int, _ width: Int, _ text: String) -> MalformedInput {
        input.replacing(name, with: setText(edf, offset, width, text))
      }
      add("header-bytes-\(value)", set(184, 8, largest), .cleanExit)
      add("record-count-\(value)", set(236, 8, largest), value == "max" ? .failureOrNote : .cleanExit)
      add("record-duration-\(value)", set(244, 8, largest), .cleanExit)
      add("signal-count-\(value)", set(252, 4, value == "max" ? "9999" : largest), .cleanExit)
      add(
        "samples-per-record-\(value)", set(perRecordField, 8, largest),
        value == "max" ? .failureOrNote : .cleanExit)
    }
    var random = SplitMix64(state: seed)
    for k in 1...6 {
      // Half the flips in the headers, where a flip changes the most.
      add(
        "flip-header-\(k)",
        input.replacing(name, with: flipBits(edf, count: k, in: 0..<headerBytes, random: &random)),
        .cleanExit)
      add("flip-\(k)", input.replacing(name, with: flipBits(edf, count: k * 4, random: &random)), .cleanExit)
    }
    let renamed = base + ".csv"
    add(
      "edf-as-csv", MalformedInput(files: [renamed: edf], main: renamed, analysis: .beats),
      .matches(reference: input))
    return cases
  }

  /// The header and the first `records` data records of an EDF file, the header's record count set to match.
  static func edfPrefix(_ edf: [UInt8], records: Int) -> [UInt8] {
    let headerBytes = 256 * ((Int(text(edf, 252, 4)) ?? 0) + 1)
    let recordBytes = (edf.count - headerBytes) / (Int(text(edf, 236, 8)) ?? 1)
    return setText(Array(edf.prefix(headerBytes + records * recordBytes)), 236, 8, "\(records)")
  }

  // MARK: - CSV and Apple Health ECG

  /// Cases from a CSV file (a plain CSV/TSV or an Apple Health ECG export).
  static func csvCases(_ base: String, _ csv: [UInt8], seed: UInt64) -> [MalformedCase] {
    let name = base + ".csv"
    let input = MalformedInput(files: [name: csv], main: name, analysis: .beats)
    var cases: [MalformedCase] = []
    func add(_ kind: String, _ variant: MalformedInput, _ expectation: MalformedCase.Expectation) {
      cases.append(MalformedCase(name: "\(base)/\(kind)", input: variant, expectation: expectation))
    }
    let ends = lineEnds(csv)
    for line in Set([0, 1, 5, ends.count / 2, ends.count - 2]).sorted() where line < ends.count {
      let cut = ends[line] - 3
      add(
        "csv-cut-mid-line-\(line + 1)-at-\(cut)", input.replacing(name, with: Array(csv.prefix(cut))),
        .cleanExit)
    }
    var random = SplitMix64(state: seed)
    for k in 1...6 {
      add("flip-\(k)", input.replacing(name, with: flipBits(csv, count: k, random: &random)), .cleanExit)
    }
    let renamed = base + ".edf"
    add(
      "csv-as-edf", MalformedInput(files: [renamed: csv], main: renamed, analysis: .beats),
      .matches(reference: input))
    return cases
  }

  // MARK: - Byte helpers

  static func fixture(_ relative: String) -> [UInt8] {
    [UInt8](FileManager.default.contents(atPath: TestData.fixture(relative).path) ?? Data())
  }

  /// The first `count` lines of a fixture.
  static func firstLines(_ bytes: [UInt8], _ count: Int) -> [UInt8] {
    let ends = lineEnds(bytes)
    return Array(bytes.prefix(ends[min(count, ends.count) - 1]))
  }

  /// The offset just past each LF.
  static func lineEnds(_ bytes: [UInt8]) -> [Int] {
    bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
  }

  /// The space-separated fields of line `index` (0-based) of a text file.
  static func fields(ofLine index: Int, _ bytes: [UInt8]) -> [String] {
    let lines = String(decoding: bytes, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    return lines[index].split(separator: " ").map(String.init)
  }

  /// The header with field `field` of line `line` replaced by `value`.
  static func setField(_ header: [UInt8], line: Int, field: Int, to value: String) -> [UInt8] {
    var lines = String(decoding: header, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false
    )
    .map(String.init)
    var parts = lines[line].split(separator: " ").map(String.init)
    parts[field] = value
    lines[line] = parts.joined(separator: " ")
    return Array(lines.joined(separator: "\n").utf8)
  }

  /// A WFDB header with field `field` of the record line (1: nsig, 2: fs, 3: nsamp) set to `value`.
  static func setRecordField(_ header: [UInt8], field: Int, to value: String) -> [UInt8] {
    setField(header, line: 0, field: field, to: value)
  }

  /// A WFDB header with field `field` of the first signal line (1: format) set to `value`.
  static func setSignalField(_ header: [UInt8], field: Int, to value: String) -> [UInt8] {
    setField(header, line: 1, field: field, to: value)
  }

  /// A WFDB header whose first signal's gain (the number before `(baseline)` or `/units`) is `value`.
  static func setSignalGain(_ header: [UInt8], to value: String) -> [UInt8] {
    let gainField = fields(ofLine: 1, header)[2]
    let suffix = gainField.drop { $0.isNumber || $0 == "." || $0 == "-" || $0 == "e" }
    return setSignalField(header, field: 2, to: value + suffix)
  }

  /// The trimmed ASCII text of a fixed-width EDF header field.
  static func text(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> String {
    String(decoding: bytes[offset..<min(offset + width, bytes.count)], as: UTF8.self)
      .trimmingCharacters(in: .whitespaces)
  }

  /// `bytes` with the fixed-width field at `offset` holding `value`, padded with spaces.
  static func setText(_ bytes: [UInt8], _ offset: Int, _ width: Int, _ value: String) -> [UInt8] {
    var copy = bytes
    let field =
      Array(value.utf8.prefix(width)) + Array(repeating: 0x20, count: max(0, width - value.utf8.count))
    copy.replaceSubrange(offset..<offset + width, with: field)
    return copy
  }

  /// `bytes` with `count` bits flipped at random positions within `range` (the whole file by default).
  static func flipBits(
    _ bytes: [UInt8], count: Int, in range: Range<Int>? = nil, random: inout SplitMix64
  ) -> [UInt8] {
    var copy = bytes
    let range = range ?? 0..<bytes.count
    for _ in 0..<count {
      let offset = Int.random(in: range, using: &random)
      copy[offset] ^= 1 << UInt8.random(in: 0..<8, using: &random)
    }
    return copy
  }
}
