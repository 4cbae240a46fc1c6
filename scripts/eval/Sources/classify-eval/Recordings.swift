import Foundation
import Vitals

/// One recording to classify: where it comes from, its reference label, and one ECG lead.
struct Recording {
  /// `cinc2017`, `mitdb-sinus`, `mitdb-af`, `cpsc2021-af`, or `noisy-<noise>-<SNR>` (poor readings).
  var source: String
  /// Record name, with the piece's start in seconds for pieces.
  var name: String
  /// Reference: N, A, O, ~ (CinC 2017's labels).
  var label: String
  var samples: [Float]
  var sampleRate: Double
}

/// The CinC 2017 recordings of `folder` with their `REFERENCE.csv` labels (longer ones cut to the
/// classifier's 60 s).
func cincRecordings(in folder: String) throws -> [Recording] {
  let reference = try String(contentsOfFile: folder + "/REFERENCE.csv", encoding: .utf8)
  return try reference.split(whereSeparator: \.isNewline).map { line in
    let fields = line.split(separator: ",").map(String.init)
    let reader = try WFDBRecordReader(path: folder + "/" + fields[0])
    guard let chunk = try reader.readAll() else { throw CocoaError(.fileReadCorruptFile) }
    let limit = Int(ElectrocardiogramClassifier.supportedDurations.upperBound * chunk.sampleRate)
    return Recording(
      source: "cinc2017", name: fields[0], label: fields[1], samples: Array(chunk.channels[0].prefix(limit)),
      sampleRate: chunk.sampleRate)
  }
}

/// A long annotated record (MIT-BIH, CPSC 2021) cut into 30-s pieces from its start.
struct AnnotatedRecord {
  var name: String
  var signal: [Float]
  var sampleRate: Double
  var beats: [Int64]
  var beatClasses: [BeatClass?]
  /// Sample ranges inside `(AFIB` episodes.
  var fibrillation: [Range<Int64>]
  /// Sample ranges where the rhythm is `(N` (sinus).
  var sinus: [Range<Int64>]

  init(path: String) throws {
    let reader = try WFDBRecordReader(path: path)
    guard let chunk = try reader.readAll() else { throw CocoaError(.fileReadCorruptFile) }
    let lead = try ChannelSelector.resolve(
      [.rule(RecordingBeats.ecgLeadRule)], names: reader.signals.map(\.name), path: path)[0]
    name = (path as NSString).lastPathComponent
    signal = chunk.channels[lead]
    sampleRate = chunk.sampleRate
    let annotations = try WFDBAnnotationFile.read(path: path + ".atr")
    beats = annotations.filter(\.isBeat).map(\.sample)
    beatClasses = annotations.filter(\.isBeat).map { BeatClass(mitCode: $0.symbol) }
    let changes = annotations.filter { $0.symbol == "+" && !$0.aux.isEmpty }.map {
      (sample: $0.sample, rhythm: $0.aux.trimmingCharacters(in: .controlCharacters.union(.whitespaces)))
    }
    let count = Int64(signal.count)
    fibrillation = RhythmSegments.reference(rhythmChanges: changes, sampleCount: count, label: "(AFIB")
    sinus = RhythmSegments.reference(rhythmChanges: changes, sampleCount: count, label: "(N")
  }

  /// The 30-s pieces from the record's start (the partial last one left out).
  var pieces: [Range<Int64>] {
    let length = Int64(30 * sampleRate)
    return stride(from: 0, to: Int64(signal.count) - length + 1, by: Int(length)).map { $0..<($0 + length) }
  }

  /// Whether `piece` lies wholly inside one of `ranges`.
  static func inside(_ piece: Range<Int64>, _ ranges: [Range<Int64>]) -> Bool {
    ranges.contains { $0.lowerBound <= piece.lowerBound && piece.upperBound <= $0.upperBound }
  }

  /// Share of the reference beats of `piece` that are of class N.
  func normalShare(_ piece: Range<Int64>) -> Double {
    let classes = beats.indices.filter { piece.contains(beats[$0]) }.map { beatClasses[$0] }
    return Double(classes.filter { $0 == .normal }.count) / Double(max(classes.count, 1))
  }

  /// The reference beats of `piece`, relative to its start.
  func beats(in piece: Range<Int64>) -> [Int64] {
    beats.filter { piece.contains($0) }.map { $0 - piece.lowerBound }
  }

  func recording(_ piece: Range<Int64>, source: String, label: String) -> Recording {
    let seconds = Int(Double(piece.lowerBound) / sampleRate)
    return Recording(
      source: source, name: "\(name)@\(seconds)s", label: label,
      samples: Array(signal[Int(piece.lowerBound)..<Int(piece.upperBound)]), sampleRate: sampleRate)
  }
}

/// `noise` (same rate as `clean`, at least as long) added to `clean` scaled to `snr` dB as WFDB `nst` scales
/// it (Moody, Muldrow & Mark 1984): signal power A²/8 for the mean peak-to-peak amplitude A of the QRS
/// complexes (±50 ms around `beats`), noise power its variance.
func noisy(_ clean: [Float], beats: [Int64], noise: ArraySlice<Float>, sampleRate: Double, snr: Double)
  -> [Float]
{
  let half = Int(0.05 * sampleRate)
  let amplitudes = beats.map(Int.init).filter { $0 - half >= 0 && $0 + half < clean.count }.map {
    Double(clean[($0 - half)...($0 + half)].max()! - clean[($0 - half)...($0 + half)].min()!)
  }
  let amplitude = amplitudes.reduce(0, +) / Double(max(amplitudes.count, 1))
  let mean = noise.reduce(0.0) { $0 + Double($1) } / Double(noise.count)
  let noisePower = noise.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(noise.count)
  let gain = Float((amplitude * amplitude / 8 / noisePower / pow(10, snr / 10)).squareRoot())
  return zip(clean, noise).map { $0 + gain * ($1 - Float(mean)) }
}
