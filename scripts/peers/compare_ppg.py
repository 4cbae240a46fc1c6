#!/usr/bin/env python3
"""Vitals' PPG heart rate against NeuroKit2's and HeartPy's, on the IEEE SPC 2015 recordings, in the same run.

For every recording in ../shared/data/ieee-spc2015 (2 wrist PPG channels + 3 accelerometer axes, 125 Hz,
running on a treadmill), times the same work, reading the CSV file and estimating the heart rate, and
scores it against the `_bpm.csv` truth (8 s windows every 2 s, SCORING.md):
  - `vitals hr FILE --rate 125` as a whole process (start-up, reading the CSV, both PPG channels and the
    accelerometer, writing the CSV of windows);
  - numpy's `genfromtxt` reading the same CSV, then NeuroKit2's `ppg_process` (Elgendi et al. 2013 peaks)
    on `ppg1`; its heart rate per window is 60 / the mean interval between the peaks inside the window
    (the previous window's rate when it holds fewer than two peaks);
  - numpy's `genfromtxt` again, then HeartPy's `process_segmentwise` on `ppg1` with Vitals' windows
    (8 s, overlap 0.75: a window every 2 s), as its documentation calls it on raw PPG; a window that
    HeartPy rejects (BadSignalWarning) or rates NaN takes the previous window's rate, as above.
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
from importlib.metadata import version

import numpy as np

import timing

RATE = 125.0
WINDOW, STEP = 8.0, 2.0


def peak_windows(peaks, count, rate=RATE, window=WINDOW, step=STEP):
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


def carried_forward(values):
    """`values` with every NaN replaced by the last finite value before it (NaN while there is none)."""
    result, previous = [], float("nan")
    for value in values:
        previous = value if np.isfinite(value) else previous
        result.append(previous)
    return np.asarray(result)


def read(path):
    return np.genfromtxt(path, delimiter=",", names=True)


def neurokit_rates(nk, ppg, count):
    return peak_windows(nk.ppg_process(ppg, sampling_rate=RATE)[1]["PPG_Peaks"], count)


def heartpy_rates(hp, ppg, count):
    """HeartPy's rate in each window [j·STEP, j·STEP + WINDOW), j < count: the windows it rejects are
    missing from its output, so each result goes to the window its first sample starts."""
    _, measures = hp.process_segmentwise(ppg, RATE, segment_width=WINDOW, segment_overlap=1 - STEP / WINDOW)
    rates = np.full(count, np.nan)
    for (start, _), bpm in zip(measures.get("segment_indices", []), measures.get("bpm", [])):
        window = int(round(start / RATE / STEP))
        if window < count:
            rates[window] = bpm
    return carried_forward(rates)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=os.path.join(root, "..", "shared", "data", "ieee-spc2015"))
    parser.add_argument("--vitals", default=os.path.join(root, ".build", "release", "vitals"))
    parser.add_argument("--json", help="write the peer-comparison rows here")
    args = parser.parse_args()
    import heartpy as hp
    import neurokit2 as nk

    warnings.filterwarnings("ignore")
    files = sorted(p for p in glob.glob(os.path.join(args.data, "*.csv")) if not p.endswith("_bpm.csv"))
    timing.warm(files)
    heartpy_version = version("heartpy")  # the module's __version__ lags the release (1.2.7 says "Version 1.2.6")
    # Each peer: (label of the printed table, tool of the JSON row, heart rate per window of ppg1).
    peers = {
        "neurokit2": (f"genfromtxt + NeuroKit2 {nk.__version__} ppg_process (ppg1)",
                      f"numpy genfromtxt + neurokit2 {nk.__version__} ppg_process",
                      lambda ppg, count: neurokit_rates(nk, ppg, count)),
        "heartpy": (f"genfromtxt + HeartPy {heartpy_version} process_segmentwise (ppg1)",
                    f"numpy genfromtxt + HeartPy {heartpy_version} process_segmentwise",
                    lambda ppg, count: heartpy_rates(hp, ppg, count)),
    }
    tools = ["vitals", *peers]
    labels = {"vitals": ("vitals hr (whole process, 2 PPG + acc)", "vitals hr")}
    labels.update((tool, (label, name)) for tool, (label, name, _) in peers.items())
    seconds = {t: 0.0 for t in tools}
    errors = {t: [] for t in tools}
    per_recording = {t: [] for t in tools}
    duration = 0.0
    for path in files:
        truth = np.loadtxt(path[:-4] + "_bpm.csv", delimiter=",", skiprows=1)[:, 2]

        elapsed, out = timing.process([args.vitals, "hr", path, "--rate", str(RATE)], capture=True)
        seconds["vitals"] += elapsed
        vitals = np.loadtxt(io.StringIO(out), delimiter=",", skiprows=1, ndmin=2)[:, 2]

        estimates = {"vitals": vitals}
        for tool, (_, _, rates) in peers.items():
            def peer():
                data = read(path)
                return len(data), rates(data["ppg1"], len(truth))

            elapsed, (frames, estimates[tool]) = timing.call(peer)
            seconds[tool] += elapsed
        duration += frames / RATE

        for tool, estimate in estimates.items():
            n = min(len(truth), len(estimate))
            error = np.abs(np.nan_to_num(estimate[:n], nan=0.0) - truth[:n])
            errors[tool].append(error)
            per_recording[tool].append(float(np.mean(error)))

    names = [os.path.basename(p)[5:7] for p in files]
    print(f"IEEE SPC 2015: {len(files)} recordings, {duration:.0f} s; mean absolute error, BPM, against the "
          "ECG truth (8 s windows every 2 s)")
    width = max(len(label) for label, _ in labels.values())
    print(f"{'tool':<{width}} {'MAE':>6} {'worst':>6}  per recording ({' '.join(names)})  {'CPU s':>8} "
          f"{'Vitals is':>10}")
    rows = []
    for tool in tools:
        mae = float(np.mean(np.concatenate(errors[tool])))
        worst = max(per_recording[tool])
        label, name = labels[tool]
        ratio = seconds[tool] / seconds["vitals"]
        recordings = " ".join(f"{e:.1f}" for e in per_recording[tool])
        print(f"{label:<{width}} {mae:>6.2f} {worst:>6.2f}  {recordings}  {seconds[tool]:>8.3f} {ratio:>9.1f}x")
        rows.append({
            "stage": "ppg-hr",
            "tool": name,
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
