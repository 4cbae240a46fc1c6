import Testing
import VitalsIO

@testable import VitalsPipeline

@Suite("Channel roles")
struct ChannelRolesTests {
  private static func signals(_ specs: [(String, String, Double)]) -> [SignalDescription] {
    specs.map { SignalDescription(name: $0.0, unit: $0.1, sampleRate: $0.2, sampleCount: nil) }
  }

  @Test("ECG by lead name, PPG by name, accelerometer by name or unit")
  func recognises() throws {
    let roles = try ChannelRoles(
      signals: Self.signals([
        ("V1", "mV", 360), ("MLII", "mV", 360), ("PLETH", "", 360), ("acc_x", "g", 360), ("acc_y", "g", 360),
        ("acc_z", "g", 360), ("resp", "", 360),
      ]), path: "x")
    #expect(roles == ChannelRoles(ecg: 1, ppg: [2], accelerometer: [3, 4, 5]))
    #expect(roles.kinds == [.ecg, .ppg, .accelerometer])
    let byUnit = try ChannelRoles(
      signals: Self.signals([("chan1", "uV", 500), ("wrist", "m/s^2", 50), ("ppg_green", "", 64)]), path: "x")
    #expect(byUnit == ChannelRoles(ecg: 0, ppg: [2], accelerometer: [1]))
  }

  @Test("no role for channels that match no rule")
  func unrecognised() throws {
    let roles = try ChannelRoles(signals: Self.signals([("Fp1", "uV", 50), ("temp", "C", 1)]), path: "x")
    #expect(roles.kinds.isEmpty)
  }

  @Test("overrides replace recognition; unknown names throw naming the file")
  func overrides() throws {
    let signals = Self.signals([("MLII", "mV", 360), ("V5", "mV", 360)])
    let roles = try ChannelRoles(
      signals: signals, overrides: .init(ecg: [.name("v5")], accelerometer: [.index(0)]), path: "x")
    #expect(roles == ChannelRoles(ecg: 1, accelerometer: [0]))
    #expect(throws: InputError.self) {
      _ = try ChannelRoles(signals: signals, overrides: .init(ppg: [.name("pleth")]), path: "rec")
    }
  }

  @Test("PPG fallback: the only signal besides the axes, unless an ECG lead; none without the flag")
  func ppgFallback() throws {
    let walk = Self.signals([("green", "", 64), ("acc_x", "g", 64), ("acc_y", "g", 64), ("acc_z", "g", 64)])
    #expect(try ChannelRoles(signals: walk, path: "x") == ChannelRoles(ecg: nil, accelerometer: [1, 2, 3]))
    #expect(
      try ChannelRoles(signals: walk, path: "x", ppgFallback: true)
        == ChannelRoles(ecg: nil, ppg: [0], accelerometer: [1, 2, 3]))
    for leads in [[("MLII", "mV", 360.0), ("pulse", "", 360)], [("chan", "mV", 360)]] {
      #expect(
        try ChannelRoles(signals: Self.signals(leads), path: "x", ppgFallback: true) == ChannelRoles(ecg: 0))
    }
    let headerless = Self.signals([("col1", "", 100), ("col2", "", 100), ("col3", "", 100)])
    #expect(
      try ChannelRoles(signals: headerless, path: "x", ppgFallback: true)
        == ChannelRoles(ecg: nil, accelerometer: [0, 1, 2]))
  }

  /// The accelerometer axes recognised among signals with these names (no unit, 100 Hz).
  private static func axes(_ names: [String]) throws -> [Int] {
    try ChannelRoles(signals: signals(names.map { ($0, "", 100) }), path: "x").accelerometer
  }

  @Test(
    "accelerometer axes by name: an x, y, z triple in that order, else the first three recognised",
    arguments: [
      (["time", "ACC_Z", "acc_y", "acc_x"], [3, 2, 1]), (["acc_mag", "acc_x", "acc_y", "acc_z"], [1, 2, 3]),
      (["temp", "gyro", "x", "y", "z"], [2, 3, 4]), (["ax", "ay", "az", "ppg"], [0, 1, 2]),
      (["wrist_z", "wrist_y", "wrist_x"], [2, 1, 0]), (["ACC", "resp"], [0]),
      (["ecg", "ppg1", "ppg2", "acc_x", "acc_y", "acc_z"], [3, 4, 5]), (["a", "b", "c"], []),
    ])
  func axesByName(names: [String], expected: [Int]) throws {
    #expect(try Self.axes(names) == expected)
  }

  @Test(
    "a header-less file of three to six signals and no other role: the first three are the axes",
    arguments: [
      (3, [0, 1, 2]), (4, [0, 1, 2]), (6, [0, 1, 2]), (2, []), (7, []),
    ])
  func headerless(count: Int, expected: [Int]) throws {
    // The CSV reader's names: col0 is the time column of a phone log, when it has one.
    #expect(try Self.axes((1...count).map { "col\($0)" }) == expected)
    #expect(try Self.axes((0..<count).map { "col\($0)" }) == expected)
  }

  @Test("no header-less fallback beside another role or an override")
  func headerlessOnlyAlone() throws {
    let ecg = try ChannelRoles(
      signals: Self.signals([("col1", "mV", 250), ("col2", "", 250), ("col3", "", 250)]), path: "x")
    #expect(ecg == ChannelRoles(ecg: 0))
    let overridden = try ChannelRoles(
      signals: Self.signals([("col1", "", 50), ("col2", "", 50), ("col3", "", 50)]),
      overrides: .init(ecg: [.index(2)]), path: "x")
    #expect(overridden == ChannelRoles(ecg: 2))
    #expect(try Self.axes(["col1", "col2", "column3"]).isEmpty)
  }

  @Test("the Frank leads vx, vy, vz of an ECG in mV are not accelerometer axes")
  func frankLeads() throws {
    let leads = ["i", "ii", "v1", "vx", "vy", "vz"].map { ($0, "mV", 1000.0) }
    let roles = try ChannelRoles(signals: Self.signals(leads), path: "x")
    #expect(roles == ChannelRoles(ecg: 1))
    #expect(try Self.axes(["vx", "vy", "vz"]) == [0, 1, 2])  // without units, names alone decide
  }

  @Test("a gyroscope or magnetometer triple is not taken for the accelerometer")
  func gyroscopeAndMagnetometer() throws {
    #expect(try Self.axes(["gx", "gy", "gz", "ax", "ay", "az"]) == [3, 4, 5])
    #expect(
      try Self.axes([
        "gyro_x", "gyro_y", "gyro_z", "mag_x", "mag_y", "mag_z", "wrist_x", "wrist_y", "wrist_z",
      ]) == [6, 7, 8])
    #expect(try Self.axes(["mx", "my", "mz"]) == [])
  }
}
