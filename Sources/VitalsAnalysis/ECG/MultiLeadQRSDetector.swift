/// A streaming, causal QRS detector for the simultaneous leads of one recording (such as the 12 leads of a
/// standard ECG): one ``QRSDetector`` per lead, and a vote. A beat is reported when more than
/// ``Configuration-swift.struct/quorum`` of the leads detect it within
/// ``Configuration-swift.struct/coincidenceWindow`` of each other, placed where the first lead (the
/// reference lead) puts it, or at the lower median of the voting leads' places when the first lead does not
/// vote. Beats come out at most the leads' latency bound plus the coincidence window after their R peak,
/// and the same beats come out whatever the sizes of the blocks the leads are fed in.
///
/// A majority vote over leads (decision fusion): an artifact, a T wave taken for a beat or a missed beat in a
/// few leads is outvoted by the others. (Christov 2004, "Real time electrocardiogram QRS detection using
/// combined adaptive threshold", BioMed. Eng. OnLine 3:28, combines the leads before detection instead.)
/// The one-lead ``QRSDetector`` is unchanged by it.
///
/// Input: the leads at one rate, in any unit each. Missing samples (NaN, infinite) are handled per lead as
/// ``QRSDetector`` does; a lead inside a gap does not vote.
public struct MultiLeadQRSDetector: Sendable {
  /// The vote's parameters and the per-lead detector's.
  public struct Configuration: Sendable, Hashable {
    /// The detector run on each lead.
    public var lead = QRSDetector.Configuration()
    /// A beat needs the votes of more than this fraction of the leads (0.5: a strict majority).
    public var quorum = 0.5
    /// Detections of one beat in different leads lie within this many seconds of the earliest, seconds
    /// (shorter than the refractory period, so that a lead votes at most once per beat).
    public var coincidenceWindow = 0.100

    public init() {}
  }

  /// The parameters in use.
  public let configuration: Configuration
  /// Samples per second.
  public let sampleRate: Double
  var detectors: [QRSDetector]
  /// Each lead's beats not yet voted on, in increasing order.
  var pending: [[Int64]]
  /// Samples fed per lead.
  var fedCount: Int64 = 0
  let window: Int64
  let votesNeeded: Int

  /// A detector for `leadCount` leads sampled at `sampleRate` Hz.
  ///
  /// - Throws: ``QRSDetectorError`` when the rate or an option is outside its range.
  public init(sampleRate: Double, leadCount: Int, configuration: Configuration = Configuration())
    throws(QRSDetectorError)
  {
    guard leadCount >= 1 else { throw .invalidConfiguration("leadCount", Double(leadCount)) }
    guard (0..<1).contains(configuration.quorum) else {
      throw .invalidConfiguration("quorum", configuration.quorum)
    }
    guard (0.01...configuration.lead.refractoryPeriod).contains(configuration.coincidenceWindow) else {
      throw .invalidConfiguration("coincidenceWindow", configuration.coincidenceWindow)
    }
    let detector = try QRSDetector(sampleRate: sampleRate, configuration: configuration.lead)
    self.configuration = configuration
    self.sampleRate = sampleRate
    self.detectors = [QRSDetector](repeating: detector, count: leadCount)
    self.pending = [[Int64]](repeating: [], count: leadCount)
    self.window = Int64((configuration.coincidenceWindow * sampleRate).rounded())
    self.votesNeeded = Int((configuration.quorum * Double(leadCount)).rounded(.down)) + 1
  }

  /// The latency bound in input samples: every beat whose R peak lies this far before the last sample fed
  /// has been reported.
  public var latencySamples: Int64 { detectors[0].latencySamples + window + 1 }

  /// Feeds the next samples of every lead (the same count for each, `leads[k]` for lead `k`) and appends
  /// the record indices of the beats decided so far to `beats`, in increasing order.
  public mutating func process(_ leads: [UnsafeBufferPointer<Float>], appendingTo beats: inout [Int64]) {
    precondition(leads.count == detectors.count, "\(leads.count) leads fed, \(detectors.count) expected")
    let count = leads[0].count
    precondition(leads.allSatisfy { $0.count == count }, "every lead needs the same number of samples")
    for k in detectors.indices { detectors[k].process(leads[k], appendingTo: &pending[k]) }
    fedCount += Int64(count)
    vote(decidedThrough: fedCount - 1 - detectors[0].latencySamples, appendingTo: &beats)
  }

  /// Ends the recording: every lead decides on its last beats, and they are voted on.
  public mutating func finish(appendingTo beats: inout [Int64]) {
    for k in detectors.indices { detectors[k].finish(appendingTo: &pending[k]) }
    vote(decidedThrough: .max, appendingTo: &beats)
  }

  /// Votes on the pending beats whose coincidence window ends by `decided` (every lead has reported its
  /// beats up to there), earliest first: the earliest beat and each lead's first beat within the window
  /// after it form a cluster; a cluster with enough votes is a beat, and its votes are used up; otherwise
  /// the earliest beat alone is dropped.
  private mutating func vote(decidedThrough decided: Int64, appendingTo beats: inout [Int64]) {
    while let earliest = pending.compactMap(\.first).min(), earliest <= decided - window {
      let voters = pending.indices.filter { pending[$0].first.map { $0 <= earliest + window } ?? false }
      if voters.count >= votesNeeded {
        let places = voters.map { pending[$0][0] }
        beats.append(voters[0] == 0 ? places[0] : places.sorted()[(places.count - 1) / 2])
        for lead in voters { pending[lead].removeFirst() }
      } else {
        let lead = pending.firstIndex { $0.first == earliest }!
        pending[lead].removeFirst()
      }
    }
  }

  /// The beats of a whole recording of several leads held in memory (`leads[k]` for lead `k`, all the
  /// same length), as record sample indices: the samples fed in chunks of `chunkSize` (all at once when
  /// nil; the beats do not depend on it), then ``finish(appendingTo:)``.
  public static func detect(
    _ leads: [[Float]], sampleRate: Double, configuration: Configuration = Configuration(),
    chunkSize: Int? = nil
  ) throws(QRSDetectorError) -> [Int64] {
    var detector = try MultiLeadQRSDetector(
      sampleRate: sampleRate, leadCount: leads.count, configuration: configuration)
    var beats: [Int64] = []
    let count = leads.first?.count ?? 0
    let chunk = max(1, chunkSize ?? count)
    for start in stride(from: 0, to: count, by: chunk) {
      let end = min(start + chunk, count)
      // The leads' chunks side by side in one array, so that one pointer outlives the whole call.
      let joined = leads.flatMap { $0[start..<end] }
      joined.withUnsafeBufferPointer { all in
        let buffers = leads.indices.map { k in
          UnsafeBufferPointer(rebasing: all[(k * (end - start))..<((k + 1) * (end - start))])
        }
        detector.process(buffers, appendingTo: &beats)
      }
    }
    detector.finish(appendingTo: &beats)
    return beats
  }
}
