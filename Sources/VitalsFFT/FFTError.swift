/// Bad input to a transform or spectral estimate: a buffer of the wrong length, a parameter out of
/// range, or a request FFTW cannot plan. Each case names what was expected and what was found.
public enum FFTError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A buffer whose length differs from what the plan or estimator needs.
  case lengthMismatch(buffer: String, expected: Int, actual: Int)
  /// An input shorter than the minimum the estimate needs (for example, one Welch segment).
  case inputTooShort(buffer: String, minimum: Int, actual: Int)
  /// A parameter outside its valid range; `requirement` states the range.
  case invalidParameter(name: String, requirement: String, actual: String)
  /// FFTW returned no plan for this transform (size too large for the address space).
  case planningFailed(size: Int, kind: FFTPlan.Kind, precision: FFTPrecision)

  /// The problem as one line: what was expected and what was found.
  public var description: String {
    switch self {
    case .lengthMismatch(let buffer, let expected, let actual):
      "\(buffer): expected \(expected) elements, got \(actual)"
    case .inputTooShort(let buffer, let minimum, let actual):
      "\(buffer): expected at least \(minimum) elements, got \(actual)"
    case .invalidParameter(let name, let requirement, let actual):
      "\(name): expected \(requirement), got \(actual)"
    case .planningFailed(let size, let kind, let precision):
      "FFTW could not plan a \(precision) \(kind) transform of size \(size)"
    }
  }
}
