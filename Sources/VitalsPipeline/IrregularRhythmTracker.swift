import VitalsAnalysis

/// Irregular-rhythm (possible atrial fibrillation) episodes from a stream of beats, in bounded memory.
///
/// Beats, each with its EC57 class when known, are analyzed in blocks of at least ``block`` beats with
/// `AtrialFibrillationDetector` (Lake & Moorman 2011 COSEn, Dash et al. 2009 nRMSSD, a linear-prediction
/// check against smooth sinus arrhythmia, Petrėnas et al. 2015 pattern check, Lipponen & Tarvainen 2019
/// artifacts, ectopic beats left out by class) over a window that keeps ``context`` judged intervals
/// (between two normal beats) on each side of the block, however many ectopic beats lie between. Its
/// windows reach 12 of them; the artifact rule's thresholds reach about 50 (a 91-interval quartile
/// deviation of the deviations from an 11-interval median), and its run check carries the last 11
/// accepted intervals forward. With 96, every episode equals the whole-record detector's on the shared
/// MIT-BIH and CPSC 2021 records, with their annotated beats and classes (tested) and with the pipeline's
/// own; 48 beats, as before, missed or added episodes where ectopic beats are many (MIT-BIH 106, 207 and
/// 217 with the pipeline's beats, and the ectopic runs of the tests). Only the
/// last block of a record is decided without the intervals after it. Covered spans are joined across
/// regular gaps shorter than the detector's `bridgedGap` (10 s), and an episode
/// is reported once it lasts `minimumEpisodeDuration` (30 s): the start event comes when that is
/// known (at least 30 s, and ``block`` beats and ``context`` judged intervals after the start), the end
/// event once the gap after it exceeds the bridged gap.
struct IrregularRhythmTracker: Sendable {
  /// Beats decided per analysis of a live stream: few, since the start event's delay grows with it.
  static let liveBlock = 32
  /// Beats decided per analysis of a whole recording: many, since each analysis also reads at least
  /// 2 · ``context`` beats of context (6 times the block's beats at ``liveBlock``, under a fifth of them here).
  static let recordingBlock = 1024
  /// Judged intervals (between two normal beats) kept on each side of a block (see the type).
  static let context = 96
  /// The most beats of context on a side, where ectopic or paced beats leave fewer than ``context``
  /// judged intervals among them (a paced record has none): this bounds the window, and the work per beat.
  static let contextBeatLimit = 8 * context

  /// The fewest beats decided per analysis (``liveBlock`` or ``recordingBlock``): the decisions do not
  /// depend on it, since each sees ``context`` judged intervals on both sides.
  let block: Int

  let detector: AtrialFibrillationDetector
  let sampleRate: Double
  let keepsEpisodes: Bool
  let bridge: Int64
  let minimumDuration: Int64
  var window: [Int64] = []
  /// The class of each beat of ``window`` (`.normal` for a beat added without one).
  var classes: [BeatClass] = []
  /// The beats at the end of ``window`` not decided yet.
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

  init(parameters: AtrialFibrillationDetector.Parameters, sampleRate: Double, keepsEpisodes: Bool, block: Int)
  {
    precondition(block >= 1, "a block holds at least one beat")
    self.block = block
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
    guard pending > block + Self.context, let horizon = contextStart(endingAt: window.count - 1),
      window.count - horizon <= pending - block
    else { return }
    analyze(through: window[horizon], events: &events)
    pending = window.count - horizon
    let kept = contextStart(endingAt: horizon) ?? 0
    window.removeFirst(kept)
    classes.removeFirst(kept)
  }

  /// The latest index of ``window`` such that the beats from it through `end` bound ``context`` judged
  /// intervals (both beats normal) or number ``contextBeatLimit``; nil when the window holds fewer.
  private func contextStart(endingAt end: Int) -> Int? {
    var judged = 0
    var index = end
    while index > 0 && end - index + 1 < Self.contextBeatLimit {
      if classes[index] == .normal && classes[index - 1] == .normal {
        judged += 1
        if judged == Self.context { return index - 1 }
      }
      index -= 1
    }
    return index > 0 ? index : nil
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
