// Evaluates ElectrocardiogramClassifier on the shared recordings with the committed models, which were
// fitted on all of them (all-data figures; scripts/eval/fit_classifier.py prints the cross-validated ones
// from the features this tool writes, and its all-data figures must equal these):
// - the 150 PhysioNet/CinC Challenge 2017 recordings (labels N, A, O, ~): the confusion matrix and the F1
//   per class;
// - 30-s pieces of MIT-BIH and CPSC 2021: sinus pieces (reference rhythm (N throughout, ≥ 95 % N beats),
//   pieces wholly inside (AFIB episodes, and the sinus MIT-BIH pieces with the noise-stress test's `ma` and
//   `bw` noise added as WFDB `nst` adds it at 6, 0 and −6 dB: the share given each classification, and
//   the sinus pieces called AF;
// - the CPU time per 30 s of recording (classification only, the files already read).
// Every recording's features go to the CSV named by --features.
//
// Usage: classify-eval [--data DIR] [--features PATH]
import EvalSupport
import Foundation
import Vitals

var data = sharedDataDirectory
var featuresPath = ".build/classify-features.csv"
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--data": data = arguments.next() ?? data
  case "--features": featuresPath = arguments.next() ?? featuresPath
  default: fatalError("unknown option \(argument)")
  }
}

/// CPU time of this process, seconds.
func cpuTime() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// CinC 2017's label of a classification: sinus N, AF A, poor reading ~, anything else O.
func challengeLabel(_ classification: ElectrocardiogramClassification) -> String {
  switch classification {
  case .sinusRhythm: "N"
  case .atrialFibrillation: "A"
  case .inconclusivePoorReading: "~"
  default: "O"
  }
}

var recordings = try cincRecordings(in: data + "/cinc2017")
recordings += try pieceRecordings(data: data)
var reports: [ElectrocardiogramReport] = []
var seconds = 0.0
var cpu = 0.0
for recording in recordings {
  let start = cpuTime()
  reports.append(
    try ElectrocardiogramClassifier.classify(recording.samples, sampleRate: recording.sampleRate))
  cpu += cpuTime() - start
  seconds += Double(recording.samples.count) / recording.sampleRate
}
try writeFeatures(recordings, reports, to: featuresPath)

let cinc = recordings.indices.filter { recordings[$0].source == "cinc2017" }
printConfusion(
  title: "CinC 2017, \(cinc.count) recordings, committed model (all-data: fitted on them)",
  reference: cinc.map { recordings[$0].label },
  predicted: cinc.map { challengeLabel(reports[$0].classification) })
printPieces(recordings, reports)
print(
  String(
    format: "\nCPU time: %.3f ms per 30 s of recording (%d recordings, %.0f s in all; classification only)",
    1000 * cpu / seconds * 30, recordings.count, seconds))
