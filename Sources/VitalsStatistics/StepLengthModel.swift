/// Step length from the walker's height and cadence, by the walk ratio: the ratio of step length to
/// cadence that healthy adults keep constant over their usual range of walking speeds (Sekiya et al.
/// 1997; Sekiya & Nagasaki 1998), scaled with height and anchored where the pedometer rule "a step is
/// 0.415 times the height" holds, at 112 steps per minute, a preferred adult cadence. Under 98 steps per
/// minute the walk ratio grows as walking slows (Murakami & Otaka 2017), so slower cadences take the
/// step length at 98.
///
/// Expected error: `make eval-steps-mobilise-d` measures it at the reference cadence against the stride
/// lengths of the Mobilise-D example laboratory trials (docs/accuracy.md). It is close on straight walks
/// at the walker's own pace, and far too long for the short steps of indoor walking with turns. The model
/// ignores the person's own walk ratio, which differs between people (with sex and age, as the step
/// length at a given cadence does), and the ground (slopes, stairs); it does not hold for running,
/// shuffling or children. A cadence error passes into the step length in proportion, and into the speed
/// twice.
///
/// References: N. Sekiya, H. Nagasaki, H. Ito, T. Furuna, "Optimal walking in terms of variability in step
/// length", J Orthop Sports Phys Ther 26(5), 1997, 266–272. N. Sekiya, H. Nagasaki, "Reproducibility of
/// the walking patterns of normal young adults: test-retest reliability of the walk ratio (step-length/
/// step-rate)", Gait & Posture 7(3), 1998, 225–227. R. Murakami, Y. Otaka, "Estimated lower speed boundary
/// at which the walk ratio constancy is broken in healthy adults", J Phys Ther Sci 29(4), 2017, 722–725.
public enum StepLengthModel {
  /// Step length per meter of height and per step per minute: 0.415 / 112.
  public static let walkRatioPerHeight = 0.415 / 112
  /// Cadence under which the walk ratio is no longer constant, steps per minute.
  public static let slowestConstantCadence = 98.0
  /// Heights the model takes, m.
  public static let heights: ClosedRange<Double> = 0.5...2.5

  /// The step length, m, of a walker `height` m tall at `cadence` steps per minute:
  /// `walkRatioPerHeight · height · max(cadence, slowestConstantCadence)`.
  public static func stepLength(height: Double, cadence: Double) -> Double {
    walkRatioPerHeight * height * max(cadence, slowestConstantCadence)
  }
}
