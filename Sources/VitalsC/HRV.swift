import Vitals
import VitalsCLI

/// HRV of `count` beats (sample indices, strictly increasing) at `sample_rate` Hz with artifact
/// detection (`HRVAnalysis(beats:sampleRate:labels:)`, as `vitals hrv` computes it), with `labels`
/// (one MIT symbol letter per beat, or NULL) only N-to-N intervals. `*json` (the caller's) is an object
/// of `"HRV_" + HRVMetric.all[i].name` keys in that order, values in NeuroKit2's units, null where
/// undefined.
@_cdecl("vitals_hrv")
public func vitals_hrv(
  _ peaks: UnsafePointer<Int64>?, _ count: Int64, _ sampleRate: Double, _ labels: UnsafePointer<CChar>?,
  _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    try writeHRV(
      peaks, count, sampleRate, labels, json, detectArtifacts: true, frequencyOptions: HRVFrequencyOptions())
  }
}

/// HRV as ``vitals_hrv(_:_:_:_:_:_:)`` computes it, with the `option_count` words of `options` (the
/// analysis options of `vitals hrv`, `HRVOptions`: `--no-artifacts`, `--psd`, `--interpolation-rate`,
/// `--tachogram-interpolation`, `--lomb-scaling`) validated as the command line validates them.
@_cdecl("vitals_hrv_with_options")
public func vitals_hrv_with_options(
  _ peaks: UnsafePointer<Int64>?, _ count: Int64, _ sampleRate: Double, _ labels: UnsafePointer<CChar>?,
  _ options: UnsafePointer<UnsafePointer<CChar>?>?, _ optionCount: Int32,
  _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let analysis = try parse(HRVOptions.self, try strings(options, count: optionCount, "options"))
    try writeHRV(
      peaks, count, sampleRate, labels, json, detectArtifacts: analysis.detectArtifacts,
      frequencyOptions: analysis.frequencyOptions)
  }
}

/// Checks the arguments of the HRV calls and writes the JSON object of `HRVAnalysis` with
/// `detectArtifacts` and `frequencyOptions` to `*json` (malloc'd); a bad argument throws an error naming it
/// (``CallFailure``, or `ValidationError` for the rate).
private func writeHRV(
  _ peaks: UnsafePointer<Int64>?, _ count: Int64, _ sampleRate: Double, _ labels: UnsafePointer<CChar>?,
  _ json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, detectArtifacts: Bool,
  frequencyOptions: HRVFrequencyOptions
) throws {
  let result = try out(json, "json")
  let beats = Array(try pointers(peaks, count: count, "peaks"))
  try SupportedRates.signal.check("sample_rate", sampleRate)
  if let k = beats.indices.first(where: { !(0...WFDBAnnotationFile.maximumTime).contains(beats[$0]) }) {
    throw CallFailure.argument(
      "peaks[\(k)] must be a sample index from 0 to \(WFDBAnnotationFile.maximumTime), got \(beats[k])")
  }
  if let k = beats.indices.dropFirst().first(where: { beats[$0 - 1] >= beats[$0] }) {
    throw CallFailure.argument(
      "peaks must be strictly increasing: peaks[\(k)] = \(beats[k]) follows \(beats[k - 1])")
  }
  let letters = try labels.map { pointer throws(CallFailure) in
    let letters = try string(pointer, "labels").map(String.init)
    guard letters.count == beats.count else {
      throw CallFailure.argument(
        "labels must hold one letter per beat: \(letters.count) for \(beats.count) beats")
    }
    return letters
  }
  let analysis = HRVAnalysis(
    beats: beats, sampleRate: sampleRate, labels: letters, detectArtifacts: detectArtifacts,
    frequencyOptions: frequencyOptions)
  let fields = HRVMetric.all.map { metric in
    let value = analysis.value(of: metric)
    return compactJSON("HRV_" + metric.name) + ":" + (value.isFinite ? compactJSON(value) : "null")
  }
  result.pointee = mallocString("{" + fields.joined(separator: ",") + "}")
}
