import VitalsCore
import VitalsSupport

/// Converting a recording to CSV or to a WFDB record (`vitals convert`), keeping its values.
///
/// **CSV** (`OUT.csv` or `-`): ``CSVSignalWriter``: physical values in their shortest round-trip text.
///
/// **WFDB** (`OUT.hea`): `OUT.hea` and `OUT.dat` (``WFDBRecordWriter``), each signal's gain and baseline
/// chosen so that every value is kept within half an ADC step, or exactly:
/// - from a single-segment WFDB record: the digital values, gains, baselines, units, ADC resolution
///   and zero, samples per frame, record line and `#` comments, as they are (format 16, or 24/32 for
///   a source in those formats; skew applied); its annotation files (`NAME.atr`, …) are copied
///   beside the output under its name (`OUT.atr`);
/// - from EDF/EDF+: gain `(dmax − dmin)/(pmax − pmin)` and baseline `dmax − pmax × gain` from the
///   header; when that baseline is not an integer (−0.5 for symmetric ranges), `k` WFDB steps per EDF
///   step for the smallest `k` ≤ 16 that makes it one, so that every value is kept exactly
///   (`EDFScale`); in the smallest of formats 16, 24 and 32 that holds the digital range
///   (full-range 16-bit EDF, whose −32768 is format 16's invalid marker, needs format 24); the
///   patient and recording fields become comments; EDF+ annotations become `OUT.ann`, one NOTE (`"`)
///   annotation per text at its onset's sample, the text (cut to 255 bytes) as aux, a duration appended
///   as ` (duration D s)`;
/// - from anything else (CSV, Apple Health ECG, multi-segment WFDB): a first pass over the input
///   (``SignalScan``) finds each signal's range, and the gain is the largest 1, 2 or 5 × 10ⁿ adu per
///   unit that fits it into format 16 (so that decimal values with at most n digits after the point
///   are stored as exact digital values), the baseline centring it.
///
/// NaN is written as the format's invalid-sample marker; a value that cannot be written (infinite,
/// outside the range the first pass found) throws ``OutputError`` naming the signal and sample.
public enum RecordingConversion {
  /// Whether `output` names a WFDB record (`.hea`); otherwise it is CSV.
  public static func writesWFDB(_ output: String) -> Bool { output.hasSuffix(".hea") }

  /// The files converting `input` to `output` writes: the CSV file; or the record's header, signal file
  /// and annotation files (those ``convert(path:options:to:chunkSize:)`` copies or makes).
  public static func outputFiles(input: String, output: String) -> [String] {
    guard writesWFDB(output) else { return [output] }
    let files = WFDBRecordWriter.files(forPath: output)
    let base = String(files.header.dropLast(4))
    var outputs = [files.header, files.signals]
    switch try? RecordingOpener.detectKind(path: input) {
    case .wfdb:
      outputs += WFDBAnnotationFile.annotators(besideRecord: input).map { base + "." + $0.annotator }
    case .edf:
      outputs.append(base + ".ann")
    default: break
    }
    return outputs
  }

  /// Converts the recording at `path` (read with `options`, `chunkSize` samples at a time) to `output`.
  /// Throws ``InputError`` for input that cannot be read and ``OutputError`` for output that cannot be
  /// written. Each output file is written whole or not at all (``AtomicFile``): after an error, no
  /// output name holds a partial file.
  ///
  /// Returns notes for standard error, each naming the input: a WFDB signal of several samples per
  /// frame written at the frame rate, each frame's samples averaged
  /// (``WFDBRecordReader/averagedSignalNotes``; a WFDB record written as WFDB keeps them), and an EDF+
  /// annotation whose onset lies before the first sample.
  @discardableResult
  public static func convert(path: String, options: RecordingOptions, to output: String, chunkSize: Int)
    throws -> [String]
  {
    guard writesWFDB(output) else {
      let notes = try averagedNotes(path: path, options: options)
      var reader = try RecordingOpener.open(path: path, options: options)
      let writer = try CSVSignalWriter(path: output, signalNames: reader.signals.map(\.name))
      while let chunk = try reader.nextChunk(maxSamples: chunkSize) { try writer.write(chunk) }
      try writer.close()
      return notes
    }
    var notes: [String] = []
    switch try RecordingOpener.detectKind(path: path) {
    case .wfdb:
      let reader = try WFDBRecordReader(path: path, selecting: options.channels)
      if reader.header.segments.isEmpty {
        try copyDigital(reader, to: output, chunkSize: chunkSize)
      } else {
        notes = try averagedNotes(path: path, options: options)
        try convertFitted(
          path: path, options: options, to: output, chunkSize: chunkSize,
          record: .init(keeping: reader.header))
      }
      let base = String(WFDBRecordWriter.files(forPath: output).header.dropLast(4))
      let source = path.hasSuffix(".hea") ? String(path.dropLast(4)) : path
      for (annotator, _) in WFDBAnnotationFile.annotators(besideRecord: path) {
        try AtomicFile.write(
          try ByteInput(path: source + "." + annotator).readAll(), to: base + "." + annotator)
      }
    case .edf:
      notes = try convertEDF(path: path, options: options, to: output, chunkSize: chunkSize)
    case .csv, .appleHealthECG:
      try convertFitted(path: path, options: options, to: output, chunkSize: chunkSize, record: nil)
    }
    return notes
  }

  /// The notes of a WFDB input's signals read at the frame rate, averaged; none for other inputs.
  private static func averagedNotes(path: String, options: RecordingOptions) throws -> [String] {
    guard path != "-", try RecordingOpener.detectKind(path: path) == .wfdb else { return [] }
    let reader = try WFDBRecordReader(path: path, selecting: options.channels)
    return reader.averagedSignalNotes.map { "\(path): \($0)" }
  }

  /// A single-segment WFDB record's digital values, scales and header, as they are.
  private static func copyDigital(_ reader: WFDBRecordReader, to output: String, chunkSize: Int) throws {
    let specs = reader.signalIndices.map { reader.header.signals[$0] }
    let format: WFDBStorageFormat =
      specs.contains { $0.format == .int32 }
      ? .int32 : specs.contains { $0.format == .int24 } ? .int24 : .int16
    let writer = try WFDBRecordWriter(
      path: output, signals: specs.map(WFDBRecordWriter.Signal.init(keeping:)),
      record: .init(keeping: reader.header), format: format)
    let markers = specs.map(\.format.invalidSample)
    while let samples = try reader.nextDigitalChunk(maxFrames: chunkSize) {
      let frames = specs.isEmpty ? 0 : samples[0].count / specs[0].samplesPerFrame
      try writer.appendDigital(samples, frames: frames, invalid: markers)
    }
    try writer.finish()
  }

  /// Physical values with gains and baselines fitted to each signal's range (a first pass); the record
  /// line `record`, or the reader's rate and start time (none when it states none).
  private static func convertFitted(
    path: String, options: RecordingOptions, to output: String, chunkSize: Int,
    record: WFDBRecordWriter.Record?
  ) throws {
    var scanned = try RecordingOpener.open(path: path, options: options)
    let scans = try SignalScan.scan(&scanned, maxSamples: chunkSize)
    let signals = zip(scanned.signals, scans).map {
      WFDBRecordWriter.Signal(name: $0.name, unit: $0.unit, fitting: $1)
    }
    var reader = try RecordingOpener.open(path: path, options: options)
    let start = reader.startTime
    let writer = try WFDBRecordWriter(
      path: output, signals: signals,
      record: record ?? .init(frameRate: reader.chunkSampleRate, startTime: start))
    while let chunk = try reader.nextChunk(maxSamples: chunkSize) { try writer.append(chunk) }
    try writer.finish()
  }

  /// EDF/EDF+: the header's scales, patient and recording fields, and annotations.
  private static func convertEDF(path: String, options: RecordingOptions, to output: String, chunkSize: Int)
    throws -> [String]
  {
    var reader = try EDFReader(path: path, channels: options.channels)
    let header = reader.header
    var comments: [String] = []
    if !header.patient.isEmpty { comments.append(" EDF patient: " + header.patient) }
    if !header.recording.isEmpty { comments.append(" EDF recording: " + header.recording) }
    var scales = reader.selectedSignals.map { header.signals[$0] }.map(EDFScale.init)
    if scales.contains(where: { $0 == nil }) {
      var scanned = try EDFReader(path: path, channels: options.channels)
      let scans = try SignalScan.scan(&scanned, maxSamples: chunkSize)
      scales = zip(scales, zip(reader.signals, scans)).map { scale, fit in
        scale ?? EDFScale(fitted: WFDBRecordWriter.Signal(name: fit.0.name, unit: fit.0.unit, fitting: fit.1))
      }
    }
    let lowest = scales.map { $0!.digitalRange.lowerBound }.min() ?? 0
    let highest = scales.map { $0!.digitalRange.upperBound }.max() ?? 0
    guard let format = WFDBRecordWriter.smallestFormat(holding: lowest...highest) else {
      throw OutputError(path: output, "the digital range \(lowest)...\(highest) fits no WFDB format")
    }
    let signals = zip(reader.signals, scales).map { signal, scale in
      WFDBRecordWriter.Signal(
        name: signal.name, unit: signal.unit, gain: scale!.gain, baseline: scale!.baseline)
    }
    let writer = try WFDBRecordWriter(
      path: output, signals: signals,
      record: .init(frameRate: reader.chunkSampleRate, startTime: reader.startTime, comments: comments),
      format: format)
    while let chunk = try reader.nextChunk(maxSamples: chunkSize) { try writer.append(chunk) }
    try writer.finish()

    return try writeAnnotations(of: reader, path: path, to: output)
  }

  /// The annotation type of EDF+ annotations at the record's first sample (code 42, unassigned in
  /// `ecgcodes.h`): rdann and ``WFDBAnnotationFile/parse(_:path:)`` take NOTEs at sample 0 for the
  /// file's own definitions, so these are not NOTEs.
  public static let startNote = WFDBAnnotationFile.TypeDefinition(
    code: 42, mnemonic: "\"0", description: "Comment annotation at the first sample")

  /// EDF+ annotations as `OUT.ann` (see the type's description); returns a note for each annotation
  /// whose onset lies before the first sample (written at sample 0, its onset in the text).
  private static func writeAnnotations(of reader: EDFReader, path: String, to output: String) throws
    -> [String]
  {
    let header = reader.header
    let index = try reader.readAnnotations()
    guard header.isPlus, !index.annotations.isEmpty else { return [] }
    let firstOnset =
      Double(
        (reader.startTime ?? header.startTime).nanosecondsSinceEpoch - header.startTime.nanosecondsSinceEpoch)
      * 1e-9
    var notes: [String] = []
    let annotations = index.annotations.map { annotation in
      var text = annotation.text
      if let duration = annotation.duration { text += " (duration \(shortestText(duration)) s)" }
      let sample = Int64(((annotation.onset - firstOnset) * reader.chunkSampleRate).rounded())
      if sample < 0 {
        text += " (onset \(shortestText(annotation.onset)) s, before the first sample)"
        notes.append(
          "\(path): annotation \"\(annotation.text)\" at \(shortestText(annotation.onset)) s lies before the "
            + "first sample (\(shortestText(firstOnset)) s): written at sample 0 with its onset in the text")
      }
      while text.utf8.count > 255 { text.removeLast() }
      return WFDBAnnotation(sample: max(0, sample), code: sample > 0 ? 22 : startNote.code, aux: text)
    }.sorted { $0.sample < $1.sample }
    let base = String(WFDBRecordWriter.files(forPath: output).header.dropLast(4))
    let definitions = annotations.contains { $0.sample == 0 } ? [startNote] : []
    try AtomicFile.write(WFDBAnnotationFile.encode(annotations, definitions: definitions), to: base + ".ann")
    return notes
  }
}

/// An EDF signal's scale in WFDB terms and the digital values it gives.
private struct EDFScale {
  var gain: Double
  var baseline: Int
  var digitalRange: ClosedRange<Int64>

  /// From the header: nil when its physical or digital range is empty or reversed, or its baseline
  /// lies beyond ±(2³¹ − 1).
  ///
  /// EDF's physical value of digital `d` is `(d − b) / g`, `g = (dmax − dmin)/(pmax − pmin)` and
  /// `b = dmax − pmax × g`; WFDB's baseline is an integer, and `b` often is not (−0.5 for the
  /// symmetric ranges −32768…32767 and −3276.8…3276.8). The scale is then `k` WFDB steps per EDF step
  /// (gain `k × g`, baseline `k × b`, digital `k × d`) for the smallest `k` of 1…16 that makes
  /// `k × b` an integer (within 10⁻⁶), so that every value is kept exactly; without such a `k`,
  /// `b` is rounded (values kept within half a step).
  init?(_ signal: EDFHeader.Signal) {
    guard signal.physicalMaximum > signal.physicalMinimum, signal.digitalMaximum > signal.digitalMinimum
    else {
      return nil
    }
    let edfGain = 1 / signal.scale
    let exact = Double(signal.digitalMaximum) - signal.physicalMaximum * edfGain
    guard abs(exact) < 1e9, edfGain.isFinite else { return nil }
    let steps = (1...16).first { k in
      let scaled = Double(k) * exact
      return abs(scaled - scaled.rounded()) <= 1e-6 * max(1, abs(scaled))
    }
    let k = Int64(steps ?? 1)
    gain = Double(k) * edfGain
    let scaled = (Double(k) * exact).rounded()
    guard abs(scaled) <= Double(Int32.max) else { return nil }
    baseline = Int(scaled)
    // A baseline moved by a fraction of a step can move the extreme values by one.
    let slack: Int64 = steps == nil ? 1 : 0
    digitalRange = (k * Int64(signal.digitalMinimum) - slack)...(k * Int64(signal.digitalMaximum) + slack)
  }

  /// A fitted signal's scale (within format 16).
  init(fitted signal: WFDBRecordWriter.Signal) {
    gain = signal.gain
    baseline = signal.baseline
    digitalRange = WFDBRecordWriter.validRange(of: .int16)
  }
}

extension WFDBRecordWriter.Signal {
  /// A signal whose gain and baseline put every value `scan` found into format 16: the gain is the
  /// largest 1, 2 or 5 × 10ⁿ adu per unit that fits the range into ±32 766 with the baseline (an integer
  /// within ±2³¹) centring it; a signal without a finite range (no valid value, infinite values) gets
  /// ``WFDBRecordWriter/defaultGain(unit:)`` and baseline 0, and a constant one the default gain and the
  /// baseline that centers it.
  public init(name: String, unit: String, fitting scan: SignalScan) {
    let defaultGain = WFDBRecordWriter.defaultGain(unit: unit)
    guard let low = scan.minimum.map(Double.init), let high = scan.maximum.map(Double.init), low.isFinite,
      high.isFinite
    else {
      self.init(name: name, unit: unit, gain: defaultGain)
      return
    }
    let center = (low + high) / 2
    let baselineLimit = Double(Int32.max - 1)
    var bound = high > low ? 65_532 / (high - low) : defaultGain
    if center != 0 { bound = min(bound, baselineLimit / abs(center)) }
    let gain = Self.roundNumber(atMost: bound)
    self.init(name: name, unit: unit, gain: gain, baseline: -Int((center * gain).rounded()))
  }

  /// The largest 1, 2 or 5 × 10ⁿ not above `bound` (> 0).
  static func roundNumber(atMost bound: Double) -> Double {
    let power = pow(10, log10(bound).rounded(.down))
    for mantissa in [5.0, 2, 1] where mantissa * power <= bound { return mantissa * power }
    return power / 2
  }
}
