import Vitals
import VitalsCLI

/// Analyzes the recording at `path` as `vitals analyze` does (`RecordingAnalyzer.analyze` with the
/// options of `Analyze`, without --out, --jobs or --shard): `*summary` receives the JSON line it prints
/// (without the line break) and, when `samples` is not NULL, `*samples` the text of the derived samples
/// file (`BatchOutputLayout.samplesFileText`; NULL when the recording states no start time). Both are
/// the caller's.
@_cdecl("vitals_analyze")
public func vitals_analyze(
  _ path: UnsafePointer<CChar>?, _ options: UnsafePointer<UnsafePointer<CChar>?>?, _ optionCount: Int32,
  _ summary: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ samples: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let result = try out(summary, "summary")
    let path = try inputPath(path, "path")
    let words = try strings(options, count: optionCount, "options")
    let batchOptions = ["--out", "--jobs", "--shard"]
    if let word = words.first(where: { word in
      batchOptions.contains { word == $0 || word.hasPrefix($0 + "=") }
    }) {
      throw CallFailure.argument("options: \(word) does not apply to one recording analyzed in memory")
    }
    let command = try parse(Analyze.self, [path] + words)
    guard command.inputs.count == 1 else {
      throw CallFailure.argument("options: one recording, at path, got \(command.inputs.count) inputs")
    }
    let analysis = try RecordingAnalyzer.analyze(path: path, options: command.analysisOptions)
    if let samples {
      let text = BatchOutputLayout.samplesFileText(of: analysis, parameters: command.derivedParameters)
      samples.pointee = text.flatMap(mallocString)
    }
    result.pointee = mallocString(analysis.jsonLine())
  }
}
