// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for the file parsers, kept in their own package so the library never builds
// them. Each target exports `LLVMFuzzerTestOneInput`; build and run one for a bounded time with
// `scripts/fuzz.sh TARGET SECONDS` (it adds `-sanitize=fuzzer,address` and `-parse-as-library`,
// so libFuzzer supplies `main`). A crash found becomes a unit test in `Tests/VitalsIOTests`.
let fuzzTargets = ["WFDBHeaderFuzz", "WFDBSignalFuzz", "WFDBAnnotationFuzz"]

// SwiftPM names a path dependency after its directory (`Vitals`, or a worktree's name).
let vitals = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init) ?? "Vitals"

let package = Package(
  name: "VitalsFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(path: "../")],
  targets: fuzzTargets.map { name in
    .executableTarget(
      name: name,
      dependencies: [.product(name: "Vitals", package: vitals)],
      path: "Sources/\(name)"
    )
  }
)
