import ArgumentParser
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
      pair that cannot be read is reported on stderr and left out of the gross figures (exit 1). \
      When both files of a pair carry beat classes (WFDB annotation codes, or a CSV `label` column of \
      N S V F Q or MIT beat codes), the class statistics of WFDB bxb follow the table, from --skip \
      seconds on: a line per record as bxb -L prints it, sum, gross and per-record average as sumstats \
      prints them, the gross confusion matrix (bxb -s and -S layouts) and bxb's summary lines (QRS, \
      VEB and SVEB sensitivity and positive predictivity, VEB false positive rate); `classes` in --json.
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
    let classes = records.compactMap(\.classes)
    let table = BeatScoreTable(
      records: records.map(\.beats), matchWindow: window, learningPeriod: skip,
      classes: classes.isEmpty ? nil : BeatClassTable(records: classes, learningPeriod: skip))
    print(json ? table.json() : table.text())
    if !errors.isEmpty { throw ExitCode(1) }
  }

  /// Every pair that could be read, scored, and the errors of those that could not.
  func scoreAll() -> (records: [BeatFilePairScore], errors: [InputError]) {
    var records: [BeatFilePairScore] = []
    var errors: [InputError] = []
    for pair in allPairs {
      do throws(InputError) {
        records.append(
          try BeatFilePairScore(
            reference: pair.reference, test: pair.test, rate: rate, matchWindow: window, learningPeriod: skip,
            includeFlutter: includeFlutter))
      } catch {
        errors.append(error)
      }
    }
    return (records, errors)
  }
}
