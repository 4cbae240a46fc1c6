import VitalsCore
import VitalsIO

/// The samples of one quantity type in Apple Health exports (`*.xml`, ``HealthExportReader``) and
/// samples files (`*.samples.jsonl`, ``SamplesFileReader``), and their statistics, read as streams.
///
/// Opening reads every input once, in the order given: it finds the span of the type's samples (which
/// sets the intervals), the unit and the types present, and keeps no sample of a discrete type.
/// ``statistics(intervals:option:sourcePriority:separateBySource:)`` reads discrete types a second time,
/// aggregating as it goes, so that memory does not grow with the inputs; cumulative types keep their
/// samples from the first pass, as merging sources needs them together.
public struct QuantitySampleFiles {
  /// The files read, in order.
  public let inputs: [String]
  /// The type whose samples are read.
  public let type: QuantityType
  /// The unit every sample must convert to: the one asked for, else the first sample's; nil only when
  /// none was asked for and there is no sample.
  public private(set) var unit: HealthUnit?
  /// The quantity types of every sample in the inputs, of whatever type.
  public private(set) var typesFound: Set<QuantityType> = []
  /// The shortest range holding every sample of ``type`` (`SampleSpan`): from the earliest start to
  /// the latest end, or 1 ns past the latest start when that is later (an instantaneous sample at the
  /// end); nil when there is none.
  public private(set) var span: Range<Timestamp>?
  /// Cumulative types: the samples of the first pass.
  private var samples: [QuantitySample] = []

  /// Reads `inputs` once for the samples of `type` (see the type's documentation), each checked to
  /// convert to `unit` (the first sample's unit when nil). Throws `InputError` for an input that cannot
  /// be read, is neither an export nor a samples file, or holds a sample in an incompatible unit.
  public init(inputs: [String], type: QuantityType, unit: HealthUnit?) throws(InputError) {
    self.inputs = inputs
    self.type = type
    self.unit = unit
    let keeps = type.aggregationStyle != .discrete
    var span = SampleSpan()
    var kept: [QuantitySample] = []
    typesFound = try Self.forEachSample(of: type, in: inputs, unit: &self.unit) { sample throws(InputError) in
      span.include(start: sample.start, end: sample.end)
      if keeps { kept.append(sample) }
    }
    samples = kept
    self.span = span.range
  }

  /// The statistics `option` of the samples over `intervals`, in ``unit``, sources merged by
  /// `sourcePriority` (``StatisticsQuery``); with `separateBySource`, each source's own as well.
  /// Throws `InputError` naming the inputs when the query fails.
  public func statistics(
    intervals: IntervalCollection, option: StatisticsOption, sourcePriority: SourcePriority,
    separateBySource: Bool
  ) throws(InputError) -> StatisticsQuery.Result {
    let query = StatisticsQuery(
      type: type, unit: unit ?? .count, intervals: intervals, sourcePriority: sourcePriority,
      options: [option])
    let failure = { (error: StatisticsError) in
      InputError(path: inputs.joined(separator: ", "), error.description)
    }
    guard type.aggregationStyle == .discrete else {
      do { return try query.run(samples, separateBySource: separateBySource) } catch { throw failure(error) }
    }
    var stream = query.stream(separateBySource: separateBySource)
    var again = unit
    try Self.forEachSample(of: type, in: inputs, unit: &again) { sample throws(InputError) in
      do throws(StatisticsError) { try stream.add(sample) } catch { throw failure(error) }
    }
    return stream.result
  }

  /// Calls `body` with each sample of `type` in every input, in the order read, each checked to convert
  /// to `unit` (the first sample's unit when nil); returns the quantity types of all samples in the
  /// inputs.
  @discardableResult
  static func forEachSample(
    of type: QuantityType, in inputs: [String], unit: inout HealthUnit?,
    _ body: (QuantitySample) throws(InputError) -> Void
  ) throws(InputError) -> Set<QuantityType> {
    var found: Set<QuantityType> = []
    // Exports keep each type's records together: the set is updated only when the type changes.
    var previous: QuantityType?
    for path in inputs {
      let next = try samples(at: path)
      while let sample = try next() {
        guard case .quantity(let q) = sample else { continue }
        if q.type != previous {
          found.insert(q.type)
          previous = q.type
        }
        guard q.type == type else { continue }
        if unit == nil { unit = q.unit }
        guard q.unit.isConvertible(to: unit!) else {
          throw InputError(path: path, "a \(type) sample in \(q.unit) cannot be expressed in \(unit!)")
        }
        try body(q)
      }
    }
    return found
  }

  /// The reading function of the samples file (`*.samples.jsonl`) or Apple Health export (`.xml`) at
  /// `path`: each call gives the next sample, nil at the end. Throws `InputError` for another kind of
  /// file or one that cannot be opened.
  static func samples(at path: String) throws(InputError) -> () throws(InputError) -> HealthSample? {
    if path.hasSuffix(SamplesFile.fileExtension) { return try SamplesFileReader(path: path).next }
    if path.hasSuffix(".xml") { return try HealthExportReader(path: path).next }
    throw InputError(path: path, "expected an Apple Health export (.xml) or a samples file (*.samples.jsonl)")
  }
}
