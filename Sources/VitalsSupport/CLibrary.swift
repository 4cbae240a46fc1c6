// The C library of the platform, for the package's modules: `import VitalsSupport` brings libc's
// calls and libm's functions (`exp`, `log`, `write`, `stat`, …) without a platform test in every file.
#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Musl)
  @_exported import Musl
#elseif canImport(Darwin)
  @_exported import Darwin
#endif
