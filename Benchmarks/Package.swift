// swift-tools-version: 6.1
import PackageDescription

// Throughput suites for Vitals, kept in their own package so users of the library never build them.
// Run from this directory: `swift package benchmark` (see CONTRIBUTING.md, "Adding a benchmark").
// Each suite declares its own entry point, the one package-benchmark's build plugin would generate,
// so that no build compiles the plugin's generator (a debug build of its dependencies for the host).
let suites = [
  "RingBuffer", "Filtering", "Resampling", "FFT", "WFDBReading", "FormatReading", "ECGDetection", "HRV",
  "PPGHeartRate", "StepDetection", "Aggregation", "ExportReading", "Pipeline", "LongRecording",
  "SignalPipelines",
]

let package = Package(
  name: "VitalsBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Vitals", path: "../"),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    // The rate metrics, the gated configuration and the timing helper every suite uses.
    .target(
      name: "BenchmarkSupport", dependencies: [.product(name: "Benchmark", package: "benchmark")],
      path: "Support")
  ]
    + suites.map { suite in
      .executableTarget(
        name: suite,
        dependencies: [
          "BenchmarkSupport",
          .product(name: "Vitals", package: "Vitals"),
          .product(name: "Benchmark", package: "benchmark"),
        ],
        path: "Benchmarks/\(suite)"
      )
    }
)
