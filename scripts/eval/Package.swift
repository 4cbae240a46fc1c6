// swift-tools-version: 6.1
import PackageDescription

// Evaluation of the QRS detector on the real recordings in ../shared/data (never committed), kept in
// its own package so the library's users never build it. From the repository root:
//   swift run -c release --package-path scripts/eval ecg-eval [--data DIR] [--chunk N]
let package = Package(
  name: "VitalsEvaluation",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Vitals", path: "../../")],
  targets: [
    .executableTarget(
      name: "ecg-eval",
      dependencies: [.product(name: "Vitals", package: "Vitals")],
      path: "Sources/ecg-eval"
    ),
    .executableTarget(
      name: "ppg-eval",
      dependencies: [.product(name: "Vitals", package: "Vitals")],
      path: "Sources/ppg-eval"
    ),
  ]
)
