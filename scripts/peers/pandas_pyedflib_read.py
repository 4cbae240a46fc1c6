#!/usr/bin/env python3
"""Peers on the same kind of files as the FormatReading benchmarks, in MB/s of input:
pandas.read_csv on a numeric CSV shaped like a wearable export (6 columns), and pyedflib reading
every signal of a 3-signal 500 Hz EDF (16-bit samples to physical float64). When the vitals
binary is built (release), it is timed on the same files (`vitals convert` without output cost is
not available, so `vitals info`, which parses every CSV sample; for EDF, `vitals convert` to
/dev/null includes CSV writing and is an upper bound on decode time) and the ratios are printed.

Usage: python3 scripts/peers/pandas_pyedflib_read.py [--mb 64] [--repeat 3]
Needs numpy, pandas and pyedflib (Fixtures/generate/requirements.txt pins pyedflib).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np


def write_csv(path, megabytes):
    rng = np.random.default_rng(5)
    rows = int(megabytes * 1e6 / 34)
    with open(path, "w") as f:
        f.write("ecg,ppg1,ppg2,acc_x,acc_y,acc_z\n")
        block = 200_000
        for start in range(0, rows, block):
            n = min(block, rows - start)
            cols = [rng.integers(-3000, 3000, n) / 10, rng.integers(-200, 200, n).astype(float),
                    rng.integers(-500, 500, n) / 10, rng.integers(-10000, 10000, (n, 3)) / 10000]
            data = np.column_stack([cols[0], cols[1], cols[2], cols[3]])
            np.savetxt(f, data, fmt=["%.1f", "%d", "%.1f", "%.4f", "%.4f", "%.4f"], delimiter=",")


def write_edf(path, megabytes):
    import pyedflib
    fs, ns = 500, 3
    seconds = int(megabytes * 1e6 / (2 * ns * fs))
    writer = pyedflib.EdfWriter(path, ns, file_type=pyedflib.FILETYPE_EDF)
    writer.setSignalHeaders([dict(label=l, dimension="uV", sample_frequency=fs, physical_min=-3276.8,
                                  physical_max=3276.7, digital_min=-32768, digital_max=32767)
                             for l in ("ECG", "PPG", "ACC")])
    rng = np.random.default_rng(6)
    for _ in range(seconds):
        writer.writeSamples([rng.integers(-30000, 30000, fs) / 10.0 for _ in range(ns)])
    writer.close()


def best_of(repeat, body):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        body()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import pandas
    import pyedflib
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    vitals = os.path.join(root, ".build", "release", "vitals")
    with tempfile.TemporaryDirectory() as scratch:
        csv = os.path.join(scratch, "numeric.csv")
        edf = os.path.join(scratch, "three.edf")
        write_csv(csv, args.mb)
        write_edf(edf, args.mb)
        csv_mb = os.path.getsize(csv) / 1e6
        edf_mb = (os.path.getsize(edf) - 256 * 4) / 1e6

        def read_edf():
            f = pyedflib.EdfReader(edf)
            for i in range(f.signals_in_file):
                f.readSignal(i)
            f.close()

        results = {
            "pandas.read_csv": csv_mb / best_of(args.repeat, lambda: pandas.read_csv(csv)),
            "pyedflib readSignal": edf_mb / best_of(args.repeat, read_edf),
        }
        if os.access(vitals, os.X_OK):
            run = lambda *a: subprocess.run([vitals, *a], check=True, stdout=subprocess.DEVNULL)
            results["vitals info (CSV)"] = csv_mb / best_of(args.repeat, lambda: run("info", csv, "--rate", "125"))
            results["vitals convert (EDF, incl. CSV output)"] = edf_mb / best_of(
                args.repeat, lambda: run("convert", edf, "-o", "-"))
        print("file sizes: CSV %.1f MB, EDF samples %.1f MB" % (csv_mb, edf_mb))
        for name, rate in results.items():
            print("%-42s %8.1f MB/s" % (name, rate))
        if "vitals info (CSV)" in results:
            print("ratio CSV  vitals/pandas:   %.1fx" % (results["vitals info (CSV)"] / results["pandas.read_csv"]))


if __name__ == "__main__":
    sys.exit(main())
