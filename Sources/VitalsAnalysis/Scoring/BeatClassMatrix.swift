/// The beat-by-beat confusion matrix of WFDB `bxb`, and the class statistics of ANSI/AAMI EC57 it gives.
///
/// Rows are the reference label, columns the test label: N S V F Q (``BeatClass``), then O for "no beat".
/// Row O counts detections that matched no reference beat (bxb's `O` row: extra beats), column O the
/// reference beats no detection matched (bxb's `o` column: missed beats); the cell O/O stays 0. Beats
/// without a class (MIT `?`, read as `nil`) count as Q, as bxb counts its `LEARN` and `UNKNOWN` codes.
///
/// Statistics, as `print_results` of `bxb.c` (WFDB 10.5.24) defines them, writing `Xy` for the count of
/// reference class X labelled y:
/// - QRS: TP = every beat/beat cell; FN = column O; FP = row O.
/// - V: TP = Vv; FN = Vn + Vs + Vf + Vq + Vo; FP = Nv + Sv + Ov (F and Q beats labelled V count neither
///   way); TN = the cells of rows N S F Q O and columns n s f q; FPR = FP / (TN + FP).
/// - S: TP = Ss; FN = Sn + Sv + Sf + Sq + So; FP = Ns + Vs + Fs + Os (Q beats labelled S do not count).
///
/// Mergeable: gross statistics over records are those of the summed matrices (``add(_:)``), as EC57
/// asks. Codable as `counts` (6 × 6, rows then columns in the order above).
public struct BeatClassMatrix: Sendable, Equatable, Hashable, Codable {
  /// The row and column labels: `N S V F Q O`.
  public static let labels = BeatClass.allCases.map(\.letter) + ["O"]

  /// Counts by reference row and test column, each in the order of ``labels``.
  public private(set) var counts: [[Int]]

  /// An empty matrix.
  public init() {
    counts = Array(repeating: Array(repeating: 0, count: Self.labels.count), count: Self.labels.count)
  }

  /// The count of reference beats of class `reference` labelled `test`; `nil` is "no beat" (row or
  /// column O).
  public subscript(reference: BeatClass?, test: BeatClass?) -> Int {
    get { counts[Self.index(reference)][Self.index(test)] }
    set {
      precondition(reference != nil || test != nil, "the cell O/O of a bxb matrix holds nothing")
      counts[Self.index(reference)][Self.index(test)] = newValue
    }
  }

  /// Adds the counts of `other` (gross statistics over records).
  public mutating func add(_ other: BeatClassMatrix) {
    for row in counts.indices {
      for column in counts[row].indices { counts[row][column] += other.counts[row][column] }
    }
  }

  /// The sum of `matrices` (gross statistics).
  public static func gross(_ matrices: some Sequence<BeatClassMatrix>) -> BeatClassMatrix {
    matrices.reduce(into: BeatClassMatrix()) { $0.add($1) }
  }

  /// QRS detection: TP, FN, FP over every beat, whatever its class.
  public var qrs: BeatScore {
    BeatScore(
      truePositives: sum(BeatClass.allCases, BeatClass.allCases),
      falseNegatives: sum(BeatClass.allCases, [nil]),
      falsePositives: sum([nil], BeatClass.allCases))
  }

  /// Ventricular ectopic beats (V): TP, FN, FP as bxb counts them (Se, +P).
  public var ventricular: BeatScore {
    BeatScore(
      truePositives: self[.ventricular, .ventricular],
      falseNegatives: sum([.ventricular], [.normal, .supraventricular, .fusion, .unclassifiable, nil]),
      falsePositives: sum([.normal, .supraventricular, nil], [.ventricular]))
  }

  /// bxb's true negatives for V: rows N S F Q O, columns n s f q.
  public var ventricularTrueNegatives: Int {
    sum(
      [.normal, .supraventricular, .fusion, .unclassifiable, nil],
      [.normal, .supraventricular, .fusion, .unclassifiable])
  }

  /// V false positive rate FP / (TN + FP), a fraction in [0, 1]; NaN when both are 0.
  public var ventricularFalsePositiveRate: Double {
    let falsePositives = ventricular.falsePositives
    let total = ventricularTrueNegatives + falsePositives
    return total == 0 ? .nan : Double(falsePositives) / Double(total)
  }

  /// Supraventricular ectopic beats (S): TP, FN, FP as bxb counts them (Se, +P).
  public var supraventricular: BeatScore {
    BeatScore(
      truePositives: self[.supraventricular, .supraventricular],
      falseNegatives: sum([.supraventricular], [.normal, .ventricular, .fusion, .unclassifiable, nil]),
      falsePositives: sum([.normal, .ventricular, .fusion, nil], [.supraventricular]))
  }

  /// The sum of the cells of `rows` × `columns`.
  public func sum(_ rows: [BeatClass?], _ columns: [BeatClass?]) -> Int {
    rows.reduce(0) { total, row in columns.reduce(total) { $0 + counts[Self.index(row)][Self.index($1)] } }
  }

  private static func index(_ label: BeatClass?) -> Int { label.map { Int($0.rawValue) } ?? labels.count - 1 }

  private enum CodingKeys: String, CodingKey { case counts }

  /// Decodes `counts`, refusing any shape but 6 × 6 non-negative counts with O/O = 0.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let counts = try container.decode([[Int]].self, forKey: .counts)
    let size = Self.labels.count
    guard counts.count == size, counts.allSatisfy({ $0.count == size && $0.allSatisfy { $0 >= 0 } }),
      counts[size - 1][size - 1] == 0
    else {
      throw DecodingError.dataCorruptedError(
        forKey: .counts, in: container, debugDescription: "expected 6 × 6 non-negative counts, O/O = 0")
    }
    self.counts = counts
  }
}

/// The class statistics bxb prints for one matrix, as fractions in [0, 1] (NaN when undefined): QRS,
/// V and S sensitivity and positive predictivity, and the V false positive rate (see ``BeatClassMatrix``).
public struct BeatClassStatistics: Sendable, Equatable {
  public var qrsSensitivity: Double
  public var qrsPositivePredictivity: Double
  public var ventricularSensitivity: Double
  public var ventricularPositivePredictivity: Double
  public var ventricularFalsePositiveRate: Double
  public var supraventricularSensitivity: Double
  public var supraventricularPositivePredictivity: Double

  /// The statistics of `matrix`: of one record, or of the summed matrices of several (gross).
  public init(_ matrix: BeatClassMatrix) {
    qrsSensitivity = matrix.qrs.sensitivity
    qrsPositivePredictivity = matrix.qrs.positivePredictivity
    ventricularSensitivity = matrix.ventricular.sensitivity
    ventricularPositivePredictivity = matrix.ventricular.positivePredictivity
    ventricularFalsePositiveRate = matrix.ventricularFalsePositiveRate
    supraventricularSensitivity = matrix.supraventricular.sensitivity
    supraventricularPositivePredictivity = matrix.supraventricular.positivePredictivity
  }

  /// The per-record average, as WFDB `sumstats` prints it under the gross line: each statistic is the
  /// mean of its values over the records where it is defined (NaN when it is defined in none).
  public init(averageOf matrices: [BeatClassMatrix]) {
    let each = matrices.map(BeatClassStatistics.init)
    func mean(_ value: (BeatClassStatistics) -> Double) -> Double {
      let defined = each.map(value).filter { !$0.isNaN }
      return defined.isEmpty ? .nan : defined.reduce(0, +) / Double(defined.count)
    }
    qrsSensitivity = mean(\.qrsSensitivity)
    qrsPositivePredictivity = mean(\.qrsPositivePredictivity)
    ventricularSensitivity = mean(\.ventricularSensitivity)
    ventricularPositivePredictivity = mean(\.ventricularPositivePredictivity)
    ventricularFalsePositiveRate = mean(\.ventricularFalsePositiveRate)
    supraventricularSensitivity = mean(\.supraventricularSensitivity)
    supraventricularPositivePredictivity = mean(\.supraventricularPositivePredictivity)
  }
}
