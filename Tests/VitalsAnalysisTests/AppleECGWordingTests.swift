import Testing
import VitalsAnalysis

@Suite("Apple Watch ECG classifications as HealthKit cases")
struct AppleECGWordingTests {
  @Test(arguments: [
    ("Sinus Rhythm", ElectrocardiogramClassification.sinusRhythm),
    ("Atrial Fibrillation", .atrialFibrillation),
    ("Heart Rate Below 50", .inconclusiveLowHeartRate),
    ("Heart Rate Under 50", .inconclusiveLowHeartRate),
    ("Heart Rate Over 150", .inconclusiveHighHeartRate),
    ("Heart Rate Over 120", .inconclusiveHighHeartRate),
    ("Poor Recording", .inconclusivePoorReading),
    ("Inconclusive", .inconclusiveOther),
    ("Sinusrhythmus", .sinusRhythm), ("Vorhofflimmern", .atrialFibrillation),
    ("Uneindeutig", .inconclusiveOther),
    ("Rythme sinusal", .sinusRhythm), ("Fibrillation auriculaire", .atrialFibrillation),
    ("Ritmo sinusal", .sinusRhythm), ("Fibrilación auricular", .atrialFibrillation),
    ("Ritmo sinusale", .sinusRhythm), ("Fibrillazione atriale", .atrialFibrillation),
    // Letter case and blanks (a no-break space) around the text do not matter.
    ("  sinus RHYTHM\u{00A0}", .sinusRhythm),
    ("", .notSet), (" ", .notSet),
    ("Heart Rate Over 100", .unrecognized), ("Sinus", .unrecognized), ("Irregular Rhythm", .unrecognized),
  ])
  func wording(text: String, expected: ElectrocardiogramClassification) {
    #expect(ElectrocardiogramClassification(appleWording: text) == expected)
  }
}
