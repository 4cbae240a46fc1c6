import VitalsAnalysis
import VitalsCore
import VitalsIO

/// The beats found in one signal of a recording file, read chunk by chunk: the QRS detector's R peaks
/// on the ECG lead with their EC57 classes
/// (``init(ecgPath:options:configuration:chunkSize:assessingQuality:)``), or the pulse detector's
/// systolic peaks on the first PPG channel
/// (``init(ppgPath:options:accelerometer:chunkSize:)``).
///
/// Open → pick the signal → detect → classify → finish: the detector's `QRSDetector/finish(appendingTo:)`
/// decides the beats of the last samples, so the list is the whole record's. Encoded as
/// `{"input", "lead", "sample_rate", "beats": [{"sample", "time_s", "label"}]}` (`label`: the class's
/// letter, ECG only) and `class_counts` (beats per class, ECG only).
public struct RecordingBeats: Sendable, Encodable {
  /// The recording's path.
  public var path: String
  /// The signal's name as the file gives it (the ECG lead or the PPG channel).
  public var lead: String
  /// Samples per second of the signal and of ``beats``.
  public var sampleRate: Double
  /// Record sample indices of the beats (R peaks or systolic peaks), increasing.
  public var beats: [Int64]
  /// The EC57 class of each beat (`BeatClassifier`, on every ECG lead of the recording); nil for PPG.
  public var classes: [BeatClass]?
  /// The names of the leads the classes were read from (the lead first); empty for PPG.
  public var classificationLeads: [String] = []
  /// Samples read from the signal (the record's length).
  public var sampleCount: Int64
  /// The signal's gaps (missing samples), as record sample ranges: no interval across one is measured.
  public var gaps: [Range<Int64>]
  /// The record sample ranges of the ECG lead's windows that `ECGSignalQuality` marks unusable, as
  /// `vitals analyze` leaves them out of the variability; empty unless asked for
  /// (``init(ecgPath:options:configuration:chunkSize:assessingQuality:)``) and for PPG.
  public var unusableStretches: [Range<Int64>] = []

  /// Reads the recording at `path`, detects the R peaks of its ECG lead and classifies them on every
  /// ECG lead: the lead is the first channel `options.channels` gives (the classification reads every
  /// channel given), else ``ecgLeadRule``'s (the classification reads it and every other signal that
  /// `ChannelRoles/ecgLeads(named:lead:)` names a lead). With `assessingQuality`, also judges the lead's
  /// signal quality (``unusableStretches``). Throws `InputError` for unreadable input and for a rate the
  /// detector does not support.
  public init(
    ecgPath path: String, options: RecordingOptions,
    configuration: QRSDetector.Configuration = QRSDetector.Configuration(),
    chunkSize: Int = SignalChunk.defaultSampleCount, assessingQuality: Bool = false
  ) throws(InputError) {
    var reader = try RecordingOpener.open(path: path, options: options)
    let names = reader.signals.map(\.name)
    guard !names.isEmpty else { throw InputError(path: path, "no ECG lead: the recording has no signal") }
    let leads =
      options.channels != nil
      ? Array(names.indices)
      : ChannelRoles.ecgLeads(named: names, lead: ChannelRoles.ecgLead(named: names) ?? 0)
    var stage: ECGBeatStage
    do {
      stage = try ECGBeatStage(
        sampleRate: reader.chunkSampleRate, leadCount: leads.count, configuration: configuration)
    } catch {
      throw InputError(path: path, error.description)
    }
    var quality = assessingQuality ? try? ECGSignalQuality(sampleRate: reader.chunkSampleRate) : nil
    var windows: [ECGSignalQuality.Window] = []
    var sampleCount: Int64 = 0
    while let chunk = try reader.nextChunk(maxSamples: chunkSize) {
      stage.process(leads.map { chunk.channels[$0] })
      quality?.process(chunk.channels[leads[0]], appendingTo: &windows)
      sampleCount += Int64(chunk.sampleCount)
    }
    stage.finish()
    quality?.finish(appendingTo: &windows)
    self.init(
      path: path, lead: names[leads[0]], sampleRate: reader.chunkSampleRate, beats: stage.beats,
      sampleCount: sampleCount, gaps: stage.detector.gaps)
    unusableStretches = ECGSignalQuality.unusableStretches(windows)
    self.classes = stage.classes
    classificationLeads = leads.map { names[$0] }
  }

  /// The R peaks of `leads[0]` and the EC57 class of each beat from its morphology on every lead of
  /// `leads` (at least one, all equally long, at `sampleRate` Hz), as
  /// ``init(ecgPath:options:configuration:chunkSize:assessingQuality:)`` finds them in a file: `beats` are
  /// sample indices from the first sample, `classes` one per beat, `gaps` the runs of NaN or infinite
  /// samples of `leads[0]`. Throws `QRSDetectorError` for a rate the detector does not support.
  public static func detect(
    leads: [[Float]], sampleRate: Double,
    configuration: QRSDetector.Configuration = QRSDetector.Configuration()
  ) throws(QRSDetectorError) -> (beats: [Int64], classes: [BeatClass], gaps: [Range<Int64>]) {
    var stage = try ECGBeatStage(sampleRate: sampleRate, leadCount: leads.count, configuration: configuration)
    stage.process(leads)
    stage.finish()
    return (stage.beats, stage.classes, stage.detector.gaps)
  }

  /// The R peaks of `lead` (at `sampleRate` Hz) as ``detect(leads:sampleRate:configuration:)`` finds them
  /// in its first lead, without classifying them (the classifier does not move them): sample indices from
  /// the first sample, and the runs of NaN or infinite samples. With `jobs` of 2 or more, the filtering
  /// and the decisions run on two threads (`QRSDetector/processOnTwoThreads(_:appendingTo:)`): the same
  /// peaks. Throws `QRSDetectorError` for a rate the detector does not support.
  public static func peaks(
    lead: UnsafeBufferPointer<Float>, sampleRate: Double,
    configuration: QRSDetector.Configuration = QRSDetector.Configuration(), jobs: Int = 1
  ) throws(QRSDetectorError) -> (beats: [Int64], gaps: [Range<Int64>]) {
    precondition(jobs >= 1, "jobs must be at least 1, got \(jobs)")
    var detector = try QRSDetector(sampleRate: sampleRate, configuration: configuration)
    var beats: [Int64] = []
    if jobs > 1 {
      detector.processOnTwoThreads(lead, appendingTo: &beats)
    } else {
      detector.process(lead, appendingTo: &beats)
    }
    detector.finish(appendingTo: &beats)
    return (beats, detector.gaps)
  }

  /// Reads the recording at `path` and detects the systolic peaks of its first PPG channel
  /// (``PPGRecording``: `options.channels` names the PPG channels, `accelerometer` the axes); `lead` is
  /// that channel's name. Throws `InputError` for unreadable input, a recording without a PPG channel
  /// and a rate the detector does not support.
  public init(
    ppgPath path: String, options: RecordingOptions, accelerometer: [ChannelSelector]? = nil,
    chunkSize: Int = SignalChunk.defaultSampleCount
  ) throws(InputError) {
    var recording = try PPGRecording(path: path, options: options, accelerometer: accelerometer)
    var detector: PPGPulseDetector
    do {
      detector = try PPGPulseDetector(sampleRate: recording.sampleRate)
    } catch {
      throw InputError(path: path, error.description)
    }
    var pulses: [PPGPulse] = []
    var sampleCount: Int64 = 0
    try recording.forEachChunk(chunkSize: chunkSize) { ppg, _ in
      pulses += detector.process(ppg[0])
      sampleCount += Int64(ppg[0].count)
    }
    self.init(
      path: path, lead: recording.ppgNames[0], sampleRate: recording.sampleRate, beats: pulses.map(\.peak),
      sampleCount: sampleCount, gaps: detector.gaps)
  }

  private init(
    path: String, lead: String, sampleRate: Double, beats: [Int64], sampleCount: Int64, gaps: [Range<Int64>]
  ) {
    self.path = path
    self.lead = lead
    self.sampleRate = sampleRate
    self.beats = beats
    self.sampleCount = sampleCount
    self.gaps = gaps
  }

  /// The ECG lead of a recording whose signals are `names`: MLII, else II, else the first name with
  /// ECG/EKG or a standard lead name (``ChannelRoles/ecgLead(named:)``), else the first signal.
  public static let ecgLeadRule = ChannelRule("the ECG lead") { names in
    names.isEmpty ? nil : ChannelRoles.ecgLead(named: names) ?? 0
  }

  private struct Beat: Encodable {
    var sample: Int64
    var time_s: Double
    var label: String?
  }

  private enum CodingKeys: String, CodingKey {
    case input, lead, sample_rate, beats, class_counts
  }

  /// Beats per class (``classes``), by letter; nil for PPG.
  public var classCounts: [String: Int]? {
    classes.map { BeatClass.countsByLetter(BeatClass.counts(of: $0)) }
  }

  /// Encodes the beats as the type's documentation states.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(path, forKey: .input)
    try c.encode(lead, forKey: .lead)
    try c.encode(sampleRate, forKey: .sample_rate)
    try c.encode(
      beats.indices.map {
        Beat(sample: beats[$0], time_s: Double(beats[$0]) / sampleRate, label: classes?[$0].letter)
      }, forKey: .beats)
    try c.encodeIfPresent(classCounts, forKey: .class_counts)
  }
}

/// A recording opened for PPG analysis: every signal read, the PPG channels and accelerometer axes
/// picked by ``ChannelRoles`` (with its PPG fallback), as `vitals analyze` recognizes them.
public struct PPGRecording {
  /// The reader, positioned at the next chunk.
  public var reader: any SignalReader
  /// Indices of the PPG channels, at least one.
  public let ppg: [Int]
  /// Indices of the accelerometer axes, possibly none.
  public let axes: [Int]
  /// Samples per second of every channel.
  public var sampleRate: Double { reader.chunkSampleRate }
  /// Names of the PPG channels.
  public var ppgNames: [String] { ppg.map { reader.signals[$0].name } }

  /// Opens `path` with `options`, whose `channels` name the PPG channels (else they are recognized);
  /// `accelerometer` names the axes. Throws `InputError` when there is no PPG channel.
  public init(path: String, options: RecordingOptions, accelerometer: [ChannelSelector]?) throws(InputError) {
    var open = options
    open.channels = nil
    reader = try RecordingOpener.open(path: path, options: open)
    (ppg, axes) = try Self.channels(
      signals: reader.signals, ppg: options.channels, accelerometer: accelerometer, path: path)
  }

  /// The PPG channels and accelerometer axes of `signals`: those `ppg` and `accelerometer` name, else
  /// those ``ChannelRoles`` recognizes; throws when there is no PPG channel.
  public static func channels(
    signals: [SignalDescription], ppg: [ChannelSelector]?, accelerometer: [ChannelSelector]?, path: String
  ) throws(InputError) -> (ppg: [Int], axes: [Int]) {
    let roles = try ChannelRoles(
      signals: signals, overrides: ChannelRoles.Overrides(ppg: ppg, accelerometer: accelerometer), path: path,
      ppgFallback: true)
    guard !roles.ppg.isEmpty else { throw InputError(path: path, "no PPG signal (give --channel)") }
    return (roles.ppg, roles.accelerometer)
  }

  /// Reads the recording to its end, calling `body` with each chunk's PPG channels and axes.
  public mutating func forEachChunk(
    chunkSize: Int = SignalChunk.defaultSampleCount, _ body: (_ ppg: [[Float]], _ axes: [[Float]]) -> Void
  ) throws(InputError) {
    while let chunk = try reader.nextChunk(maxSamples: chunkSize) {
      body(ppg.map { chunk.channels[$0] }, axes.map { chunk.channels[$0] })
    }
  }
}

/// The QRS detector on the first lead and the beat classifier on every lead, fed chunk by chunk.
private struct ECGBeatStage {
  var detector: QRSDetector
  var classifier: BeatClassifier
  /// The R peaks decided so far, sample indices from the first sample fed.
  var beats: [Int64] = []
  /// The classes of the first beats, in beat order.
  var classes: [BeatClass] = []

  init(sampleRate: Double, leadCount: Int, configuration: QRSDetector.Configuration) throws(QRSDetectorError)
  {
    detector = try QRSDetector(sampleRate: sampleRate, configuration: configuration)
    classifier = BeatClassifier(
      sampleRate: sampleRate, leadCount: leadCount, latency: detector.latencySamples)
  }

  /// Feeds the next samples of every lead (equally long); detection runs on `leads[0]`.
  mutating func process(_ leads: [[Float]]) {
    let first = beats.count
    leads[0].withUnsafeBufferPointer { detector.process($0, appendingTo: &beats) }
    for beat in beats[first...] { classifier.add(beat: beat) }
    classifier.process(leads, appendingTo: &classes)
  }

  /// Decides the beats of the last samples and classifies every beat left.
  mutating func finish() {
    let first = beats.count
    detector.finish(appendingTo: &beats)
    for beat in beats[first...] { classifier.add(beat: beat) }
    classifier.finish(appendingTo: &classes)
  }
}
