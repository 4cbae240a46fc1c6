import VitalsSupport

extension ElectrocardiogramClassification {
  /// HealthKit's case for the classification an Apple Watch ECG export states in its header
  /// (`Classification,Sinus Rhythm`): ``notSet`` for an empty text, ``unrecognized`` for a text not
  /// listed below. Letter case and surrounding blanks (spaces, tabs, no-break spaces) do not matter.
  ///
  /// English, as the ECG app writes it: `Sinus Rhythm` → ``sinusRhythm``, `Atrial Fibrillation` →
  /// ``atrialFibrillation``, `Heart Rate Below 50` and the older `Heart Rate Under 50` →
  /// ``inconclusiveLowHeartRate``, `Heart Rate Over 150` and `Heart Rate Over 120` (version 1 of the
  /// app, which judges the rhythm up to 120 bpm only) → ``inconclusiveHighHeartRate``,
  /// `Poor Recording` → ``inconclusivePoorReading``, `Inconclusive` → ``inconclusiveOther``.
  ///
  /// Other languages, where Apple's wording is known: German `Sinusrhythmus`, `Vorhofflimmern`,
  /// `Uneindeutig`; French `Rythme sinusal`, `Fibrillation auriculaire`; Spanish `Ritmo sinusal`,
  /// `Fibrilación auricular`; Italian `Ritmo sinusale`, `Fibrillazione atriale` (the result names of
  /// Apple's ECG app support pages). Their heart-rate and poor-recording results are not listed, as
  /// their exact wording in exports is not known here: they read as ``unrecognized``.
  public init(appleWording text: String) {
    let key = text.trimmingBlanks().lowercased()
    self = key.isEmpty ? .notSet : Self.appleWordings[key] ?? .unrecognized
  }

  /// Apple's wordings, lower case, and their cases.
  private static let appleWordings: [String: ElectrocardiogramClassification] = [
    "sinus rhythm": .sinusRhythm, "atrial fibrillation": .atrialFibrillation,
    "heart rate below 50": .inconclusiveLowHeartRate, "heart rate under 50": .inconclusiveLowHeartRate,
    "heart rate over 150": .inconclusiveHighHeartRate, "heart rate over 120": .inconclusiveHighHeartRate,
    "poor recording": .inconclusivePoorReading, "inconclusive": .inconclusiveOther,
    "sinusrhythmus": .sinusRhythm, "vorhofflimmern": .atrialFibrillation, "uneindeutig": .inconclusiveOther,
    "rythme sinusal": .sinusRhythm, "fibrillation auriculaire": .atrialFibrillation,
    "ritmo sinusal": .sinusRhythm, "fibrilación auricular": .atrialFibrillation,
    "ritmo sinusale": .sinusRhythm, "fibrillazione atriale": .atrialFibrillation,
  ]
}
