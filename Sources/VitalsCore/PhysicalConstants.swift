/// Physical constants the stages convert units with.
public enum PhysicalConstants {
  /// Standard acceleration of gravity g₀, in m/s²: 9.80665 exactly, by definition of the 3rd General
  /// Conference on Weights and Measures (CGPM 1901, Comptes rendus p. 70). The size of 1 g.
  public static let standardGravity = 9.80665
}
