import ArgumentParser
import FoundationEssentials
import Vitals

/// `vitals score --reference REF --test TEST … [--window 0.15] [--skip 300] [--json]`: beat-by-beat
/// comparison (ANSI/AAMI EC57, WFDB `bxb`).
public struct Score: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "score",
    abstract: "Score detected beats against reference beats: TP, FN, FP, Se, +P and F1 per record and gross.",
    discussion: """
      Pairs: repeat --reference REF --test TEST (paired in order), or give them as positional \
      arguments REF TEST [REF TEST …]; both forms may be mixed (options first). Each file is a WFDB \
      annotation file (anything but .csv/.tsv/.txt, e.g. mitdb/100.atr or 100.qrs: only beat \
      annotations N L R B A a J S V r F e j n E / f Q ? count; the rate comes from the record's \
      header beside it, 100.hea) or a CSV file with a `sample` column (the rate from a header beside \
      it, NAME.hea, else --rate). A detection matches an unmatched reference beat within --window \
      seconds (inclusive; rounded to whole samples); every reference beat and detection matches at \
      most once (the matching with the most pairs, then the least total distance). Reference beats \
      and detections inside the reference's ventricular flutter episodes (from [ to ]) are left out, \
      as EC57 specifies, unless --include-flutter is given. Each record is \
      scored over the whole record and from --skip seconds on (EC57's variant: reference beats before \
      it are not counted, nor detections before it or paired with a reference beat before it). \
      Gross statistics sum the counts of the records. Se = TP/(TP+FN), +P = TP/(TP+FP), \
      F1 = 2TP/(2TP+FN+FP): percentages in the table, fractions in --json (null when undefined). A \
      pair that cannot be read is reported on stderr and left out of the gross figures (exit 1).
      """)

  @Option(name: .customLong("reference"), help: "Reference annotations (repeatable).")
  public var references: [String] = []

  @Option(
    name: .customLong("test"), help: "Detected beats, paired with the --reference at the same position.")
  public var tests: [String] = []

  @Argument(help: "More pairs: REF TEST [REF TEST …].")
  public var pairs: [String] = []

  @Option(help: "Match window, \(optionRange(OptionRange.matchWindow)) s.")
  public var window = BeatComparison.standardMatchWindow

  @Option(
    help:
      "Learning period left out of the second statistics, \(optionRange(OptionRange.timeOffset)) s (EC57: 300)."
  )
  public var skip = BeatComparison.standardLearningPeriod

  @Option(
    help:
      "Samples per second of CSV beat files without a header beside them, \(optionRange(OptionRange.signalRate)) Hz."
  )
  public var rate: Double?

  @Flag(help: "One JSON object instead of the table.")
  public var json = false

  @Flag(
    name: .customLong("include-flutter"),
    help:
      "Also score beats inside the reference's ventricular flutter episodes ([ to ]), which EC57 leaves out.")
  public var includeFlutter = false

  public init() {}

  /// The (reference, test) pairs in the order given.
  var allPairs: [(reference: String, test: String)] {
    var result = zip(references, tests).map { (reference: $0, test: $1) }
    for k in stride(from: 0, to: pairs.count - 1, by: 2) { result.append((pairs[k], pairs[k + 1])) }
    return result
  }

  public func validate() throws {
    guard references.count == tests.count else {
      throw ValidationError("give as many --test as --reference (\(references.count) vs \(tests.count))")
    }
    guard pairs.count % 2 == 0 else { throw ValidationError("positional arguments come in REF TEST pairs") }
    guard !allPairs.isEmpty else {
      throw ValidationError("give at least one --reference REF --test TEST pair")
    }
    try checkOption("--window", window, in: OptionRange.matchWindow, unit: "s")
    try checkOption("--skip", skip, in: OptionRange.timeOffset, unit: "s")
    if let rate { try SupportedRates.signal.check("--rate", rate) }
  }

  public func run() throws {
    let (records, errors) = scoreAll()
    for error in errors { printError(error.description) }
    print(json ? Self.json(records, window: window, skip: skip) : Self.table(records, skip: skip))
    if !errors.isEmpty { throw ExitCode(1) }
  }

  /// Every pair that could be read, scored, and the errors of those that could not.
  func scoreAll() -> (records: [RecordBeatScore], errors: [InputError]) {
    var records: [RecordBeatScore] = []
    var errors: [InputError] = []
    for pair in allPairs {
      do throws(InputError) {
        let reference = try BeatFile(path: pair.reference, rate: rate)
        let test = try BeatFile(path: pair.test, rate: rate)
        guard reference.sampleRate == test.sampleRate else {
          throw InputError(
            path: pair.test,
            "\(test.sampleRate) Hz, but the reference \(pair.reference) is at \(reference.sampleRate) Hz")
        }
        records.append(
          BeatComparison.scoreRecord(
            BeatFile.recordName(pair.reference), reference: reference.samples, test: test.samples,
            sampleRate: reference.sampleRate, matchWindow: window, learningPeriod: skip,
            excluding: includeFlutter ? FlutterEpisodes() : reference.flutter))
      } catch {
        errors.append(error)
      }
    }
    return (records, errors)
  }

  /// The table: one line per record and a gross line, whole record then from `skip` seconds.
  static func table(_ records: [RecordBeatScore], skip: Double) -> String {
    func right(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    func percent(_ value: Double) -> String { value.isNaN ? "-" : String(cFormat: "%.2f", value * 100) }
    func columns(_ s: BeatScore) -> String {
      [
        right("\(s.truePositives)", 7), right("\(s.falseNegatives)", 5), right("\(s.falsePositives)", 5),
        right(percent(s.sensitivity), 7), right(percent(s.positivePredictivity), 7), right(percent(s.f1), 7),
      ].joined(separator: " ")
    }
    let nameWidth = max(8, records.map(\.record.count).max() ?? 0) + 1
    func line(_ name: String, _ whole: String, _ after: String) -> String {
      name + String(repeating: " ", count: nameWidth - name.count) + "| " + whole + " | " + after
    }
    let skipText = skip == skip.rounded() ? String(Int(skip)) : String(skip)
    let heading = [
      right("TP", 7), right("FN", 5), right("FP", 5), right("Se%", 7), right("+P%", 7), right("F1%", 7),
    ]
    .joined(separator: " ")
    var lines = [
      line("", right("whole record", 25) + String(repeating: " ", count: 18), "from \(skipText) s"),
      line("record", heading, heading),
    ]
    for r in records { lines.append(line(r.record, columns(r.wholeRecord), columns(r.afterLearningPeriod))) }
    lines.append(
      line(
        "gross", columns(.gross(records.map(\.wholeRecord))),
        columns(.gross(records.map(\.afterLearningPeriod)))))
    return lines.joined(separator: "\n")
  }

  private struct JSONScore: Encodable {
    var tp: Int, fn: Int, fp: Int
    var se: JSONNumber, ppv: JSONNumber, f1: JSONNumber

    init(_ s: BeatScore) {
      (tp, fn, fp) = (s.truePositives, s.falseNegatives, s.falsePositives)
      (se, ppv, f1) = (JSONNumber(s.sensitivity), JSONNumber(s.positivePredictivity), JSONNumber(s.f1))
    }
  }

  private struct JSONRecord: Encodable {
    var record: String
    var whole: JSONScore
    var after_skip: JSONScore
  }

  private struct JSONDocument: Encodable {
    var window_s: Double
    var skip_s: Double
    var records: [JSONRecord]
    var gross: JSONRecord
  }

  /// `{"window_s", "skip_s", "records": [{"record", "whole", "after_skip"}], "gross": {…}}` with counts
  /// `tp`, `fn`, `fp` and fractions `se`, `ppv` (+P), `f1` (null when undefined).
  static func json(_ records: [RecordBeatScore], window: Double, skip: Double) -> String {
    let gross = JSONRecord(
      record: "gross", whole: JSONScore(.gross(records.map(\.wholeRecord))),
      after_skip: JSONScore(.gross(records.map(\.afterLearningPeriod))))
    return encodeJSON(
      JSONDocument(
        window_s: window, skip_s: skip,
        records: records.map {
          JSONRecord(
            record: $0.record, whole: JSONScore($0.wholeRecord), after_skip: JSONScore($0.afterLearningPeriod)
          )
        }, gross: gross))
  }
}

/// Beat positions read from a WFDB annotation file or a CSV file with a `sample` column.
struct BeatFile {
  /// Beat sample indices, sorted.
  var samples: [Int64]
  /// MIT mnemonics of the beats (annotation files only).
  var labels: [String]?
  /// Ventricular flutter episodes marked in the file (annotation files only).
  var flutter = FlutterEpisodes()
  var sampleRate: Double

  /// Reads `path`: CSV for `.csv`/`.tsv`/`.txt`, a WFDB annotation file otherwise. The rate comes from
  /// the record header beside the file (`dir/100.atr` → `dir/100.hea`), else `rate`; without either,
  /// the file is refused (its sample indices would be meaningless).
  init(path: String, rate: Double?) throws(InputError) {
    let lower = path.lowercased()
    let isText = [".csv", ".tsv", ".txt"].contains { lower.hasSuffix($0) }
    if isText {
      samples = try Self.readCSV(path: path)
      labels = nil
    } else {
      let annotations = try WFDBAnnotationFile.read(path: path)
      let beats = annotations.filter(\.isBeat)
      samples = beats.map(\.sample)
      labels = beats.map(\.symbol)
      flutter = FlutterEpisodes(samples: annotations.map(\.sample), symbols: annotations.map(\.symbol))
    }
    if let headerRate = try Self.headerRate(besideFile: path) {
      sampleRate = headerRate
    } else if let rate {
      sampleRate = rate
    } else {
      throw InputError(
        path: path,
        "no record header beside it (\(Self.recordPath(path)).hea) to give the rate: pass --rate HZ")
    }
    guard samples.indices.dropFirst().allSatisfy({ samples[$0 - 1] <= samples[$0] }) else {
      throw InputError(path: path, "beats are not in increasing sample order")
    }
  }

  /// The path without its last extension (`dir/100.atr` → `dir/100`).
  static func recordPath(_ path: String) -> String { FileSystem.deletingPathExtension(path) }

  /// The record name for tables: the file name without extension (`dir/100.atr` → `100`).
  static func recordName(_ path: String) -> String { FileSystem.lastPathComponent(recordPath(path)) }

  /// The frame rate of the header `recordPath(path).hea`, or nil when there is no such file.
  static func headerRate(besideFile path: String) throws(InputError) -> Double? {
    let headerPath = recordPath(path) + ".hea"
    guard headerPath != path, let bytes = FileManager.default.contents(atPath: headerPath) else { return nil }
    return try WFDBHeader.parse(Array(bytes), path: headerPath).frameRate
  }

  /// The integer `sample` column of a delimited text file with a header line: lines end at LF, CR LF, CR,
  /// VT or FF; fields are split at the header's delimiter (tab, else `;` without `,`, else `,`) and
  /// trimmed of spaces, tabs and quotes; lines that are empty are skipped.
  static func readCSV(path: String) throws(InputError) -> [Int64] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw InputError(path: path, "cannot read the file")
    }
    let bytes = [UInt8](data)
    var lines: [Range<Int>] = []
    // A UTF-8 byte-order mark (spreadsheet exports) is not part of the header.
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var k = start
    while k < bytes.count {
      let byte = bytes[k]
      if byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C {
        lines.append(start..<k)
        if byte == 0x0D && k + 1 < bytes.count && bytes[k + 1] == 0x0A { k += 1 }
        start = k + 1
      }
      k += 1
    }
    lines.append(start..<bytes.count)
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let header = lines.first else {
      throw InputError(path: path, "empty file: expected a header with a sample column")
    }
    let headerBytes = bytes[header]
    let delimiter: UInt8 =
      headerBytes.contains(0x09)
      ? 0x09 : headerBytes.contains(0x3B) && !headerBytes.contains(0x2C) ? 0x3B : 0x2C
    // The fields of a line (up to `limit` of them), without the blanks and quotes around them.
    func fields(_ line: Range<Int>, limit: Int = .max) -> [Range<Int>] {
      var result: [Range<Int>] = []
      var fieldStart = line.lowerBound
      for end in line.lowerBound...line.upperBound where end == line.upperBound || bytes[end] == delimiter {
        var lower = fieldStart
        var upper = end
        let padding = { (byte: UInt8) in byte == 0x22 || byte == 0x20 || byte == 0x09 }
        while lower < upper && padding(bytes[lower]) { lower += 1 }
        while upper > lower && padding(bytes[upper - 1]) { upper -= 1 }
        result.append(lower..<upper)
        if result.count == limit { break }
        fieldStart = end + 1
      }
      return result
    }
    let names = fields(header).map { String(decoding: bytes[$0], as: UTF8.self).lowercased() }
    guard let column = names.firstIndex(of: "sample") else {
      throw InputError(
        path: path, location: .line(1),
        "expected a column named sample, found \(names.joined(separator: ", "))")
    }
    var samples: [Int64] = []
    samples.reserveCapacity(lines.count - 1)
    for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty {
      let row = fields(line, limit: column + 1)
      guard column < row.count, let value = Int64(String(decoding: bytes[row[column]], as: UTF8.self)) else {
        throw InputError(
          path: path, location: .field(line: offset + 1, column: column + 1), "expected a whole sample index")
      }
      samples.append(value)
    }
    return samples
  }
}
