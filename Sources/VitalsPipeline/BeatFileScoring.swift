import VitalsAnalysis
import VitalsIO

extension BeatFile {
  /// Reads the beats of `path` as `BeatFile.init(path:rate:recordLength:channels:)` does, an EDF+
  /// file's onsets at the rate of its ECG lead (``RecordingBeats/ecgLeadRule``) unless `channels` picks
  /// another signal.
  public init(
    beatsAt path: String, rate: Double?, recordLength: Int64? = nil, channels: [ChannelSelector]? = nil
  )
    throws(InputError)
  {
    try self.init(
      path: path, rate: rate, recordLength: recordLength,
      channels: channels ?? [.rule(RecordingBeats.ecgLeadRule)])
  }

  /// The ventricular flutter episodes (`[` to `]`) an annotation file marks; none for other kinds.
  public var flutter: FlutterEpisodes {
    FlutterEpisodes(samples: annotations.map(\.sample), symbols: annotations.map(\.symbol))
  }
}

extension RecordBeatScore {
  /// Reads the beat files `reference` and `test` (`BeatFile.init(beatsAt:rate:recordLength:channels:)`)
  /// and scores the test beats against the reference's
  /// (`BeatComparison/scoreRecord(_:reference:test:sampleRate:matchWindow:learningPeriod:excluding:)`),
  /// under the reference's record name, leaving out its flutter episodes unless `includeFlutter`.
  ///
  /// `rate` (samples per second) is for files that state none; a test file that states none when no
  /// `rate` is given indexes the reference's record, at its rate and below its length. Throws
  /// `InputError` for a file that cannot be read and for files at different rates.
  public init(
    reference: String, test: String, rate: Double?, matchWindow: Double, learningPeriod: Double,
    includeFlutter: Bool
  ) throws(InputError) {
    let referenceBeats = try BeatFile(beatsAt: reference, rate: rate)
    var testRate = rate
    if rate == nil, try !BeatFile.statesRate(path: test) { testRate = referenceBeats.sampleRate }
    let testBeats = try BeatFile(beatsAt: test, rate: testRate, recordLength: referenceBeats.recordLength)
    guard referenceBeats.sampleRate == testBeats.sampleRate else {
      throw InputError(
        path: test,
        "\(testBeats.sampleRate) Hz, but the reference \(reference) is at \(referenceBeats.sampleRate) Hz")
    }
    self = BeatComparison.scoreRecord(
      BeatFile.recordName(reference), reference: referenceBeats.samples, test: testBeats.samples,
      sampleRate: referenceBeats.sampleRate, matchWindow: matchWindow, learningPeriod: learningPeriod,
      excluding: includeFlutter ? FlutterEpisodes() : referenceBeats.flutter)
  }
}
