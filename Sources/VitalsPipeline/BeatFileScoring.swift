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

  /// The EC57 class of each beat (`BeatClass(mitCode:)` of `labels`: `nil` for `?` and the
  /// codes without a class), or `nil` when the file carries no labels.
  public var classes: [BeatClass?]? { labels?.map { BeatClass(mitCode: $0) } }

  /// The ventricular flutter episodes (`[` to `]`) an annotation file marks; none for other kinds.
  public var flutter: FlutterEpisodes {
    FlutterEpisodes(samples: annotations.map(\.sample), symbols: annotations.map(\.symbol))
  }
}

/// The scores of one pair of beat files: beat detection, and beat classes when both files carry them.
public struct BeatFilePairScore: Sendable, Equatable {
  /// QRS detection, over the whole record and from the learning period on.
  public var beats: RecordBeatScore
  /// The bxb class matrix from the learning period on, when both files carry labels (`nil` otherwise).
  public var classes: RecordBeatClassScore?

  /// Reads the beat files `reference` and `test` (`BeatFile.init(beatsAt:rate:recordLength:channels:)`)
  /// and scores the test beats against the reference's under the reference's record name, leaving out
  /// its flutter episodes unless `includeFlutter`:
  /// `BeatComparison/scoreRecord(_:reference:test:sampleRate:matchWindow:learningPeriod:excluding:)`,
  /// and `BeatClassComparison/score(reference:referenceClasses:test:testClasses:sampleRate:matchWindow:from:excluding:)`
  /// from `learningPeriod` on when both files carry labels (`BeatFile.classes`).
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
    let record = BeatFile.recordName(reference)
    let flutter = includeFlutter ? FlutterEpisodes() : referenceBeats.flutter
    beats = BeatComparison.scoreRecord(
      record, reference: referenceBeats.samples, test: testBeats.samples,
      sampleRate: referenceBeats.sampleRate, matchWindow: matchWindow, learningPeriod: learningPeriod,
      excluding: flutter)
    guard let referenceClasses = referenceBeats.classes, let testClasses = testBeats.classes else {
      classes = nil
      return
    }
    let matrix = BeatClassComparison.score(
      reference: referenceBeats.samples, referenceClasses: referenceClasses, test: testBeats.samples,
      testClasses: testClasses, sampleRate: referenceBeats.sampleRate, matchWindow: matchWindow,
      from: learningPeriod, excluding: flutter)
    classes = RecordBeatClassScore(record: record, matrix: matrix, learningPeriod: learningPeriod)
  }
}
