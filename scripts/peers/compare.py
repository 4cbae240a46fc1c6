#!/usr/bin/env python3
"""Every peer comparison in one run, and one table: Vitals against the fastest peer of each stage.

Runs each scripts/peers/compare_*.py with `--json FILE` (each prints its own table, then writes its
rows), then prints, per stage and dataset, Vitals' throughput, the fastest peer and its throughput,
the ratio, and the accuracy figures of both side by side; `--markdown FILE` writes the same table
as Markdown (`make performance` puts it in docs/performance.md).

Row protocol (one JSON list per script, one row per tool):
    {"stage": str, "tool": str, "dataset": str, "work": str, "seconds": float,
     "throughput": float, "throughput_unit": str, "accuracy": {name: float}}
A row whose tool starts with "vitals" (any case) is Vitals'; every other row of the same stage and
dataset is a peer.

Usage (pinned packages: Fixtures/generate/requirements.txt; `make compare` sets them up):
    python scripts/peers/compare.py [--markdown FILE] [--json FILE] [--only hrv,ecg]
                                    [--rows FILE ...] [-- ARGS passed to every script]
"""
import argparse
import datetime
import glob
import json
import os
import platform
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def machine():
    """`lscpu` model name and core count, e.g. "AMD EPYC, 2 cores"."""
    model = platform.processor() or platform.machine()
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return f"{model}, {os.cpu_count()} cores"


def is_vitals(row):
    return row["tool"].lower().startswith("vitals")


def number(value):
    """Three significant figures, no exponent below a billion."""
    if value is None:
        return "–"
    magnitude = abs(value)
    if magnitude >= 100 or magnitude == 0:
        return f"{value:,.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def rate(row):
    value, unit = row["throughput"], row["throughput_unit"]
    for factor, prefix in ((1e9, "G "), (1e6, "M "), (1e3, "k ")):
        if value >= factor and not unit.startswith(("M", "k", "G")):
            return f"{number(value / factor)} {prefix}{unit}"
    return f"{number(value)} {unit}"


def accuracy(ours, theirs):
    names = list(dict.fromkeys([*ours["accuracy"], *theirs["accuracy"]]))
    return "; ".join(f"{name} {number(ours['accuracy'].get(name))} / {number(theirs['accuracy'].get(name))}"
                     for name in names) or "–"


def table(rows):
    """(header, lines): one line per stage and dataset with a Vitals row and at least one peer."""
    groups = {}
    for row in rows:
        groups.setdefault((row["stage"], row["dataset"]), []).append(row)
    lines = []
    for (stage, dataset), members in groups.items():
        ours = [row for row in members if is_vitals(row)]
        peers = [row for row in members if not is_vitals(row)]
        if not ours or not peers:
            continue
        vitals = max(ours, key=lambda row: row["throughput"])
        peer = max(peers, key=lambda row: row["throughput"])
        lines.append([stage, dataset, vitals["work"], rate(vitals), peer["tool"], rate(peer),
                      f"{vitals['throughput'] / peer['throughput']:.1f}×", accuracy(vitals, peer)])
    header = ["stage", "dataset", "work", "Vitals", "fastest peer", "peer", "ratio",
              "accuracy (Vitals / peer)"]
    return header, lines


def run_scripts(names, passthrough):
    rows, failed = [], []
    scripts = sorted(glob.glob(os.path.join(HERE, "compare_*.py")))
    for script in scripts:
        name = os.path.basename(script)[len("compare_"):-3]
        if names and name not in names:
            continue
        print(f"== {os.path.relpath(script)}", flush=True)
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            result = subprocess.run([sys.executable, script, "--json", out.name, *passthrough])
            if result.returncode != 0:
                failed.append(name)
                continue
            rows += json.load(open(out.name))
        print(flush=True)
    return rows, failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--markdown", help="write the table as Markdown to this file")
    parser.add_argument("--json", help="write every script's rows, merged, to this file")
    parser.add_argument("--only", default="", help="comma-separated script names (readers,ecg,hrv,…)")
    parser.add_argument("--rows", nargs="*", default=[],
                        help="tabulate these row files instead of running the scripts")
    parser.add_argument("passthrough", nargs="*", help="arguments for every script (after --)")
    args = parser.parse_args()

    if args.rows:
        rows, failed = [row for path in args.rows for row in json.load(open(path))], []
    else:
        rows, failed = run_scripts({n for n in args.only.split(",") if n}, args.passthrough)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)

    header, lines = table(rows)
    stamp = f"{machine()}, {datetime.date.today().isoformat()}"
    widths = [max(len(str(c)) for c in column) for column in zip(header, *lines)]
    print(f"Vitals against its fastest peer per stage ({stamp}):")
    for line in [header, *lines]:
        print("  ".join(str(c).ljust(w) for c, w in zip(line, widths)).rstrip())
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(f"Measured on {stamp} (`make compare`):\n\n")
            f.write("| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n")
            for line in lines:
                f.write("| " + " | ".join(str(c).replace("|", "\\|") for c in line) + " |\n")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
