/// What a single-lead ECG recording of at most 60 s shows, in HealthKit's terms: the cases of
/// `HKElectrocardiogram.Classification`, whose names are the raw values (as HealthKit spells them).
///
/// `inconclusiveLowHeartRate` and `inconclusiveHighHeartRate` are recordings whose average heart rate
/// is below 50 or above 150 bpm, where the rhythm is not judged; `inconclusivePoorReading` is a
/// recording too noisy to judge; `inconclusiveOther` a rhythm that is neither sinus rhythm nor atrial
/// fibrillation. `notSet` and `unrecognized` are HealthKit's cases for a recording without a
/// classification and for one whose classification is not known to the reader.
public enum ElectrocardiogramClassification: String, Sendable, Hashable, Codable, CaseIterable {
  case notSet
  case sinusRhythm
  case atrialFibrillation
  case inconclusiveLowHeartRate
  case inconclusiveHighHeartRate
  case inconclusivePoorReading
  case inconclusiveOther
  case unrecognized
}
