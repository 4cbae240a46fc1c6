import VitalsAnalysis
import VitalsCore
import VitalsStatistics

extension DerivedMetrics {
  /// `walkingAsymmetryPercentage` samples: one per walking bout of at least `minimumSteps` steps that
  /// holds a pair of step times (`BoutAsymmetry`), spanning the bout. The value is the fraction of
  /// asymmetric pairs (0.07 for 7 %), as Apple Health writes this type under the unit `%`.
  public static func walkingAsymmetry(
    _ bouts: [BoutAsymmetry], minimumSteps: Int, source: String = "Vitals", device: String? = nil
  ) -> [QuantitySample] {
    bouts.filter { $0.bout.steps >= minimumSteps }.compactMap { bout in
      bout.percentage.map {
        QuantitySample(
          type: .walkingAsymmetryPercentage, value: $0 / 100, unit: .percent, start: bout.bout.start.time,
          end: bout.bout.end.time, source: source, device: device)
      }
    }
  }
}
