import Foundation
import Vitals

/// A wrist-PPG set of the shared data folder: CSV recordings (PPG columns `ppg*`, accelerometer `acc*`,
/// no time column) at one rate, each with its chest-ECG truth `NAME_bpm.csv` and, where the dataset's
/// authors published them, their CNN-LSTM estimates `NAME_cnnlstm.csv` (both `window_start_s,
/// window_end_s,bpm`, 8-s windows every 2 s).
struct PPGSet {
  var name: String
  var directory: String
  var sampleRate: Double
  /// Recording names (the CSV file names without `.csv`), sorted.
  var recordings: [String]

  init(name: String, directory: String, sampleRate: Double) throws {
    self.name = name
    self.directory = directory
    self.sampleRate = sampleRate
    recordings = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasSuffix(".csv") && !$0.hasSuffix("_bpm.csv") && !$0.hasSuffix("_cnnlstm.csv") }
      .map { String($0.dropLast(4)) }.sorted()
  }
}

/// One recording of a set, read once: its windows are estimated again for each configuration.
struct PPGRecording {
  var set: String
  var name: String
  var path: String
  var sampleRate: Double
  /// Truth heart rate by window start (whole seconds).
  var truth: [Int: Double]
  /// The CNN-LSTM's estimates by window start, where published.
  var cnnLSTM: [Int: Double]?

  init(set: PPGSet, name: String) throws {
    self.set = set.name
    self.name = name
    path = set.directory + "/" + name + ".csv"
    sampleRate = set.sampleRate
    truth = try windowRates(set.directory + "/" + name + "_bpm.csv")
    let cnn = set.directory + "/" + name + "_cnnlstm.csv"
    cnnLSTM = FileManager.default.fileExists(atPath: cnn) ? try windowRates(cnn) : nil
  }
}

/// The `bpm` column of a `window_start_s,window_end_s,bpm` file, keyed by the window's start in whole
/// seconds.
func windowRates(_ path: String) throws -> [Int: Double] {
  let text = try String(contentsOfFile: path, encoding: .utf8)
  var rates: [Int: Double] = [:]
  for line in text.split(whereSeparator: \.isNewline).dropFirst() {
    let fields = line.split(separator: ",")
    guard fields.count == 3, let start = Double(fields[0]), let bpm = Double(fields[2]) else { continue }
    rates[Int(start.rounded())] = bpm
  }
  return rates
}

/// A recording's windows scored against its truth: the absolute error of every window that has a truth
/// row, whether the estimator flagged it reliable, and the CNN-LSTM's error where it has an estimate (with
/// Vitals' error on those same windows).
struct RecordingScore {
  var errors: [Double] = []
  var reliable: [Bool] = []
  var cnnLSTMErrors: [Double] = []
  var errorsWhereCNNLSTM: [Double] = []

  init(_ windows: [HeartRateWindow], against recording: PPGRecording) {
    for window in windows {
      let start = Int(window.startTime.rounded())
      guard let truth = recording.truth[start] else { continue }
      let error = abs(window.beatsPerMinute - truth)
      errors.append(error)
      reliable.append(window.isReliable)
      if let cnn = recording.cnnLSTM?[start] {
        cnnLSTMErrors.append(abs(cnn - truth))
        errorsWhereCNNLSTM.append(error)
      }
    }
  }

  var meanError: Double { mean(errors) }
  var reliableErrors: [Double] { zip(errors, reliable).filter(\.1).map(\.0) }
  var unreliableErrors: [Double] { zip(errors, reliable).filter { !$0.1 }.map(\.0) }
}

/// Estimates the windows of `recording` with `configuration`, reading it in chunks of `chunk` samples;
/// returns them with the number of frames read.
func estimate(
  _ recording: PPGRecording, configuration: PPGHeartRateEstimator.Configuration, chunk: Int,
  useAccelerometer: Bool
) throws -> (windows: [HeartRateWindow], frames: Int) {
  var reader = try RecordingOpener.open(
    path: recording.path, options: RecordingOptions(csv: CSVOptions(sampleRate: recording.sampleRate)))
  let names = reader.signals.map { $0.name.lowercased() }
  let ppg = names.indices.filter { names[$0].hasPrefix("ppg") || names[$0].hasPrefix("pleth") }
  let axes = useAccelerometer ? names.indices.filter { names[$0].hasPrefix("acc") } : []
  var estimator = try PPGHeartRateEstimator(
    sampleRate: reader.chunkSampleRate, ppgChannelCount: ppg.count, accelerationAxisCount: axes.count,
    configuration: configuration)
  var windows: [HeartRateWindow] = []
  var frames = 0
  while let next = try reader.nextChunk(maxSamples: chunk) {
    windows += estimator.process(
      ppg: ppg.map { next.channels[$0] }, acceleration: axes.map { next.channels[$0] })
    frames += next.sampleCount
  }
  return (windows, frames)
}

func mean(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }
