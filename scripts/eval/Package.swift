// swift-tools-version: 6.1
import PackageDescription

// Evaluation harnesses on the real recordings in ../shared/data (never committed), kept in their own
// package so the library's users never build them. From the repository root:
//   swift run -c release --package-path scripts/eval ecg-eval [--data DIR] [--chunk N]
//   swift run -c release --package-path scripts/eval steps-eval [--data DIR] [--chunk N]
//   swift run -c release --package-path scripts/eval ppg-eval [--data DIR]
//   swift run -c release --package-path scripts/eval rhythm-eval [--data DIR]
//   swift run -c release --package-path scripts/eval quality-eval [--data DIR]
//   swift run -c release --package-path scripts/eval classify-eval [--data DIR] [--features PATH]
//   swift run -c release --package-path scripts/eval stats-eval   (used by scripts/peers/compare_aggregation.py)
let harnesses = [
  "ecg-eval", "steps-eval", "stats-eval", "ppg-eval", "rhythm-eval", "quality-eval", "classify-eval",
]

let package = Package(
  name: "VitalsEvaluation",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Vitals", path: "../../")],
  targets: [.target(name: "EvalSupport", path: "Sources/EvalSupport")]
    + harnesses.map { name in
      .executableTarget(
        name: name,
        dependencies: ["EvalSupport", .product(name: "Vitals", package: "Vitals")],
        path: "Sources/\(name)"
      )
    }
)
