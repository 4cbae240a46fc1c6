import Foundation

/// The folder of real recordings the harnesses read: `VITALS_SHARED_DATA` when set, else
/// `../shared/data` beside the repository (this file is `scripts/eval/Sources/EvalSupport/SharedData.swift`).
public let sharedDataDirectory =
  ProcessInfo.processInfo.environment["VITALS_SHARED_DATA"]
  ?? URL(fileURLWithPath: "../../../../../shared/data", relativeTo: URL(fileURLWithPath: #filePath))
  .standardizedFileURL.path
