import VitalsAnalysis

/// Irregular-rhythm (possible atrial fibrillation) episodes from a stream of beats, in bounded memory.
///
/// Beats, each with its EC57 class when known, are analyzed in blocks of ``block`` with
/// `AtrialFibrillationDetector` (Lake & Moorman 2011 COSEn, Dash et al. 2009 nRMSSD, a linear-prediction
/// check against smooth sinus arrhythmia, Petrėnas et al. 2015 pattern check, Lipponen & Tarvainen 2019
/// artifacts, ectopic beats left out by class) over a window that keeps
/// ``context`` beats on each side of the block, so each decision sees the neighborhood the
/// whole-record detector would (its windows reach 12 beats, the artifact rule's 45 beats); only the
/// last block of a record is decided without the beats after it. Covered spans are joined across
/// regular gaps shorter than the detector's `bridgedGap` (10 s), and an episode
/// is reported once it lasts `minimumEpisodeDuration` (30 s): the start event comes when that is
/// known (at least 30 s and about ``context`` + ``block`` beats after the start), the end event once
/// the gap after it exceeds the bridged gap.
struct IrregularRhythmTracker: Sendable {
  /// Beats decided per analysis.
  static let block = 32
  /// Beats of context kept on each side of a block.
  static let context = 48

  let detector: AtrialFibrillationDetector
  let sampleRate: Double
  let keepsEpisodes: Bool
  let bridge: Int64
  let minimumDuration: Int64
  var window: [Int64] = []
  /// The class of each beat of ``window`` (`.normal` for a beat added without one).
  var classes: [BeatClass] = []
  var pending = 0
  /// Record sample up to which coverage has been decided.
  var decidedUntil: Int64?
  /// The episode being built: covered from `start` to `end`; `announced` once its start event is out.
  var open: (start: Int64, end: Int64, announced: Bool)?
  /// Reported episodes (whole records only).
  var episodes: [IrregularRhythmEpisode] = []
  /// Seconds in reported episodes.
  var irregularSeconds = 0.0
  /// The signal's gaps, as record sample ranges: no interval across one is judged.
  var gaps: [Range<Int64>] = []
  /// The detector's storage, reused from block to block: the analysis of a block allocates nothing once
  /// it has grown to the window.
  var workspace = AtrialFibrillationDetector.Workspace()

  init(parameters: AtrialFibrillationDetector.Parameters, sampleRate: Double, keepsEpisodes: Bool) {
    detector = AtrialFibrillationDetector(parameters: parameters)
    self.sampleRate = sampleRate
    self.keepsEpisodes = keepsEpisodes
    bridge = Int64((parameters.bridgedGap * sampleRate).rounded())
    minimumDuration = Int64((parameters.minimumEpisodeDuration * sampleRate).rounded())
  }

  /// Adds the next beat (record sample index) and its class, if known; appends the episode events decided
  /// by now. A beat whose class is not ``BeatClass/normal`` is left out of the irregularity measures with
  /// the intervals around it (`AtrialFibrillationDetector`'s `beatClasses`); a beat without a class is
  /// judged as a normal one (still subject to the artifact rule).
  mutating func add(_ beat: Int64, beatClass: BeatClass?, events: inout [PipelineEvent]) {
    window.append(beat)
    classes.append(beatClass ?? .normal)
    pending += 1
    if pending >= Self.block && window.count >= 2 * Self.context + Self.block {
      analyze(through: window[window.count - 1 - Self.context], events: &events)
      window.removeFirst(window.count - 2 * Self.context)
      classes.removeFirst(classes.count - 2 * Self.context)
      pending = 0
    }
  }

  /// Decides the rest of the record, closes the open episode and returns the episodes.
  mutating func finish(events: inout [PipelineEvent]) -> [IrregularRhythmEpisode] {
    if let last = window.last, pending > 0 || decidedUntil == nil {
      analyze(through: last, events: &events)
    }
    close(events: &events)
    window.removeAll()
    classes.removeAll()
    pending = 0
    return episodes
  }

  /// Runs the detector on the window and takes its coverage up to sample `horizon`.
  private mutating func analyze(through horizon: Int64, events: inout [PipelineEvent]) {
    let from = decidedUntil ?? window.first!
    detector.analyze(
      beats: window, sampleRate: sampleRate, beatClasses: classes, gaps: gaps, judging: from..<horizon,
      into: &workspace)
    for span in workspace.covered {
      let (lower, upper) = (max(span.lowerBound, from), min(span.upperBound, horizon))
      if lower < upper { cover(lower..<upper, events: &events) }
    }
    decidedUntil = horizon
    if let current = open, horizon - current.end > bridge { close(events: &events) }
  }

  private mutating func cover(_ span: Range<Int64>, events: inout [PipelineEvent]) {
    if let current = open, span.lowerBound - current.end <= bridge {
      open!.end = max(current.end, span.upperBound)
    } else {
      close(events: &events)
      open = (span.lowerBound, span.upperBound, false)
    }
    if let current = open, !current.announced, current.end - current.start >= minimumDuration {
      open!.announced = true
      events.append(
        PipelineEvent(.irregularRhythmStart, signal: .ecg, sampleIndex: current.start, sampleRate: sampleRate)
      )
    }
  }

  private mutating func close(events: inout [PipelineEvent]) {
    defer { open = nil }
    guard let current = open, current.announced else { return }
    let episode = IrregularRhythmEpisode(
      startSample: current.start, endSample: current.end, sampleRate: sampleRate)
    irregularSeconds += episode.duration
    if keepsEpisodes { episodes.append(episode) }
    events.append(
      PipelineEvent(
        .irregularRhythmEnd(duration: episode.duration), signal: .ecg, sampleIndex: current.end,
        sampleRate: sampleRate))
  }
}
