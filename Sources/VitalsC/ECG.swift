import Vitals
import VitalsCLI

/// R peaks of `leads[0]` and the EC57 class of each beat (`RecordingBeats.detect(leads:sampleRate:)`):
/// `*peaks` and `*classes` (ASCII letters, not NUL-terminated; skipped when `classes` is NULL) are
/// `*beat_count` long and the caller's.
@_cdecl("vitals_ecg_beats")
public func vitals_ecg_beats(
  _ leads: UnsafePointer<UnsafePointer<Float>?>?, _ leadCount: Int32, _ count: Int64, _ sampleRate: Double,
  _ peaks: UnsafeMutablePointer<UnsafeMutablePointer<Int64>?>?,
  _ classes: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ beatCount: UnsafeMutablePointer<Int64>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let peaksOut = try out(peaks, "peaks")
    let countOut = try out(beatCount, "beat_count")
    let samples = try channelBuffers(leads, channels: leadCount, minimum: 1, count: count, "leads")
    try SupportedRates.qrsDetector.check("sample_rate", sampleRate)
    do {
      guard let classes else {  // peaks only: the detector alone, on the caller's samples
        let beats = try RecordingBeats.peaks(lead: samples[0], sampleRate: sampleRate).beats
        peaksOut.pointee = mallocBuffer(beats)
        countOut.pointee = Int64(beats.count)
        return
      }
      let detection = try RecordingBeats.detect(leads: samples.map(Array.init), sampleRate: sampleRate)
      peaksOut.pointee = mallocBuffer(detection.beats)
      classes.pointee = mallocBuffer(detection.classes.map { CChar(bitPattern: $0.letter.utf8.first!) })
      countOut.pointee = Int64(detection.beats.count)
    } catch {
      throw CallFailure.argument("\(error)")
    }
  }
}

/// R peaks of `lead` on `jobs` threads (`RecordingBeats.peaks(lead:sampleRate:jobs:)`): `*peaks` is
/// `*beat_count` long and the caller's.
@_cdecl("vitals_ecg_peaks")
public func vitals_ecg_peaks(
  _ lead: UnsafePointer<Float>?, _ count: Int64, _ sampleRate: Double, _ jobs: Int32,
  _ peaks: UnsafeMutablePointer<UnsafeMutablePointer<Int64>?>?, _ beatCount: UnsafeMutablePointer<Int64>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let peaksOut = try out(peaks, "peaks")
    let countOut = try out(beatCount, "beat_count")
    let samples = try pointers(lead, count: count, "lead")
    guard jobs >= 1 else { throw CallFailure.argument("jobs must be at least 1, got \(jobs)") }
    try SupportedRates.qrsDetector.check("sample_rate", sampleRate)
    do {
      let beats = try RecordingBeats.peaks(lead: samples, sampleRate: sampleRate, jobs: Int(jobs)).beats
      peaksOut.pointee = mallocBuffer(beats)
      countOut.pointee = Int64(beats.count)
    } catch {
      throw CallFailure.argument("\(error)")
    }
  }
}

/// The beats of the recording at `path` as `vitals beats` finds them (`BeatSignal.detect(path:input:)`
/// with the options of `Beats`), as JSON (see `vitals.h`); `*json` is the caller's.
@_cdecl("vitals_recording_beats")
public func vitals_recording_beats(
  _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<UnsafePointer<CChar>?>?, _ optionCount: Int32,
  _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let result = try out(json, "json")
    let path = try inputPath(path, "path")
    let command = try parse(Beats.self, [path] + (try strings(options, count: optionCount, "options")))
    guard command.inputs.count == 1, command.output == "-", command.format == nil, command.outDir == nil
    else {
      throw CallFailure.argument("options: one recording, without -o, --format or --out-dir")
    }
    let beats = try command.signal.detect(path: path, input: command.input)
    result.pointee = mallocString(compactJSON(BeatList(beats)))
  }
}

/// Beats as ``vitals_recording_beats(_:_:_:_:_:)`` encodes them.
private struct BeatList: Encodable {
  var lead: String
  var sample_rate: Double
  var sample_count: Int64
  var beats: [Int64]
  var classes: String?
  var gaps: [[Int64]]

  init(_ detection: RecordingBeats) {
    lead = detection.lead
    sample_rate = detection.sampleRate
    sample_count = detection.sampleCount
    beats = detection.beats
    classes = detection.classes.map { $0.map(\.letter).joined() }
    gaps = detection.gaps.map { [$0.lowerBound, $0.upperBound] }
  }

  private enum CodingKeys: CodingKey { case lead, sample_rate, sample_count, beats, classes, gaps }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(lead, forKey: .lead)
    try c.encode(sample_rate, forKey: .sample_rate)
    try c.encode(sample_count, forKey: .sample_count)
    try c.encode(beats, forKey: .beats)
    try c.encode(classes, forKey: .classes)
    try c.encode(gaps, forKey: .gaps)
  }
}
