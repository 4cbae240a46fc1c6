#!/usr/bin/env python3
"""Time and peak memory of Vitals' commands against recording length and against number of files.

Simulates ECG recordings with `vitals simulate` (250 Hz, ambulatory noise, 1 % premature ventricular
beats) and converts them to WFDB records (format 16) with `vitals convert`, in a scratch directory:
  - one recording of each length in --lengths (default 1 min, 10 min, 1 h, 6 h, 24 h);
  - --files-max files of --file-seconds each (default 100 one-minute files), read 1, 10, 100 at a time.
Then runs each command as its own process (best of --repeat: wall clock, user + system CPU time, peak
resident set size from wait4) and writes one CSV row per measurement and a plot:
  - `vitals beats REC` and `vitals hrv REC` (and `vitals analyze REC` when the binary has it) per
    length;
  - `vitals hrv F1 … FN` (one process, N inputs) and `vitals beats` once per file (N processes:
    summed times, largest peak) per file count.
Wall clock on a shared machine is noisy; CPU time is the steadier figure.

Usage (matplotlib from the pinned venv, Fixtures/generate/requirements.txt; `make scaling`):
    python scripts/bench/scaling.py [--csv docs/scaling.csv] [--plot docs/scaling.svg]
                                    [--lengths 60,600,3600,21600,86400] [--repeat 3]
    python scripts/bench/scaling.py --from-csv docs/scaling.csv --plot docs/scaling.svg  # replot
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "peers"))
import timing  # noqa: E402  (scripts/peers/timing.py: one process's wall time, CPU time and peak RSS)
RATE = 250
FIELDS = ["axis", "command", "x", "samples", "wall_s", "cpu_s", "peak_rss_mb"]


def best(repeat, runs):
    """Best wall and CPU time and the largest peak RSS over `repeat` runs of `runs` (a list of
    commands run one after the other, their times summed)."""
    results = []
    for _ in range(repeat):
        measured = [timing.run(arguments)[:3] for arguments in runs]  # wall, CPU, peak RSS; output discarded
        results.append((sum(m[0] for m in measured), sum(m[1] for m in measured), max(m[2] for m in measured)))
    return min(r[0] for r in results), min(r[1] for r in results), max(r[2] for r in results)


AMBULATORY_ECG = ["--signal", "ecg", "--pvc", "0.01", "--noise", "ambulatory"]


def simulate(vitals, scratch, name, seconds, seed, signal=AMBULATORY_ECG, rate=RATE):
    """Writes `scratch/name.hea/.dat` of `vitals simulate` with the options `signal` at `rate` Hz (and
    removes the intermediate CSV); returns the record path."""
    source = os.path.join(scratch, name + ".csv")
    subprocess.run([vitals, "simulate", *signal, "--duration", str(seconds), "--rate", str(rate),
                    "--seed", str(seed), "-o", source], check=True, stdout=subprocess.DEVNULL)
    record = os.path.join(scratch, name)
    subprocess.run([vitals, "convert", source, "--rate", str(rate), "-o", record + ".hea"], check=True,
                   stdout=subprocess.DEVNULL)
    os.remove(source)
    os.remove(os.path.join(scratch, name + ".truth.csv"))
    return record


def has_command(vitals, name):
    """Whether `vitals --help` lists the subcommand `name`."""
    usage = subprocess.run([vitals, "--help"], capture_output=True, text=True).stdout
    return any(line.split()[:1] == [name] for line in usage.split("SUBCOMMANDS:")[-1].splitlines())


def run(args):
    rows = []
    commands = ["beats", "hrv"] + (["analyze"] if has_command(args.vitals, "analyze") else [])
    with tempfile.TemporaryDirectory() as scratch:
        for seconds in args.lengths:
            record = simulate(args.vitals, scratch, f"length{seconds}", seconds, seed=seconds % 1000 + 1)
            for command in commands:
                wall, cpu, rss = best(args.repeat, [[args.vitals, command, record]])
                rows.append(dict(axis="length", command=f"vitals {command}", x=seconds, samples=seconds * RATE,
                                 wall_s=wall, cpu_s=cpu, peak_rss_mb=rss))
                print(f"{command:>8} {seconds:>7} s of ECG: {wall:8.3f} s wall {cpu:8.3f} s CPU {rss:7.1f} MB",
                      flush=True)
            os.remove(record + ".dat")
        files = [simulate(args.vitals, scratch, f"file{i}", args.file_seconds, seed=i + 1)
                 for i in range(max(args.file_counts))]
        for count in args.file_counts:
            chosen = files[:count]
            for command, runs in (("hrv", [[args.vitals, "hrv", *chosen]]),
                                  ("beats", [[args.vitals, "beats", f] for f in chosen])):
                wall, cpu, rss = best(args.repeat, runs)
                rows.append(dict(axis="files", command=f"vitals {command}", x=count,
                                 samples=count * args.file_seconds * RATE, wall_s=wall, cpu_s=cpu, peak_rss_mb=rss))
                print(f"{command:>8} {count:>4} files: {wall:8.3f} s wall {cpu:8.3f} s CPU {rss:7.1f} MB", flush=True)
    return rows


def plot(rows, path, file_seconds):
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text as text: a small SVG
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(2, 2, figsize=(10, 7.5))
    commands = list(dict.fromkeys(row["command"] for row in rows))
    colours = {command: f"C{i}" for i, command in enumerate(commands)}
    for column, axis, label in ((0, "length", "recording length (hours, 250 Hz ECG)"),
                                (1, "files", f"number of {file_seconds:g}-s files")):
        scale = 3600 if axis == "length" else 1
        chosen = [row for row in rows if row["axis"] == axis]
        for command in commands:
            series = sorted((row for row in chosen if row["command"] == command), key=lambda row: float(row["x"]))
            if not series:
                continue
            x = [float(row["x"]) / scale for row in series]
            colour = colours[command]
            axes[0][column].loglog(x, [float(row["cpu_s"]) for row in series], "o-", color=colour,
                                   label=f"{command} (CPU)")
            axes[0][column].loglog(x, [float(row["wall_s"]) for row in series], "x:", color=colour, alpha=0.5,
                                   label=f"{command} (wall)")
            axes[1][column].semilogx(x, [float(row["peak_rss_mb"]) for row in series], "o-", color=colour,
                                     label=command)
            # Slope one through the largest point: where the measured line runs parallel, cost is linear.
            x1, y1 = x[-1], float(series[-1]["cpu_s"])
            axes[0][column].loglog(x, [y1 * v / x1 for v in x], "--", color=colour, lw=0.8, alpha=0.7,
                                   label=f"{command}: linear through the largest point")
        axes[0][column].set_ylabel("time per run, s")
        axes[1][column].set_ylabel("peak resident memory, MB")
        axes[1][column].set_ylim(bottom=0)
        for row in (0, 1):
            axes[row][column].set_xlabel(label)
            axes[row][column].grid(True, which="both", alpha=0.3)
            axes[row][column].legend(fontsize=7)
    figure.suptitle("Vitals: time and memory against recording length and number of files (make scaling)")
    figure.tight_layout()
    figure.savefig(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vitals", default=os.path.join(ROOT, ".build", "release", "vitals"))
    parser.add_argument("--csv", default=os.path.join(ROOT, "docs", "scaling.csv"))
    parser.add_argument("--plot", default=os.path.join(ROOT, "docs", "scaling.svg"))
    parser.add_argument("--lengths", default="60,600,3600,21600,86400", help="seconds, comma-separated")
    parser.add_argument("--file-counts", default="1,10,100")
    parser.add_argument("--file-seconds", type=float, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--from-csv", help="plot this CSV instead of measuring")
    args = parser.parse_args()
    args.lengths = [int(s) for s in args.lengths.split(",")]
    args.file_counts = [int(s) for s in args.file_counts.split(",")]

    if args.from_csv:
        with open(args.from_csv) as f:
            rows = list(csv.DictReader(f))
    else:
        rows = run(args)
        os.makedirs(os.path.dirname(os.path.abspath(args.csv)), exist_ok=True)
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=FIELDS)
            writer.writeheader()
            for row in rows:
                writer.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in row.items()})
    plot(rows, args.plot, args.file_seconds)
    print(f"wrote {args.plot}" if args.from_csv else f"wrote {args.csv} and {args.plot}")


if __name__ == "__main__":
    sys.exit(main())
