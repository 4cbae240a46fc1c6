import VitalsAnalysis
import VitalsSupport

/// The beat-by-beat scores of several records as `vitals score` prints them: a table (``text()``) or
/// one JSON object (``json()``), each with the gross statistics of the records.
public struct BeatScoreTable: Sendable {
  /// The records' scores, in the order printed.
  public var records: [RecordBeatScore]
  /// The match window, in seconds.
  public var matchWindow: Double
  /// The learning period left out of the second statistics, in seconds.
  public var learningPeriod: Double
  /// The class statistics of the records whose reference and test files both carry classes, printed
  /// after the QRS table (`nil`: none).
  public var classes: BeatClassTable?

  /// The scores of `records`, matched within `matchWindow` seconds, the second statistics from
  /// `learningPeriod` seconds on.
  public init(
    records: [RecordBeatScore], matchWindow: Double, learningPeriod: Double, classes: BeatClassTable? = nil
  ) {
    self.records = records
    self.matchWindow = matchWindow
    self.learningPeriod = learningPeriod
    self.classes = classes
  }

  /// The table: a line per record and a gross line; TP, FN, FP, then Se, +P and F1 in percent to
  /// 0.01 (`-` when undefined), over the whole record, then from the learning period on; then, after a
  /// blank line, ``classes`` (``BeatClassTable/text()``) when there are any.
  public func text() -> String {
    let skip = learningPeriod

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
    if let classes { lines += ["", classes.text()] }
    return lines.joined(separator: "\n")
  }

  /// Counts and fractions of a `BeatScore` as the JSON writes them; `tn` and `fpr` only when given.
  struct Score: Encodable {
    var tp: Int, fn: Int, fp: Int
    var se: Double, ppv: Double, f1: Double
    var tn: Int?, fpr: Double?

    init(_ s: BeatScore, trueNegatives: Int? = nil, falsePositiveRate: Double? = nil) {
      (tp, fn, fp) = (s.truePositives, s.falseNegatives, s.falsePositives)
      (se, ppv, f1) = (s.sensitivity, s.positivePredictivity, s.f1)
      (tn, fpr) = (trueNegatives, falsePositiveRate)
    }

    enum CodingKeys: CodingKey { case tp, fn, fp, se, ppv, f1, tn, fpr }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(tp, forKey: .tp)
      try c.encode(fn, forKey: .fn)
      try c.encode(fp, forKey: .fp)
      for (value, key) in [(se, CodingKeys.se), (ppv, .ppv), (f1, .f1)] {
        try c.encode(value.isFinite ? value : nil, forKey: key)
      }
      try c.encodeIfPresent(tn, forKey: .tn)
      if let fpr { try c.encode(fpr.isFinite ? fpr : nil, forKey: .fpr) }
    }
  }

  private struct Record: Encodable {
    var record: String
    var whole: Score
    var after_skip: Score
  }

  private struct Document: Encodable {
    var window_s: Double
    var skip_s: Double
    var records: [Record]
    var gross: Record
    var classes: BeatClassTable.Document?
  }

  /// `{"window_s", "skip_s", "records": [{"record", "whole", "after_skip"}], "gross": {…}}` on one line,
  /// keys sorted, with counts `tp`, `fn`, `fp` and fractions `se`, `ppv` (+P), `f1` (null when
  /// undefined), and `classes` (``BeatClassTable``) when there are any.
  public func json() -> String {
    let gross = Record(
      record: "gross", whole: Score(.gross(records.map(\.wholeRecord))),
      after_skip: Score(.gross(records.map(\.afterLearningPeriod))))
    let document = Document(
      window_s: matchWindow, skip_s: learningPeriod,
      records: records.map {
        Record(record: $0.record, whole: Score($0.wholeRecord), after_skip: Score($0.afterLearningPeriod))
      }, gross: gross, classes: classes?.document)
    return compactJSON(document)
  }
}
