import VitalsAnalysis
import VitalsSupport

/// The class statistics of several records as `vitals score` prints them after the QRS table, in the
/// layouts of WFDB `bxb` and `sumstats`: ``text()``, and the `classes` object of `--json`.
public struct BeatClassTable: Sendable {
  /// The records' class scores, in the order printed.
  public var records: [RecordBeatClassScore]
  /// The learning period left out, in seconds.
  public var learningPeriod: Double

  public init(records: [RecordBeatClassScore], learningPeriod: Double) {
    self.records = records
    self.learningPeriod = learningPeriod
  }

  /// The summed matrix of the records.
  public var gross: BeatClassMatrix { .gross(records.map(\.matrix)) }

  /// A line per record in the layout of `bxb -L` (columns `Nn' Sn' … Fo'`, then Q, V and S Se and +P in
  /// percent, `-` when undefined; the last column is the V false positive rate instead of bxb's RR
  /// error), the `Sum`, `Gross` and `Average` lines of `sumstats`, then the gross matrix as `bxb -s`
  /// (S within N) and as `bxb -S` print it, and the gross statistics as bxb's summary lines.
  public func text() -> String {
    let skip =
      learningPeriod == learningPeriod.rounded() ? String(Int(learningPeriod)) : String(learningPeriod)
    let width = max("Average".count, (records.map(\.record.count).max() ?? 0) + 1)
    var lines = ["Beat classes (bxb, ANSI/AAMI EC57), from \(skip) s", Self.heading(width)]
    lines += records.map {
      Self.pad($0.record, width) + Self.counts($0.matrix) + Self.statistics(.init($0.matrix))
    }
    let countsWidth = Self.lineColumns.count * Self.countWidth
    lines += [
      String(repeating: "_", count: lines[1].count), Self.pad("Sum", width) + Self.counts(gross),
      Self.pad("Gross", width + countsWidth) + Self.statistics(.init(gross)),
      Self.pad("Average", width + countsWidth) + Self.statistics(.init(averageOf: records.map(\.matrix))), "",
    ]
    lines += Self.matrixText(gross, merged: true) + [""] + Self.matrixText(gross, merged: false) + [""]
    return (lines + Self.summary(gross)).joined(separator: "\n")
  }

  /// Column groups of the `bxb -L` line: (heading, rows, columns) summed.
  private static let lineColumns: [(String, [BeatClass?], [BeatClass?])] = {
    let n: [BeatClass?] = [.normal, .fusion, .unclassifiable]
    let fq: [BeatClass?] = [.fusion, .unclassifiable]
    return [
      ("Nn'", [.normal], n), ("Sn'", [.supraventricular], n), ("Vn'", [.ventricular], n), ("Fn'", fq, n),
      ("On'", [nil], n), ("Ns", [.normal], [.supraventricular]),
      ("Ss", [.supraventricular], [.supraventricular]),
      ("Vs", [.ventricular], [.supraventricular]), ("Fs'", fq, [.supraventricular]),
      ("Os'", [nil], [.supraventricular]),
      ("Nv", [.normal], [.ventricular]), ("Sv", [.supraventricular], [.ventricular]),
      ("Vv", [.ventricular], [.ventricular]), ("Fv'", fq, [.ventricular]), ("Ov'", [nil], [.ventricular]),
      ("No'", [.normal], [nil]), ("So'", [.supraventricular], [nil]), ("Vo'", [.ventricular], [nil]),
      ("Fo'", fq, [nil]),
    ]
  }()

  private static let countWidth = 6

  private static func heading(_ width: Int) -> String {
    let counts = lineColumns.map { right($0.0, countWidth) }.joined()
    let statistics = ["Q Se", "Q +P", "V Se", "V +P", "S Se", "S +P", "V FPR"].map { right($0, 7) }.joined()
    return pad("Record", width) + counts + statistics
  }

  private static func counts(_ matrix: BeatClassMatrix) -> String {
    lineColumns.map { right(String(matrix.sum($0.1, $0.2)), countWidth) }.joined()
  }

  private static func statistics(_ s: BeatClassStatistics) -> String {
    let percentages = [
      s.qrsSensitivity, s.qrsPositivePredictivity, s.ventricularSensitivity,
      s.ventricularPositivePredictivity,
      s.supraventricularSensitivity, s.supraventricularPositivePredictivity,
    ]
    let rate = s.ventricularFalsePositiveRate
    return percentages.map { $0.isNaN ? "      -" : String(cFormat: " %6.2f", $0 * 100) }.joined()
      + (rate.isNaN ? "      -" : String(cFormat: " %6.3f", rate * 100))
  }

  /// The matrix as `bxb -s` (`merged`: S counted with N, rows N V F Q O, columns n v f q o) or `bxb -S`
  /// (rows N S V F Q O, columns n s v f q o) prints it, without bxb's shutdown row and column X.
  static func matrixText(_ matrix: BeatClassMatrix, merged: Bool) -> [String] {
    let groups: [(String, [BeatClass?])] =
      (merged
        ? [("N", [.normal, .supraventricular])]
        : [("N", [.normal]), ("S", [.supraventricular])])
      + [("V", [.ventricular]), ("F", [.fusion]), ("Q", [.unclassifiable]), ("O", [nil])]
    let head = "    " + groups.map { right($0.0.lowercased(), 5) }.joined()
    var lines = ["               Algorithm", head, "   " + String(repeating: "_", count: head.count - 3)]
    for (label, rows) in groups {
      let cells = groups.filter { !(label == "O" && $0.0 == "O") }.map {
        right(String(matrix.sum(rows, $0.1)), 5)
      }
      lines.append(" \(label) |" + cells.joined())
    }
    return lines
  }

  /// bxb's summary lines (`pstat`): each statistic in percent with its counts.
  static func summary(_ matrix: BeatClassMatrix) -> [String] {
    func line(_ name: String, _ format: String, _ count: Int, _ total: Int) -> String {
      let value = total <= 0 ? "     - " : String(cFormat: format, 100 * Double(count) / Double(total)) + "%"
      return right(name, 26) + ": " + value + " (\(count)/\(total))"
    }
    let (q, v, s) = (matrix.qrs, matrix.ventricular, matrix.supraventricular)
    let negatives = matrix.ventricularTrueNegatives
    return [
      line("QRS sensitivity", "%6.2f", q.truePositives, q.truePositives + q.falseNegatives),
      line("QRS positive predictivity", "%6.2f", q.truePositives, q.truePositives + q.falsePositives),
      line("VEB sensitivity", "%6.2f", v.truePositives, v.truePositives + v.falseNegatives),
      line("VEB positive predictivity", "%6.2f", v.truePositives, v.truePositives + v.falsePositives),
      line("VEB false positive rate", "%6.3f", v.falsePositives, negatives + v.falsePositives),
      line("SVEB sensitivity", "%6.2f", s.truePositives, s.truePositives + s.falseNegatives),
      line("SVEB positive predictivity", "%6.2f", s.truePositives, s.truePositives + s.falsePositives),
    ]
  }

  private static func right(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  /// The `classes` object of `vitals score --json`: `labels` (`N S V F Q O`), `skip_s`, `records` (each
  /// `record`, `counts` by reference row and test column, `qrs`, `v`, `s`), `gross` (the summed matrix,
  /// the same keys) and `average` (per-record means of `qrs_se`, `qrs_ppv`, `v_se`, `v_ppv`, `v_fpr`,
  /// `s_se`, `s_ppv`). Counts `tp`, `fn`, `fp` (and `tn` for `v`), fractions `se`, `ppv` (and `fpr` for
  /// `v`), null when undefined.
  var document: Document {
    Document(
      labels: BeatClassMatrix.labels, skip_s: learningPeriod,
      records: records.map { Record($0.record, $0.matrix) }, gross: Record("gross", gross),
      average: Average(.init(averageOf: records.map(\.matrix))))
  }

  struct Document: Encodable {
    var labels: [String]
    var skip_s: Double
    var records: [Record]
    var gross: Record
    var average: Average
  }

  struct Record: Encodable {
    var record: String
    var counts: [[Int]]
    var qrs: BeatScoreTable.Score
    var v: BeatScoreTable.Score
    var s: BeatScoreTable.Score

    init(_ record: String, _ matrix: BeatClassMatrix) {
      self.record = record
      counts = matrix.counts
      qrs = .init(matrix.qrs)
      v = .init(
        matrix.ventricular, trueNegatives: matrix.ventricularTrueNegatives,
        falsePositiveRate: matrix.ventricularFalsePositiveRate)
      s = .init(matrix.supraventricular)
    }
  }

  struct Average: Encodable {
    var qrs_se: Double?, qrs_ppv: Double?, v_se: Double?, v_ppv: Double?, v_fpr: Double?
    var s_se: Double?, s_ppv: Double?

    init(_ a: BeatClassStatistics) {
      func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }
      (qrs_se, qrs_ppv) = (finite(a.qrsSensitivity), finite(a.qrsPositivePredictivity))
      (v_se, v_ppv) = (finite(a.ventricularSensitivity), finite(a.ventricularPositivePredictivity))
      v_fpr = finite(a.ventricularFalsePositiveRate)
      (s_se, s_ppv) = (finite(a.supraventricularSensitivity), finite(a.supraventricularPositivePredictivity))
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      for (value, key) in [
        (qrs_se, CodingKeys.qrs_se), (qrs_ppv, .qrs_ppv), (v_se, .v_se), (v_ppv, .v_ppv), (v_fpr, .v_fpr),
        (s_se, .s_se), (s_ppv, .s_ppv),
      ] {
        try c.encode(value, forKey: key)
      }
    }

    enum CodingKeys: CodingKey { case qrs_se, qrs_ppv, v_se, v_ppv, v_fpr, s_se, s_ppv }
  }
}
