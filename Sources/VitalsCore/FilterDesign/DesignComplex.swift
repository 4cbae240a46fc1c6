import RealModule

/// The complex arithmetic that filter design needs (the zeros and poles of a transfer function), kept
/// internal so that the module's public surface carries no complex type of its own.
///
/// Operations follow NumPy's `complex128` semantics where SciPy's design code depends on them: `sqrt` is the
/// principal branch (the result has a non-negative real part and the sign of its imaginary part follows
/// the sign of the argument's imaginary part, signed zero included), `magnitude` is `hypot`.
struct DesignComplex: Hashable {
  var real: Double
  var imaginary: Double

  init(_ real: Double, _ imaginary: Double = 0) {
    self.real = real
    self.imaginary = imaginary
  }

  /// `exp(i·angle)`.
  static func unit(angle: Double) -> DesignComplex {
    DesignComplex(Double.cos(angle), Double.sin(angle))
  }

  /// Exactly real, as `numpy.isreal` decides (imaginary part equal to zero).
  var isReal: Bool { imaginary == 0 }

  var conjugate: DesignComplex { DesignComplex(real, -imaginary) }

  var magnitude: Double { Double.hypot(real, imaginary) }

  static func + (lhs: DesignComplex, rhs: DesignComplex) -> DesignComplex {
    DesignComplex(lhs.real + rhs.real, lhs.imaginary + rhs.imaginary)
  }

  static func - (lhs: DesignComplex, rhs: DesignComplex) -> DesignComplex {
    DesignComplex(lhs.real - rhs.real, lhs.imaginary - rhs.imaginary)
  }

  static prefix func - (operand: DesignComplex) -> DesignComplex {
    DesignComplex(-operand.real, -operand.imaginary)
  }

  static func * (lhs: DesignComplex, rhs: DesignComplex) -> DesignComplex {
    DesignComplex(
      lhs.real * rhs.real - lhs.imaginary * rhs.imaginary,
      lhs.real * rhs.imaginary + lhs.imaginary * rhs.real)
  }

  static func * (lhs: Double, rhs: DesignComplex) -> DesignComplex {
    DesignComplex(lhs * rhs.real, lhs * rhs.imaginary)
  }

  /// Smith's algorithm (1962), the scaling NumPy uses to avoid overflow in complex division.
  static func / (lhs: DesignComplex, rhs: DesignComplex) -> DesignComplex {
    if abs(rhs.real) >= abs(rhs.imaginary) {
      let ratio = rhs.imaginary / rhs.real
      let denominator = rhs.real + rhs.imaginary * ratio
      return DesignComplex(
        (lhs.real + lhs.imaginary * ratio) / denominator, (lhs.imaginary - lhs.real * ratio) / denominator)
    }
    let ratio = rhs.real / rhs.imaginary
    let denominator = rhs.real * ratio + rhs.imaginary
    return DesignComplex(
      (lhs.real * ratio + lhs.imaginary) / denominator, (lhs.imaginary * ratio - lhs.real) / denominator)
  }

  /// Principal square root (C99 `csqrt`).
  var squareRoot: DesignComplex {
    if real == 0 && imaginary == 0 { return DesignComplex(0, imaginary) }
    let t = ((abs(real) + magnitude) / 2).squareRoot()
    if real >= 0 { return DesignComplex(t, imaginary / (2 * t)) }
    return DesignComplex(abs(imaginary) / (2 * t), imaginary.sign == .minus ? -t : t)
  }

  /// The product of `values` multiplied from the first on, as `numpy.prod` does (1 when empty).
  static func product(_ values: [DesignComplex]) -> DesignComplex {
    values.reduce(DesignComplex(1)) { $0 * $1 }
  }
}
