/// The floating-point precisions FFTW is built for in Vitals: single (`fftwf_*`) and double (`fftw_*`).
public enum FFTPrecision: Sendable, Hashable {
  /// 32-bit IEEE 754 (`Float`, `fftwf_*`).
  case single
  /// 64-bit IEEE 754 (`Double`, `fftw_*`).
  case double
}

/// A sample type the FFTs accept: `Float` or `Double`.
///
/// Only these two conform; the requirement tells the plan cache which FFTW library (`fftwf_*` or
/// `fftw_*`) runs the transform, so no arithmetic is ever performed through the protocol.
public protocol FFTScalar: BinaryFloatingPoint, Sendable {
  /// The FFTW precision that transforms values of this type.
  static var fftPrecision: FFTPrecision { get }
}

extension Float: FFTScalar {
  @inlinable
  public static var fftPrecision: FFTPrecision { .single }
}

extension Double: FFTScalar {
  @inlinable
  public static var fftPrecision: FFTPrecision { .double }
}

/// A complex value `real + i·imaginary`, laid out as FFTW's `fftw_complex` / `fftwf_complex`
/// (two adjacent scalars, real first), so spectra are handed to and from FFTW without copying.
@frozen
public struct FFTComplex<Scalar: FFTScalar>: Sendable, Hashable {
  /// The real part.
  public var real: Scalar
  /// The imaginary part.
  public var imaginary: Scalar

  @inlinable
  public init(real: Scalar, imaginary: Scalar) {
    self.real = real
    self.imaginary = imaginary
  }

  /// `real² + imaginary²`, the power of a bin (NaN when either part is NaN).
  @inlinable
  public var magnitudeSquared: Scalar { real * real + imaginary * imaginary }
}
