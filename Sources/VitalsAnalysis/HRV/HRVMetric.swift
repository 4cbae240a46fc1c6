/// One heart-rate variability index as every output reports it: its NeuroKit2 name, its unit and its
/// domain, and where its value lives in the results.
///
/// ``all`` is the table, in NeuroKit2 0.2.13's order (`hrv_time`, `hrv_frequency`, `hrv_nonlinear`);
/// NeuroKit2's column for an index is `HRV_` followed by ``name``. Units are written in ASCII: `ms`,
/// `ms2` (ms²), `%`, `Hz`, `bpm`, or empty for ratios and unitless indices.
public struct HRVMetric: Sendable {
  /// The family an index belongs to, as NeuroKit2 groups them.
  public enum Domain: String, Sendable, CaseIterable {
    case time, frequency, nonlinear
  }

  /// Where an index's value lives: a field of one of the domains' results.
  enum Field: Sendable {
    case time(@Sendable (HRVTimeDomain) -> Double)
    case frequency(@Sendable (HRVFrequencyDomain) -> Double)
    case poincare(@Sendable (PoincarePlot) -> Double)
    case nonlinear(@Sendable (HRVNonlinear) -> Double)
  }

  /// NeuroKit2's name of the index, without the `HRV_` prefix (`SDNN`, `LFHF`, `DFA_alpha1`).
  public let name: String
  /// The unit of the index's value (see the type's documentation).
  public let unit: String
  /// The index's domain.
  public let domain: Domain
  let field: Field

  private init(_ name: String, _ unit: String, _ field: Field) {
    self.name = name
    self.unit = unit
    self.field = field
    switch field {
    case .time: domain = .time
    case .frequency: domain = .frequency
    case .poincare, .nonlinear: domain = .nonlinear
    }
  }

  /// The index's value in `time`, `frequency` and `nonlinear` results (Poincaré indices are read from
  /// `poincare`); NaN for an index of ``HRVNonlinear`` other than Poincaré's when `nonlinear` is nil.
  public func value(
    time: HRVTimeDomain, frequency: HRVFrequencyDomain, poincare: PoincarePlot, nonlinear: HRVNonlinear? = nil
  ) -> Double {
    switch field {
    case .time(let read): read(time)
    case .frequency(let read): read(frequency)
    case .poincare(let read): read(poincare)
    case .nonlinear(let read): nonlinear.map(read) ?? .nan
    }
  }

  /// The index of ``all`` named `name`; nil when there is none.
  public static func named(_ name: String) -> HRVMetric? { all.first { $0.name == name } }

  /// Every index, in NeuroKit2's order within each domain: time, frequency, nonlinear.
  public static let all: [HRVMetric] = time + frequency + nonlinear

  private static let time: [HRVMetric] = [
    HRVMetric("MeanNN", "ms", .time { $0.meanNN }), HRVMetric("SDNN", "ms", .time { $0.sdnn }),
    HRVMetric("SDANN1", "ms", .time { $0.sdann1 }), HRVMetric("SDNNI1", "ms", .time { $0.sdnni1 }),
    HRVMetric("SDANN2", "ms", .time { $0.sdann2 }), HRVMetric("SDNNI2", "ms", .time { $0.sdnni2 }),
    HRVMetric("SDANN5", "ms", .time { $0.sdann5 }), HRVMetric("SDNNI5", "ms", .time { $0.sdnni5 }),
    HRVMetric("RMSSD", "ms", .time { $0.rmssd }), HRVMetric("SDSD", "ms", .time { $0.sdsd }),
    HRVMetric("CVNN", "", .time { $0.cvnn }), HRVMetric("CVSD", "", .time { $0.cvsd }),
    HRVMetric("MedianNN", "ms", .time { $0.medianNN }), HRVMetric("MadNN", "ms", .time { $0.madNN }),
    HRVMetric("MCVNN", "", .time { $0.mcvnn }), HRVMetric("IQRNN", "ms", .time { $0.iqrnn }),
    HRVMetric("SDRMSSD", "", .time { $0.sdrmssd }), HRVMetric("Prc20NN", "ms", .time { $0.prc20NN }),
    HRVMetric("Prc80NN", "ms", .time { $0.prc80NN }), HRVMetric("pNN50", "%", .time { $0.pnn50 }),
    HRVMetric("pNN20", "%", .time { $0.pnn20 }), HRVMetric("MinNN", "ms", .time { $0.minNN }),
    HRVMetric("MaxNN", "ms", .time { $0.maxNN }), HRVMetric("HTI", "", .time { $0.hti }),
    HRVMetric("TINN", "ms", .time { $0.tinn }), HRVMetric("MeanHR", "bpm", .time { $0.meanHR }),
    HRVMetric("MinHR", "bpm", .time { $0.minHR }), HRVMetric("MaxHR", "bpm", .time { $0.maxHR }),
  ]

  private static let frequency: [HRVMetric] = [
    HRVMetric("ULF", "ms2", .frequency { $0.ulf }), HRVMetric("VLF", "ms2", .frequency { $0.vlf }),
    HRVMetric("LF", "ms2", .frequency { $0.lf }), HRVMetric("HF", "ms2", .frequency { $0.hf }),
    HRVMetric("VHF", "ms2", .frequency { $0.vhf }), HRVMetric("TP", "ms2", .frequency { $0.tp }),
    HRVMetric("LFHF", "", .frequency { $0.lfhf }), HRVMetric("LFn", "", .frequency { $0.lfn }),
    HRVMetric("HFn", "", .frequency { $0.hfn }), HRVMetric("LnHF", "", .frequency { $0.lnhf }),
    HRVMetric("ULF_Peak", "Hz", .frequency { $0.ulfPeak }),
    HRVMetric("VLF_Peak", "Hz", .frequency { $0.vlfPeak }),
    HRVMetric("LF_Peak", "Hz", .frequency { $0.lfPeak }),
    HRVMetric("HF_Peak", "Hz", .frequency { $0.hfPeak }),
    HRVMetric("VHF_Peak", "Hz", .frequency { $0.vhfPeak }),
  ]

  private static let nonlinear: [HRVMetric] = [
    HRVMetric("SD1", "ms", .poincare { $0.sd1 }), HRVMetric("SD2", "ms", .poincare { $0.sd2 }),
    HRVMetric("SD1SD2", "", .poincare { $0.sd1sd2 }), HRVMetric("S", "ms2", .poincare { $0.s }),
    HRVMetric("CSI", "", .poincare { $0.csi }), HRVMetric("CVI", "", .poincare { $0.cvi }),
    HRVMetric("ApEn", "", .nonlinear { $0.apEn }), HRVMetric("SampEn", "", .nonlinear { $0.sampEn }),
    HRVMetric("DFA_alpha1", "", .nonlinear { $0.dfaAlpha1 }),
    HRVMetric("DFA_alpha2", "", .nonlinear { $0.dfaAlpha2 }),
  ]
}

extension HRVAnalysis {
  /// The value of `metric` in this analysis.
  public func value(of metric: HRVMetric) -> Double {
    metric.value(time: time, frequency: frequency, poincare: nonlinear.poincare, nonlinear: nonlinear)
  }
}
