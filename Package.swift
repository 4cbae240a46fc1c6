// swift-tools-version: 6.1
import PackageDescription

/// Modules, from the bottom up (see the Vitals catalog's Architecture article):
/// - `CFFTW`: the system FFTW 3 library (GPL), reached only through `VitalsFFT`.
/// - `CWideLanes`: a marker module importable only in builds that target AVX2 (see the Vitals catalog's "Build settings" article).
/// - `VitalsSupport`: package-internal, never re-exported: the C library, file-system calls, text
///   formatting and descriptive statistics that several modules share.
/// - `VitalsCore`: samples, time, ring buffers, filter design, SOS/FIR filtering, resampling, SIMD kernels.
/// - `VitalsFFT`: cached FFTW plans, real FFTs, Welch PSD, Lomb–Scargle.
/// - `VitalsIO`: readers and writers for WFDB, EDF/EDF+, CSV/TSV and Apple Health files.
/// - `VitalsAnalysis`: beat detection, scoring, NN intervals, HRV, rhythm.
/// - `VitalsSimulation`: deterministic synthetic ECG, PPG and accelerometer recordings with ground truth.
/// - `VitalsStatistics`: HealthKit-style quantity samples, statistics and mergeable aggregates, time-zone
///   rules, derived metrics, and the Apple Health `export.xml` import.
/// - `VitalsPipeline`: whole-recording analysis, batches and live streams, built on the modules above.
/// - `VitalsReport`: the SVG/HTML picture of a recording and what was found in it, one function per panel.
/// - `Vitals`: the umbrella library users import.
/// - `VitalsCLI` + `vitals`: the command line, a thin layer over `Vitals`.
/// - `CVitals` + `VitalsC`: the C interface (`Sources/CVitals/include/vitals.h`) and its implementation over
///   `Vitals` and `VitalsCLI`, built as the shared library `libVitalsC` (product `VitalsC`).
let package = Package(
  name: "Vitals",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Vitals", targets: ["Vitals"]),
    .executable(name: "vitals", targets: ["vitals"]),
    .library(name: "VitalsC", type: .dynamic, targets: ["VitalsC"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    // `swift package generate-documentation --target MODULE`; `make docs` builds the same catalogs.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
  ],
  targets: [
    .systemLibrary(
      name: "CFFTW",
      pkgConfig: "fftw3",
      providers: [.apt(["libfftw3-dev"]), .brew(["fftw"])]
    ),
    .target(
      name: "VitalsSupport",
      dependencies: [.product(name: "SystemPackage", package: "swift-system")]
    ),
    .target(
      name: "VitalsCore",
      dependencies: [
        .product(name: "RealModule", package: "swift-numerics"),
        .product(name: "ComplexModule", package: "swift-numerics"),
      ]
    ),
    .target(name: "VitalsFFT", dependencies: ["CFFTW", "VitalsCore", "VitalsSupport"]),
    // Importable only when the build targets AVX2: selects the 256-bit kernels at compile time.
    .systemLibrary(name: "CWideLanes"),
    .target(
      name: "VitalsIO",
      dependencies: [
        "VitalsCore", "VitalsSupport", "CWideLanes", .product(name: "SystemPackage", package: "swift-system"),
      ]
    ),
    .target(name: "VitalsSimulation", dependencies: ["VitalsCore", "VitalsSupport"]),
    .target(name: "VitalsAnalysis", dependencies: ["VitalsCore", "VitalsFFT", "VitalsSupport"]),
    .target(name: "VitalsStatistics", dependencies: ["VitalsCore", "VitalsIO", "VitalsSupport"]),
    .target(
      name: "VitalsPipeline",
      dependencies: [
        "VitalsCore", "VitalsFFT", "VitalsIO", "VitalsAnalysis", "VitalsStatistics", "VitalsSupport",
      ]
    ),
    .target(
      name: "VitalsReport",
      dependencies: [
        "VitalsCore", "VitalsIO", "VitalsAnalysis", "VitalsPipeline", "VitalsSupport",
        .product(name: "RealModule", package: "swift-numerics"),
      ]
    ),
    .target(
      name: "Vitals",
      dependencies: [
        "VitalsCore", "VitalsFFT", "VitalsIO", "VitalsSimulation", "VitalsAnalysis", "VitalsStatistics",
        "VitalsPipeline", "VitalsReport",
      ]
    ),
    .target(
      name: "VitalsCLI",
      dependencies: ["Vitals", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    .executableTarget(name: "vitals", dependencies: ["VitalsCLI"]),
    // The C interface: the header (and a C file that includes it), implemented by `VitalsC`.
    .target(name: "CVitals"),
    .target(name: "VitalsC", dependencies: ["Vitals", "VitalsCLI", "CVitals"]),

    // Test support: fixture and shared-data paths (a plain target, so test targets can share it).
    .target(
      name: "VitalsTestSupport",
      dependencies: ["VitalsSimulation", .product(name: "RealModule", package: "swift-numerics")],
      path: "Tests/VitalsTestSupport"),
    .testTarget(name: "VitalsSupportTests", dependencies: ["VitalsSupport"]),
    .testTarget(
      name: "VitalsCoreTests",
      dependencies: [
        "VitalsCore", "VitalsTestSupport", .product(name: "ComplexModule", package: "swift-numerics"),
      ]
    ),
    .testTarget(name: "VitalsFFTTests", dependencies: ["VitalsFFT", "VitalsTestSupport"]),
    .testTarget(name: "VitalsIOTests", dependencies: ["VitalsIO", "VitalsTestSupport"]),
    .testTarget(name: "VitalsAnalysisTests", dependencies: ["VitalsAnalysis", "VitalsTestSupport"]),
    .testTarget(name: "VitalsSimulationTests", dependencies: ["VitalsSimulation", "VitalsTestSupport"]),
    .testTarget(name: "VitalsStatisticsTests", dependencies: ["VitalsStatistics", "VitalsTestSupport"]),
    .testTarget(name: "VitalsPipelineTests", dependencies: ["VitalsPipeline", "VitalsTestSupport"]),
    .testTarget(name: "VitalsReportTests", dependencies: ["VitalsReport", "VitalsTestSupport"]),
    .testTarget(name: "VitalsCLITests", dependencies: ["VitalsCLI", "VitalsTestSupport"]),
    .testTarget(name: "VitalsCTests", dependencies: ["VitalsC", "VitalsTestSupport"]),
    .testTarget(name: "ReadmeExampleTests", dependencies: ["Vitals", "VitalsTestSupport"]),
  ]
)
