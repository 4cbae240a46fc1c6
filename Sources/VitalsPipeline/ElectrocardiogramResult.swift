import VitalsAnalysis
import VitalsCore
import VitalsIO
import VitalsStatistics

extension ElectrocardiogramSample {
  /// The `electrocardiogram` sample of a classified recording (`HKElectrocardiogram`), for the derived
  /// samples and `SamplesFileWriter`: the classification's HealthKit name, the average heart rate in
  /// beats per minute (nil when unknown), the lead's name, its sampling frequency in Hz, its number of
  /// samples and the recording's span. `start` must not be after `end`.
  public init(
    classification: ElectrocardiogramClassification, averageHeartRate: Double?, lead: String,
    samplingFrequency: Double, numberOfVoltageMeasurements: Int, start: Timestamp, end: Timestamp,
    source: String = "Vitals", device: String? = nil
  ) {
    self.init(
      classification: classification.rawValue, averageHeartRate: averageHeartRate, lead: lead,
      samplingFrequency: samplingFrequency, numberOfVoltageMeasurements: numberOfVoltageMeasurements,
      start: start, end: end, source: source, device: device)
  }
}

extension RecordingSummary {
  /// An Apple Health ECG export's own classification (its header's `classification`) as HealthKit's case
  /// (`ElectrocardiogramClassification/init(appleWording:)`; `notSet` when the header states none); nil
  /// for other formats.
  public var appleClassification: ElectrocardiogramClassification? {
    guard kind == .appleHealthECG else { return nil }
    return ElectrocardiogramClassification(appleWording: metadata["classification"] ?? "")
  }
}

extension RecordingOpener {
  /// The recording's summary (`RecordingOpener.summarize(path:options:scanning:)`) as `vitals info`
  /// shows it: an Apple Health ECG export's also holds `classification_healthkit`, its
  /// `RecordingSummary.appleClassification`'s HealthKit name, beside Apple's text (`classification`),
  /// and `classification_vitals`, Vitals' own (``RecordingClassification``; the reason when it cannot
  /// classify the recording).
  public static func describe(
    path: String, options: RecordingOptions = RecordingOptions(), scanning: Bool = false
  ) throws(InputError) -> RecordingSummary {
    var summary = try summarize(path: path, options: options, scanning: scanning)
    guard let apple = summary.appleClassification else { return summary }
    summary.metadata["classification_healthkit"] = apple.rawValue
    do {
      let own = try RecordingClassification(path: path, options: options)
      summary.metadata["classification_vitals"] = own.report.classification.rawValue
    } catch {
      summary.metadata["classification_vitals"] = "not classified: \(error.message)"
    }
    return summary
  }
}
