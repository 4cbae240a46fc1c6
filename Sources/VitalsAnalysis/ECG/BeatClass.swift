/// The beat classes of ANSI/AAMI EC57, into which the MIT annotation codes are grouped for scoring.
///
/// - ``normal`` (N): normal and bundle-branch-block beats, atrial and nodal escape beats (`N L R B e j`).
/// - ``supraventricular`` (S): atrial, aberrated atrial, nodal and supraventricular premature beats and
///   supraventricular escape beats (`A a J S n`).
/// - ``ventricular`` (V): premature ventricular contractions, R-on-T and ventricular escape beats
///   (`V r E`).
/// - ``fusion`` (F): fusions of ventricular and normal beats (`F`).
/// - ``unclassifiable`` (Q): paced, fusions of paced and normal, and unclassifiable beats (`/ f Q`).
///
/// Source: ANSI/AAMI EC57:1998/(R)2008, Table 1, as applied by WFDB `bxb`; de Chazal et al., "Automatic
/// classification of heartbeats using ECG morphology and heartbeat interval features", IEEE Trans.
/// Biomed. Eng. 51(7):1196–1206, 2004. `B`, `n` and `r`, codes added to the MIT set after EC57, are
/// grouped as `bxb` groups them.
public enum BeatClass: UInt8, Sendable, Hashable, Codable, CaseIterable, Comparable {
  case normal
  case supraventricular
  case ventricular
  case fusion
  case unclassifiable

  /// The class of an MIT annotation mnemonic; `nil` for `?` (a beat of unknown type, which class
  /// statistics leave out) and for every code that is not a beat.
  public init?(mitCode: some StringProtocol) {
    switch mitCode {
    case "N", "L", "R", "B", "e", "j": self = .normal
    case "A", "a", "J", "S", "n": self = .supraventricular
    case "V", "r", "E": self = .ventricular
    case "F": self = .fusion
    case "/", "f", "Q": self = .unclassifiable
    default: return nil
    }
  }

  /// The class of its one-letter name (`N S V F Q`, as ``letter`` writes it), or `nil`.
  public init?(letter: some StringProtocol) {
    guard let match = Self.allCases.first(where: { $0.letter == letter }) else { return nil }
    self = match
  }

  /// The class's letter in EC57: `N`, `S`, `V`, `F` or `Q`.
  public var letter: String {
    switch self {
    case .normal: "N"
    case .supraventricular: "S"
    case .ventricular: "V"
    case .fusion: "F"
    case .unclassifiable: "Q"
    }
  }

  /// The MIT annotation code written for a beat of this class: `N`, `A` (for S), `V`, `F` or `Q`.
  public var mitCode: String {
    self == .supraventricular ? "A" : letter
  }

  public static func < (lhs: BeatClass, rhs: BeatClass) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Beats per class in `counts` (indexed by `rawValue`), keyed by each class's ``letter``: the
  /// `beat_classes` and `class_counts` objects of the JSON outputs.
  public static func countsByLetter(_ counts: [Int]) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: allCases.map { ($0.letter, counts[Int($0.rawValue)]) })
  }

  /// Beats per class among `classes`, indexed by `rawValue`.
  public static func counts(of classes: some Sequence<BeatClass>) -> [Int] {
    var counts = [Int](repeating: 0, count: allCases.count)
    for beatClass in classes { counts[Int(beatClass.rawValue)] += 1 }
    return counts
  }
}
