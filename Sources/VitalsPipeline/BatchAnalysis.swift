import Dispatch
import FoundationEssentials
import Synchronization
import VitalsCore
import VitalsIO

import VitalsSupport

/// How far a batch has come, for a progress display.
public struct BatchProgress: Sendable, Equatable {
  /// Recordings in the batch.
  public var total: Int
  /// Recordings finished (analyzed, skipped or failed).
  public var finished: Int
  /// Recordings that failed.
  public var failed: Int
  /// Recordings skipped because their results were already there.
  public var skipped: Int
  /// Samples (of all channels) read so far.
  public var samples: Int64
  /// Seconds since the batch started.
  public var elapsed: Double
  /// Fraction of the batch's input bytes processed, 0–1 (recordings in progress count in proportion
  /// to the samples read, where their headers state their length).
  public var fraction: Double

  /// Samples read per second of the batch so far.
  public var samplesPerSecond: Double { elapsed > 0 ? Double(samples) / elapsed : 0 }

  /// Estimated seconds to the end, from the rate so far; nil before anything was processed.
  public var secondsLeft: Double? {
    guard fraction > 0, elapsed > 0 else { return nil }
    return elapsed * (1 - fraction) / fraction
  }

  /// A one-line display `width` characters wide or less:
  /// `[#####-----] 12/26 recordings · 3.1 M samples/s · 0:42 left`.
  public func line(width: Int = 80) -> String {
    let left =
      secondsLeft.map { s -> String in
        let seconds = Int(s.rounded())
        return seconds >= 3600
          ? String(cFormat: "%ld:%02ld:%02ld left", seconds / 3600, seconds / 60 % 60, seconds % 60)
          : String(cFormat: "%ld:%02ld left", seconds / 60, seconds % 60)
      } ?? "--:-- left"
    let rate = String(cFormat: "%.1f M samples/s", samplesPerSecond / 1e6)
    let failures = failed > 0 ? " · \(failed) failed" : ""
    let text = " \(finished)/\(total) recordings · \(rate) · \(left)\(failures)"
    let bar = max(10, min(30, width - text.count - 2))
    let filled = Int((Double(bar) * min(1, max(0, fraction))).rounded(.down))
    return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: bar - filled) + "]"
      + text
  }
}

/// What became of one recording of a batch.
public struct BatchItem: Sendable, Equatable {
  /// The outcome.
  public enum Outcome: Sendable, Equatable {
    /// Analyzed: its summary as one JSON line.
    case analyzed(summary: String)
    /// Skipped: its results were already in the output directory.
    case skipped
    /// Failed: the error, naming the file and place.
    case failed(message: String)
  }

  /// Position in the batch's input list.
  public var index: Int
  /// The recording's path.
  public var path: String
  /// The outcome.
  public var outcome: Outcome
  /// What the user should know about an analyzed recording (``RecordingAnalysis/notes``).
  public var notes: [String] = []
}

/// Many recordings analyzed in parallel on a pool of worker threads, each streamed in chunks (memory
/// per worker bounded by the chunk size and the beats of one recording). With at least twice as many
/// jobs as recordings, each recording takes two threads
/// (``RecordingAnalyzer/analyze(path:options:threads:onOpen:onChunk:onEvent:)``).
///
/// Failures are isolated: a recording that cannot be read is reported as ``BatchItem/Outcome/failed(message:)``
/// and the others go on. With an output directory, each recording's results are written atomically as
/// soon as it is done, and recordings whose results are already there (and newer than their input) are
/// skipped unless `force` is set, so a killed batch resumes where it stopped.
public struct BatchAnalysis: Sendable {
  /// The recordings, in order.
  public var inputs: [String]
  /// How each is analyzed.
  public var options: AnalysisOptions
  /// Where results go; nil to hand summaries back only.
  public var output: BatchOutputLayout?
  /// Worker threads.
  public var jobs: Int
  /// Whether to analyze recordings whose results are already there.
  public var force: Bool

  /// The processors this process may run on: the default number of jobs.
  public static var processorCount: Int { ProcessInfo.processInfo.activeProcessorCount }

  /// A batch of `inputs` (see ``InputExpansion/expand(_:outputDirectory:)``) on `jobs` threads (≥ 1).
  public init(
    inputs: [String], options: AnalysisOptions = AnalysisOptions(), output: BatchOutputLayout? = nil,
    jobs: Int = processorCount, force: Bool = false
  ) {
    precondition(jobs >= 1, "a batch needs at least one job")
    self.inputs = inputs
    self.options = options
    self.output = output
    self.jobs = jobs
    self.force = force
  }

  /// The recordings of shard `index` (1...`count`) of `paths`: those whose path's 64-bit FNV-1a hash
  /// (of its UTF-8 bytes, the path as given) is `index − 1` modulo `count`, in their order. The shards of
  /// one list are disjoint and together hold every path, and a path stays in its shard whatever other
  /// paths are added or removed, so the tasks of a job array each take one shard of the same inputs.
  public static func shard(_ paths: [String], index: Int, count: Int) -> [String] {
    precondition(count >= 1 && (1...count).contains(index), "shard \(index) of \(count)")
    return paths.filter { path in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      return hash % UInt64(count) == UInt64(index - 1)
    }
  }

  /// Shared state of a run.
  private struct State {
    var nextInput = 0
    var nextDelivery = 0
    var ready: [Int: BatchItem] = [:]
    var finished = 0
    var failed = 0
    var skipped = 0
    var samples: Int64 = 0
    var doneBytes = 0.0
    /// Bytes-weighted progress of the recordings being analyzed, by input index.
    var running: [Int: Double] = [:]
  }

  private final class Shared: Sendable {
    let state = Mutex(State())
  }

  /// Runs the batch. `progress` is called on the calling thread about every `interval` seconds and
  /// once at the end; `deliver` is called once per recording, in input order, as soon as it and every
  /// recording before it are finished (from whichever thread finished it, one call at a time).
  /// Returns every item in input order.
  @discardableResult
  public func run(
    progressInterval interval: Double = 0.25, progress: (BatchProgress) -> Void = { _ in },
    deliver: @escaping @Sendable (BatchItem) -> Void = { _ in }
  ) -> [BatchItem] {
    let names = output.map { _ in BatchOutputLayout.names(for: inputs) } ?? []
    let sizes = inputs.map(Self.inputBytes)
    let totalBytes = max(1, sizes.reduce(0, +))
    let shared = Shared()
    let collected = Mutex<[BatchItem]>([])
    let group = DispatchGroup()
    let clock = ContinuousClock()
    let started = clock.now
    let batch = self
    for _ in 0..<min(jobs, max(1, inputs.count)) {
      group.enter()
      startThread(stackSize: 8 << 20) {
        batch.work(shared: shared, names: names, sizes: sizes) { item in
          collected.withLock { $0.append(item) }
          deliver(item)
        }
        group.leave()
      }
    }
    func snapshot() -> BatchProgress {
      shared.state.withLock { s in
        BatchProgress(
          total: inputs.count, finished: s.finished, failed: s.failed, skipped: s.skipped, samples: s.samples,
          elapsed: (clock.now - started).seconds,
          fraction: (s.doneBytes + s.running.values.reduce(0, +)) / totalBytes)
      }
    }
    while group.wait(timeout: .now() + interval) == .timedOut { progress(snapshot()) }
    progress(snapshot())
    return collected.withLock { $0 }
  }

  /// One worker: takes the next input until none is left.
  private func work(
    shared: Shared, names: [String], sizes: [Double], deliver: (BatchItem) -> Void
  ) {
    while true {
      let taken: Int? = shared.state.withLock { s in
        guard s.nextInput < inputs.count else { return nil }
        defer { s.nextInput += 1 }
        return s.nextInput
      }
      guard let index = taken else { return }
      let path = inputs[index]
      let (outcome, notes) = process(
        index: index, path: path, name: names.isEmpty ? nil : names[index], size: sizes[index], shared: shared
      )
      shared.state.withLock { s in
        s.finished += 1
        s.running[index] = nil
        switch outcome {
        case .failed: s.failed += 1
        case .skipped: s.skipped += 1
        case .analyzed: break
        }
        s.doneBytes += sizes[index]
        s.ready[index] = BatchItem(index: index, path: path, outcome: outcome, notes: notes)
        while let item = s.ready.removeValue(forKey: s.nextDelivery) {
          deliver(item)
          s.nextDelivery += 1
        }
      }
    }
  }

  /// Analyses (or skips) one recording and writes its results.
  private func process(index: Int, path: String, name: String?, size: Double, shared: Shared)
    -> (BatchItem.Outcome, notes: [String])
  {
    if let output, let name, !force, output.isDone(input: path, name: name) { return (.skipped, []) }
    var expected: Int64?
    var read: Int64 = 0
    do {
      let analysis = try RecordingAnalyzer.analyze(
        path: path, options: options, threads: jobs >= 2 * inputs.count ? 2 : 1,
        onOpen: { signals in expected = signals.first?.sampleCount },
        onChunk: { chunk in
          read += Int64(chunk.sampleCount)
          let fraction = expected.map { $0 > 0 ? min(1, Double(read) / Double($0)) : 0 } ?? 0
          shared.state.withLock { s in
            s.samples += Int64(chunk.sampleCount * chunk.channels.count)
            s.running[index] = size * fraction
          }
        })
      if let output, let name { try output.write(analysis, name: name) }
      return (.analyzed(summary: analysis.jsonLine()), analysis.notes)
    } catch let error as InputError {
      return (.failed(message: error.description), [])
    } catch let error as OutputError {
      return (.failed(message: error.description), [])
    } catch {
      return (.failed(message: "\(path): \(error)"), [])
    }
  }

  /// The bytes of a recording's files (WFDB: header and signal file), for progress weighting.
  static func inputBytes(_ path: String) -> Double {
    var total = 0.0
    for file in InputExpansion.files(of: path) {
      if let size = FileSystem.size(file) { total += Double(size) }
    }
    return max(total, 1)
  }
}
