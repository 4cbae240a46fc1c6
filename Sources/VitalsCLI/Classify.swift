import ArgumentParser
import Vitals

/// `vitals classify INPUT… [--json]`: a 30-s ECG classified as a watch's ECG app does.
public struct Classify: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "classify",
    abstract: "Classify single-lead ECG recordings of 5–60 s as a watch's ECG app does.",
    discussion: """
      Classes are HealthKit's (HKElectrocardiogram): sinusRhythm, atrialFibrillation, \
      inconclusiveLowHeartRate (average below 50 bpm), inconclusiveHighHeartRate (above 150 bpm), \
      inconclusivePoorReading (too noisy to judge, or fewer than 3 beats), inconclusiveOther (a rhythm that \
      is neither). Decided in that order: poor reading, then the rate limits, then the rhythm, by models \
      fitted on the PhysioNet/CinC 2017 recordings (the ECG classification article of the documentation). \
      Each result gives the average heart rate, the deciding rule, the models' probabilities and every \
      feature measured; an Apple Health ECG export also shows Apple's classification. The lead is the \
      first channel --channel gives, else the ECG lead `vitals beats` takes, sampled at \
      \(optionRange(SupportedRates.electrocardiogramClassifier.range)) Hz. Not a medical device. Exits 1 \
      when some input could not be classified (the others still are).
      """)

  @Argument(
    help: "Recordings: WFDB records, EDF/EDF+, CSV/TSV, Apple Health ECG CSV, or - for CSV on stdin.")
  public var inputs: [String]

  @Flag(help: "One JSON object per input, one per line.")
  public var json = false

  @OptionGroup public var input: InputOptions

  public init() {}

  public func validate() throws {
    try input.checkRate(.electrocardiogramClassifier)
  }

  public func run() throws {
    try exitingOneOnFileErrors(of: inputs) { path in
      let result = try RecordingClassification(path: path, options: input.recordingOptions)
      print(json ? compactJSON(result) : result.text)
    }
  }
}
