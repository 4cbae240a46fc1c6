import Vitals

/// The outputs of `vitals score`: the table and the JSON document.
extension Score {
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
