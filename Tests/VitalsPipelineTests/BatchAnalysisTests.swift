import Foundation
import Testing
import VitalsIO

@testable import VitalsPipeline

/// A directory with three simulated records (`a`, `b`, `c`, 40 s each) and one corrupt CSV.
struct Study {
  let directory: String
  let records: [String]
  let corrupt: String

  init() throws {
    let directory = try temporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
    records = try zip(["a", "b", "sub/c"], Self.signals).map { name, ecg in
      try ecg.writeWFDB(in: directory, name: name)
    }
    self.directory = directory
    corrupt = directory + "/broken.csv"
    try Data("ecg\n0.1\n0.2\nnot a number\n".utf8).write(to: URL(fileURLWithPath: corrupt))
  }

  var inputs: [String] { records + [corrupt] }

  /// Three 40-s ECGs (seeds 1–3), simulated once for every test.
  static let signals = (1...3).map { SimulatedECG(seconds: 40, seed: UInt64($0)) }
}

/// The summary line without its timing fields, which differ from run to run.
private func withoutTiming(_ line: String) throws -> String {
  var object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  object["processing_s"] = nil
  object["samples_per_s"] = nil
  return String(
    decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
}

@Suite("Batch analysis")
struct BatchAnalysisTests {
  @Test("shards of a list of paths are disjoint, hold every path, and keep a path whatever else is listed")
  func shards() {
    let paths = (0..<200).map { "study/subject\($0)/night.edf" }
    let shards = (1...7).map { BatchAnalysis.shard(paths, index: $0, count: 7) }
    #expect(shards.flatMap { $0 }.sorted() == paths.sorted())
    #expect(Set(shards.flatMap { $0 }).count == paths.count)
    #expect(shards.allSatisfy { $0.count > 10 })
    #expect(
      BatchAnalysis.shard(Array(paths.prefix(50)), index: 3, count: 7)
        == shards[2].filter { paths.prefix(50).contains($0) })
    #expect(BatchAnalysis.shard(paths, index: 1, count: 1) == paths)
  }

  @Test("folders are searched recursively and globs expanded; WFDB records named without .hea")
  func expansion() throws {
    let study = try Study()
    defer { try? FileManager.default.removeItem(atPath: study.directory) }
    let expanded = InputExpansion.expand([study.directory])
    #expect(expanded == [study.records[0], study.records[1], study.corrupt, study.records[2]].sorted())
    #expect(InputExpansion.expand([study.directory + "/*.hea"]) == [study.records[0], study.records[1]])
    // A pattern matching every file names each recording once, not its signal files.
    #expect(InputExpansion.expand([study.directory + "/*"]) == expanded)
    #expect(InputExpansion.expand(["missing.csv", "missing.csv"]) == ["missing.csv"])
    // One file by two spellings is one recording; a pattern matching nothing stays, to fail as a missing
    // file does (it was dropped without a word beside other inputs).
    let respelled = study.directory + "/." + study.corrupt.dropFirst(study.directory.count)
    #expect(InputExpansion.expand([study.corrupt, respelled]) == [study.corrupt])
    let nothing = study.directory + "/*.nomatch"
    #expect(InputExpansion.expand([nothing, study.corrupt]) == [nothing, study.corrupt])
    // A record by its path and by its header is one recording; a pattern of signal files names none.
    #expect(InputExpansion.expand([study.records[0], study.records[0] + ".hea"]) == [study.records[0]])
    let signalFiles = study.directory + "/*.dat"
    #expect(InputExpansion.expand([signalFiles]) == [signalFiles])
    let link = study.directory + "-link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: study.directory)
    defer { try? FileManager.default.removeItem(atPath: link) }
    #expect(InputExpansion.expand([link]) == expanded.map { link + $0.dropFirst(study.directory.count) })
  }

  @Test("output names are file stems, with parent folders only where they would clash, then numbers")
  func names() {
    #expect(BatchOutputLayout.names(for: ["x/100", "y/101.edf"]) == ["100", "101"])
    #expect(BatchOutputLayout.names(for: ["x/100", "y/100", "z/102.csv"]) == ["x_100", "y_100", "102"])
    #expect(BatchOutputLayout.names(for: ["../a/100", "../b/100", "./101"]) == ["a_100", "b_100", "101"])
    #expect(
      BatchOutputLayout.names(for: ["x/100", "x/100.hea", "x/100.csv"]) == ["x_100", "x_100_2", "x_100_3"])
  }

  @Test("a corrupt file fails alone; the others are analysed, in input order")
  func isolatesFailures() throws {
    let study = try Study()
    defer { try? FileManager.default.removeItem(atPath: study.directory) }
    let items = BatchAnalysis(inputs: study.inputs, jobs: 2).run()
    #expect(items.map(\.path) == study.inputs)
    for item in items.prefix(3) {
      guard case .analyzed(let summary) = item.outcome else {
        Issue.record("\(item.path) not analysed: \(item.outcome)")
        continue
      }
      #expect(summary.contains("\"ecg\":{"))
    }
    guard case .failed(let message) = items[3].outcome else {
      Issue.record("the corrupt file did not fail")
      return
    }
    #expect(message.hasPrefix(study.corrupt + ":4:"))
  }

  @Test("two jobs give the same summaries as one")
  func jobsAgree() throws {
    let study = try Study()
    defer { try? FileManager.default.removeItem(atPath: study.directory) }
    func summaries(_ jobs: Int) throws -> [String] {
      try BatchAnalysis(inputs: study.records, jobs: jobs).run().map { item in
        guard case .analyzed(let line) = item.outcome else { throw CancellationError() }
        return try withoutTiming(line)
      }
    }
    #expect(try summaries(2) == summaries(1))
  }

  @Test("a killed run resumes: complete results are skipped, partial files are not taken as done")
  func resumes() throws {
    let study = try Study()
    defer { try? FileManager.default.removeItem(atPath: study.directory) }
    let layout = BatchOutputLayout(directory: study.directory + "/out")
    try layout.prepare()
    let first = BatchAnalysis(inputs: study.records, output: layout, jobs: 2).run()
    #expect(first.allSatisfy { if case .analyzed = $0.outcome { true } else { false } })
    let names = BatchOutputLayout.names(for: study.records)
    #expect(names == ["a", "b", "c"])
    let beats = try String(contentsOfFile: layout.tablePath(name: "a", suffix: "beats"), encoding: .utf8)
    #expect(beats.hasPrefix("sample,time_s,label\n") && beats.split(separator: "\n").count > 40)
    // As if killed while writing b: its summary gone, a partial temporary file left behind.
    try FileManager.default.removeItem(atPath: layout.summaryPath(name: "b"))
    try Data("{\"path\":".utf8).write(to: URL(fileURLWithPath: study.directory + "/out/.b.json.99.1.partial"))
    let second = BatchAnalysis(inputs: study.records, output: layout, jobs: 2).run()
    #expect(second.map(\.outcome.isSkipped) == [true, false, true])
    let summary = try String(contentsOfFile: layout.summaryPath(name: "b"), encoding: .utf8)
    #expect(summary.hasSuffix("}\n") && summary.contains(study.records[1]))
    // An input changed after its summary was written is analysed again; --force redoes everything.
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: study.records[2] + ".dat")
    #expect(!layout.isDone(input: study.records[2], name: "c"))
    let forced = BatchAnalysis(inputs: study.records, output: layout, jobs: 1, force: true).run()
    #expect(forced.allSatisfy { !$0.outcome.isSkipped })
  }

  @Test("progress reaches every recording and the whole input")
  func progress() throws {
    let study = try Study()
    defer { try? FileManager.default.removeItem(atPath: study.directory) }
    var last: BatchProgress?
    BatchAnalysis(inputs: study.records, jobs: 2).run(progressInterval: 0.01) { last = $0 }
    let final = try #require(last)
    #expect(final.finished == 3 && final.total == 3 && final.failed == 0)
    #expect(abs(final.fraction - 1) < 1e-12)
    #expect(final.samples == 3 * 40 * 250)
    #expect(final.line().hasPrefix("[##############################] 3/3 recordings"))
  }
}

extension BatchItem.Outcome {
  var isSkipped: Bool { self == .skipped }
}

@Suite("Recording summaries")
struct RecordingSummaryTests {
  @Test("channels without a role are listed with kind null; recognised kinds without a pipeline are named")
  func rolesInSummary() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let ecg = Study.signals[0]
    let text = "MLII,resp,pleth,acc_x,acc_y\n" + ecg.samples.map { "\($0),0.5,\($0 * 2),0,1\n" }.joined()
    let path = directory + "/three.csv"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let options = AnalysisOptions(recording: RecordingOptions(csv: CSVOptions(sampleRate: ecg.rate)))
    let line = try RecordingAnalyzer.analyze(path: path, options: options).jsonLine()
    #expect(
      line.contains(
        "\"signals\":[{\"kind\":\"ecg\",\"name\":\"MLII\",\"unit\":\"\"},{\"kind\":null,\"name\":\"resp\""))
    #expect(line.contains("\"ppg\":{\"artifact_beats\":"))
    #expect(
      line.contains(
        "\"not_analyzed\":[{\"channels\":[\"acc_x\",\"acc_y\"],\"kind\":\"accelerometer\",\"reason\":\"step counting needs three acceleration axes, found 2\"}]"
      ))
  }
}
