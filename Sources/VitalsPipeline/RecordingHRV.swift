import VitalsAnalysis
import VitalsIO

/// The heart-rate variability of one input (`HRVAnalysis`): of the beats detected in a recording
/// (``RecordingBeats``), or of those a beat file gives (`BeatFile`, with its MIT labels when it has
/// them, so that only N→N intervals count).
public struct RecordingHRV: Sendable {
  /// The recording or beat file the beats come from.
  public var input: String
  /// The signal the beats were detected in; nil for a beat file.
  public var lead: String?
  /// Samples per second of the beats' indices.
  public var sampleRate: Double
  /// The variability.
  public var analysis: HRVAnalysis
  /// The spectral estimate of the frequency-domain indices.
  public var frequencyMethod: HRVFrequencyOptions.Method

  /// The variability of `beats`, detected in a recording: only N→N intervals when the beats carry their
  /// classes, artifacts dropped when `detectArtifacts`, no interval across the signal's gaps or its
  /// unusable stretches (``RecordingBeats/unusableStretches``), as `vitals analyze` computes it.
  public init(
    beats: RecordingBeats, detectArtifacts: Bool = true, frequencyOptions: HRVFrequencyOptions = .init()
  ) throws(InputError) {
    try self.init(
      input: beats.path, lead: beats.lead, sampleRate: beats.sampleRate, beats: beats.beats,
      labels: beats.classes?.map(\.mitCode),
      gaps: beats.gaps.union(beats.unusableStretches), detectArtifacts: detectArtifacts,
      frequencyOptions: frequencyOptions)
  }

  /// The variability of the beats of the file `beatFile` (`BeatFile.init(beatsAt:rate:recordLength:channels:)`
  /// with `options.channels`). Their rate: the file's own (an EDF or a record header beside it), else
  /// that of the `recording` they index (whose length then bounds them), else `rate`.
  public init(
    beatFile: String, recording: String?, rate: Double?, options: RecordingOptions = RecordingOptions(),
    detectArtifacts: Bool = true, frequencyOptions: HRVFrequencyOptions = .init()
  ) throws(InputError) {
    var fileRate = rate
    var recordLength: Int64?
    if try !BeatFile.statesRate(path: beatFile), let recording {
      let reader = try RecordingOpener.open(path: recording, options: options)
      fileRate = reader.chunkSampleRate
      recordLength = reader.signals.first?.sampleCount
    }
    let file = try BeatFile(
      beatsAt: beatFile, rate: fileRate, recordLength: recordLength, channels: options.channels)
    try self.init(
      input: beatFile, lead: nil, sampleRate: file.sampleRate, beats: file.samples, labels: file.labels,
      gaps: [], detectArtifacts: detectArtifacts, frequencyOptions: frequencyOptions)
  }

  /// NN intervals under which ``shortSeriesNote`` warns: the Task Force of the ESC and NASPE (1996) asks for
  /// recordings of 5 minutes for short-term indices (at least 2 for HF), about 150 intervals or more.
  public static let fewestIntervals = 30

  /// A note for standard error when the indices rest on fewer than ``fewestIntervals`` NN intervals.
  public var shortSeriesNote: String? {
    let count = analysis.intervals.intervals.count
    guard count < Self.fewestIntervals else { return nil }
    return "\(input): only \(count) NN interval\(count == 1 ? "" : "s"): the indices rest on too few"
      + " intervals to compare (the Task Force of 1996 asks for 5 minutes)"
  }

  /// Checks that `beats` increase strictly and give at least one NN interval; throws `InputError`
  /// naming `input` otherwise.
  private init(
    input: String, lead: String?, sampleRate: Double, beats: [Int64], labels: [String]?,
    gaps: [Range<Int64>], detectArtifacts: Bool, frequencyOptions: HRVFrequencyOptions
  ) throws(InputError) {
    if let k = beats.indices.dropFirst().first(where: { beats[$0 - 1] >= beats[$0] }) {
      throw InputError(
        path: input, "beats must be strictly increasing: sample \(beats[k]) follows \(beats[k - 1])")
    }
    analysis = HRVAnalysis(
      beats: beats, sampleRate: sampleRate, labels: labels, detectArtifacts: detectArtifacts,
      frequencyOptions: frequencyOptions, gaps: gaps)
    guard !analysis.intervals.intervals.isEmpty else {
      throw InputError(
        path: input,
        "nothing to analyze: \(beats.count) beats give \(analysis.intervals.intervals.count) NN intervals, "
          + "and HRV needs at least one")
    }
    self.input = input
    self.lead = lead
    self.sampleRate = sampleRate
    frequencyMethod = frequencyOptions.method
  }
}
