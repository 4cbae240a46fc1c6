internal import CVitals
import Vitals
import VitalsCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The library's version, `vitals --version`'s (a static string).
@_cdecl("vitals_version")
public func vitals_version() -> UnsafePointer<CChar>? {
  UnsafePointer(versionText)
}

/// `VITALS_ABI_VERSION` of the header this library was built with.
@_cdecl("vitals_abi_version")
public func vitals_abi_version() -> Int32 {
  Int32(VITALS_ABI_VERSION)
}

/// Build information as a JSON object (a static string): `version`, `abi`, `swift` (the compiler's
/// language version), `configuration` (`debug` or `release`), `simd` (the lane width of the kernels,
/// bits) and `fftw` (the FFT library).
@_cdecl("vitals_build_info")
public func vitals_build_info() -> UnsafePointer<CChar>? {
  UnsafePointer(buildInfoText)
}

/// The static strings the functions above return, allocated once and never freed.
nonisolated(unsafe) private let versionText = strdup(VitalsCommand.version)
nonisolated(unsafe) private let buildInfoText = strdup(compactJSON(BuildInfo()))

/// What ``vitals_build_info()`` describes.
private struct BuildInfo: Encodable {
  var version = VitalsCommand.version
  var abi = Int(VITALS_ABI_VERSION)
  #if compiler(>=6.4)
    var swift = "6.4 or later"
  #elseif compiler(>=6.3)
    var swift = "6.3"
  #elseif compiler(>=6.2)
    var swift = "6.2"
  #else
    var swift = "6.1"
  #endif
  #if DEBUG
    var configuration = "debug"
  #else
    var configuration = "release"
  #endif
  // The 256-bit kernels are compiled in when the marker module `CWideLanes` is importable (AVX2).
  #if canImport(CWideLanes)
    var simd = 256
  #else
    var simd = 128
  #endif
  /// `VitalsFFT` does not expose FFTW's version string.
  var fftw = "fftw3"
}
