#!/usr/bin/env python3
"""Vitals' statistics aggregator and Apple Health export reader against pandas and ElementTree, on the
same generated inputs, in the same run.

(a) Aggregation: N samples (default 20 M; one a second with up to 0.54 s of jitter, 1 s long,
    values 50–177) as columns. Vitals (`stats-eval aggregate`, release, one core, timed in process,
    best of 3) aggregates them into fixed hours and calendar days in America/New_York, as a discrete
    type (mean of the samples starting in the interval) and as a cumulative one (sum; a sample
    spanning a boundary shared by overlap). pandas groups the same samples by start
    (`DataFrame.resample("h"/"D", on="start")`, the days on tz-aware times in the same zone) and
    takes mean and sum, each timed alone, best of --repeat. Both sides compute the same statistics:
    pandas' mean keeps a count and a sum per group, its sum a sum; Vitals keeps only the statistic
    asked for (`IntervalAccumulator(..., options: [.discreteAverage])` or `[.cumulativeSum]`: a
    count and a sum per interval, as a user asking HealthKit for one statistic), not the minima,
    maxima, durations and most recent samples it keeps by default; it does more work than pandas
    for the sums (boundary-spanning samples split by overlap). Accuracy: the largest relative
    difference of the means (the same definition, expected ~1e-15) and of the sums (pandas puts a
    boundary-spanning sample wholly in its start interval; about one sample in 7200 spans an hour).
(b) export.xml: a generated Apple-shaped export (--export-mb MB: step and heart-rate records with
    metadata, workouts, activity summaries). Vitals reads it with HealthExportReader
    (`stats-eval export`, records to QuantitySamples with dates and values parsed); Python with
    xml.etree.ElementTree.iterparse, converting each Record's value to float and its dates with
    datetime.strptime, clearing elements as it goes. Accuracy: the record counts must agree.

Timing: the peers in CPU seconds of this process (scripts/peers/timing.py), best of --repeat; Vitals
by stats-eval, best of 3 of its thread's CPU time around the same work (columns in memory for (a), the
file read and parsed for (b)).

Prints a table with throughputs and ratios; --json FILE writes the rows of the peer-comparison
protocol (stage, tool, dataset, work, seconds, throughput, throughput_unit, accuracy).

Usage (pinned packages: Fixtures/generate/requirements.txt; `make compare-stats` builds stats-eval
and sets them up):
    python scripts/peers/compare_aggregation.py [--samples 20000000] [--export-mb 100] [--repeat 3]
        [--stats-eval scripts/eval/.build/release/stats-eval] [--json FILE]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from datetime import datetime

import numpy as np

import timing

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ZONE = "America/New_York"
ORIGIN = 1_704_067_200_000_000_000  # 2024-01-01T00:00:00Z in ns


def samples(n):
    rng = np.random.default_rng(20240101)
    starts = ORIGIN + np.arange(n, dtype=np.int64) * 1_000_000_000 + rng.integers(0, 540_000_000, n)
    ends = starts + 1_000_000_000
    values = rng.integers(50, 178, n).astype(np.float64)
    return starts, ends, values


def write_columns(path, starts, ends, values):
    with open(path, "wb") as f:
        f.write(np.int64(len(starts)).tobytes())
        f.write(starts.astype("<i8").tobytes())
        f.write(ends.astype("<i8").tobytes())
        f.write(values.astype("<f8").tobytes())


def write_export(path, megabytes):
    watch = ('sourceName="Anna’s Apple Watch" sourceVersion="10.3" device="&lt;&lt;HKDevice: 0x2830c9a90&gt;, '
             'name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3&gt;"')
    phone = ('sourceName="Anna’s iPhone" sourceVersion="17.3.1" device="&lt;&lt;HKDevice: 0x2830c9b30&gt;, '
             'name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.3.1&gt;"')

    def date(minute, second):
        day = 1 + minute // 1440
        return f"2024-03-{day % 28 + 1:02d} {minute // 60 % 24:02d}:{minute % 60:02d}:{second:02d} -0500"

    records = 0
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n'
                '<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>\n'
                '<!ATTLIST Record\n  type CDATA #REQUIRED\n  value CDATA #IMPLIED\n>\n]>\n'
                '<HealthData locale="en_US">\n <ExportDate value="2024-04-01 09:00:00 -0400"/>\n')
        minute = 0
        while f.tell() < megabytes * 1e6:
            block = []
            for k in range(200):
                m = minute + k
                source = watch if k % 2 == 0 else phone
                block.append(f' <Record type="HKQuantityTypeIdentifierStepCount" {source} unit="count" '
                             f'creationDate="{date(m, 59)}" startDate="{date(m, 0)}" endDate="{date(m, 58)}" '
                             f'value="{40 + k % 70}"/>\n')
                records += 1
                if k % 3 == 0:
                    block.append(f' <Record type="HKQuantityTypeIdentifierHeartRate" {watch} unit="count/min" '
                                 f'creationDate="{date(m, 30)}" startDate="{date(m, 30)}" endDate="{date(m, 30)}" '
                                 f'value="{60 + k % 50}">\n'
                                 '  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>\n </Record>\n')
                    records += 1
            block.append(f' <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="20" '
                         f'durationUnit="min" {watch} startDate="{date(minute, 0)}" endDate="{date(minute + 20, 0)}">\n'
                         f'  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="{date(minute, 0)}" duration="10"/>\n'
                         ' </Workout>\n <ActivitySummary dateComponents="2024-03-10" activeEnergyBurned="412.5" '
                         'activeEnergyBurnedUnit="Cal"/>\n')
            f.write("".join(block))
            minute += 200
        f.write("</HealthData>\n")
    return records


def iterparse_export(path):
    count = 0
    form = "%Y-%m-%d %H:%M:%S %z"
    for _, element in ET.iterparse(path, events=("end",)):
        if element.tag == "Record":
            a = element.attrib
            float(a["value"])
            datetime.strptime(a["startDate"], form)
            datetime.strptime(a["endDate"], form)
            count += 1
        if element.tag in ("Record", "Workout", "ActivitySummary"):
            element.clear()
    return count


def relative_difference(ours, theirs):
    ours = np.asarray(ours, dtype=float)
    theirs = np.asarray(theirs, dtype=float)
    mask = ~(np.isnan(ours) & np.isnan(theirs))
    scale = np.maximum(np.abs(theirs[mask]), 1e-300)
    return float(np.max(np.abs(ours[mask] - theirs[mask]) / scale))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=20_000_000)
    parser.add_argument("--export-mb", type=float, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--stats-eval", default=os.path.join(ROOT, "scripts", "eval", ".build", "release", "stats-eval"))
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    import pandas as pd

    rows = []

    def row(stage, tool, dataset, work, seconds, amount, unit, accuracy):
        rows.append({"stage": stage, "tool": tool, "dataset": dataset, "work": work, "seconds": seconds,
                     "throughput": amount / seconds, "throughput_unit": unit, "accuracy": accuracy})

    with tempfile.TemporaryDirectory() as scratch:
        # (a) aggregation
        starts, ends, values = samples(args.samples)
        columns = os.path.join(scratch, "samples.bin")
        write_columns(columns, starts, ends, values)
        out = subprocess.run([args.stats_eval, "aggregate", columns, ZONE], check=True, capture_output=True).stdout
        ours = json.loads(out)
        frame = pd.DataFrame({"start": pd.to_datetime(starts, utc=True), "value": values})
        local = pd.DataFrame({"start": frame["start"].dt.tz_convert(ZONE), "value": values})
        dataset = f"{args.samples / 1e6:g} M samples, 1/s"
        print(f"{'aggregation':<28} {'pandas M/s':>11} {'vitals M/s':>11} {'ratio':>7}  {'max rel. diff':>13}")
        for name, rule, data in (("hourly", "h", frame), ("daily", "D", local)):
            for statistic in ("mean", "sum"):
                key = f"{name}_{statistic}"
                seconds, theirs = timing.best_of(args.repeat, lambda: getattr(data.resample(rule, on="start")["value"], statistic)())
                index = theirs.index.tz_convert("UTC").as_unit("ns").asi8
                ours_by_start = dict(zip(ours[key + "_starts"], ours[key]))
                ours_aligned = [ours_by_start.get(int(t), float("nan")) for t in index]
                theirs_values = theirs.to_numpy(dtype=float)
                if statistic == "sum":  # pandas writes 0 for an empty interval, Vitals none
                    ours_aligned = [0.0 if np.isnan(v) else v for v in ours_aligned]
                difference = relative_difference(ours_aligned, theirs_values)
                work = f"{name} {statistic}"
                row("aggregation", f"pandas {pd.__version__}", dataset, work, seconds, args.samples / 1e6, "M samples/s", {})
                row("aggregation", "vitals", dataset, work, ours[key + "_seconds"], args.samples / 1e6, "M samples/s",
                    {"max_relative_difference_vs_pandas": difference})
                peer_rate = args.samples / 1e6 / seconds
                our_rate = args.samples / 1e6 / ours[key + "_seconds"]
                print(f"{work:<28} {peer_rate:>11.1f} {our_rate:>11.1f} {our_rate / peer_rate:>6.1f}x  {difference:>13.2e}")
        del frame, local, starts, ends, values

        # (b) export.xml
        export = os.path.join(scratch, "export.xml")
        records = write_export(export, args.export_mb)
        megabytes = os.path.getsize(export) / 1e6
        out = subprocess.run([args.stats_eval, "export", export], check=True, capture_output=True).stdout
        ours = json.loads(out)
        seconds, counted = timing.best_of(args.repeat, lambda: iterparse_export(export))
        dataset = f"export.xml {megabytes:.0f} MB, {records} records"
        row("export", f"ElementTree.iterparse (Python {sys.version.split()[0]})", dataset, "records to values and dates",
            seconds, megabytes, "MB/s", {"records": float(counted)})
        row("export", "vitals", dataset, "records to QuantitySamples", ours["seconds"], megabytes, "MB/s",
            {"records": float(ours["records"])})
        peer_rate = megabytes / seconds
        our_rate = megabytes / ours["seconds"]
        print(f"\n{'export.xml':<28} {'iterparse MB/s':>14} {'vitals MB/s':>11} {'ratio':>7}  records")
        print(f"{dataset:<28} {peer_rate:>14.1f} {our_rate:>11.1f} {our_rate / peer_rate:>6.1f}x  "
              f"{counted} / {ours['records']}")
        if counted != ours["records"] or counted != records:
            print("record counts differ", file=sys.stderr)
            return 1

    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
