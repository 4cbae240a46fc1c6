#!/usr/bin/env python3
"""Vitals' heart-rate variability against NeuroKit2's, on the same beats and recordings, in the same run.

Three comparisons, each timed in this run, in CPU seconds (scripts/peers/timing.py: Vitals as a whole
process, the peer in memory):
  1. HRV on the reference beats of every ../shared/data/mitdb record (every beat annotation, so the
     RR series is the same for both tools: Vitals with --no-artifacts): one `vitals hrv --beats
     A.csv --beats B.csv … --json` process over all the records' beat files (start-up once, reading
     the CSV files, one JSON line per file), as NeuroKit2 runs all of them in this process (imports
     left out), in memory on the same peaks, twice: `nk.hrv` (all its domains, 95 indices, most of its time in multiscale entropies) and
     the indices Vitals computes (hrv_time, hrv_frequency with interpolation_rate=4 and normalize=False, the Poincaré
     indices, DFA α1/α2, ApEn and SampEn as hrv_nonlinear computes them). Accuracy: the share of the
     indices both report that agree within 0.1 % (relative, or 1e-9 absolute), and the median relative
     difference; NeuroKit2 is the reference (its rows read 100 % and 0).
  2. ECG → HRV on a simulated recording (--hrv-hours, default 1 h, 250 Hz, ambulatory noise, written
     by `vitals simulate` and converted to a WFDB record): `vitals hrv REC` (read, detect, drop RR
     artefacts, all three domains) against NeuroKit2's `ecg_peaks` (default method, with its
     artefact correction, Lipponen & Tarvainen 2019) on the signal in memory followed by the same
     indices as in 1. Accuracy: |SDNN − truth| and |RMSSD − truth| in ms, truth from the
     simulator's beats.
  3. QRS detection on a simulated long recording (--long-hours, default 24 h): `vitals beats` against
     `nk.ecg_peaks`; accuracy: sensitivity, positive predictivity and F1 (%) against the simulator's
     beats (`vitals score`, ±150 ms).

Usage (pinned packages: Fixtures/generate/requirements.txt; `make compare` sets them up):
    python scripts/peers/compare_hrv.py [--data ../shared/data/mitdb] [--vitals .build/release/vitals]
                                        [--hrv-hours 1] [--long-hours 24] [--json FILE]
(--hrv-hours 0 and --long-hours 0 skip comparisons 2 and 3.)
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np

import timing

BEAT_SYMBOLS = set("NLRBAaJSVrFejnE/fQ")
RATE = 250
# Vitals' JSON names → NeuroKit2 column names (HRV_ prefix added).
DOMAINS = ("time", "frequency", "nonlinear")


def neurokit_same_indices(nk, peaks, rate):
    """The indices `vitals hrv` reports, computed by NeuroKit2 as `nk.hrv` computes them."""
    from neurokit2.hrv.hrv_nonlinear import _hrv_dfa, _hrv_nonlinear_poincare
    from neurokit2.hrv.hrv_utils import _hrv_format_input

    values = {}
    values.update(nk.hrv_time(peaks, sampling_rate=rate).iloc[0].to_dict())
    values.update(nk.hrv_frequency(peaks, sampling_rate=rate, psd_method="welch", interpolation_rate=4, normalize=False).iloc[0].to_dict())
    rri, _, _ = _hrv_format_input(peaks, sampling_rate=rate)
    nonlinear = _hrv_nonlinear_poincare(rri, out={})
    # DFA α1 and α2 (monofractal only: the multifractal spectra are not among Vitals' indices).
    short = np.arange(4, 12)
    nonlinear["DFA_alpha1"], _ = nk.fractal_dfa(rri, multifractal=False, scale=short)
    longest = int((len(rri) + 1) / 10)
    if longest >= 13:
        nonlinear["DFA_alpha2"], _ = nk.fractal_dfa(
            rri, multifractal=False, scale=np.linspace(12, longest, longest - 12 + 1).astype(int))
    tolerance = 0.2 * np.std(rri, ddof=1)
    nonlinear["ApEn"], _ = nk.entropy_approximate(rri, delay=1, dimension=2, tolerance=tolerance)
    nonlinear["SampEn"], _ = nk.entropy_sample(rri, delay=1, dimension=2, tolerance=tolerance)
    values.update({"HRV_" + k: v for k, v in nonlinear.items()})
    return values


def agreement(ours, theirs):
    """(share of common finite indices within 0.1 %, their relative differences)."""
    differences = []
    for domain in DOMAINS:
        for name, value in ours[domain].items():
            reference = theirs.get("HRV_" + name)
            if value is None or reference is None or not math.isfinite(float(reference)):
                continue
            reference = float(reference)
            differences.append(abs(value - reference) / max(abs(reference), 1e-9))
    within = sum(1 for d in differences if d <= 1e-3)
    return within / max(len(differences), 1), differences


def simulate(vitals, scratch, name, hours, pvc):
    source = os.path.join(scratch, name + ".csv")
    subprocess.run([vitals, "simulate", "--signal", "ecg", "--duration", str(int(hours * 3600)), "--rate",
                    str(RATE), "--seed", "5", "--pvc", str(pvc), "--noise", "ambulatory", "-o", source],
                   check=True, stdout=subprocess.DEVNULL)
    record = os.path.join(scratch, name)
    subprocess.run([vitals, "convert", source, "--rate", str(RATE), "-o", record + ".hea"], check=True,
                   stdout=subprocess.DEVNULL)
    os.remove(source)
    truth = np.loadtxt(os.path.join(scratch, name + ".truth.csv"), delimiter=",", skiprows=1, usecols=0)
    return record, os.path.join(scratch, name + ".truth.csv"), truth.astype(np.int64)


def row(stage, tool, dataset, work, seconds, amount, unit, accuracy):
    return {"stage": stage, "tool": tool, "dataset": dataset, "work": work, "seconds": seconds,
            "throughput": amount / seconds, "throughput_unit": unit, "accuracy": accuracy}


def mitdb_rows(args, nk, wfdb, scratch):
    records = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(args.data, "*.hea")))
    seconds = {"vitals": 0.0, "all": 0.0, "same": 0.0}
    intervals = 0
    shares, differences = [], []
    beats, peaks_by_file, rates = [], {}, set()
    for name in records:
        annotations = wfdb.rdann(os.path.join(args.data, name), "atr")
        peaks = np.array([s for s, c in zip(annotations.sample, annotations.symbol) if c in BEAT_SYMBOLS])
        rates.add(annotations.fs or 360)
        intervals += len(peaks) - 1
        beats.append(os.path.join(scratch, name + ".beats.csv"))
        np.savetxt(beats[-1], peaks, fmt="%d", header="sample", comments="")
        peaks_by_file[beats[-1]] = peaks
    if len(rates) != 1:
        sys.exit(f"the records' annotations have several rates ({sorted(rates)}): one --rate per process")
    rate = rates.pop()
    arguments = [args.vitals, "hrv", "--rate", str(rate), "--no-artifacts", "--json"]
    for file in beats:
        arguments += ["--beats", file]
    seconds["vitals"], out = timing.process(arguments, capture=True)
    ours_by_file = {line["input"]: line for line in map(json.loads, out.splitlines())}
    for file in beats:
        peaks = peaks_by_file[file]
        elapsed, _ = timing.call(lambda: nk.hrv(peaks, sampling_rate=rate))
        seconds["all"] += elapsed
        elapsed, reference = timing.call(lambda: neurokit_same_indices(nk, peaks, rate))
        seconds["same"] += elapsed
        share, record_differences = agreement(ours_by_file[file], reference)
        shares.append(share)
        differences += record_differences
    dataset = f"mitdb ({len(records)} records)"
    work = "reference beats, 30-min records"
    unit = "NN intervals/s"
    share, median = 100 * float(np.mean(shares)), float(np.median(differences))
    print(f"HRV on the reference beats of {len(records)} mitdb records ({intervals} intervals): "
          f"{share:.1f} % of Vitals' indices within 0.1 % of NeuroKit2's (median relative difference "
          f"{median:.2g})")
    names = {"vitals": "vitals hrv --beats (one process, all records)",
             "all": f"NeuroKit2 {nk.__version__} hrv (all domains)",
             "same": f"NeuroKit2 {nk.__version__} (Vitals' indices)"}
    print(f"{'tool':<44} {'CPU s':>8} {'intervals/s':>12} {'Vitals is':>10}")
    for key, name in names.items():
        print(f"{name:<44} {seconds[key]:>8.2f} {intervals / seconds[key]:>12.0f} "
              f"{seconds[key] / seconds['vitals']:>9.1f}x")
    accuracy = {"vitals": {"indices within 0.1 % of NeuroKit2 %": share, "median rel. difference": median},
                "all": {"indices within 0.1 % of NeuroKit2 %": 100.0, "median rel. difference": 0.0},
                "same": {"indices within 0.1 % of NeuroKit2 %": 100.0, "median rel. difference": 0.0}}
    return [row("HRV (time, frequency, nonlinear)", names[k], dataset, work, seconds[k], intervals, unit,
                 accuracy[k]) for k in names]


def truth_errors(values, truth, rate):
    """|SDNN − truth| and |RMSSD − truth| in ms; truth from the simulator's beats."""
    rr = np.diff(truth) / rate * 1000
    sdnn, rmssd = np.std(rr, ddof=1), np.sqrt(np.mean(np.diff(rr) ** 2))
    return {"SDNN abs. error ms": abs(values["SDNN"] - sdnn), "RMSSD abs. error ms": abs(values["RMSSD"] - rmssd)}


def simulated_hrv_rows(args, nk, wfdb, scratch):
    record, _, truth = simulate(args.vitals, scratch, "hrv", args.hrv_hours, pvc=0)
    signal = wfdb.rdrecord(record).p_signal[:, 0]
    ours, out = timing.process([args.vitals, "hrv", record, "--json"], capture=True)
    vitals = json.loads(out)["time"]

    def peer():
        _, info = nk.ecg_peaks(signal, sampling_rate=RATE, correct_artifacts=True)
        return neurokit_same_indices(nk, np.asarray(info["ECG_R_Peaks"]), RATE)

    theirs, values = timing.call(peer)
    values = {k[4:]: v for k, v in values.items()}
    dataset = f"simulated {args.hrv_hours:g} h"
    work = "ECG file → beats → all Vitals HRV indices"
    rows = [row("ECG → HRV", "vitals hrv (whole process)", dataset, work, ours, len(signal), "samples/s",
                truth_errors(vitals, truth, RATE)),
            row("ECG → HRV", f"NeuroKit2 {nk.__version__} ecg_peaks + Vitals' indices", dataset, work, theirs,
                len(signal), "samples/s", truth_errors(values, truth, RATE))]
    for r in rows:
        print(f"{r['stage']} {dataset}: {r['tool']:<48} {r['seconds']:8.2f} CPU s  {r['throughput'] / 1e6:8.2f} M "
              f"samples/s  " + "  ".join(f"{k} {v:.2f}" for k, v in r["accuracy"].items()))
    return rows


def simulated_detection_rows(args, nk, wfdb, scratch):
    record, truth_file, _ = simulate(args.vitals, scratch, "long", args.long_hours, pvc=0.01)
    signal = wfdb.rdrecord(record).p_signal[:, 0]
    ours_file, theirs_file = os.path.join(scratch, "long.vitals.csv"), os.path.join(scratch, "long.nk.csv")
    ours, _ = timing.process([args.vitals, "beats", record, "-o", ours_file])
    theirs, info = timing.call(lambda: nk.ecg_peaks(signal, sampling_rate=RATE)[1])
    np.savetxt(theirs_file, np.asarray(info["ECG_R_Peaks"], dtype=np.int64), fmt="%d", header="sample",
               comments="")

    def score(test):
        out = subprocess.run([args.vitals, "score", "--json", "--reference", truth_file, "--test", test, "--rate",
                              str(RATE)], check=True, capture_output=True, text=True).stdout
        gross = json.loads(out)["gross"]["whole"]
        return {"Se %": 100 * gross["se"], "+P %": 100 * gross["ppv"], "F1 %": 100 * gross["f1"]}

    dataset = f"simulated {args.long_hours:g} h"
    work = "250 Hz ambulatory ECG, 1 % PVC"
    rows = [row("ECG QRS detection", "vitals beats (whole process)", dataset, work, ours, len(signal),
                "samples/s", score(ours_file)),
            row("ECG QRS detection", f"NeuroKit2 {nk.__version__} ecg_peaks (neurokit)", dataset, work, theirs,
                len(signal), "samples/s", score(theirs_file))]
    for r in rows:
        print(f"{r['stage']} {dataset}: {r['tool']:<40} {r['seconds']:8.2f} CPU s  {r['throughput'] / 1e6:8.2f} M "
              f"samples/s  " + "  ".join(f"{k} {v:.2f}" for k, v in r["accuracy"].items()))
    return rows


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=os.path.join(root, "..", "shared", "data", "mitdb"))
    parser.add_argument("--vitals", default=os.path.join(root, ".build", "release", "vitals"))
    parser.add_argument("--hrv-hours", type=float, default=1, help="comparison 2's length (0 skips it)")
    parser.add_argument("--long-hours", type=float, default=24, help="comparison 3's length (0 skips it)")
    parser.add_argument("--json", help="write the protocol rows (scripts/peers/compare.py) to this file")
    args = parser.parse_args()
    import neurokit2 as nk
    import wfdb

    warnings.filterwarnings("ignore")
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        if glob.glob(os.path.join(args.data, "*.hea")):
            rows += mitdb_rows(args, nk, wfdb, scratch)
        else:
            print(f"no records in {args.data}: the mitdb comparison is skipped")
        if args.hrv_hours > 0:
            rows += simulated_hrv_rows(args, nk, wfdb, scratch)
        if args.long_hours > 0:
            rows += simulated_detection_rows(args, nk, wfdb, scratch)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
