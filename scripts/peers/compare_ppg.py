#!/usr/bin/env python3
"""Vitals' PPG heart rate against NeuroKit2's, on the IEEE SPC 2015 recordings, in the same run.

For every recording in ../shared/data/ieee-spc2015 (2 wrist PPG channels + 3 accelerometer axes, 125 Hz,
running on a treadmill), times the same work, reading the CSV file and estimating the heart rate, and
scores it against the `_bpm.csv` truth (8 s windows every 2 s, SCORING.md):
  - `vitals hr FILE --rate 125` as a whole process (start-up, reading the CSV, both PPG channels and the
    accelerometer, writing the CSV of windows);
  - numpy's `genfromtxt` reading the same CSV, then NeuroKit2's `ppg_process` (Elgendi et al. 2013 peaks)
    on `ppg1`; its heart rate per window is 60 / the mean interval between the peaks inside the window
    (the previous window's rate when it holds fewer than two peaks).
Prints the mean absolute error over all windows and per recording, and the CPU time (user + system,
scripts/peers/timing.py: wall time is unreliable on a shared machine) with the ratio to Vitals.

Usage (pinned packages: Fixtures/generate/requirements.txt; `make compare-ppg` sets them up):
    python scripts/peers/compare_ppg.py [--data ../shared/data/ieee-spc2015] [--vitals .build/release/vitals]
        [--json FILE]
"""
import argparse
import glob
import io
import json
import os
import sys
import warnings

import numpy as np

import timing

RATE = 125.0

def peak_windows(peaks, count, rate=RATE, window=8.0, step=2.0):
    """60 / mean peak interval in each window [j·step, j·step + window), j < count."""
    times = np.asarray(peaks, dtype=float) / rate
    result = []
    previous = float("nan")
    for j in range(count):
        inside = times[(times >= j * step) & (times < j * step + window)]
        if len(inside) >= 2:
            previous = 60.0 / np.mean(np.diff(inside))
        result.append(previous)
    return np.asarray(result)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=os.path.join(root, "..", "shared", "data", "ieee-spc2015"))
    parser.add_argument("--vitals", default=os.path.join(root, ".build", "release", "vitals"))
    parser.add_argument("--json", help="write the peer-comparison rows here")
    args = parser.parse_args()
    import neurokit2 as nk

    warnings.filterwarnings("ignore")
    files = sorted(p for p in glob.glob(os.path.join(args.data, "*.csv")) if not p.endswith("_bpm.csv"))
    tools = ["vitals", "neurokit2"]
    seconds = {t: 0.0 for t in tools}
    errors = {t: [] for t in tools}
    per_recording = {t: [] for t in tools}
    duration = 0.0
    for path in files:
        truth = np.loadtxt(path[:-4] + "_bpm.csv", delimiter=",", skiprows=1)[:, 2]

        elapsed, out = timing.process([args.vitals, "hr", path, "--rate", str(RATE)], capture=True)
        seconds["vitals"] += elapsed
        vitals = np.loadtxt(io.StringIO(out), delimiter=",", skiprows=1, ndmin=2)[:, 2]

        def peer():
            data = np.genfromtxt(path, delimiter=",", names=True)
            return len(data), nk.ppg_process(data["ppg1"], sampling_rate=RATE)[1]

        elapsed, (frames, info) = timing.call(peer)
        seconds["neurokit2"] += elapsed
        duration += frames / RATE
        peer = peak_windows(info["PPG_Peaks"], len(truth))

        for tool, estimate in (("vitals", vitals), ("neurokit2", peer)):
            n = min(len(truth), len(estimate))
            error = np.abs(np.nan_to_num(estimate[:n], nan=0.0) - truth[:n])
            errors[tool].append(error)
            per_recording[tool].append(float(np.mean(error)))

    names = [os.path.basename(p)[5:7] for p in files]
    print(f"IEEE SPC 2015: {len(files)} recordings, {duration:.0f} s; mean absolute error, BPM, against the "
          "ECG truth (8 s windows every 2 s)")
    print(f"{'tool':<52} {'MAE':>6} {'worst':>6}  per recording ({' '.join(names)})  {'CPU s':>8} "
          f"{'Vitals is':>10}")
    rows = []
    for tool in tools:
        mae = float(np.mean(np.concatenate(errors[tool])))
        worst = max(per_recording[tool])
        label = ("vitals hr (whole process, 2 PPG + acc)" if tool == "vitals"
                 else f"genfromtxt + NeuroKit2 {nk.__version__} ppg_process (ppg1)")
        ratio = seconds[tool] / seconds["vitals"]
        recordings = " ".join(f"{e:.1f}" for e in per_recording[tool])
        print(f"{label:<52} {mae:>6.2f} {worst:>6.2f}  {recordings}  {seconds[tool]:>8.3f} {ratio:>9.1f}x")
        rows.append({
            "stage": "ppg-hr",
            "tool": "vitals hr" if tool == "vitals" else f"numpy genfromtxt + neurokit2 {nk.__version__} ppg_process",
            "dataset": "ieee-spc2015",
            "work": f"{len(files)} recordings, {duration:.0f} s: read the CSV, estimate the heart rate (CPU s)",
            "seconds": seconds[tool], "throughput": duration / seconds[tool],
            "throughput_unit": "s of signal/s",
            "accuracy": {"mae_bpm": mae, "worst_recording_mae_bpm": worst},
        })
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=2)


if __name__ == "__main__":
    sys.exit(main())
