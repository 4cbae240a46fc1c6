// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for the file parsers, kept in their own package so the library never builds
// them. Each target exports `LLVMFuzzerTestOneInput`; build and run one for a bounded time with
// `scripts/fuzz.sh TARGET SECONDS` (it adds `-sanitize=fuzzer,address` and `-parse-as-library`;
// each target's `<Target>_main`, the entry SwiftPM links executables to, hands over to libFuzzer's
// `LLVMFuzzerRunDriver`). A crash found is minimized and kept under `Regressions/<Target>/`, with a
// unit test that reads it.
let fuzzTargets = [
  "WFDBHeaderFuzz", "WFDBSignalFuzz", "WFDBAnnotationFuzz", "EDFFuzz", "CSVFuzz", "AppleHealthECGFuzz",
  "HealthExportFuzz", "SamplesFileFuzz", "StreamFuzz", "BeatCSVFuzz",
]

let package = Package(
  name: "VitalsFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Vitals", path: "../")],
  targets: [.target(name: "FuzzDriver", path: "Sources/FuzzDriver")]
    + fuzzTargets.map { name in
      .executableTarget(
        name: name,
        dependencies: ["FuzzDriver", .product(name: "Vitals", package: "Vitals")],
        path: "Sources/\(name)"
      )
    }
)
