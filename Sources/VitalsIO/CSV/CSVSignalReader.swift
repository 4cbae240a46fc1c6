import VitalsCore

/// Streams the numeric columns of a CSV or TSV file (or standard input, `-`) as chunks.
///
/// The layout is recognized from the first 64 lines (see ``CSVOptions`` for each rule): delimiter,
/// decimal comma (with `;` or tab delimiters), preamble, header, time column and unit. Signals are
/// the other columns (named by the header, else `col0`, `col1`, … by file column), optionally
/// selected by name or 0-based index into that list.
///
/// **Timing.** Without a time column the samples are uniform at the given rate. With one, every stamp
/// is checked: stamps never go backwards (an error naming the line). The rate is measured on the
/// first 8192 stamps, on their longest run without a gap (exactly when the intervals are whole
/// multiples of one number of nanoseconds, else by least squares:
/// `UniformGridInterpolator/measuredRate(times:)`, robust to jitter and coarse timers). When every
/// interval of those rows lies within 1 % of the sample interval or of a whole multiple of it, the
/// samples pass unchanged (``CSVTiming/uniformTimestamps``); otherwise the file is resampled onto
/// the uniform grid starting at the first stamp. A stamp equal to the one before is accepted, never an
/// error (``TimeStampTimeline`` states the rule): a row repeating the previous one exactly is dropped
/// from uniform stamps (``duplicateRowCount``), any other row is a sample of its own. Gaps are missing data, never bridged or shifted:
/// their samples or grid points are NaN and the samples after them keep their times
/// (``TimeStampTimeline`` states the rule; ``timeline`` what the file showed). Numeric stamps are
/// taken as time since the epoch; stamps before 2000-01-01 (since boot, since the recording's start)
/// leave the start time unknown (``startTime`` `nil`). Date-times without a zone are read as UTC.
///
/// Empty fields and `nan`/`NA` read as NaN. Parsing works on raw bytes (no `String` per field); the
/// reader holds a 1 MiB input block and at most 8192 parsed rows.
public final class CSVSignalReader: SignalReader {
  public let formatName: String
  /// Every signal column, in file order.
  public let availableSignals: [SignalDescription]
  public let signals: [SignalDescription]
  public let chunkSampleRate: Double
  public let startTime: Timestamp?
  /// The time of the first sample: ``startTime``, or the epoch when that is unknown.
  private let origin: Timestamp
  public let timing: CSVTiming
  /// The time column's name, when there is one.
  public let timeColumnName: String?
  /// Lines skipped before the header or data.
  public let preambleLineCount: Int
  /// Field delimiter and decimal separator in use.
  public let delimiter: UInt8
  public let decimalSeparator: UInt8

  private let parser: CSVRowParser
  /// Rows of the parser's batch already handed out (samples on the grid as parsed).
  private var parsedStart = 0
  /// Samples resampled onto the grid, ready to hand out from `readyStart`.
  private var ready: [[Float]]
  private var readyStart = 0
  /// The arrays of the chunk handed out last.
  private var recycled: [[Float]] = []
  private var samplesYielded: Int64 = 0
  private var interpolator: UniformGridInterpolator?
  /// With irregular stamps, the interval in nanoseconds above which two stamps are on either side of a
  /// gap (`Int64.max` otherwise).
  private let gapThreshold: Int64
  /// What the stamps read so far showed.
  public private(set) var timeline = TimeStampTimeline()
  /// Rows dropped so far as exact repeats of the row before them (uniform stamps only: the same stamp
  /// and every value read, a row written twice; ``TimeStampTimeline`` states the rule).
  public private(set) var duplicateRowCount = 0
  /// The line of the first row dropped as a repeat (0 when none was).
  public private(set) var firstDuplicateLine = 0
  /// The gaps of the parser's batch, in row order: the row after each gap and, with uniform stamps,
  /// the samples missing before it.
  private var batchGaps: [(row: Int, missing: Int64)] = []
  private var nextGap = 0
  /// Missing (NaN) samples still to hand out before the rows that follow them.
  private var pendingMissing: Int64 = 0
  /// The stamp of the last row examined, in ns since the epoch.
  private var previousStamp: Int64?
  /// Uniform stamps: the slots taken by rows repeating the stamp before them that no longer interval
  /// has made up for yet.
  private var owedSlots: Int64 = 0
  /// Irregular stamps: rows of the batch already interpolated, and the grid index of the current
  /// segment's first point (the interpolator starts afresh after each gap).
  private var interpolatedRows = 0
  private var segmentStartPoint: Int64 = 0

  /// Opens a file (`-` for standard input).
  public convenience init(
    path: String, options: CSVOptions = CSVOptions(), channels: [ChannelSelector]? = nil
  )
    throws(InputError)
  {
    try self.init(input: ByteInput(path: path), options: options, channels: channels)
  }

  /// Reads CSV text held in memory; `name` stands for the path in errors.
  public convenience init(
    contents: [UInt8], name: String = "<memory>", options: CSVOptions = CSVOptions(),
    channels: [ChannelSelector]? = nil
  ) throws(InputError) {
    try self.init(input: ByteInput(bytes: contents, name: name), options: options, channels: channels)
  }

  /// Reads CSV text held in memory with the given block kernel (both give the same values and
  /// errors; tests compare them).
  package convenience init(
    contents: [UInt8], options: CSVOptions = CSVOptions(), channels: [ChannelSelector]? = nil,
    kernel: CSVRowParser.BlockKernel
  ) throws(InputError) {
    try self.init(
      input: ByteInput(bytes: contents, name: "<memory>"), options: options, channels: channels,
      kernel: kernel)
  }

  private init(
    input: ByteInput, options: CSVOptions, channels: [ChannelSelector]?,
    kernel: CSVRowParser.BlockKernel = .fastest
  ) throws(InputError) {
    let path = input.path
    let lines = LineBuffer(input: input)
    let probe = try Self.probe(lines)
    guard !probe.isEmpty else { throw InputError(path: input.path, "empty file: expected CSV lines") }
    // A file whose lines end in CR alone reads as one line: say so rather than what that line lacks.
    if probe.count == 1, probe[0].bytes.dropLast().contains(0x0D) {
      throw InputError(
        path: path, location: .line(probe[0].line),
        "lines end in CR alone (classic Mac OS): expected lines ending in LF or CRLF")
    }
    let layout = try CSVLayout.detect(
      probe.map(\.bytes), lineNumbers: probe.map(\.line), options: options, path: path)
    delimiter = layout.delimiter
    decimalSeparator = layout.decimalSeparator
    formatName = layout.delimiter == 0x09 ? "TSV" : "CSV"
    preambleLineCount = layout.preamble
    let probeLines = Array(probe.dropFirst(layout.firstDataLine))
    guard !probeLines.isEmpty else {
      throw InputError(
        path: path, location: .line(probe.last!.line + 1), "expected data rows after the header")
    }
    let (signalColumns, selected) = try Self.selectColumns(layout, channels: channels, path: path)
    var roles = [Int](repeating: -1, count: layout.names.count)
    for (c, s) in selected.enumerated() { roles[signalColumns[s]] = c }
    if let t = layout.timeColumn { roles[t] = -2 }
    timeColumnName = layout.timeColumn.map { layout.names[$0] }
    let parser = CSVRowParser(
      lines: lines, roles: roles, channelCount: selected.count, timeParse: layout.timeParse,
      delimiter: layout.delimiter, decimalSeparator: layout.decimalSeparator, probeLines: probeLines,
      columnsSource: layout.preamble < layout.firstDataLine
        ? "as the header (line \(probe[layout.preamble].line)) names" : "as the first data line has",
      kernel: kernel)
    self.parser = parser
    ready = Array(repeating: [], count: selected.count)
    let clock = try FirstBatchClock(
      parser: parser, layout: layout, options: options, firstLine: probeLines.first?.line ?? 1, path: path)
    chunkSampleRate = clock.chunkSampleRate
    timing = clock.timing
    gapThreshold = clock.gapThreshold
    if case .resampled(let method) = clock.timing {
      interpolator = UniformGridInterpolator(
        channelCount: max(1, selected.count), rate: clock.rate, method: method)
    }
    origin = clock.start
    // Numeric stamps before 2000 count time since some event (boot, the recording's start), not dates.
    let datesStart =
      layout.timeParse == .dateTime || clock.start >= Timestamp(secondsSinceEpoch: 946_684_800)
    startTime = layout.timeParse != .none && datesStart ? clock.start : nil
    let available = signalColumns.map {
      SignalDescription(
        name: layout.names[$0], unit: layout.units[$0], sampleRate: clock.rate, sampleCount: nil)
    }
    availableSignals = available
    signals = selected.map { available[$0] }
    dropDuplicateRows()
    examineBatch()
  }

  /// The first 64 non-blank lines (a leading byte-order mark removed) with their 1-based numbers.
  private static func probe(_ lines: LineBuffer) throws(InputError) -> [(line: Int, bytes: [UInt8])] {
    var probe = [(line: Int, bytes: [UInt8])]()
    while probe.count < 64, let line = try lines.nextLine() {
      var bytes = Array(line)
      if lines.lineNumber == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
      if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
      probe.append((lines.lineNumber, bytes))
    }
    return probe
  }

  /// The signal columns (every column but the time column) and the indices among them of the
  /// selected channels (all without a selection).
  private static func selectColumns(_ layout: CSVLayout, channels: [ChannelSelector]?, path: String)
    throws(InputError) -> (signalColumns: [Int], selected: [Int])
  {
    let signalColumns = (0..<layout.names.count).filter { $0 != layout.timeColumn }
    guard !signalColumns.isEmpty else {
      throw InputError(path: path, "expected at least one signal column besides the time column")
    }
    guard let channels else { return (signalColumns, Array(signalColumns.indices)) }
    let selected = try ChannelSelector.resolve(
      channels, names: signalColumns.map { layout.names[$0] }, path: path)
    return (signalColumns, selected)
  }

  /// A gap longer than this (one day) within one file is an error: it would stand for more missing
  /// samples than a recording should be streamed through, and usually means a clock was reset.
  public static let longestGap: Double = 86_400

  public func nextChunk(maxSamples: Int) throws(InputError) -> SignalChunk? {
    precondition(maxSamples > 0, "maxSamples must be positive")
    // The previous chunk's arrays, written over in place when its holder has let go of them (else
    // copy-on-write gives fresh ones): no allocation, and no freshly mapped pages, per chunk.
    var channels = recycled
    recycled = []
    if channels.count != ready.count { channels = Array(repeating: [], count: ready.count) }
    for c in channels.indices { channels[c].removeAll(keepingCapacity: true) }
    if case .resampled = timing {
      try takeResampled(maxSamples, into: &channels)
    } else {
      try takeParsed(maxSamples, into: &channels)
    }
    let take = channels[0].count
    recycled = channels
    guard take > 0 else { return nil }
    let index = samplesYielded
    samplesYielded += Int64(take)
    return SignalChunk(
      channels: channels, sampleRate: chunkSampleRate,
      startTime: origin.advanced(bySamples: index, rate: chunkSampleRate), firstSampleIndex: index)
  }

  /// Parses the next batch of rows and examines its stamps.
  private func fillBatch() throws(InputError) {
    parser.startBatch()
    parsedStart = 0
    interpolatedRows = 0
    try parser.fillRaw()
    dropDuplicateRows()
    examineBatch()
  }

  /// With uniform stamps, drops the batch's rows that repeat the previous row exactly and counts them
  /// (``duplicateRowCount``); a row repeating the stamp with other values stays, a sample of its own
  /// (`CSVRowParser/dropDuplicateRows()`). Irregular stamps keep every row.
  private func dropDuplicateRows() {
    guard timing == .uniformTimestamps else { return }
    let dropped = parser.dropDuplicateRows()
    if let line = dropped.firstLine {
      if duplicateRowCount == 0 { firstDuplicateLine = line }
      duplicateRowCount += dropped.count
    }
  }

  /// Checks every stamp of the parser's batch against the previous one: gaps go to `batchGaps`, the
  /// rest to the timeline's jitter. With uniform stamps, a row repeating the previous stamp takes the
  /// next slot (an interval 0, one sample interval short), and the next longer interval makes up
  /// for it instead of holding a missing sample (`owedSlots`).
  private func examineBatch() {
    batchGaps.removeAll(keepingCapacity: true)
    nextGap = 0
    guard timing != .fixedRate, parser.rawCount > 0 else { return }
    let interval = 1 / chunkSampleRate
    let nominal = 1e9 * interval
    var previous = previousStamp ?? parser.rawTimes[0]
    for row in (previousStamp == nil ? 1 : 0)..<parser.rawCount {
      let stamp = parser.rawTimes[row]
      let elapsed = stamp &- previous
      previous = stamp
      let seconds = Double(elapsed) / 1e9
      if timing == .uniformTimestamps {
        if elapsed == 0 {
          owedSlots += 1
        } else {
          let slots = Int64((Double(elapsed) / nominal).rounded())
          let madeUp = min(owedSlots, max(0, slots - 1))
          owedSlots -= madeUp
          let missing = slots - 1 - madeUp
          if missing >= 1 {
            batchGaps.append((row, missing))
            timeline.recordGap(seconds: seconds, missing: Double(missing) * interval)
            continue
          }
        }
      } else if elapsed > gapThreshold {
        batchGaps.append((row, 0))
        timeline.recordGap(seconds: seconds, missing: seconds - interval)
        continue
      }
      timeline.recordInterval(deviation: seconds - interval)
    }
    previousStamp = previous
  }

  /// Appends `count` missing samples (NaN) to every channel.
  private func appendMissing(_ count: Int, to channels: inout [[Float]]) {
    for c in channels.indices { channels[c].append(contentsOf: repeatElement(Float.nan, count: count)) }
  }

  /// Appends up to `maxSamples` samples: parsed rows, which are on the grid as they are, straight from
  /// the parser's batch, with the missing samples of gaps between them.
  private func takeParsed(_ maxSamples: Int, into channels: inout [[Float]]) throws(InputError) {
    var taken = 0
    while taken < maxSamples {
      if pendingMissing > 0 {
        let count = Int(min(pendingMissing, Int64(maxSamples - taken)))
        appendMissing(count, to: &channels)
        pendingMissing -= Int64(count)
        taken += count
        continue
      }
      if parsedStart == parser.rawCount {
        if parser.inputDone { return }
        try fillBatch()
        continue
      }
      var end = parser.rawCount
      if nextGap < batchGaps.count {
        let gap = batchGaps[nextGap]
        if gap.row == parsedStart {
          pendingMissing = gap.missing
          nextGap += 1
          continue
        }
        end = gap.row
      }
      let count = min(maxSamples - taken, end - parsedStart)
      for c in channels.indices {
        channels[c].append(contentsOf: parser.column(c, rows: parsedStart..<parsedStart + count))
      }
      parsedStart += count
      taken += count
    }
  }

  /// Appends up to `maxSamples` samples interpolated onto the grid, with NaN at the grid points inside
  /// gaps.
  private func takeResampled(_ maxSamples: Int, into channels: inout [[Float]]) throws(InputError) {
    var taken = 0
    while taken < maxSamples {
      let available = ready[0].count - readyStart
      if available > 0 {
        let take = min(maxSamples - taken, available)
        for c in channels.indices { channels[c].append(contentsOf: ready[c][readyStart..<readyStart + take]) }
        readyStart += take
        taken += take
        continue
      }
      for c in ready.indices { ready[c].removeAll(keepingCapacity: true) }
      readyStart = 0
      if pendingMissing > 0 {
        let count = Int(min(pendingMissing, Int64(maxSamples - taken)))
        appendMissing(count, to: &channels)
        pendingMissing -= Int64(count)
        taken += count
      } else if interpolatedRows < parser.rawCount {
        interpolateRaw()
      } else if !parser.inputDone {
        try fillBatch()
      } else if interpolator != nil {
        interpolator!.finish(into: &ready)
        interpolator = nil
      } else {
        return
      }
    }
  }

  /// Hands the batch's rows up to the next gap to the interpolator; at a gap, finishes the segment
  /// before it, counts the grid points inside it as missing and starts the next segment at the first
  /// grid point after it.
  private func interpolateRaw() {
    let origin = parser.firstTime ?? 0
    var end = parser.rawCount
    if nextGap < batchGaps.count {
      let gapRow = batchGaps[nextGap].row
      if gapRow == interpolatedRows {
        nextGap += 1
        interpolator!.finish(into: &ready)
        let emitted = segmentStartPoint + interpolator!.emittedCount
        let resume = Int64((Double(parser.rawTimes[gapRow] &- origin) * 1e-9 * chunkSampleRate).rounded(.up))
        pendingMissing = max(0, resume - emitted)
        segmentStartPoint = emitted + pendingMissing
        interpolator = UniformGridInterpolator(
          channelCount: interpolator!.channelCount, rate: chunkSampleRate, method: interpolator!.method)
        return
      }
      end = gapRow
    }
    let rows = interpolatedRows..<end
    let segmentOffset = Double(segmentStartPoint) / chunkSampleRate
    let times = rows.map { Double(parser.rawTimes[$0] &- origin) * 1e-9 - segmentOffset }
    let values = (0..<ready.count).map { c in Array(parser.column(c, rows: rows)) }
    interpolator!.process(times: times, values: values, into: &ready)
    interpolatedRows = end
  }
}

/// The sample rate and timing of a CSV file, from the options, the preamble or the first batch of
/// time stamps (which it parses).
private struct FirstBatchClock {
  /// Samples per second.
  var rate: Double
  /// ``rate`` once checked as a chunk rate.
  var chunkSampleRate: Double
  var timing: CSVTiming
  /// The first time stamp (the epoch without a time column).
  var start = Timestamp.epoch
  /// Nanoseconds between stamps above which samples are missing (resampled files only).
  var gapThreshold = Int64.max

  init(
    parser: CSVRowParser, layout: CSVLayout, options: CSVOptions, firstLine: Int, path: String
  ) throws(InputError) {
    // Where the rate comes from, for an error.
    var rateSource = (field: "sample rate option", location: InputError.Location.file)
    try parser.fillRaw()
    if layout.timeParse == .none {
      let stated = options.sampleRate == nil ? try layout.preambleRate?.get() : nil
      guard let r = options.sampleRate ?? stated?.value else {
        throw InputError(path: path, "no time column: the sample rate is unknown (pass --rate HZ)")
      }
      if let stated { rateSource = ("rate stated in the preamble", .line(stated.line)) }
      rate = r
      timing = .fixedRate
    } else {
      guard parser.rawCount > 0 else { throw InputError(path: path, "expected data rows") }
      start = Timestamp(nanosecondsSinceEpoch: parser.rawTimes[0])
      let first = Self.timing(parser, rate: options.sampleRate)
      guard let r = options.sampleRate ?? first.rate else {
        throw InputError(
          path: path, location: .line(firstLine),
          "cannot measure the sample rate: the time stamps do not advance (pass --rate HZ)")
      }
      if options.sampleRate == nil {
        rateSource = ("time stamps' interval", .line(firstLine))
      }
      rate = r
      if first.isUniform(rate: r) {
        timing = .uniformTimestamps
      } else {
        timing = .resampled(options.interpolation)
        let threshold = options.gapThreshold ?? max(3 / r, 2e-9 * Double(first.highInterval))
        gapThreshold = Int64(min(threshold * 1e9, 9e18).rounded(.up))
      }
    }
    chunkSampleRate = try supportedSampleRate(
      rate, field: rateSource.field, path: path, location: rateSource.location)
  }

  /// The first batch's timing. When at most 1 % of its rows repeat the stamp before them, and the
  /// others are uniform (at `rate` when given) with them read as stray rows, the timing of those
  /// rows: a row repeating the previous one exactly (stamp and every value read) is left out (the
  /// uniform reading drops it, and it does not count in the rate); one with other values is a sample
  /// of its own, in the slot after the previous row's, which the next interval makes up for (745,
  /// 745, 755 ms at 200 Hz: a stamp written late). Otherwise every row counts (a clock coarser than
  /// the samples repeats stamps often, with other values): the file is resampled.
  private static func timing(_ parser: CSVRowParser, rate: Double?) -> FirstBatchTiming {
    let times = UnsafeBufferPointer(start: parser.rawTimes, count: parser.rawCount)
    let repeats = parser.repeatedRows
    guard !repeats.isEmpty, repeats.count * 100 <= parser.rawCount else {
      return FirstBatchTiming(times: times)
    }
    let duplicates = repeats.map(\.row).filter(parser.repeatsPreviousRow)
    var kept = [Int64]()
    kept.reserveCapacity(times.count - duplicates.count)
    var next = 0
    for (row, time) in times.enumerated() {
      if next < duplicates.count && duplicates[next] == row {
        next += 1
      } else {
        kept.append(time)
      }
    }
    let stray = kept.withUnsafeBufferPointer { FirstBatchTiming(times: $0, strayRepeats: true) }
    guard let r = rate ?? stray.rate, stray.isUniform(rate: r) else {
      return FirstBatchTiming(times: times)
    }
    return stray
  }
}

/// The timing of the first batch of a time-stamped file: the sample rate, measured on the longest
/// run of stamps without a gap, and whether the stamps are uniform.
private struct FirstBatchTiming {
  /// Samples per second, `nil` when the stamps do not advance.
  let rate: Double?
  /// The 99th-percentile interval of the batch, ns: twice it bounds the intervals that are not gaps
  /// when measuring the rate (so that a gap in the first rows does not bias it).
  let highInterval: Int64
  private let intervals: [Int64]
  /// Whether a row repeating the stamp before it is a stray sample, in the slot after the previous
  /// row's: an interval 0 that the next interval makes up for (`isUniform(rate:)`), left out of
  /// the exact rate's step.
  private let strayRepeats: Bool

  init(times: UnsafeBufferPointer<Int64>, strayRepeats: Bool = false) {
    self.strayRepeats = strayRepeats
    intervals = zip(times, times.dropFirst()).map { $1 &- $0 }
    let sorted = intervals.sorted()
    highInterval = sorted.isEmpty ? 0 : sorted[Int(0.99 * Double(sorted.count - 1))]
    let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    let breakThreshold = max(2 * highInterval, 3 * median, 1)
    // The longest run of intervals below the threshold.
    var best = 0..<0
    var runStart = 0
    for (i, interval) in intervals.enumerated() where interval > breakThreshold {
      if i - runStart > best.count { best = runStart..<i }
      runStart = i + 1
    }
    if intervals.count - runStart > best.count { best = runStart..<intervals.count }
    let run = intervals[best]
    // Stamps whole multiples of one number of nanoseconds apart give the rate exactly (0.004 s →
    // 250 Hz, dropped samples or not); others are measured by least squares.
    if let step = strayRepeats ? run.filter({ $0 > 0 }).min() : run.min(), step > 0,
      run.allSatisfy({ $0 % step == 0 })
    {
      rate = 1e9 / Double(step)
    } else {
      let base = times[best.lowerBound]
      let seconds = times[best.lowerBound...best.upperBound].map { Double($0 &- base) * 1e-9 }
      rate = UniformGridInterpolator.measuredRate(times: seconds)
    }
  }

  /// Whether every interval lies within 1 % of the sample interval at `rate` or of a whole multiple of
  /// it (a gap), so that the samples can pass unchanged. With stray repeats, an interval 0 takes a
  /// slot, and the next interval must then span one more.
  func isUniform(rate: Double) -> Bool {
    let nominal = 1e9 / rate
    var owed = 0.0
    return intervals.allSatisfy { interval in
      if strayRepeats && interval == 0 {
        owed += 1
        return true
      }
      let slots = max(1 + owed, (Double(interval) / nominal).rounded())
      owed = 0
      return abs(Double(interval) - slots * nominal) <= 0.01 * nominal
    }
  }
}

/// The byte-level row parser behind ``CSVSignalReader``: fields to `Float` samples and `Int64`
/// nanosecond stamps, a batch of rows at a time into column-major buffers.
package final class CSVRowParser {
  static let batchRows = 8192
  /// Floats from one channel's rows to the next's: a batch plus one cache line, so that the rows a
  /// line of text writes (one per channel, 32 KiB apart without it) fall in different cache sets
  /// instead of evicting each other.
  static let columnStride = batchRows + 16
  let path: String
  private let lines: LineBuffer
  /// Per file column: -1 skipped, -2 the time column, else where its channel's values start in
  /// `rawValues` (``slot(ofChannel:)``).
  private let roles: UnsafeMutableBufferPointer<Int>
  private let channelCount: Int
  private let timeParse: TimeParse
  private let delimiter: UInt8
  private let decimalSeparator: UInt8
  /// Where the column count comes from, for errors (`as the header (line 1) names`).
  private let columnsSource: String
  /// Data lines read during detection, parsed before the rest of the input.
  private var probeLines: [(line: Int, bytes: [UInt8])]
  private(set) var inputDone = false
  /// Parsed rows (column-major: channel c's `batchRows` values at ``slot(ofChannel:)``) and their
  /// stamps. The block parser's divisors for those values lie `columnStride` after them, each
  /// channel's between its values and the next channel's: one base address (and a constant
  /// displacement) reaches both, which keeps a register free in its loop.
  private let rawValues: UnsafeMutablePointer<Float>
  let rawTimes: UnsafeMutablePointer<Int64>
  var rawCount = 0
  /// `DecimalNumber/fractionScales`, for the block parser.
  private let fractionScales: UnsafeMutablePointer<Float>
  private var lastTime: Int64 = .min
  /// The batch row whose stamp `lastTime` is (-1 when it lies in an earlier batch).
  private var lastTimeRow = -1
  /// The rows of the batch whose stamp equals the previous row's, with their lines, in order.
  private(set) var repeatedRows: [(row: Int, line: Int)] = []
  private(set) var firstTime: Int64?
  private let kernel: BlockKernel
  #if canImport(CWideLanes)
    /// `FieldLanes/collectEnds`'s output: field-end offsets after a leading -1 (the byte before
    /// the block), and the `\n` count before each window.
    private let fieldEnds: UnsafeMutablePointer<Int32>
    private let newlinesBefore: UnsafeMutablePointer<Int32>
    /// Field ends and 64-byte windows per call of ``parseBlockRowsInLanes()``.
    private static let maxEnds = 1 << 16
    private static let maxWindows = 1 << 14
  #endif

  /// How plain lines are parsed a block at a time (both give the same values and errors).
  package enum BlockKernel: Sendable {
    /// Field by field in 64-bit words and SSE2 (every x86-64) or portable arithmetic.
    case portable
    /// Field ends first, then each column four rows at a time in 256-bit lanes (`FieldLanes`);
    /// in builds that target AVX2 only.
    case lanes

    /// The kernels this build has.
    package static var available: [BlockKernel] {
      #if canImport(CWideLanes)
        [.portable, .lanes]
      #else
        [.portable]
      #endif
    }

    /// The fastest kernel this build has.
    package static var fastest: BlockKernel {
      #if canImport(CWideLanes)
        .lanes
      #else
        .portable
      #endif
    }
  }

  enum TimeParse: Equatable {
    case none
    case dateTime
    case numeric(exponent: Int)
  }

  init(
    lines: LineBuffer, roles: [Int], channelCount: Int, timeParse: TimeParse, delimiter: UInt8,
    decimalSeparator: UInt8, probeLines: [(line: Int, bytes: [UInt8])], columnsSource: String,
    kernel: BlockKernel
  ) {
    self.columnsSource = columnsSource
    path = lines.input.path
    self.lines = lines
    self.roles = .allocate(capacity: roles.count)
    _ = self.roles.initialize(from: roles.lazy.map { $0 >= 0 ? Self.slot(ofChannel: $0) : $0 })
    self.timeParse = timeParse
    self.delimiter = delimiter
    self.decimalSeparator = decimalSeparator
    self.probeLines = probeLines
    // Then the last row of the previous batch, one value per channel (`dropDuplicateRows()`).
    rawValues = .allocate(capacity: Self.slot(ofChannel: max(1, channelCount)) + channelCount)
    rawTimes = .allocate(capacity: Self.batchRows)
    self.channelCount = channelCount
    fractionScales = .allocate(capacity: DecimalNumber.fractionScales.count)
    fractionScales.initialize(from: DecimalNumber.fractionScales, count: DecimalNumber.fractionScales.count)
    self.kernel = kernel
    #if canImport(CWideLanes)
      fieldEnds = .allocate(capacity: Self.maxEnds + 65)
      fieldEnds[0] = -1
      newlinesBefore = .allocate(capacity: Self.maxWindows)
    #endif
  }

  deinit {
    rawValues.deallocate()
    rawTimes.deallocate()
    fractionScales.deallocate()
    roles.deallocate()
    #if canImport(CWideLanes)
      fieldEnds.deallocate()
      newlinesBefore.deallocate()
    #endif
  }

  /// Where channel `c`'s values start in `rawValues` (its divisors follow `columnStride` later).
  private static func slot(ofChannel c: Int) -> Int { 2 * c * columnStride }

  /// The parsed values of channel `c` in `rows` of the batch.
  func column(_ c: Int, rows: Range<Int>) -> UnsafeBufferPointer<Float> {
    UnsafeBufferPointer(start: rawValues + Self.slot(ofChannel: c) + rows.lowerBound, count: rows.count)
  }

  /// Empties the batch, for the next rows.
  func startBatch() {
    rawCount = 0
    lastTimeRow = -1
    repeatedRows.removeAll(keepingCapacity: true)
  }

  /// Whether batch row `row` holds the same values as the row before it (the last row of the previous
  /// batch for row 0, once `dropDuplicateRows()` has kept it), bit for bit.
  func repeatsPreviousRow(_ row: Int) -> Bool {
    let previousRow = rawValues + Self.slot(ofChannel: max(1, channelCount))
    return (0..<channelCount).allSatisfy { c in
      let values = rawValues + Self.slot(ofChannel: c)
      return (row > 0 ? values[row - 1] : previousRow[c]).bitPattern == values[row].bitPattern
    }
  }

  /// Drops the batch's rows that repeat the previous row exactly, stamp and every value read (a row
  /// written twice), and returns how many and the first one's line. A row repeating the previous
  /// row's stamp with other values stays: a sample of its own. For uniformly stamped files.
  func dropDuplicateRows() -> (count: Int, firstLine: Int?) {
    let previousRow = rawValues + Self.slot(ofChannel: max(1, channelCount))
    let duplicates = repeatedRows.filter { repeatsPreviousRow($0.row) }
    repeatedRows.removeAll(keepingCapacity: true)
    defer {
      if rawCount > 0 {
        for c in 0..<channelCount { previousRow[c] = rawValues[Self.slot(ofChannel: c) + rawCount - 1] }
      }
    }
    guard let first = duplicates.first else { return (0, nil) }
    var write = first.row
    var next = 0
    for read in first.row..<rawCount {
      if next < duplicates.count && duplicates[next].row == read {
        next += 1
        continue
      }
      rawTimes[write] = rawTimes[read]
      for c in 0..<channelCount {
        rawValues[Self.slot(ofChannel: c) + write] = rawValues[Self.slot(ofChannel: c) + read]
      }
      write += 1
    }
    rawCount = write
    return (duplicates.count, first.line)
  }

  /// Parses rows into the raw batch until it is full or the input ends.
  func fillRaw() throws(InputError) {
    while rawCount < Self.batchRows {
      if !probeLines.isEmpty {
        let (number, bytes) = probeLines.removeFirst()
        try bytes.withUnsafeBufferPointer { (b) throws(InputError) in try parseRow(b, line: number) }
        continue
      }
      guard !inputDone else { return }
      if try parseBlock() > 0 { continue }
      guard let line = try lines.nextLine() else {
        inputDone = true
        return
      }
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
      try parseRow(line, line: lines.lineNumber)
    }
  }

  /// Parses plain lines from the line buffer's block with this parser's kernel; returns the rows.
  private func parseBlock() throws(InputError) -> Int {
    #if canImport(CWideLanes)
      if kernel == .lanes { return try parseBlockRowsInLanes() }
    #endif
    return try parseBlockRows()
  }

  /// The value of a field that is a plain number (`DecimalNumber/scanPrefix(_:end:separator:into:)`
  /// reads all of it and it lies within the range of `Float`), else nil; `scratch` is the scanner's
  /// workspace.
  @inline(__always)
  private func scannedValue(
    _ p: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, scratch: inout DecimalNumber
  )
    -> Float?
  {
    guard DecimalNumber.scanPrefix(p, end: end, separator: decimalSeparator, into: &scratch) == end else {
      return nil
    }
    let value =
      scratch.fastFloat ?? scratch.floatValue { fieldText(p, count: end - p, separator: decimalSeparator) }
    // A number beyond `Float` is left to `parseRow`, which names it.
    return value.isFinite ? value : nil
  }

  #if canImport(CWideLanes)
    // A SIMD kernel kept in one piece: the row loop keeps its lane state and pointers in registers.
    /// ``parseBlockRows()`` in two passes: the block's field ends (`FieldLanes/collectEnds`), then
    /// the rows they delimit, each signal column four rows at a time (`FieldLanes/quotients`), the
    /// time column last, row by row; ``divideRows(_:)`` then divides as for ``parseBlockRows()``.
    /// Rows stop before the first line that is not plain (a field count other than the columns', a
    /// signal field that is not a bare number), which ``parseRow(_:line:)`` then reads, as they do in
    /// ``parseBlockRows()``: the same values and errors, in the same order.
    private func parseBlockRowsInLanes() throws(InputError) -> Int {
      let block = lines.unread.bytes
      // (An `e` delimiter would pass for an exponent mark: such files take `parseRow` only.)
      guard let base = block.baseAddress, delimiter | 0x20 != 0x65 else { return 0 }
      let columns = roles.count
      let lastColumn = columns - 1
      let wanted = Self.batchRows - rawCount
      let ends = UnsafePointer(fieldEnds + 1)
      let endCount = FieldLanes.collectEnds(
        base, count: block.count, delimiter: delimiter, maxEnds: min(wanted * columns, Self.maxEnds),
        maxWindows: Self.maxWindows, ends: fieldEnds + 1, newlinesBefore: newlinesBefore)
      var rows = min(wanted, endCount / columns)
      // Each row's last end is a line's end, and no other is.
      for row in 0..<rows where base[Int(ends[row &* columns &+ lastColumn])] != 0x0A {
        rows = row
        break
      }
      if rows > 0,
        FieldLanes.newlines(
          through: Int(ends[rows * columns - 1]), in: base, newlinesBefore: newlinesBefore) != rows
      {
        for k in 0..<rows * columns where k % columns != lastColumn && base[Int(ends[k])] == 0x0A {
          rows = k / columns
          break
        }
      }
      guard rows > 0 else { return 0 }
      let firstRow = rawCount
      var scanned = DecimalNumber(mantissa: 0, exponent: 0, negative: false, exact: true)
      var plainRows = rows
      /// Field `k` of the block (row `k / columns`, column `column`): its start and end offsets, a
      /// final `\r` of the last column left out.
      func field(_ k: Int, column: Int) -> (start: Int, end: Int) {
        let start = Int(ends[k &- 1]) &+ 1
        var end = Int(ends[k])
        if column == lastColumn && end > start && base[end &- 1] == 0x0D { end &-= 1 }
        return (start, end)
      }
      for column in 0..<columns where roles[column] >= 0 {
        let values = rawValues + roles[column] + firstRow
        /// The fields of rows `row…row + 3`, `k0…k3` their indices (the last group repeats its last
        /// row in spare lanes).
        func group(row: Int, _ k0: Int, _ k1: Int, _ k2: Int, _ k3: Int) {
          let f0 = field(k0, column: column)
          let f1 = field(k1, column: column)
          let f2 = field(k2, column: column)
          let f3 = field(k3, column: column)
          func word(_ start: Int) -> Int64 { UnsafeRawPointer(base + start).loadUnaligned(as: Int64.self) }
          let rejected = FieldLanes.quotients(
            words: (word(f0.start), word(f1.start), word(f2.start), word(f3.start)),
            nextWords: (word(f0.start &+ 1), word(f1.start &+ 1), word(f2.start &+ 1), word(f3.start &+ 1)),
            lengths: (f0.end &- f0.start, f1.end &- f1.start, f2.end &- f2.start, f3.end &- f3.start),
            separator: decimalSeparator, numerators: values + row, scales: values + (row &+ Self.columnStride)
          )
          var others = Int(rejected)
          while others != 0 {
            let r = row &+ others.trailingZeroBitCount
            others &= others &- 1
            guard r < rows else { break }
            let (start, end) = field(r &* columns &+ column, column: column)
            if let value = scannedValue(base + start, end: base + end, scratch: &scanned) {
              values[r] = value
              values[r &+ Self.columnStride] = 1
            } else {
              plainRows = Swift.min(plainRows, r)
            }
          }
        }
        var row = 0
        var k = column
        while row &+ 4 <= rows {
          group(row: row, k, k &+ columns, k &+ 2 &* columns, k &+ 3 &* columns)
          row &+= 4
          k &+= 4 &* columns
        }
        if row < rows {
          let last = (rows &- 1) &* columns &+ column
          group(row: row, k, Swift.min(k &+ columns, last), Swift.min(k &+ 2 &* columns, last), last)
        }
      }
      if let timeColumn = roles.firstIndex(of: -2) {
        let firstLine = lines.lineNumber + 1
        for row in 0..<plainRows {
          let (start, end) = field(row &* columns &+ timeColumn, column: timeColumn)
          try parseTime(
            base + start, count: end - start, line: firstLine + row, column: timeColumn, row: firstRow + row)
        }
      }
      guard plainRows > 0 else { return 0 }
      divideRows(firstRow..<firstRow + plainRows)
      rawCount = firstRow + plainRows
      lines.consume(Int(ends[plainRows * columns - 1]) + 1, lines: plainRows)
      return plainRows
    }
  #endif

  /// Parses whole lines straight from the line buffer's block into rows `rawCount…` while each is
  /// plain: every signal field a bare number, the expected number of fields, `\n` or `\r\n` at the
  /// end. Stops before the first other line (blank, quoted, padded or missing fields, extra fields,
  /// a line cut by the block's end), which ``parseRow(_:line:)`` then reads; a plain line gives the
  /// same values and errors either way. Returns the rows parsed (the block is consumed up to them).
  ///
  /// Field ends come from `FieldBoundaries` 64 bytes at a time, so each field is parsed from its
  /// known bounds (`DecimalNumber/fieldQuotient(_:end:separator:scales:)` for short decimals, else
  /// `DecimalNumber/scanPrefix(_:end:separator:into:)`), independently of the fields before it.
  private func parseBlockRows() throws(InputError) -> Int {
    let block = lines.unread.bytes
    // (An `e` delimiter would pass for an exponent mark: such files take `parseRow` only.)
    guard let base = block.baseAddress, delimiter | 0x20 != 0x65 else { return 0 }
    let end = base + block.count
    let delimiter = self.delimiter
    let separator = decimalSeparator
    let lastColumn = roles.count - 1
    let firstRow = rawCount
    let firstLine = lines.lineNumber + 1
    let scales = UnsafePointer(fractionScales)
    let roles = UnsafePointer(self.roles.baseAddress!)
    let values = rawValues
    var scanned = DecimalNumber(mantissa: 0, exponent: 0, negative: false, exact: true)
    // Field ends still to visit: bit i of `ends` stands for `window + i`.
    var window = base
    var ends = FieldBoundaries.mask(window, delimiter: delimiter)
    if block.count < 64 { ends &= (1 &<< UInt64(block.count)) &- 1 }
    var lineStart = base
    var row = firstRow
    rows: while row < Self.batchRows {
      var p = lineStart
      for column in 0...lastColumn {
        while ends == 0 {
          window += 64
          guard window < end else { break rows }
          ends = FieldBoundaries.mask(window, delimiter: delimiter)
          if end - window < 64 { ends &= (1 &<< UInt64(end - window)) &- 1 }
        }
        let stop = window + ends.trailingZeroBitCount
        ends &= ends &- 1
        // Every field but the last ends in the delimiter, the last in the line's end.
        guard stop.pointee == (column == lastColumn ? 0x0A : delimiter) else { break rows }
        var fieldEnd = stop
        if column == lastColumn && fieldEnd > p && fieldEnd[-1] == 0x0D { fieldEnd -= 1 }
        let role = roles[column]
        if role >= 0 {
          let slot = role &+ row
          if let (numerator, scale) = DecimalNumber.fieldQuotient(
            p, end: fieldEnd, separator: separator, scales: scales)
          {
            values[slot] = numerator
            values[slot &+ Self.columnStride] = scale
          } else {
            guard let value = scannedValue(p, end: fieldEnd, scratch: &scanned) else { break rows }
            values[slot] = value
            values[slot &+ Self.columnStride] = 1
          }
        } else if role == -2 {
          try parseTime(p, count: fieldEnd - p, line: firstLine &+ row &- firstRow, column: column, row: row)
        }
        p = stop + 1
      }
      lineStart = p
      row += 1
    }
    divideRows(firstRow..<row)
    rawCount = row
    let rows = row - firstRow
    lines.consume(lineStart - base, lines: rows)
    return rows
  }

  /// Divides the block parser's numerators by their scales in `rows` of every channel, 16 lanes at a
  /// time (the correctly rounded IEEE quotients; a scale of 1 leaves a value as it is).
  private func divideRows(_ rows: Range<Int>) {
    guard !rows.isEmpty else { return }
    for channel in 0..<channelCount {
      let values = rawValues + Self.slot(ofChannel: channel)
      let scales = UnsafePointer(values + Self.columnStride)
      var i = rows.lowerBound
      while i + 16 <= rows.upperBound {
        let quotient =
          UnsafeRawPointer(values + i).loadUnaligned(as: SIMD16<Float>.self)
          / UnsafeRawPointer(scales + i).loadUnaligned(as: SIMD16<Float>.self)
        UnsafeMutableRawPointer(values + i).storeBytes(of: quotient, as: SIMD16<Float>.self)
        i += 16
      }
      while i < rows.upperBound {
        values[i] /= scales[i]
        i += 1
      }
    }
  }

  /// Parses one data line into row `rawCount`.
  @inline(__always)
  private func parseRow(_ line: UnsafeBufferPointer<UInt8>, line number: Int) throws(InputError) {
    guard let base = line.baseAddress else { return }
    var n = line.count
    if n > 0 && base[n - 1] == 0x0D { n -= 1 }
    let row = rawCount
    let delimiter = self.delimiter
    let separator = decimalSeparator
    let columnCount = roles.count
    var p = 0
    var column = 0
    var scanned = DecimalNumber(mantissa: 0, exponent: 0, negative: false, exact: true)
    while true {
      if column >= columnCount {
        // Tolerate a trailing delimiter (an empty last field).
        guard p >= n else {
          let found = columnCount + 1 + (p..<n).count(where: { base[$0] == delimiter })
          throw InputError(
            path: path, location: .field(line: number, column: column + 1),
            "expected \(columnCount) fields, \(columnsSource), found \(found)")
        }
        break
      }
      let role = roles[column]
      // Fast path: a bare number followed by the delimiter or the end of the line.
      if role >= 0,
        let stop = DecimalNumber.scanPrefix(base + p, end: base + n, separator: separator, into: &scanned),
        stop == base + n || stop.pointee == delimiter
      {
        let q = stop - base
        let value =
          scanned.fastFloat ?? scanned.floatValue { fieldText(base + p, count: q - p, separator: separator) }
        guard value.isFinite else { throw beyondFloat(base + p, count: q - p, line: number, column: column) }
        rawValues[role &+ row] = value
        column += 1
        if q >= n { break }
        p = q + 1
        continue
      }
      var q = p
      while q < n && base[q] != delimiter { q += 1 }
      if role >= 0 {
        let value: Float
        if let d = DecimalNumber.scan(base + p, count: q - p, separator: separator) {
          value = d.floatValue { fieldText(base + p, count: q - p, separator: separator) }
          guard value.isFinite else {
            throw beyondFloat(base + p, count: q - p, line: number, column: column)
          }
        } else {
          value = try missingValue(base + p, count: q - p, line: number, column: column)
        }
        rawValues[role + row] = value
      } else if role == -2 {
        try parseTime(base + p, count: q - p, line: number, column: column, row: row)
      }
      column += 1
      if q >= n { break }
      p = q + 1
    }
    guard column >= columnCount else {
      throw InputError(
        path: path, location: .field(line: number, column: column),
        "expected \(columnCount) fields, \(columnsSource), found \(column)")
    }
    rawCount += 1
  }

  /// The error of a number beyond the range of `Float` (the samples' storage), which would read as
  /// an infinity.
  private func beyondFloat(_ start: UnsafePointer<UInt8>, count: Int, line: Int, column: Int) -> InputError {
    InputError(
      path: path, location: .field(line: line, column: column + 1),
      "expected a number within ±\(Float.greatestFiniteMagnitude) (samples are 32-bit floats), found "
        + "\"\(fieldText(start, count: count).trimmingSpaces())\"")
  }

  /// NaN for empty and not-a-number fields; an error otherwise.
  private func missingValue(_ start: UnsafePointer<UInt8>, count: Int, line: Int, column: Int)
    throws(InputError)
    -> Float
  {
    let text = fieldText(start, count: count).trimmingSpaces()
    if let value = CSVSignalReader.nonNumericValue(text) { return value }
    throw InputError(
      path: path, location: .field(line: line, column: column + 1), "expected a number, found \"\(text)\"")
  }

  private func parseTime(_ start: UnsafePointer<UInt8>, count: Int, line: Int, column: Int, row: Int)
    throws(InputError)
  {
    var time: Int64?
    switch timeParse {
    case .none:
      return
    case .dateTime:
      time = parseDateTime(UnsafeBufferPointer(start: start, count: count))
    case .numeric(let exponent):
      if let d = DecimalNumber.scan(start, count: count, separator: decimalSeparator) {
        if let exact = d.scaledInteger(by: exponent) {
          time = exact
        } else {
          var scaled = d.doubleValue { fieldText(start, count: count, separator: decimalSeparator) }
          for _ in 0..<exponent { scaled *= 10 }
          if scaled.isFinite && abs(scaled) < 9e18 { time = Int64(scaled.rounded()) }
        }
      }
    }
    guard let time else {
      throw InputError(
        path: path, location: .field(line: line, column: column + 1),
        "expected a time stamp, found \"\(fieldText(start, count: count))\"")
    }
    guard time >= lastTime else {
      throw InputError(
        path: path, location: .field(line: line, column: column + 1),
        "time goes backwards: expected a stamp ≥ the previous row's, found \"\(fieldText(start, count: count))\""
      )
    }
    if lastTime != .min, Double(time) - Double(lastTime) > CSVSignalReader.longestGap * 1e9 {
      throw InputError(
        path: path, location: .field(line: line, column: column + 1),
        "time jumps forward by \((Double(time) - Double(lastTime)) * 1e-9) s, more than the \(Int(CSVSignalReader.longestGap)) s a gap within one recording may last (a reset clock?): split the file there"
      )
    }
    if time == lastTime && row != lastTimeRow { repeatedRows.append((row, line)) }
    lastTime = time
    lastTimeRow = row
    if firstTime == nil { firstTime = time }
    rawTimes[row] = time
  }
}

extension CSVSignalReader {
  /// The sample a field that is not a decimal number stands for (`text` trimmed of spaces and
  /// quotes): NaN for an empty field and `nan`, `na`, `n/a`, `null`, `-nan` in any case; an infinity
  /// for `inf` and `infinity`, signed or not, in any case; nil for other text (a hexadecimal
  /// `0x10` is not a number in a data file). The one rule for such fields, shared with
  /// `vitals stream`.
  package static func nonNumericValue(_ text: String) -> Float? {
    let lower = text.lowercased()
    if ["", "nan", "na", "n/a", "null", "-nan"].contains(lower) { return .nan }
    let unsigned = lower.hasPrefix("-") || lower.hasPrefix("+") ? lower.dropFirst() : Substring(lower)
    guard unsigned == "inf" || unsigned == "infinity" else { return nil }
    return lower.hasPrefix("-") ? -.infinity : .infinity
  }
}
