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
  - accelerometer: 40 hours at 100 Hz of walking, three axes: `vitals analyze`.
Each command's CPU time (user + system) is the best of three runs; `perf record` (software clock, 4999 Hz)
then samples one more run, and every sampled function is assigned to a stage by the module and type in
its (mangled) name. A stage's rate is the workload's input samples (frames times decoded channels) over
the stage's CPU seconds: how fast the whole input would go through if only that stage ran.

Limits, measured in the same run:
  - memory: copying 256 MiB in memory (NumPy, best of 5); decoding format 16 reads 2 bytes and writes
    4 bytes (Float32) per sample, so its bound is the copy rate over 6 bytes;
  - IIR recurrence: scripts/bench/recurrence.c, a band-pass of two second-order sections in direct form
    I on one signal (each output waits for the previous one) and on four signals interleaved. Each
    workload runs a known number of such band-passes per frame (WORKLOADS, from the code), so its IIR
    stage is bound by the one-signal rate over that number.
The other stages (the decisions of the detectors, spectra, statistics) have no single hardware limit:
their rates are stated without one.
"""
import argparse
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
from scaling import AMBULATORY_ECG, simulate  # noqa: E402  (scripts/bench/scaling.py, beside this script)

# Stages, by patterns of the mangled function names (the first that matches wins).
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
    ("HRV", r"HRV|Tachogram|Welch|LombScargle|Poincare|Entropy|DetrendedFluctuation"),
    ("FFT (FFTW)", r"fftw"),
    ("PPG pulses and heart rate", r"PPGPulse|PPGHeartRate|PPGPipeline|HeartRateWindow"),
    ("steps and feet", r"StepDetector|StepFootTracker|AccelerometerPipeline|13Accelerometer"),
    ("memory copies", r"memmove|memcpy|memset"),
    ("Swift runtime, allocation", r"^swift_|malloc|_int_free|^free$|cfree|ContiguousArray|Array"),
]
OTHER = "other"

# Band-passes of two sections run per frame, each on one signal at its own rate (a pair in SOSFilterPair's
# two lanes counts once: its cost is one band-pass's). ECG at 250 Hz (not decimated): the QRS detector's
# pair (QRSDetector.Segment) and, in `analyze`, the signal-quality index's pair (ECGSignalQuality). PPG at
# 125 Hz: the estimator's band-pass of the PPG and of each axis (PPGHeartRateEstimator.filters), the pulse
# detector's (PPGPulseDetector), and the step detector's pair on the axes' magnitude decimated by 5
# (StepDetector). Accelerometer at 100 Hz: the step detector's pair, decimated by 4.
WORKLOADS = [
    ("ECG 24 h, 250 Hz, 1 lead: vitals beats", "ecg", "beats", 1),
    ("ECG 24 h, 250 Hz, 1 lead: vitals analyze", "ecg", "analyze", 2),
    ("PPG 10 h, 125 Hz, PPG + 3 axes: vitals analyze", "ppg", "analyze", 5 + 1 / 5),
    ("accelerometer 40 h, 100 Hz, 3 axes: vitals analyze", "acc", "analyze", 1 / 4),
]
RECORDS = {  # name: (simulate arguments, seconds, rate, channels)
    "ecg": (AMBULATORY_ECG, 86_400, 250, 1),
    "ppg": (["--signal", "ppg", "--motion", "--activity", "walking"], 36_000, 125, 4),
    "acc": (["--signal", "acc", "--activity", "walking"], 144_000, 100, 3),
}
LINE = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(\S+)")


def stage_of(symbol, kernel):
    """The stage of a sampled function."""
    if kernel:
        return STAGES[0][0]
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
        stage = stage_of(symbol, match.group(3) == "k")
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


def recurrence_rates(scratch):
    """Samples per second of recurrence.c's band-pass on one signal and per signal on four."""
    binary = os.path.join(scratch, "recurrence")
    subprocess.run([os.environ.get("CC", "cc"), "-O3", "-o", binary,
                    os.path.join(ROOT, "scripts", "bench", "recurrence.c")], check=True)
    output = dict(line.split() for line in subprocess.run([binary], capture_output=True, text=True,
                                                           check=True).stdout.splitlines())
    return float(output["one"]), float(output["four"])


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
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    if shutil.which("perf") is None:
        sys.exit("profile.py needs perf (Debian: linux-perf)")
    scratch = tempfile.mkdtemp(prefix="vitals-profile-")
    try:
        records = {name: simulate(options.vitals, scratch, name, seconds, seed=7, signal=arguments, rate=rate)
                   for name, (arguments, seconds, rate, _) in RECORDS.items()}
        one, four = recurrence_rates(scratch)
        decode_bound = copy_rate() / 6
        print("### Limits\n")
        print("| limit | measured | source |\n|---|---:|---|")
        print(f"| decoding format 16 (2 bytes in, 4 out per sample): memory copy rate / 6 B | {number(decode_bound)} "
              "M samples/s | NumPy copy of 256 MiB |")
        print(f"| one band-pass (2 sections) on one signal: the recurrence's latency | {number(one)} M samples/s "
              "| scripts/bench/recurrence.c |")
        print(f"| the same band-pass on 4 signals interleaved, per signal | {number(four)} M samples/s "
              "| scripts/bench/recurrence.c |")
        print("\nA stage's rate is the input samples over the stage's CPU seconds; its distance is the limit over"
              " that rate (how many times faster the machine could do the stage's work).")
        for title, record, command, bandpasses in WORKLOADS:
            _, seconds, rate, channels = RECORDS[record]
            samples = seconds * rate * channels
            arguments = [options.vitals, command, records[record]]
            with Quiet():
                cpu = min(timing.run(arguments)[1] for _ in range(options.repeat))
                stages, functions = profile(arguments, scratch)
            total = sum(stages.values())
            print(f"\n### {title}\n")
            print(f"{samples / 1e6:,.1f} M input samples in {cpu:.3f} CPU s: **{number(samples / cpu)} M samples/s**"
                  f" end to end. IIR limit: {bandpasses:g} band-pass runs per frame.\n")
            print("| stage | share | stage rate, M samples/s | limit, M samples/s | distance |\n"
                  "|---|---:|---:|---:|---:|")
            for stage, share in sorted(stages.items(), key=lambda item: -item[1]):
                if share < 0.5:
                    continue
                stage_rate = samples / (cpu * share / total)
                limit = ""
                if stage.startswith("read and decode"):
                    limit = decode_bound
                elif stage.startswith("IIR"):
                    # The band-passes run on frames: their bound in input samples is the recurrence's rate
                    # times the channels per frame, over the band-passes per frame.
                    limit = one * channels / bandpasses
                distance = f"{limit / stage_rate:.1f}×" if limit else ""
                print(f"| {stage} | {share / total:.1%} | {number(stage_rate)} | "
                      f"{number(limit) if limit else '–'} | {distance or '–'} |")
            top = sorted(functions.items(), key=lambda item: -item[1])[:8]
            names = demangled([symbol for symbol, _ in top])
            print("\nHottest functions: " + "; ".join(
                f"`{name}` {share / total:.1%}" for name, (_, share) in zip(names, top)) + ".")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
