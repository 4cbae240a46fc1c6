import ArgumentParser
import Vitals
import VitalsSupport

extension HRVFrequencyOptions.Method: ExpressibleByArgument {}
extension HRVFrequencyOptions.LombScaling: ExpressibleByArgument {}
extension TachogramInterpolation: ExpressibleByArgument {}

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
      (PhysioNet HRV Toolkit).

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

  @Flag(name: .customLong("no-artifacts"), help: "Keep the intervals around RR artifact beats.")
  public var keepArtifacts = false

  /// `--no-artefacts`, the former spelling of `--no-artifacts`, still accepted.
  @Flag(name: .customLong("no-artefacts"), help: .hidden)
  public var keepArtifactsFormerSpelling = false

  @Option(help: "Spectral estimate: welch or lombScargle.")
  public var psd: HRVFrequencyOptions.Method = .welch

  @Option(
    name: .customLong("interpolation-rate"),
    help: "Welch: tachogram grid rate, \(optionRange(OptionRange.interpolationRate)) Hz.")
  public var interpolationRate = 4.0

  @Option(
    name: .customLong("tachogram-interpolation"),
    help: "Welch: tachogram interpolation (linear, quadratic, cubic spline).")
  public var tachogramInterpolation: TachogramInterpolation = .quadratic

  @Option(
    name: .customLong("lomb-scaling"),
    help: "Lomb–Scargle: density (ms²/Hz, band powers in ms²) or astropyPSD (NeuroKit2's values).")
  public var lombScaling: HRVFrequencyOptions.LombScaling = .density

  @OptionGroup public var input: InputOptions

  public init() {}

  public func validate() throws {
    try checkOption("--interpolation-rate", interpolationRate, in: OptionRange.interpolationRate, unit: "Hz")
    // With --beats, --rate is the beat file's rate; without, the rate of the signal beats are found in.
    try input.checkRate(beats.isEmpty ? signal.supportedRates : .signal)
    if beats.isEmpty && inputs.isEmpty { throw ValidationError("give an INPUT recording or --beats FILE") }
    if !beats.isEmpty && !inputs.isEmpty && inputs.count != beats.count {
      throw ValidationError("--beats goes with no INPUT or with one INPUT per beat file")
    }
  }

  var frequencyOptions: HRVFrequencyOptions {
    var options = HRVFrequencyOptions()
    options.method = psd
    options.interpolationRate = interpolationRate
    options.interpolation = tachogramInterpolation
    options.lombScaling = lombScaling
    return options
  }

  public func run() throws {
    try exitingOneOnFileErrors(of: reports()) { result in
      let report = try result.get()
      print(json ? report.json() : report.text())
    }
  }

  /// The report of each input, or why it failed, in input order.
  func reports() -> [Result<HRVReport, InputError>] {
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
  func analyze(path: String?, beatFile: String?) throws(InputError) -> HRVReport {
    let name: String
    let lead: String?
    let rate: Double
    let positions: [Int64]
    var gaps: [Range<Int64>] = []
    var labels: [String]? = nil
    if let beatFile {
      var fileRate = input.rate
      var recordLength: Int64?
      if try !BeatFile.statesRate(path: beatFile), let path {
        let recording = try RecordingOpener.open(path: path, options: input.recordingOptions)
        fileRate = recording.chunkSampleRate
        recordLength = recording.signals.first?.sampleCount
      }
      let file = try BeatFile(
        beatsAt: beatFile, rate: fileRate, recordLength: recordLength,
        channels: input.recordingOptions.channels)
      (name, lead, rate, positions, labels) = (beatFile, nil, file.sampleRate, file.samples, file.labels)
    } else {
      let detection = try signal.detect(path: path!, input: input)
      (name, lead, rate, positions) = (path!, detection.lead, detection.sampleRate, detection.beats)
      gaps = detection.gaps
    }
    if let k = positions.indices.dropFirst().first(where: { positions[$0 - 1] >= positions[$0] }) {
      throw InputError(
        path: name, "beats must be strictly increasing: sample \(positions[k]) follows \(positions[k - 1])")
    }
    let analysis = HRVAnalysis(
      beats: positions, sampleRate: rate, labels: labels,
      detectArtifacts: !(keepArtifacts || keepArtifactsFormerSpelling),
      frequencyOptions: frequencyOptions, gaps: gaps)
    guard !analysis.intervals.intervals.isEmpty else {
      throw InputError(
        path: name,
        "nothing to analyze: \(positions.count) beats give \(analysis.intervals.intervals.count) NN intervals, and HRV needs at least one"
      )
    }
    return HRVReport(input: name, lead: lead, sampleRate: rate, analysis: analysis, method: psd)
  }
}

/// One input's HRV, formatted for `vitals hrv`.
struct HRVReport {
  var input: String
  var lead: String?
  var sampleRate: Double
  var analysis: HRVAnalysis
  var method: HRVFrequencyOptions.Method

  /// Name, value and unit of every index of each domain, in NeuroKit2's order.
  var domains: [(domain: String, values: [(name: String, value: Double, unit: String)])] {
    let t = analysis.time
    let f = analysis.frequency
    let n = analysis.nonlinear
    return [
      (
        "time",
        [
          ("MeanNN", t.meanNN, "ms"), ("SDNN", t.sdnn, "ms"), ("SDANN1", t.sdann1, "ms"),
          ("SDNNI1", t.sdnni1, "ms"), ("SDANN2", t.sdann2, "ms"), ("SDNNI2", t.sdnni2, "ms"),
          ("SDANN5", t.sdann5, "ms"), ("SDNNI5", t.sdnni5, "ms"), ("RMSSD", t.rmssd, "ms"),
          ("SDSD", t.sdsd, "ms"), ("CVNN", t.cvnn, ""), ("CVSD", t.cvsd, ""), ("MedianNN", t.medianNN, "ms"),
          ("MadNN", t.madNN, "ms"), ("MCVNN", t.mcvnn, ""), ("IQRNN", t.iqrnn, "ms"),
          ("SDRMSSD", t.sdrmssd, ""),
          ("Prc20NN", t.prc20NN, "ms"), ("Prc80NN", t.prc80NN, "ms"), ("pNN50", t.pnn50, "%"),
          ("pNN20", t.pnn20, "%"), ("MinNN", t.minNN, "ms"), ("MaxNN", t.maxNN, "ms"), ("HTI", t.hti, ""),
          ("TINN", t.tinn, "ms"), ("MeanHR", t.meanHR, "bpm"), ("MinHR", t.minHR, "bpm"),
          ("MaxHR", t.maxHR, "bpm"),
        ]
      ),
      (
        "frequency",
        [
          ("ULF", f.ulf, "ms2"), ("VLF", f.vlf, "ms2"), ("LF", f.lf, "ms2"), ("HF", f.hf, "ms2"),
          ("VHF", f.vhf, "ms2"), ("TP", f.tp, "ms2"), ("LFHF", f.lfhf, ""), ("LFn", f.lfn, ""),
          ("HFn", f.hfn, ""), ("LnHF", f.lnhf, ""), ("ULF_Peak", f.ulfPeak, "Hz"),
          ("VLF_Peak", f.vlfPeak, "Hz"), ("LF_Peak", f.lfPeak, "Hz"), ("HF_Peak", f.hfPeak, "Hz"),
          ("VHF_Peak", f.vhfPeak, "Hz"),
        ]
      ),
      (
        "nonlinear",
        [
          ("SD1", n.sd1, "ms"), ("SD2", n.sd2, "ms"), ("SD1SD2", n.sd1sd2, ""), ("S", n.s, "ms2"),
          ("CSI", n.csi, ""), ("CVI", n.cvi, ""), ("ApEn", n.apEn, ""), ("SampEn", n.sampEn, ""),
          ("DFA_alpha1", n.dfaAlpha1, ""), ("DFA_alpha2", n.dfaAlpha2, ""),
        ]
      ),
    ]
  }

  var heading: String {
    let source = lead.map { "lead \($0), " } ?? ""
    return
      "\(input): \(analysis.beatCount) beats (\(source)\(sampleRate) Hz), \(analysis.intervals.count) NN intervals, "
      + "\(analysis.artifacts.allBeats.count) artifact beats; frequency domain by \(method.rawValue)"
  }

  func text() -> String {
    var lines = [heading]
    for (domain, values) in domains {
      lines.append(domain)
      for (name, value, unit) in values {
        let number = value.isFinite ? String(cFormat: "%.6g", value) : "nan"
        let padded = name + String(repeating: " ", count: max(1, 12 - name.count))
        lines.append("  " + padded + number + (unit.isEmpty ? "" : " " + unit))
      }
    }
    return lines.joined(separator: "\n")
  }

  private struct Document: Encodable {
    var input: String
    var lead: String?
    var sample_rate: Double
    var beats: Int
    var nn_intervals: Int
    var artifact_beats: Int
    var frequency_method: String
    var time: [String: JSONNumber]
    var frequency: [String: JSONNumber]
    var nonlinear: [String: JSONNumber]
  }

  func json() -> String {
    let byDomain = Dictionary(
      uniqueKeysWithValues: domains.map { domain in
        (
          domain.domain,
          Dictionary(uniqueKeysWithValues: domain.values.map { ($0.name, JSONNumber($0.value)) })
        )
      })
    return encodeJSON(
      Document(
        input: input, lead: lead, sample_rate: sampleRate, beats: analysis.beatCount,
        nn_intervals: analysis.intervals.count, artifact_beats: analysis.artifacts.allBeats.count,
        frequency_method: method.rawValue, time: byDomain["time"]!, frequency: byDomain["frequency"]!,
        nonlinear: byDomain["nonlinear"]!))
  }
}
