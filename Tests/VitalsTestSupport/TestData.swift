import Foundation

/// Where tests find their data: the project's committed fixtures, and the real recordings in
/// `../shared/data` (absent on a fresh machine: tests that need them are disabled with a visible
/// reason through `.enabled(if: TestData.hasSharedData, …)` conditions).
public enum TestData {
  /// The package's root directory, found from this file's path.
  public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // VitalsTestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root

  /// A file under `Fixtures/`, e.g. `fixture("filters/butter.json")`.
  public static func fixture(_ relativePath: String) -> URL {
    packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relativePath)
  }

  /// Decodes a committed JSON fixture (reference vectors written by `Fixtures/generate/*.py`).
  public static func decodeFixture<T: Decodable>(_ type: T.Type, _ relativePath: String) throws -> T {
    try JSONDecoder().decode(type, from: Data(contentsOf: fixture(relativePath)))
  }

  /// `../shared/data` beside the package (or `$VITALS_SHARED_DATA`), when it exists.
  public static let sharedDataDirectory: URL? = {
    let candidate: URL
    if let override = ProcessInfo.processInfo.environment["VITALS_SHARED_DATA"] {
      candidate = URL(fileURLWithPath: override)
    } else {
      candidate = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory)
    return exists && isDirectory.boolValue ? candidate : nil
  }()

  /// Whether the real recordings are present; use as `@Test(.enabled(if: TestData.hasSharedData, "needs ../shared/data"))`.
  public static var hasSharedData: Bool { sharedDataDirectory != nil }

  /// A path inside `../shared/data`, e.g. `sharedData("mitdb/100")`. Only call when ``hasSharedData``.
  public static func sharedData(_ relativePath: String) -> URL {
    guard let directory = sharedDataDirectory else {
      preconditionFailure(
        "../shared/data is absent: guard the test with .enabled(if: TestData.hasSharedData)")
    }
    return directory.appendingPathComponent(relativePath)
  }
}
