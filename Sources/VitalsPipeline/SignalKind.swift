import VitalsIO
import VitalsSupport

/// What a channel of a recording carries, as far as the pipelines are concerned.
public enum SignalKind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
  /// An electrocardiogram lead (mV or µV).
  case ecg
  /// A photoplethysmogram (arbitrary units).
  case ppg
  /// Accelerometer axes (g, mg or m/s²).
  case accelerometer

  /// The key of the kind's section in a recording's summary: `ecg`, `ppg`, and `steps` for the
  /// accelerometer (whose section holds steps, walking bouts and motion levels).
  public var sectionName: String { self == .accelerometer ? "steps" : rawValue }

  /// Declaration order: ECG, PPG, accelerometer.
  public static func < (lhs: SignalKind, rhs: SignalKind) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// Which channels of a recording carry which kind of signal: one ECG lead, the PPG channels and the
/// accelerometer axes, as indices into the reader's `SignalReader/signals`.
///
/// Recognition (`init(signals:overrides:path:)`) goes by name first, then by unit and rate:
/// - ECG: the lead named `MLII`, else `II`, else the first name containing `ECG`/`EKG` or a standard
///   lead name (`I`, `V1`…`V6`, `aVR`, `MLII`, `CM5`, …), else the first signal in mV or µV sampled at
///   100 Hz or more that no other rule took. One lead is analyzed.
/// - PPG: names starting with `ppg` or `pleth` (any case), or containing `PLETH`.
/// - Accelerometer: names `x`,`y`,`z`, or starting with `acc` (`acc_x`, `ACC`, `accel_y`), or a unit
///   of acceleration (`g`, `mg`, `m/s^2`, `m/s²`): of these, the three whose names are one stem followed
///   by `x`, `y` and `z` (`acc_x`, `acc_y`, `acc_z`; in x, y, z order), else the first one to three in
///   file order. Without any, three names of one stem followed by `x`, `y` and `z` (`ax`, `ay`, `az`;
///   `wrist_x`, …) of signals not in a unit of voltage (the Frank leads `vx`, `vy`, `vz` of an ECG in
///   mV are not axes). Else, in a header-less file (every name the CSV reader's `col1`, `col2`, …) with
///   three to six signals and no other role recognized: the first three (x, y, z, then for instance a
///   magnitude, or the three counter columns of the Oxford step dataset's phone logs).
/// - PPG for a command that analyses one (``init(signals:overrides:path:ppgFallback:)`` with
///   `ppgFallback`), when no name says PPG: the recording's only signal that is not an accelerometer
///   axis, unless it is the ECG lead (the column of a one-column file; `green` beside `acc_x`, `acc_y`,
///   `acc_z`). With two or more such signals the choice would be a guess, and none is taken.
/// Explicit selections (``Overrides``) replace the rule of their kind.
public struct ChannelRoles: Sendable, Equatable {
  /// The ECG lead, if any.
  public var ecg: Int?
  /// The PPG channels (empty when none).
  public var ppg: [Int]
  /// The accelerometer axes (empty when none).
  public var accelerometer: [Int]

  /// Channel selections that replace recognition, one per kind (`nil`: recognize).
  public struct Overrides: Sendable, Equatable {
    /// The ECG lead (the first selector is used).
    public var ecg: [ChannelSelector]?
    /// The PPG channels.
    public var ppg: [ChannelSelector]?
    /// The accelerometer axes (one to three).
    public var accelerometer: [ChannelSelector]?

    /// Overrides for the kinds given; the others are recognized.
    public init(
      ecg: [ChannelSelector]? = nil, ppg: [ChannelSelector]? = nil, accelerometer: [ChannelSelector]? = nil
    ) {
      self.ecg = ecg
      self.ppg = ppg
      self.accelerometer = accelerometer
    }
  }

  /// Roles given explicitly.
  public init(ecg: Int?, ppg: [Int] = [], accelerometer: [Int] = []) {
    self.ecg = ecg
    self.ppg = ppg
    self.accelerometer = accelerometer
  }

  /// Recognizes the roles of `signals` (see the type's documentation); throws `InputError` naming
  /// `path` when an override names a channel the recording lacks. `ppgFallback` adds the PPG rule of
  /// commands that analyze a PPG (`vitals hr`, `vitals beats --signal ppg`): when no name says PPG, the
  /// only signal that is not an accelerometer axis, unless it is the ECG lead (applied before the
  /// header-less accelerometer rule).
  public init(
    signals: [SignalDescription], overrides: Overrides = Overrides(), path: String, ppgFallback: Bool = false
  ) throws(InputError) {
    let names = signals.map(\.name)
    func resolve(_ selectors: [ChannelSelector]?) throws(InputError) -> [Int]? {
      guard let selectors else { return nil }
      return try ChannelSelector.resolve(selectors, names: names, path: path)
    }
    let upper = names.map { $0.uppercased().trimmingBlanks() }
    var ppg =
      try resolve(overrides.ppg)
      ?? upper.indices.filter {
        upper[$0].hasPrefix("PPG") || upper[$0].hasPrefix("PLETH") || upper[$0].contains("PLETH")
      }
    var accelerometer =
      try resolve(overrides.accelerometer)
      ?? Self.accelerometerAxes(signals, upperCasedNames: upper, ppg: ppg)
    if let selected = try resolve(overrides.ecg) {
      ecg = selected.first
    } else {
      let taken = Set(ppg + accelerometer)
      let free = upper.indices.filter { !taken.contains($0) }
      ecg =
        Self.ecgLead(upperCasedNames: upper, among: free)
        ?? free.first {
          Self.voltageUnits.contains(signals[$0].unit.lowercased()) && signals[$0].sampleRate >= 100
        }
    }
    if ppgFallback, ppg.isEmpty {
      let left = names.indices.filter { !accelerometer.contains($0) }
      if left.count == 1, left[0] != ecg { ppg = left }
    }
    if overrides.accelerometer == nil, accelerometer.isEmpty, ecg == nil, ppg.isEmpty,
      (3...6).contains(names.count), names.allSatisfy(Self.isHeaderlessName)
    {
      accelerometer = [0, 1, 2]
    }
    self.ppg = ppg
    self.accelerometer = accelerometer
  }

  /// The accelerometer axes among the signals that are not `ppg`, by name or unit (see the type's
  /// documentation; the header-less rule aside): of the signals recognized by name or unit, an x, y, z
  /// triple when their names tell it (else the first three); without any, a triple of one stem among
  /// the signals not in a unit of voltage.
  static func accelerometerAxes(_ signals: [SignalDescription], upperCasedNames upper: [String], ppg: [Int])
    -> [Int]
  {
    let free = upper.indices.filter { !ppg.contains($0) }
    let recognized = free.filter { i in
      ["X", "Y", "Z"].contains(upper[i]) || upper[i].hasPrefix("ACC")
        || accelerationUnits.contains(signals[i].unit.lowercased())
    }
    /// The first `stem`+X, `stem`+Y, `stem`+Z names among `candidates`, in x, y, z order; stems of
    /// a gyroscope or magnetometer (`gx`, `gyro_x`, `mx`, `mag_x`) are not taken.
    func triple(among candidates: [Int]) -> [Int]? {
      for x in candidates where upper[x].hasSuffix("X") {
        let stem = upper[x].dropLast()
        let bare = stem.trimmingScalars(where: { "_- .".unicodeScalars.contains($0) })
        guard bare != "G", bare != "M", !bare.hasPrefix("GYR"), !bare.hasPrefix("MAG") else { continue }
        if let y = candidates.first(where: { upper[$0] == stem + "Y" }),
          let z = candidates.first(where: { upper[$0] == stem + "Z" })
        {
          return [x, y, z]
        }
      }
      return nil
    }
    return triple(among: recognized)
      ?? (recognized.isEmpty
        ? triple(among: free.filter { !voltageUnits.contains(signals[$0].unit.lowercased()) }) ?? []
        : Array(recognized.prefix(3)))
  }

  /// Whether `name` is one the CSV reader gives the columns of a file without a header: `col` and the
  /// column's number.
  static func isHeaderlessName(_ name: String) -> Bool {
    name.hasPrefix("col") && name.count > 3 && name.dropFirst(3).allSatisfy { ("0"..."9").contains($0) }
  }

  /// The channels of `kind`, in analysis order.
  public func channels(of kind: SignalKind) -> [Int] {
    switch kind {
    case .ecg: ecg.map { [$0] } ?? []
    case .ppg: ppg
    case .accelerometer: accelerometer
    }
  }

  /// The kinds with at least one channel, in ``SignalKind`` order.
  public var kinds: [SignalKind] { SignalKind.allCases.filter { !channels(of: $0).isEmpty } }

  /// The ECG lead among `names` by name alone: `MLII`, else `II`, else the first name containing
  /// `ECG`/`EKG` or a standard lead name (case and surrounding blanks ignored); nil when none is.
  public static func ecgLead(named names: [String]) -> Int? {
    let upper = names.map { $0.uppercased().trimmingBlanks() }
    return ecgLead(upperCasedNames: upper, among: Array(upper.indices))
  }

  /// The ECG leads among `names` for beat classification: `lead` first, then every other name containing
  /// `ECG`/`EKG` or a standard lead name (case and surrounding blanks ignored), in file order.
  public static func ecgLeads(named names: [String], lead: Int) -> [Int] {
    let upper = names.map { $0.uppercased().trimmingBlanks() }
    return [lead]
      + upper.indices.filter {
        $0 != lead
          && (upper[$0].contains("ECG") || upper[$0].contains("EKG") || leadNames.contains(upper[$0]))
      }
  }

  /// ``ecgLead(named:)`` over the `candidates` of `upper` (names upper-cased and trimmed).
  static func ecgLead(upperCasedNames upper: [String], among candidates: [Int]) -> Int? {
    candidates.first { upper[$0] == "MLII" } ?? candidates.first { upper[$0] == "II" }
      ?? candidates.first {
        upper[$0].contains("ECG") || upper[$0].contains("EKG") || leadNames.contains(upper[$0])
      }
  }

  /// Standard ECG lead names, upper-cased (limb, augmented, precordial, modified limb leads).
  static let leadNames: Set<String> = [
    "I", "II", "III", "AVR", "AVL", "AVF", "V1", "V2", "V3", "V4", "V5", "V6", "MLI", "MLII", "MLIII",
    "MV1", "MV2", "MV3", "MV4", "MV5", "MV6", "CM5", "CC5", "ML5", "D3",
  ]

  /// Units of acceleration, lower-cased.
  static let accelerationUnits: Set<String> = ["g", "mg", "m/s^2", "m/s²", "m/s2"]
  /// Units of voltage (lower-cased): an ECG lead's, never an accelerometer axis'.
  static let voltageUnits: Set<String> = ["mv", "uv", "µv"]
}
