#!/usr/bin/env python3
"""Where `vitals` spends its CPU time, stage by stage, and how far each stage is from the machine's limit.

Prints the Markdown body of docs/profile.md (`make profile`).

Workloads, simulated and converted to WFDB records (format 16) in a scratch directory with `vitals
simulate` and `vitals convert` (the seeds fixed):
  - ECG: 24 hours at 250 Hz, one lead, ambulatory noise, 1 % premature ventricular beats (as
    scripts/bench/scaling.py): `vitals beats` (read, detect, classify) and `vitals analyze` (the whole
    ECG pipeline: signal quality, heart rate, rhythm, HRV);
  - PPG: 10 hours at 125 Hz, one PPG channel and a walking wrist's three accelerometer axes: `vitals
    analyze` (the PPG pipeline, and the accelerometer pipeline on the axes);
  - accelerometer: 40 hours at 100 Hz of walking, three axes: `vitals analyze`;
and the files of the reader rows of `make compare` (scripts/peers/compare_readers.py's writers, the same
sizes): a CSV file of six columns, an EDF file of three 16-bit signals and a WFDB record in format 212,
each read to physical values by `vitals info --scan`.
Each command's CPU time (user + system) is the best of three runs; `perf record` (software clock, 4999 Hz)
then samples one more run, and every sampled function is assigned to a stage by its library (FFTW's,
whose functions carry no names) or by the module and type in its (mangled) name. A stage's rate is the
workload's input samples (frames times decoded channels, or the values of a file) over the stage's CPU
seconds: how fast the whole input would go through if only that stage ran.

The aggregation and export rows of `make compare` run inside scripts/eval's stats-eval, which times its
hot loop itself (best of 3); their rates are set against the memory limit directly.

Limits, measured in the same run:
  - memory: copying 256 MiB in memory (NumPy, best of 5), in bytes read and written per second, and
    reading it (NumPy's maximum of the values, best of 5). Decoding reads a file's bytes and writes 4
    bytes (Float32) per value, so its bound is the copy rate over those bytes per value (6 for 16-bit
    formats, 5.5 for format 212); the aggregation's daily mean reads 16 bytes per sample (its start and
    value: IntervalAccumulator reads the ends only for cumulative types), the export reader each byte of
    its file once, so their bounds are the read rate over those bytes;
  - IIR recurrence: scripts/bench/recurrence.c, a band-pass of two second-order sections in direct form
    I on one signal (each output waits for the previous one) and on four signals interleaved, compiled
    for the build's instruction set (AVX2 where the machine has it, as the Makefile builds). Each
    workload runs a known number of such band-passes per frame (WORKLOADS, from the code), so its IIR
    stage is bound by the one-signal rate over that number;
  - FFT: scripts/bench/fftw_rate.c, FFTW's single-precision real transforms of the PPG estimator's size
    per second, with the plan FFTW_MEASURE finds and with the FFTW_ESTIMATE plan Vitals uses (the same
    plan, so the same bits, on every run). The PPG workload runs a known number of transforms per input
    sample (WORKLOADS), so its FFT stage is bound by the faster plan's rate over that number.
The other stages (the decisions of the detectors, statistics) have no single hardware limit: their rates
are stated without one.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "peers"))
import timing  # noqa: E402  (scripts/peers/timing.py: one process's wall time, CPU time and peak RSS)
from compare_aggregation import samples, write_columns, write_export, ZONE  # noqa: E402
from compare_readers import write_csv, write_edf, write_wfdb  # noqa: E402
from scaling import AMBULATORY_ECG, simulate  # noqa: E402  (scripts/bench/scaling.py, beside this script)

# Stages, by the library a sampled function lies in (FFTW's functions carry no names), else by patterns of
# its mangled name (the first that matches wins).
LIBRARY_STAGES = [("FFT (FFTW)", r"libfftw3")]
STAGES = [
    ("kernel: file reads, page faults", None),
    ("read and decode (VitalsIO)", r"8VitalsIO"),
    ("IIR band-passes (VitalsCore)", r"SOSFilter|PairedSection|LaneCascade|SectionPair|SectionQuad"),
    ("FIR, decimation, moving sums (VitalsCore)", r"PolyphaseFIR|FIRFilter|Decimator|MovingSum"),
    ("QRS feature and decisions", r"QRSDetector|QRSClassifier|FeatureStages|GapTracker"),
    ("beat classes", r"BeatTemplates|BeatClassifier|BeatRhythm|AverageBeat"),
    ("ECG signal quality", r"ECGSignalQuality"),
    ("RR artifacts and irregular rhythm",
     r"AtrialFibrillation|IrregularRhythm|RRArtifacts|rollingQuantiles|NNSeries|AtrialActivity"),
    ("HRV", r"HRV|Tachogram|Welch|LombScargle|Poincare|Entropy|TemplateRangeCounter|DetrendedFluctuation"),
    ("PPG pulses and heart rate", r"PPGPulse|PPGHeartRate|PPGPipeline|HeartRateWindow"),
    ("steps and feet", r"StepDetector|StepFootTracker|AccelerometerPipeline|13Accelerometer"),
    ("memory copies", r"memmove|memcpy|memset"),
    ("Swift runtime, allocation", r"^swift_|malloc|_int_free|^free$|cfree|ContiguousArray|Array"),
]
OTHER = "other"

# The PPG estimator's transform: 8-s windows every 2 s at 25 Hz (125 Hz decimated by 5), zero-padded to
# 2048 points (bins of at most 25/2048 Hz: PPGHeartRateEstimator.init), one transform of the PPG and one of
# each axis per window: 4 transforms per 2 s of 4 channels at 125 Hz.
PPG_TRANSFORM = 2048
PPG_TRANSFORMS_PER_SAMPLE = 4 / (2 * 125 * 4)

# title, input (see `inputs`), the vitals command's words (PATH standing for the input), band-passes of two
# sections run per frame (each on one signal at its own rate; a pair in SOSFilterPair's two lanes counts
# once: its cost is one band-pass's), and FFTW transforms per input sample. ECG at 250 Hz (not decimated):
# the QRS detector's pair (QRSDetector.Segment) and, in `analyze`, the signal-quality index's pair
# (ECGSignalQuality). PPG at 125 Hz: the estimator's band-pass of the PPG and of each axis
# (PPGHeartRateEstimator.filters), the pulse detector's (PPGPulseDetector), and the step detector's pair on
# the axes' magnitude decimated by 5 (StepDetector). Accelerometer at 100 Hz: the step detector's pair,
# decimated by 4. Reading a file or beats runs none.
WORKLOADS = [
    ("ECG 24 h, 250 Hz, 1 lead: vitals beats", "ecg", ["beats", "PATH"], 1, 0),
    ("ECG 24 h, 250 Hz, 1 lead: vitals analyze", "ecg", ["analyze", "PATH"], 2, 0),
    ("PPG 10 h, 125 Hz, PPG + 3 axes: vitals analyze", "ppg", ["analyze", "PATH"], 5 + 1 / 5,
     PPG_TRANSFORMS_PER_SAMPLE),
    ("accelerometer 40 h, 100 Hz, 3 axes: vitals analyze", "acc", ["analyze", "PATH"], 1 / 4, 0),
    ("HRV of the ECG's 24 h of beats: vitals hrv --beats", "beats", ["hrv", "--beats", "PATH", "--rate", "250"],
     0, 0),
    ("read CSV, 6 columns: vitals info --scan", "csv", ["info", "--scan", "PATH", "--rate", "125"], 0, 0),
    ("read EDF, 3 signals of 16 bits: vitals info --scan", "edf", ["info", "--scan", "PATH"], 0, 0),
    ("read WFDB format 212, 2 signals: vitals info --scan", "wfdb", ["info", "--scan", "PATH"], 0, 0),
]
RECORDS = {  # name: (simulate arguments, seconds, rate, channels)
    "ecg": (AMBULATORY_ECG, 86_400, 250, 1),
    "ppg": (["--signal", "ppg", "--motion", "--activity", "walking"], 36_000, 125, 4),
    "acc": (["--signal", "acc", "--activity", "walking"], 144_000, 100, 3),
}
READER_MEGABYTES = 64  # compare_readers.py's default size (its CSV file comes out at 71 MB)
LINE = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(\S+)")


def stage_of(library, symbol, kernel):
    """The stage of a sampled function."""
    if kernel:
        return STAGES[0][0]
    for name, pattern in LIBRARY_STAGES:
        if re.search(pattern, library):
            return name
    for name, pattern in STAGES[1:]:
        if re.search(pattern, symbol):
            return name
    return OTHER


def profile(arguments, scratch):
    """Shares of the CPU samples of one run of `arguments`, by stage and by function (percent)."""
    data = os.path.join(scratch, "perf.data")
    subprocess.run(["perf", "record", "-q", "-F", "4999", "-o", data, "--", *arguments], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,symbol", "--stdio",
                             "-q", "--percent-limit", "0"], check=True, capture_output=True, text=True).stdout
    stages, functions = {}, {}
    for line in report.splitlines():
        match = LINE.match(line)
        if not match:
            continue
        share, symbol = float(match.group(1)), match.group(4)
        stage = stage_of(match.group(2), symbol, match.group(3) == "k")
        stages[stage] = stages.get(stage, 0) + share
        functions[symbol] = functions.get(symbol, 0) + share
    return stages, functions


def demangled(symbols):
    """Short readable names of Swift functions (`swift demangle --simplified`), others as they are."""
    output = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(symbols),
                            capture_output=True, text=True, check=True).stdout.splitlines()
    return [re.sub(r"\(.*", "", name).strip()[:90] for name in output]


def copy_rate():
    """Bytes per second of copying 256 MiB in memory (read + written), best of 5."""
    source = np.ones(1 << 26, dtype=np.float32)
    target = np.empty_like(source)
    seconds = timing.best_of(5, lambda: np.copyto(target, source))[0]
    return 2 * source.nbytes / seconds


def read_rate():
    """Bytes per second of reading 256 MiB in memory (NumPy's maximum of Float64 values, best of 5)."""
    source = np.ones(1 << 25, dtype=np.float64)
    seconds = timing.best_of(5, lambda: np.maximum.reduce(source))[0]
    return source.nbytes / seconds


def recurrence_rates(scratch):
    """Samples per second of recurrence.c's band-pass on one signal and per signal on four."""
    binary = os.path.join(scratch, "recurrence")
    # The instruction set of the build (the Makefile's ARCH_FLAGS): without AVX2 the four signals share
    # 128-bit vectors, which halves their rate.
    with open("/proc/cpuinfo") as cpuinfo:
        wide = ["-march=x86-64-v3"] if " avx2" in cpuinfo.read() else []
    subprocess.run([os.environ.get("CC", "cc"), "-O3", *wide, "-o", binary,
                    os.path.join(ROOT, "scripts", "bench", "recurrence.c")], check=True)
    output = dict(line.split() for line in subprocess.run([binary], capture_output=True, text=True,
                                                           check=True).stdout.splitlines())
    return float(output["one"]), float(output["four"])


def fftw_rates(scratch, size):
    """Transforms per second of fftw_rate.c's `size`-point single-precision real transform: with the
    FFTW_MEASURE plan and with the FFTW_ESTIMATE plan."""
    binary = os.path.join(scratch, "fftw_rate")
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-o", binary,
                    os.path.join(ROOT, "scripts", "bench", "fftw_rate.c"), "-lfftw3f"], check=True)
    def rate(*flags):
        output = subprocess.run([binary, *flags, str(size)], capture_output=True, text=True, check=True).stdout
        return float(output.split()[1])
    return rate(), rate("--estimate")


def inputs(vitals, scratch):
    """The workloads' inputs: name → (path, input samples, file bytes per input sample, channels per frame,
    unit of the samples). The beats are `vitals beats`' on the simulated ECG, one beat an input sample."""
    result = {}
    for name, (arguments, seconds, rate, channels) in RECORDS.items():
        record = simulate(vitals, scratch, name, seconds, seed=7, signal=arguments, rate=rate)
        result[name] = (record, seconds * rate * channels, 2, channels, "samples")  # format 16
    beats = os.path.join(scratch, "beats.csv")
    subprocess.run([vitals, "beats", result["ecg"][0], "-o", beats], check=True, stdout=subprocess.DEVNULL)
    with open(beats) as file:
        result["beats"] = (beats, sum(1 for _ in file) - 1, 0, 1, "beats")
    csv, edf, wfdb = (os.path.join(scratch, name) for name in ("numeric.csv", "three.edf", "gen"))
    write_csv(csv, READER_MEGABYTES)
    write_edf(edf, READER_MEGABYTES)
    write_wfdb(wfdb, READER_MEGABYTES)
    with open(csv) as file:
        values = 6 * (sum(1 for _ in file) - 1)
    result["csv"] = (csv, values, os.path.getsize(csv) / values, 6, "samples")
    values = (os.path.getsize(edf) - 256 * 4) // 2  # a header of 256 bytes and 256 per signal
    result["edf"] = (edf, values, 2, 3, "samples")
    values = os.path.getsize(wfdb + ".dat") * 2 // 3
    result["wfdb"] = (wfdb, values, 1.5, 2, "samples")
    return result


def stats_rates(stats_eval, scratch):
    """The aggregation's samples and the export reader's bytes per second, as stats-eval times them
    (compare_aggregation.py's inputs: 20 M samples, a 100 MB export)."""
    columns = os.path.join(scratch, "samples.bin")
    starts, ends, values = samples(20_000_000)
    write_columns(columns, starts, ends, values)
    out = subprocess.run([stats_eval, "aggregate", columns, ZONE], check=True, capture_output=True).stdout
    aggregation = len(values) / json.loads(out)["daily_mean_seconds"]
    export = os.path.join(scratch, "export.xml")
    write_export(export, 100)
    out = json.loads(subprocess.run([stats_eval, "export", export], check=True, capture_output=True).stdout)
    return aggregation, out["bytes"] / out["seconds"]


def number(value):
    """A rate in M samples/s: whole millions from 100 M on, three significant digits below."""
    return f"{value / 1e6:,.0f}" if value >= 1e8 else f"{value / 1e6:.3g}"


class Quiet:
    """Sends this process's standard error, and so its children's, to /dev/null while open (`vitals`
    notes on every run that the simulated records state no start time)."""

    def __enter__(self):
        self.saved = os.dup(2)
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)

    def __exit__(self, *_):
        os.dup2(self.saved, 2)
        os.close(self.saved)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vitals", default=os.path.join(ROOT, ".build", "release", "vitals"))
    parser.add_argument("--stats-eval", default=os.path.join(ROOT, "scripts", "eval", ".build", "release",
                                                             "stats-eval"))
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    if shutil.which("perf") is None:
        sys.exit("profile.py needs perf (Debian: linux-perf)")
    scratch = tempfile.mkdtemp(prefix="vitals-profile-")
    try:
        with Quiet():
            files = inputs(options.vitals, scratch)
        one, four = recurrence_rates(scratch)
        measured_plan, estimated_plan = fftw_rates(scratch, PPG_TRANSFORM)
        copy, read = copy_rate(), read_rate()
        aggregation, export = stats_rates(options.stats_eval, scratch)
        print("### Limits\n")
        print("| limit | measured | source |\n|---|---:|---|")
        print(f"| memory: bytes copied (read and written) per second | {copy / 1e9:,.1f} GB/s "
              "| NumPy copy of 256 MiB |")
        print(f"| memory: bytes read per second | {read / 1e9:,.1f} GB/s | NumPy maximum of 256 MiB |")
        print(f"| decoding a 16-bit format (2 bytes in, 4 out per sample): memory / 6 B | {number(copy / 6)} "
              "M samples/s | the copy rate |")
        print(f"| one band-pass (2 sections) on one signal: the recurrence's latency | {number(one)} M samples/s "
              "| scripts/bench/recurrence.c |")
        print(f"| the same band-pass on 4 signals interleaved, per signal | {number(four)} M samples/s "
              "| scripts/bench/recurrence.c |")
        print(f"| FFTW, {PPG_TRANSFORM}-point real transform (single), FFTW_MEASURE plan "
              f"| {measured_plan / 1e3:,.0f} k transforms/s | scripts/bench/fftw_rate.c |")
        print(f"| the same with the FFTW_ESTIMATE plan Vitals uses | {estimated_plan / 1e3:,.0f} k transforms/s "
              "| scripts/bench/fftw_rate.c |")
        print("\nA stage's rate is the input samples over the stage's CPU seconds; its distance is the limit over"
              " that rate (how many times faster the machine could do the stage's work).")
        print("\n### The rows of `make compare`\n")
        print("| row | hot loop | rate | limit | distance |\n|---|---|---:|---:|---:|")
        print(f"| aggregation (20 M samples, daily mean) | `IntervalAccumulator.add` "
              f"| {number(aggregation)} M samples/s | {number(read / 16)} M samples/s (memory read / 16 B) "
              f"| {read / 16 / aggregation:.1f}× |")
        print(f"| export (100 MB export.xml) | `HealthExportReader.next` | {export / 1e6:,.0f} MB/s "
              f"| {read / 1e6:,.0f} MB/s (memory read) | {read / export:.1f}× |")
        print("\nThe other rows run stages profiled below: the ECG rows (ecg-beats, ECG QRS detection, ecg-hrv,"
              " ECG → HRV) the QRS detector of `vitals beats`, the HRV row `vitals hrv --beats`, ppg-hr the PPG"
              " path of `vitals analyze`, the read rows `vitals info --scan`.")
        for title, name, words, bandpasses, transforms in WORKLOADS:
            path, count, bytes_per_sample, channels, unit = files[name]
            arguments = [options.vitals, *(path if word == "PATH" else word for word in words)]
            with Quiet():
                cpu = min(timing.run(arguments)[1] for _ in range(options.repeat))
                stages, functions = profile(arguments, scratch)
            total = sum(stages.values())
            limits = {"read and decode": copy / (bytes_per_sample + 4)} if bytes_per_sample else {}
            if bandpasses:
                # The band-passes run on frames: their bound in input samples is the recurrence's rate times
                # the channels per frame, over the band-passes per frame.
                limits["IIR"] = one * channels / bandpasses
            if transforms:
                limits["FFT"] = max(measured_plan, estimated_plan) / transforms
            print(f"\n### {title}\n")
            size = sum(os.path.getsize(p) for p in (path, path + ".dat") if os.path.isfile(p))
            print(f"{count / 1e6:,.3g} M input {unit} ({size / 1e6:,.0f} MB) in {cpu:.3f} CPU s: "
                  f"**{number(count / cpu)} M {unit}/s** end to end."
                  + (f" IIR limit: {bandpasses:g} band-pass runs per frame." if bandpasses else "")
                  + (f" FFT limit: {transforms * 1e3:g} transforms per 1,000 input samples." if transforms else "")
                  + "\n")
            print(f"| stage | share | stage rate, M {unit}/s | limit, M {unit}/s | distance |\n"
                  "|---|---:|---:|---:|---:|")
            for stage, share in sorted(stages.items(), key=lambda item: -item[1]):
                if share < 0.5:
                    continue
                stage_rate = count / (cpu * share / total)
                limit = next((value for prefix, value in limits.items() if stage.startswith(prefix)), None)
                distance = f"{limit / stage_rate:.1f}×" if limit else "–"
                print(f"| {stage} | {share / total:.1%} | {number(stage_rate)} | "
                      f"{number(limit) if limit else '–'} | {distance} |")
            top = sorted(functions.items(), key=lambda item: -item[1])[:8]
            names = demangled([symbol for symbol, _ in top])
            print("\nHottest functions: " + "; ".join(
                f"`{name}` {share / total:.1%}" for name, (_, share) in zip(names, top)) + ".")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
