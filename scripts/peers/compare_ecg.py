#!/usr/bin/env python3
"""Vitals' QRS detector against NeuroKit2's, on the same MIT-BIH records, in the same run.

For every record in ../shared/data/mitdb (lead MLII; the first signal in 102 and 104, which lack
it), times and scores:
  - `vitals beats` as a whole process (reading the 212 file, filtering, detecting, writing CSV);
  - NeuroKit2's `ecg_peaks` with method "pantompkins1985" and with its default "neurokit", on the
    signal wfdb-python read (reading not timed, so the peers are favoured);
and scores all of them with `vitals score` (ANSI/AAMI EC57: ±150 ms, ventricular-flutter episodes
left out). Prints gross Se, +P and F1 for the 22 non-paced and the 4 paced records, and the
throughput in samples of the lead per second with the ratio to Vitals.

Usage (pinned packages: Fixtures/generate/requirements.txt; `make compare-ecg` sets them up):
    python scripts/peers/compare_ecg.py [--data ../shared/data/mitdb] [--vitals .build/release/vitals]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

PACED = {"102", "104", "107", "217"}


def lead_index(names):
    return names.index("MLII") if "MLII" in names else 0


def score(vitals, pairs, rate=None):
    arguments = [vitals, "score", "--json"]
    for reference, test in pairs:
        arguments += ["--reference", reference, "--test", test]
    if rate:
        arguments += ["--rate", str(rate)]
    out = subprocess.run(arguments, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["gross"]["whole"]


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=os.path.join(root, "..", "shared", "data", "mitdb"))
    parser.add_argument("--vitals", default=os.path.join(root, ".build", "release", "vitals"))
    parser.add_argument("--json", help="write the protocol rows (scripts/peers/compare.py) to this file")
    args = parser.parse_args()
    import neurokit2 as nk
    import wfdb

    warnings.filterwarnings("ignore")
    records = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(args.data, "*.hea")))
    methods = ["vitals", "pantompkins1985", "neurokit"]
    seconds = {m: 0.0 for m in methods}
    samples = 0
    with tempfile.TemporaryDirectory() as scratch:
        pairs = {m: {"paced": [], "non-paced": []} for m in methods}
        for name in records:
            path = os.path.join(args.data, name)
            record = wfdb.rdrecord(path)
            lead = lead_index(record.sig_name)
            signal = record.p_signal[:, lead]
            rate = record.fs
            samples += len(signal)
            group = "paced" if name in PACED else "non-paced"
            reference = path + ".atr"

            out = os.path.join(scratch, f"{name}.vitals.csv")
            channel = ["--channel", str(lead)] if "MLII" not in record.sig_name else []
            start = time.perf_counter()
            subprocess.run([args.vitals, "beats", path, "-o", out, *channel], check=True)
            seconds["vitals"] += time.perf_counter() - start
            pairs["vitals"][group].append((reference, out))

            for method in methods[1:]:
                start = time.perf_counter()
                _, info = nk.ecg_peaks(signal, sampling_rate=rate, method=method)
                seconds[method] += time.perf_counter() - start
                out = os.path.join(scratch, f"{name}.{method}.csv")
                np.savetxt(out, np.asarray(info["ECG_R_Peaks"], dtype=np.int64), fmt="%d", header="sample",
                           comments="")
                pairs[method][group].append((reference, out))

        print(f"{len(records)} records, {samples / 1e6:.1f} M samples of the lead; Se/+P/F1 in %, EC57 "
              "(±150 ms, flutter episodes left out)")
        print(f"{'detector':<28} {'non-paced Se/+P/F1':>24} {'paced Se/+P/F1':>24} {'M samples/s':>12} "
              f"{'Vitals is':>10}")
        protocol = []
        for method in methods:
            row = []
            accuracy = {}
            for group in ("non-paced", "paced"):
                if not pairs[method][group]:
                    row.append("-")
                    continue
                gross = score(args.vitals, pairs[method][group], rate=360)
                row.append(f"{100 * gross['se']:.2f}/{100 * gross['ppv']:.2f}/{100 * gross['f1']:.2f}")
                accuracy[f"{group} F1 %"] = 100 * gross["f1"]
            rate = samples / seconds[method] / 1e6
            ratio = seconds[method] / seconds["vitals"]
            name = "vitals beats (whole process)" if method == "vitals" else f"NeuroKit2 {nk.__version__} {method}"
            print(f"{name:<28} {row[0]:>24} {row[1]:>24} {rate:>12.1f} {ratio:>9.1f}x")
            protocol.append({"stage": "ECG QRS detection", "tool": name, "dataset": f"mitdb ({len(records)} records)",
                             "work": "30-min records, lead MLII", "seconds": seconds[method],
                             "throughput": samples / seconds[method], "throughput_unit": "samples/s",
                             "accuracy": accuracy})
        if args.json:
            with open(args.json, "w") as f:
                json.dump(protocol, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
