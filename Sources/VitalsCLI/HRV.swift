import ArgumentParser
import Vitals

/// `vitals hrv INPUT… [--signal ecg] [--beats FILE]… [--json]`: heart-rate variability by domain, of
/// each recording or beat file in one process.
public struct HRV: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "hrv",
    abstract: "Heart-rate variability: time, frequency and nonlinear indices, with NeuroKit2's names.",
    discussion: """
      Beats are detected in each INPUT as `vitals beats` does (--signal ppg: systolic peaks, giving \
      pulse-rate variability), or read from each --beats FILE (a WFDB annotation file such as \
      mitdb/100.atr, a CSV file with a sample column, or an EDF+ file's annotations, as `vitals score` \
      reads them; the rate from the EDF's ECG lead or the record header beside FILE, else from the \
      INPUT in the same place, else --rate; a --rate that contradicts the file is an error). \
      --beats may be repeated, with no INPUT or one INPUT per beat file. Artifact beats (Lipponen & \
      Tarvainen 2019, and the runs of premature beats next to them) are found from the RR series and the \
      intervals around them dropped (--no-artifacts keeps every interval); with an annotation file, only intervals between two N beats count \
      (PhysioNet HRV Toolkit). Detected ECG beats count as in `vitals analyze`: only intervals between \
      two N beats, none across a gap or a 10-s window of unusable signal (signal quality pSQI, Li et al. \
      2008).

      Indices, as NeuroKit2 0.2.13 names them (intervals in ms, powers in ms², frequencies in Hz, rates \
      in beats per minute): time MeanNN SDNN SDANN1 SDNNI1 SDANN2 SDNNI2 SDANN5 SDNNI5 RMSSD SDSD CVNN \
      CVSD MedianNN MadNN MCVNN IQRNN SDRMSSD Prc20NN Prc80NN pNN50 pNN20 MinNN MaxNN HTI TINN MeanHR \
      MinHR MaxHR; frequency ULF VLF LF HF VHF TP LFHF LFn HFn LnHF and the peak frequency of each \
      band (ULF_Peak … VHF_Peak); nonlinear SD1 SD2 SD1SD2 S CSI CVI ApEn SampEn DFA_alpha1 DFA_alpha2.

      Frequency domain (defaults as NeuroKit2's hrv_frequency with interpolation_rate=4, \
      normalize=False): --psd welch interpolates the NN intervals onto a --interpolation-rate Hz grid \
      (--tachogram-interpolation quadratic spline), removes the mean and averages Hann-windowed \
      segments of 2/f_min s (half the record; half overlap; FFT twice the segment); --psd lombScargle \
      takes the raw NN series (a ms²/Hz density; --lomb-scaling astropyPSD gives NeuroKit2's \
      psd_method="lomb" values). Bands: ULF 0–0.0033, VLF 0.0033–0.04, LF 0.04–0.15, HF 0.15–0.4, VHF \
      0.4–0.5 Hz.

      Output: per input a heading line and `name value unit` lines by domain; --json writes one JSON \
      object per input and line (JSON Lines, keyed by "input": the recording or beat file), with \
      undefined values (too short a record for SDANN5, VLF, …) as null. An input that fails is reported \
      on standard error (file and place) and the others are analyzed; the exit code is then 1.
      """)

  @Argument(help: "Recordings (WFDB record, EDF/EDF+, CSV/TSV, Apple Health ECG CSV, or - for CSV on stdin).")
  public var inputs: [String] = []

  @Option(help: "The signal to detect beats in (ecg or ppg: pulse-rate variability).")
  public var signal: BeatSignal = .ecg

  @Option(
    help:
      "Beats from this file instead of detection (WFDB annotations or CSV with a sample column); repeat for several."
  )
  public var beats: [String] = []

  @Flag(help: "One JSON object per input, one per line.")
  public var json = false

  @OptionGroup public var analysis: HRVOptions

  @OptionGroup public var input: InputOptions

  public init() {}

  public func validate() throws {
    // With --beats, --rate is the beat file's rate; without, the rate of the signal beats are found in.
    try input.checkRate(beats.isEmpty ? signal.supportedRates : .signal)
    if beats.isEmpty && inputs.isEmpty { throw ValidationError("give an INPUT recording or --beats FILE") }
    if !beats.isEmpty && !inputs.isEmpty && inputs.count != beats.count {
      throw ValidationError("--beats goes with no INPUT or with one INPUT per beat file")
    }
  }

  public func run() throws {
    try exitingOneOnFileErrors(of: reports()) { result in
      let report = try result.get()
      print(json ? report.jsonLine() : report.text())
      if let note = report.shortSeriesNote { printError(note) }
    }
  }

  /// The report of each input, or why it failed, in input order.
  func reports() -> [Result<RecordingHRV, InputError>] {
    sources.map { source in
      Result { () throws(InputError) in try analyze(path: source.path, beatFile: source.beats) }
    }
  }

  /// (recording, beat file) per analysis: every INPUT, or every --beats file (with its INPUT, if any).
  private var sources: [(path: String?, beats: String?)] {
    if beats.isEmpty { return inputs.map { ($0, nil) } }
    return beats.indices.map { (inputs.isEmpty ? nil : inputs[$0], beats[$0]) }
  }

  /// Beats of one input (detected, or from the beat file) and their HRV.
  func analyze(path: String?, beatFile: String?) throws(InputError) -> RecordingHRV {
    if let beatFile {
      return try RecordingHRV(
        beatFile: beatFile, recording: path, rate: input.rate, options: input.recordingOptions,
        detectArtifacts: analysis.detectArtifacts, frequencyOptions: analysis.frequencyOptions)
    }
    return try RecordingHRV(
      beats: signal.detect(path: path!, input: input, assessingQuality: true),
      detectArtifacts: analysis.detectArtifacts, frequencyOptions: analysis.frequencyOptions)
  }
}
