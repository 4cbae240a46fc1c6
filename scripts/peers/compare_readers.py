#!/usr/bin/env python3
"""Vitals' readers against their peers, on the same generated files, in the same run.

Writes three files into a scratch directory: a numeric CSV shaped like a wearable export
(6 columns), a 3-signal 500 Hz EDF (16-bit), and a 2-signal MIT-BIH-style WFDB record in format 212.
Then reads each with its peer (pandas.read_csv, pyedflib readSignal for every signal, wfdb-python
rdrecord to physical values) and with `vitals info --scan` (which reads and converts every sample
to physical Float values and reduces them: the whole decode, plus process start-up), best of
--repeat runs from a warm page cache, and prints MB/s of input per CPU second (scripts/peers/timing.py:
user + system time of the Vitals process, of this process during the peer's call) and the ratios.
Accuracy: the largest difference between Vitals' per-signal minimum, maximum and mean (`vitals info --scan --json`) and the
same reductions of the peer's values, relative to the signal's range (the peer row is the reference).

Usage (pinned packages: Fixtures/generate/requirements.txt; `make compare-readers` sets them up):
    python scripts/peers/compare_readers.py [--mb 64] [--repeat 5] [--vitals .build/release/vitals]
                                            [--json FILE]
--json FILE writes the rows of scripts/peers/compare.py's protocol (one per tool and format).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

import timing


def write_csv(path, megabytes):
    rng = np.random.default_rng(5)
    rows = int(megabytes * 1e6 / 34)
    with open(path, "w") as f:
        f.write("ecg,ppg1,ppg2,acc_x,acc_y,acc_z\n")
        block = 200_000
        for start in range(0, rows, block):
            n = min(block, rows - start)
            data = np.column_stack([rng.integers(-3000, 3000, n) / 10, rng.integers(-200, 200, n).astype(float),
                                    rng.integers(-500, 500, n) / 10, rng.integers(-10000, 10000, (n, 3)) / 10000])
            np.savetxt(f, data, fmt=["%.1f", "%d", "%.1f", "%.4f", "%.4f", "%.4f"], delimiter=",")


def write_edf(path, megabytes):
    import pyedflib
    fs, ns = 500, 3
    seconds = int(megabytes * 1e6 / (2 * ns * fs))
    writer = pyedflib.EdfWriter(path, ns, file_type=pyedflib.FILETYPE_EDF)
    writer.setSignalHeaders([dict(label=label, dimension="uV", sample_frequency=fs, physical_min=-3276.8,
                                  physical_max=3276.7, digital_min=-32768, digital_max=32767)
                             for label in ("ECG", "PPG", "ACC")])
    rng = np.random.default_rng(6)
    for _ in range(seconds):
        writer.writeSamples([rng.integers(-30000, 30000, fs) / 10.0 for _ in range(ns)])
    writer.close()


def write_wfdb(record, megabytes):
    frames = int(megabytes * 1e6) // 3
    rng = np.random.default_rng(1)
    with open(record + ".dat", "wb") as f:
        f.write(rng.integers(0, 256, 3 * frames, dtype=np.uint8).tobytes())
    name = os.path.basename(record)
    with open(record + ".hea", "w") as f:
        f.write(f"{name} 2 360 {frames}\n{name}.dat 212 200 11 1024 0 0 0 MLII\n"
                f"{name}.dat 212 200 11 1024 0 0 0 V5\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=64)
    parser.add_argument("--repeat", type=int, default=5)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--vitals", default=os.path.join(root, ".build", "release", "vitals"))
    parser.add_argument("--json", help="write the protocol rows (scripts/peers/compare.py) to this file")
    args = parser.parse_args()
    import pandas
    import pyedflib
    import wfdb

    def read_edf(path):
        reader = pyedflib.EdfReader(path)
        signals = [reader.readSignal(i) for i in range(reader.signals_in_file)]
        reader.close()
        return signals

    def scan_error(arguments, signals):
        """Largest |Vitals − peer| of min, max and mean over the signals, relative to each range."""
        out = subprocess.run([args.vitals, "info", "--scan", "--json", *arguments], check=True,
                             capture_output=True, text=True).stdout
        scans = [signal["scan"] for signal in json.loads(out)["signals"]]
        worst = 0.0
        for scan, values in zip(scans, signals):
            values = np.asarray(values, dtype=np.float64)
            extent = float(values.max() - values.min()) or 1.0
            for key, reference in (("minimum", values.min()), ("maximum", values.max()),
                                   ("mean", values.mean())):
                worst = max(worst, abs(scan[key] - float(reference)) / extent)
        return worst

    with tempfile.TemporaryDirectory() as scratch:
        csv, edf, record = (os.path.join(scratch, n) for n in ("numeric.csv", "three.edf", "gen"))
        write_csv(csv, args.mb)
        write_edf(edf, args.mb)
        write_wfdb(record, args.mb)
        sizes = {"CSV": os.path.getsize(csv) / 1e6, "EDF": (os.path.getsize(edf) - 256 * 4) / 1e6,
                 "WFDB 212": os.path.getsize(record + ".dat") / 1e6}
        rows = [
            ("CSV", f"pandas {pandas.__version__} read_csv", lambda: pandas.read_csv(csv), [csv, "--rate", "125"],
             lambda: pandas.read_csv(csv).to_numpy().T),
            ("EDF", f"pyedflib {pyedflib.__version__} readSignal", lambda: read_edf(edf), [edf],
             lambda: read_edf(edf)),
            ("WFDB 212", f"wfdb {wfdb.__version__} rdrecord", lambda: wfdb.rdrecord(record), [record],
             lambda: wfdb.rdrecord(record).p_signal.T),
        ]
        protocol = []
        print(f"{'format':<9} {'MB':>6}  {'peer':<28} {'peer MB/s':>10} {'vitals MB/s':>12} {'ratio':>7} "
              f"{'max rel. error':>15}")
        for kind, peer_name, peer, arguments, values in rows:
            peer_seconds = timing.best_of(args.repeat, peer, warm_up=True)[0]
            our_seconds = timing.best_of(args.repeat, [args.vitals, "info", "--scan", *arguments],
                                         measure=timing.process, warm_up=True)[0]
            peer_rate, our_rate = sizes[kind] / peer_seconds, sizes[kind] / our_seconds
            error = scan_error(arguments, values())
            print(f"{kind:<9} {sizes[kind]:>6.1f}  {peer_name:<28} {peer_rate:>10.1f} {our_rate:>12.1f} "
                  f"{our_rate / peer_rate:>6.1f}x {error:>15.2g}")
            work = f"{sizes[kind]:.0f} MB file to physical values"
            for tool, seconds, accuracy in (("vitals info --scan", our_seconds, error), (peer_name, peer_seconds, 0.0)):
                protocol.append({"stage": f"read {kind}", "tool": tool, "dataset": "generated", "work": work,
                                 "seconds": seconds, "throughput": sizes[kind] / seconds,
                                 "throughput_unit": "MB/s", "accuracy": {"max rel. error vs peer": accuracy}})
        if args.json:
            with open(args.json, "w") as f:
                json.dump(protocol, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
