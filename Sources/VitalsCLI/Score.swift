import ArgumentParser
import Vitals
import VitalsSupport

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
      header beside it, 100.hea), a CSV file with a `sample` column (whole sample indices ≥ 0, \
      strictly increasing; the rate from a header beside it, NAME.hea, else --rate, else the \
      reference's), or an EDF+ file, whose annotation onsets are the beats (only those named QRS, R, \
      R-peak, beat, heartbeat or an MIT beat mnemonic when the texts differ) at the rate of its ECG \
      lead. A --rate that contradicts the header or the EDF is an error; so is a file whose structure \
      is broken (named with the line or byte). A detection matches an unmatched reference beat within \
      --window seconds (inclusive; rounded to whole samples); every reference beat and detection matches at \
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
      "Samples per second of beat files without a header beside them (checked against it otherwise), \(optionRange(OptionRange.signalRate)) Hz."
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
        let reference = try BeatFile(beatsAt: pair.reference, rate: rate)
        // A test file that states no rate indexes the reference's record.
        var testRate = rate
        if rate == nil, try !BeatFile.statesRate(path: pair.test) { testRate = reference.sampleRate }
        let test = try BeatFile(beatsAt: pair.test, rate: testRate, recordLength: reference.recordLength)
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

extension BeatFile {
  /// Reads a beat file for `score` and `hrv`: EDF+ onsets at the rate of the file's ECG lead
  /// (``BeatDetection/leadRule``) unless `channels` picks another signal.
  init(beatsAt path: String, rate: Double?, recordLength: Int64? = nil, channels: [ChannelSelector]? = nil)
    throws(InputError)
  {
    try self.init(
      path: path, rate: rate, recordLength: recordLength,
      channels: channels ?? [.rule(BeatDetection.leadRule)])
  }

  /// The ventricular flutter episodes (`[` to `]`) an annotation file marks; none for other kinds.
  var flutter: FlutterEpisodes {
    FlutterEpisodes(samples: annotations.map(\.sample), symbols: annotations.map(\.symbol))
  }
}
