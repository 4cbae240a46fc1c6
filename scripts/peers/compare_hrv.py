#!/usr/bin/env python3
"""Vitals' heart-rate variability against NeuroKit2's and hrv-analysis', and its QRS detector against
NeuroKit2's and SleepECG's, on the same beats and recordings, in the same run.

Three comparisons, each timed in this run, in CPU seconds (scripts/peers/timing.py: Vitals as a whole
process, the peer in memory):
  1. HRV on the reference beats of every ../shared/data/mitdb record (every beat annotation, so the
     RR series is the same for both tools: Vitals with --no-artifacts): one `vitals hrv --beats
     A.csv --beats B.csv … --json` process over all the records' beat files (start-up once, reading
     the CSV files, one JSON line per file), as NeuroKit2 runs all of them in this process (imports
     left out), in memory on the same peaks, twice: `nk.hrv` (all its domains, 95 indices, most of its time in multiscale entropies) and
     the indices Vitals computes (hrv_time, hrv_frequency with interpolation_rate=4 and normalize=False, the Poincaré
     indices, DFA α1/α2, ApEn and SampEn as hrv_nonlinear computes them); and hrv-analysis on the NN
     intervals of the same peaks, in ms: get_time_domain_features, get_frequency_domain_features
     (its defaults: Welch, 4 Hz linear interpolation), get_poincare_plot_features,
     get_csi_cvi_features and get_sampen. Accuracy: the share of the indices both report that agree
     within 0.1 % (relative, or 1e-9 absolute), and the median relative difference; NeuroKit2 is the
     reference (its rows read 100 % and 0); and for every peer, the median over the records of the
     relative difference from Vitals of SDNN, RMSSD, LF/HF, SD1 and SampEn (hrv-analysis' SampEn is
     nolds' sampen: dimension 2, tolerance 0.2006 × SD where Vitals takes 0.2 × SD).
  2. ECG → HRV on a simulated recording (--hrv-hours, default 1 h, 250 Hz, ambulatory noise, written
     by `vitals simulate` and converted to a WFDB record): `vitals hrv REC` (read, detect, drop RR
     artefacts, all three domains) against NeuroKit2's `ecg_peaks` (default method, with its
     artefact correction, Lipponen & Tarvainen 2019) on the signal in memory followed by the same
     indices as in 1. Accuracy: |SDNN − truth| and |RMSSD − truth| in ms, truth from the
     simulator's beats.
  3. QRS detection on a simulated long recording (--long-hours, default 24 h): `vitals beats` against
     `nk.ecg_peaks` and SleepECG's `detect_heartbeats` with its C backend (its SciPy filter included),
     each on the signal in memory; accuracy: sensitivity, positive predictivity and F1 (%) against the
     simulator's beats (`vitals score`, ±150 ms).

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
from importlib.metadata import version

import numpy as np

import beats
import timing

BEAT_SYMBOLS = set("NLRBAaJSVrFejnE/fQ")
RATE = 250
# Vitals' JSON names → NeuroKit2 column names (HRV_ prefix added).
DOMAINS = ("time", "frequency", "nonlinear")
# The indices every peer is compared on with Vitals (Vitals' JSON domain and name) → hrv-analysis' name.
VERSUS_VITALS = {("time", "SDNN"): "sdnn", ("time", "RMSSD"): "rmssd", ("frequency", "LFHF"): "lf_hf_ratio",
                 ("nonlinear", "SD1"): "sd1", ("nonlinear", "SampEn"): "sampen"}


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


def hrvanalysis_indices(hrvanalysis, peaks, rate):
    """hrv-analysis' time, frequency and nonlinear features of the NN intervals between `peaks`; those of
    VERSUS_VITALS named as NeuroKit2 names them."""
    intervals = np.diff(peaks) / rate * 1000
    features = {}
    for features_of in (hrvanalysis.get_time_domain_features, hrvanalysis.get_frequency_domain_features,
                        hrvanalysis.get_poincare_plot_features, hrvanalysis.get_csi_cvi_features,
                        hrvanalysis.get_sampen):
        features.update(features_of(intervals))
    return {"HRV_" + name: features[theirs] for (_, name), theirs in VERSUS_VITALS.items()}


def versus_vitals(ours, theirs):
    """The relative difference from Vitals' of each index of VERSUS_VITALS (NaN where either lacks it)."""
    differences = {}
    for domain, name in VERSUS_VITALS:
        mine, peer = ours[domain].get(name), float(theirs.get("HRV_" + name, math.nan))
        finite = mine is not None and math.isfinite(mine) and math.isfinite(peer)
        differences[name] = abs(peer - mine) / max(abs(mine), 1e-9) if finite else math.nan
    return differences


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


def reference_beats(args, wfdb, scratch):
    """{beat file: its peaks} for every record's reference beats (written to `scratch`), and their rate."""
    peaks_by_file, rates = {}, set()
    for name in sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(args.data, "*.hea"))):
        annotations = wfdb.rdann(os.path.join(args.data, name), "atr")
        peaks = np.array([s for s, c in zip(annotations.sample, annotations.symbol) if c in BEAT_SYMBOLS])
        rates.add(annotations.fs or 360)
        file = os.path.join(scratch, name + ".beats.csv")
        beats.write(file, peaks)
        peaks_by_file[file] = peaks
    if len(rates) != 1:
        sys.exit(f"the records' annotations have several rates ({sorted(rates)}): one --rate per process")
    return peaks_by_file, rates.pop()


def mitdb_rows(args, nk, wfdb, hrvanalysis, scratch):
    peaks_by_file, rate = reference_beats(args, wfdb, scratch)
    intervals = sum(len(peaks) - 1 for peaks in peaks_by_file.values())
    arguments = [args.vitals, "hrv", "--rate", str(rate), "--no-artifacts", "--json"]
    for file in peaks_by_file:
        arguments += ["--beats", file]
    seconds = {}
    seconds["vitals"], out = timing.process(arguments, capture=True)
    ours_by_file = {line["input"]: line for line in map(json.loads, out.splitlines())}
    # Each peer: (tool name, its indices of the peaks as {NeuroKit2 column: value}).
    peers = {"all": (f"NeuroKit2 {nk.__version__} hrv (all domains)",
                     lambda peaks: nk.hrv(peaks, sampling_rate=rate).iloc[0].to_dict()),
             "same": (f"NeuroKit2 {nk.__version__} (Vitals' indices)",
                      lambda peaks: neurokit_same_indices(nk, peaks, rate)),
             "hrvanalysis": (f"hrv-analysis {version('hrv-analysis')} (time, frequency, nonlinear)",
                             lambda peaks: hrvanalysis_indices(hrvanalysis, peaks, rate))}
    seconds.update((key, 0.0) for key in peers)
    versus = {key: {name: [] for _, name in VERSUS_VITALS} for key in peers}
    shares, differences = [], []
    for file, peaks in peaks_by_file.items():
        ours = ours_by_file[file]
        for key, (_, indices) in peers.items():
            elapsed, theirs = timing.call(lambda: indices(peaks))
            seconds[key] += elapsed
            for name, difference in versus_vitals(ours, theirs).items():
                versus[key][name].append(difference)
            if key == "same":
                share, record_differences = agreement(ours, theirs)
                shares.append(share)
                differences += record_differences
    share, median = 100 * float(np.mean(shares)), float(np.median(differences))
    print(f"HRV on the reference beats of {len(peaks_by_file)} mitdb records ({intervals} intervals): "
          f"{share:.1f} % of Vitals' indices within 0.1 % of NeuroKit2's (median relative difference "
          f"{median:.2g})")
    names = {"vitals": "vitals hrv --beats (one process, all records)", **{k: n for k, (n, _) in peers.items()}}
    accuracy = {"vitals": {"indices within 0.1 % of NeuroKit2 %": share, "median rel. difference": median}}
    for key in peers:
        # NeuroKit2 is the reference of the first two figures; hrv-analysis reports too few of the indices.
        accuracy[key] = ({"indices within 0.1 % of NeuroKit2 %": 100.0, "median rel. difference": 0.0}
                         if key != "hrvanalysis" else {})
        accuracy[key].update((f"{name} median rel. difference vs Vitals", float(np.nanmedian(values)))
                             for name, values in versus[key].items())
    print_hrv_table(names, seconds, intervals, accuracy)
    dataset = f"mitdb ({len(peaks_by_file)} records)"
    return [row("HRV (time, frequency, nonlinear)", names[k], dataset, "reference beats, 30-min records",
                seconds[k], intervals, "NN intervals/s", accuracy[k]) for k in names]


def print_hrv_table(names, seconds, intervals, accuracy):
    width = max(len(name) for name in names.values())
    compared = [name for _, name in VERSUS_VITALS]
    print(f"{'tool':<{width}} {'CPU s':>8} {'intervals/s':>12} {'Vitals is':>10}   "
          + " ".join(f"{name:>8}" for name in compared) + "   (median rel. difference from Vitals)")
    for key, name in names.items():
        cells = " ".join(f"{accuracy[key].get(f'{index} median rel. difference vs Vitals', math.nan):>8.2g}"
                         for index in compared)
        print(f"{name:<{width}} {seconds[key]:>8.2f} {intervals / seconds[key]:>12.0f} "
              f"{seconds[key] / seconds['vitals']:>9.1f}x   {cells}")


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


def simulated_detection_rows(args, nk, wfdb, sleepecg, scratch):
    record, truth_file, _ = simulate(args.vitals, scratch, "long", args.long_hours, pvc=0.01)
    signal = wfdb.rdrecord(record).p_signal[:, 0]
    ours_file = os.path.join(scratch, "long.vitals.csv")
    ours, _ = timing.process([args.vitals, "beats", record, "-o", ours_file])
    # Each peer: (its file of beats, its detection on the signal in memory).
    peers = {f"NeuroKit2 {nk.__version__} ecg_peaks (neurokit)":
             ("long.nk.csv", lambda: nk.ecg_peaks(signal, sampling_rate=RATE)[1]["ECG_R_Peaks"]),
             f"SleepECG {sleepecg.__version__} detect_heartbeats (C backend)":
             ("long.sleepecg.csv", lambda: sleepecg.detect_heartbeats(signal, RATE, backend="c"))}

    def score(test):
        gross = beats.score(args.vitals, [(truth_file, test)], rate=RATE)
        return {"Se %": 100 * gross["se"], "+P %": 100 * gross["ppv"], "F1 %": 100 * gross["f1"]}

    dataset = f"simulated {args.long_hours:g} h"
    work = "250 Hz ambulatory ECG, 1 % PVC"
    rows = [row("ECG QRS detection", "vitals beats (whole process)", dataset, work, ours, len(signal),
                "samples/s", score(ours_file))]
    for tool, (name, detect) in peers.items():
        theirs, found = timing.call(detect)
        beats.write(os.path.join(scratch, name), found)
        rows.append(row("ECG QRS detection", tool, dataset, work, theirs, len(signal), "samples/s",
                        score(os.path.join(scratch, name))))
    width = max(len(r["tool"]) for r in rows)
    for r in rows:
        print(f"{r['stage']} {dataset}: {r['tool']:<{width}} {r['seconds']:8.2f} CPU s  "
              f"{r['throughput'] / 1e6:8.2f} M samples/s  " + "  ".join(f"{k} {v:.2f}" for k, v in r["accuracy"].items()))
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
    import hrvanalysis
    import neurokit2 as nk
    import sleepecg
    import wfdb

    # hrv-analysis 1.0.5 integrates its spectrum with np.trapz, which NumPy 2.4 removed after renaming
    # it np.trapezoid (1.0.6 needs pandas 3, which NeuroKit2 excludes): the same function under its old name.
    if not hasattr(np, "trapz"):
        np.trapz = np.trapezoid
    warnings.filterwarnings("ignore")
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        if glob.glob(os.path.join(args.data, "*.hea")):
            rows += mitdb_rows(args, nk, wfdb, hrvanalysis, scratch)
        else:
            print(f"no records in {args.data}: the mitdb comparison is skipped")
        if args.hrv_hours > 0:
            rows += simulated_hrv_rows(args, nk, wfdb, scratch)
        if args.long_hours > 0:
            rows += simulated_detection_rows(args, nk, wfdb, sleepecg, scratch)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
