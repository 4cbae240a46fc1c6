#!/usr/bin/env python3
"""Vitals' QRS detector against NeuroKit2's and SleepECG's, on the same MIT-BIH records, in the same run.

For every record in ../shared/data/mitdb (lead MLII; the first signal, V5, in 102 and 104, which lack
it: Vitals' default lead rule picks it, the peers are given channel 0), times the same work, reading
every record and detecting its beats, in CPU seconds (scripts/peers/timing.py), and scores:
  - one `vitals beats REC… --out-dir DIR` process over all the records, as the peers run all of them
    in one Python process (start-up once, reading the 212 files, filtering, detecting, writing one
    CSV per record; CPU time of the child);
  - NeuroKit2's `ecg_peaks` with method "pantompkins1985" and with its default "neurokit", and
    SleepECG's `detect_heartbeats` with its C backend (its SciPy band-pass filter included, as users
    call it), each after `wfdb.rdrecord` reads the record (both timed together per record, CPU time of
    this process, summed; Python's start-up and imports left out);
  - SleepECG once more on every record's lead joined into one signal (read every record, join, one
    `detect_heartbeats` call, the beats split back per record; all of it timed), in case one long
    input suits it better than a call per record; the joins are scored like any other sample;
(the records' files are read once before any timing, so every side reads them from the page cache)
and scores all of them with `vitals score` (ANSI/AAMI EC57: ±150 ms, ventricular-flutter episodes
left out). Prints gross Se, +P and F1 for the 22 non-paced and the 4 paced records, and the
throughput in samples of the lead per second with the ratio to Vitals.

Then, on the records of --hrv-records (default 101,112,122: NeuroKit2 takes about 20 s per record),
times `vitals hrv REC… --json` (one process over those records: reading, detection and all HRV
domains, one JSON line per record) against `wfdb.rdrecord` + NeuroKit2's `ecg_process` followed by
`hrv` (time, frequency and nonlinear domains) per record in this process, both in CPU seconds, and
prints per record NeuroKit2's time and the ratios Vitals / NeuroKit2 of a few indices (each tool on
its own beats, so the indices differ by as much as the beats do), and the total times and their ratio.

With --json FILE, also writes the rows of both stages as a JSON list in the peer-comparison format
(one row per tool: stage, tool, dataset, work, seconds, throughput, throughput_unit, accuracy).

Usage (pinned packages: Fixtures/generate/requirements.txt; `make compare-ecg` sets them up):
    python scripts/peers/compare_ecg.py [--data ../shared/data/mitdb] [--vitals .build/release/vitals]
        [--hrv-records 101,112,122 | all | none] [--json FILE]
"""
import argparse
import glob
import json
import os
import sys
import tempfile
import warnings

import numpy as np

import beats
import timing

PACED = {"102", "104", "107", "217"}
JOINED = "sleepecg joined"


def lead_index(names):
    return names.index("MLII") if "MLII" in names else 0


def record_detectors(nk, sleepecg):
    """The peers that detect one record at a time: key → (tool name, detect(signal, rate) → beat samples)."""
    def neurokit(method):
        return lambda signal, rate: nk.ecg_peaks(signal, sampling_rate=rate, method=method)[1]["ECG_R_Peaks"]

    return {
        "pantompkins1985": (f"wfdb rdrecord + NeuroKit2 {nk.__version__} pantompkins1985", neurokit("pantompkins1985")),
        "neurokit": (f"wfdb rdrecord + NeuroKit2 {nk.__version__} neurokit", neurokit("neurokit")),
        "sleepecg": (f"wfdb rdrecord + SleepECG {sleepecg.__version__} detect_heartbeats (C backend)",
                     lambda signal, rate: sleepecg.detect_heartbeats(signal, rate, backend="c")),
    }


def detect_joined(paths, leads, wfdb, sleepecg):
    """Reads every record, joins their leads into one signal, detects its beats with one SleepECG call, and
    returns each record's beats (samples of that record)."""
    records = [wfdb.rdrecord(path, channels=[lead]) for path, lead in zip(paths, leads)]
    if len({record.fs for record in records}) != 1:
        sys.exit("the records have several sampling rates: they cannot be joined into one signal")
    bounds = np.cumsum([0, *(record.sig_len for record in records)])
    signal = np.concatenate([record.p_signal[:, 0] for record in records])
    found = sleepecg.detect_heartbeats(signal, records[0].fs, backend="c")
    return [found[(found >= start) & (found < end)] - start for start, end in zip(bounds[:-1], bounds[1:])]


# Indices compared between `vitals hrv` and NeuroKit2 `hrv` (Vitals' JSON domain, name).
HRV_INDICES = [("time", "MeanNN"), ("time", "SDNN"), ("time", "RMSSD"), ("frequency", "LFn"),
               ("frequency", "LFHF"), ("nonlinear", "SD1"), ("nonlinear", "SampEn"), ("nonlinear", "DFA_alpha1")]


def compare_hrv(args, records, nk, wfdb):
    """Times one `vitals hrv` process over `records` and NeuroKit2 ecg_process + hrv per record; returns
    the two JSON rows."""
    if not records:
        return []
    seconds = {"vitals": 0.0, "neurokit2": 0.0}
    ratios = {name: [] for _, name in HRV_INDICES}
    samples = 0
    paths = [os.path.join(args.data, name) for name in records]
    timing.warm([path + extension for path in paths for extension in (".hea", ".dat")])
    # Records without MLII (102, 104): Vitals' lead rule takes the first ECG lead, as lead_index does.
    seconds["vitals"], out = timing.process([args.vitals, "hrv", *paths, "--json"], capture=True)
    ours_by_path = {line["input"]: line for line in map(json.loads, out.splitlines())}
    print(f"\nHRV of {len(records)} records, CPU seconds: one `vitals hrv REC… --json` process (start-up once) "
          f"against wfdb.rdrecord + NeuroKit2 {nk.__version__} ecg_process + hrv per record")
    print(f"{'record':<7} {'NeuroKit2 s':>12}   "
          + " ".join(f"{name:>10}" for _, name in HRV_INDICES) + "   (Vitals / NeuroKit2)")
    for name, path in zip(records, paths):
        header = wfdb.rdheader(path)
        lead = lead_index(header.sig_name)
        samples += header.sig_len
        ours = ours_by_path[path]

        def peer():
            record = wfdb.rdrecord(path, channels=[lead])
            _, info = nk.ecg_process(record.p_signal[:, 0], sampling_rate=record.fs)
            return nk.hrv(info["ECG_R_Peaks"], sampling_rate=record.fs)

        nk_seconds, theirs = timing.call(peer)
        seconds["neurokit2"] += nk_seconds
        cells = []
        for domain, index in HRV_INDICES:
            mine, peer = ours[domain].get(index), float(theirs["HRV_" + index].iloc[0])
            ratio = mine / peer if mine is not None and np.isfinite(peer) and peer != 0 else float("nan")
            ratios[index].append(ratio)
            cells.append(f"{ratio:>10.3f}")
        print(f"{name:<7} {nk_seconds:>12.2f}   " + " ".join(cells))
    print(f"{'median':<7} {'':>12}   "
          + " ".join(f"{float(np.nanmedian(ratios[index])):>10.3f}" for _, index in HRV_INDICES))
    print(f"total: vitals {seconds['vitals']:.3f} s, NeuroKit2 {seconds['neurokit2']:.2f} s: Vitals is "
          f"{seconds['neurokit2'] / seconds['vitals']:.0f}x")
    dataset = f"mitdb ({len(records)} records: {','.join(records)})"
    work = "read the record, detect beats in lead MLII, compute time, frequency and nonlinear HRV (CPU s)"
    accuracy = {f"median_ratio_{index}_vs_neurokit2": float(np.nanmedian(ratios[index])) for _, index in HRV_INDICES}
    return [
        dict(stage="ecg-hrv", tool="vitals hrv (one process)", dataset=dataset, work=work, seconds=seconds["vitals"],
             throughput=samples / seconds["vitals"], throughput_unit="samples/s", accuracy=accuracy),
        dict(stage="ecg-hrv", tool=f"wfdb {wfdb.__version__} rdrecord + NeuroKit2 {nk.__version__} ecg_process+hrv", dataset=dataset, work=work,
             seconds=seconds["neurokit2"], throughput=samples / seconds["neurokit2"],
             throughput_unit="samples/s", accuracy={}),
    ]


def detection_rows(args, records, nk, wfdb, sleepecg):
    """Times and scores every detector on `records`; prints their table and returns their JSON rows."""
    detectors = record_detectors(nk, sleepecg)
    names = {"vitals": "vitals beats (one process, all records)",
             **{key: name for key, (name, _) in detectors.items()},
             JOINED: f"wfdb rdrecord + SleepECG {sleepecg.__version__} detect_heartbeats (C backend), "
                     f"{len(records)} records joined into one"}
    seconds = {key: 0.0 for key in names}
    pairs = {key: {"paced": [], "non-paced": []} for key in names}
    group = {name: "paced" if name in PACED else "non-paced" for name in records}
    paths = [os.path.join(args.data, name) for name in records]
    headers = [wfdb.rdheader(path) for path in paths]
    leads = [lead_index(header.sig_name) for header in headers]
    samples = sum(header.sig_len for header in headers)
    with tempfile.TemporaryDirectory() as scratch:
        def keep(key, name, found):
            out = os.path.join(scratch, f"{name}.{key.replace(' ', '-')}.csv")
            beats.write(out, found)
            pairs[key][group[name]].append((os.path.join(args.data, name + ".atr"), out))

        timing.warm(glob.glob(os.path.join(args.data, "*.hea")) + glob.glob(os.path.join(args.data, "*.dat")))
        # One process over every record; records without MLII (102, 104): Vitals' lead rule takes the
        # first ECG lead, V5, as lead_index does for the peers.
        seconds["vitals"], _ = timing.process([args.vitals, "beats", *paths, "--out-dir", scratch])
        for name, path in zip(records, paths):
            pairs["vitals"][group[name]].append((path + ".atr", os.path.join(scratch, f"{name}.beats.csv")))
        for name, path, lead in zip(records, paths, leads):
            for key, (_, detect) in detectors.items():
                def peer():
                    record = wfdb.rdrecord(path, channels=[lead])
                    return detect(record.p_signal[:, 0], record.fs)

                elapsed, found = timing.call(peer)
                seconds[key] += elapsed
                keep(key, name, found)
        seconds[JOINED], joined = timing.call(lambda: detect_joined(paths, leads, wfdb, sleepecg))
        for name, found in zip(records, joined):
            keep(JOINED, name, found)

        print(f"{len(records)} records, {samples / 1e6:.1f} M samples of the lead; Se/+P/F1 in %, EC57 "
              "(±150 ms, flutter episodes left out); read + detect, samples per CPU second")
        width = max(len(name) for name in names.values())
        print(f"{'detector':<{width}} {'non-paced Se/+P/F1':>24} {'paced Se/+P/F1':>24} {'M samples/s':>12} "
              f"{'Vitals is':>10}")
        return [detection_row(args, records, key, names[key], pairs[key], seconds, samples, width) for key in names]


def detection_row(args, records, key, name, pairs, seconds, samples, width):
    """Scores one detector's beats (`pairs` by group of records), prints its line and returns its JSON row."""
    cells, accuracy = [], {}
    for group in ("non-paced", "paced"):
        if not pairs[group]:
            cells.append("-")
            continue
        gross = beats.score(args.vitals, pairs[group], rate=360)
        cells.append(f"{100 * gross['se']:.2f}/{100 * gross['ppv']:.2f}/{100 * gross['f1']:.2f}")
        for measure in ("se", "ppv", "f1"):
            accuracy[f"{measure}_{group.replace('-', '')}_percent"] = 100 * gross[measure]
    rate = samples / seconds[key] / 1e6
    ratio = seconds[key] / seconds["vitals"]
    print(f"{name:<{width}} {cells[0]:>24} {cells[1]:>24} {rate:>12.1f} {ratio:>9.1f}x")
    return dict(stage="ecg-beats", tool=name, dataset=f"mitdb ({len(records)} records)",
                work="read the record, detect QRS complexes in lead MLII (CPU s; EC57 scoring, flutter left out)",
                seconds=seconds[key], throughput=samples / seconds[key], throughput_unit="samples/s",
                accuracy=accuracy)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=os.path.join(root, "..", "shared", "data", "mitdb"))
    parser.add_argument("--vitals", default=os.path.join(root, ".build", "release", "vitals"))
    parser.add_argument("--hrv-records", default="101,112,122",
                        help="records for the HRV comparison: a comma-separated list, all, or none")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as a JSON list to FILE")
    args = parser.parse_args()
    import neurokit2 as nk
    import sleepecg
    import wfdb

    warnings.filterwarnings("ignore")
    records = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(args.data, "*.hea")))
    rows = detection_rows(args, records, nk, wfdb, sleepecg)

    if args.hrv_records == "all":
        hrv_records = records
    elif args.hrv_records == "none":
        hrv_records = []
    else:
        hrv_records = [r for r in args.hrv_records.split(",") if r]
    rows += compare_hrv(args, hrv_records, nk, wfdb)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
