import ArgumentParser
import Vitals

/// `vitals analyze` run: the recordings of the inputs (of one shard, with --shard) analyzed as a batch.
extension Analyze {
  public func run() throws {
    var recordings = try recordings(in: inputs, outputDirectory: out)
    if let (index, count) = shardNumbers {
      let all = recordings.count
      recordings = BatchAnalysis.shard(recordings, index: index, count: count)
      if recordings.isEmpty {
        printError("shard \(index)/\(count) holds none of the \(all) recordings")
        return
      }
    }
    let layout = out.map { BatchOutputLayout(directory: $0, derived: derivedParameters) }
    if let layout {
      try refuseOverwritingInputs(
        outputs: BatchOutputLayout.names(for: recordings).flatMap(layout.outputPaths), inputs: recordings)
    }
    try exitingOneOnFileErrors { try layout?.prepare() }
    let batch = BatchAnalysis(
      inputs: recordings, options: analysisOptions, output: layout, jobs: jobs, force: force)
    let showsProgress = StandardStream.error.isTerminal
    let writesSummaries = layout == nil
    let items = batch.run(
      progress: { progress in
        if showsProgress { StandardStream.error.write("\r" + progress.line() + "\u{1B}[K") }
      },
      deliver: { item in
        switch item.outcome {
        case .analyzed(let summary):
          if writesSummaries { StandardStream.output.write(summary + "\n") }
          item.notes.forEach(printError)
        case .skipped: break
        case .failed(let message):
          if showsProgress { StandardStream.error.write("\r\u{1B}[K") }
          printError(message)
        }
      })
    if showsProgress { StandardStream.error.write("\n") }
    let failed = items.filter { if case .failed = $0.outcome { true } else { false } }.count
    if let out {
      let skipped = items.filter { $0.outcome == .skipped }.count
      printError(
        "\(items.count - failed - skipped) analyzed, \(skipped) already done, \(failed) failed; results in \(out)"
      )
    }
    if failed > 0 { throw ExitCode(1) }
  }
}
