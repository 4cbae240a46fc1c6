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
}
