"""Benchmarks of the Python package: call overhead, R-peak detection against NeuroKit2, Dask scaling
and merging statistics partials. Prints a markdown table; --json FILE also writes the results.

    VITALS_LIBRARY=.build/release/libVitalsC.so python python/benchmarks/bench.py --json bench.json

Sections (each skipped with a note when its data or packages are missing):

(a) µs per call over --calls calls: a raw ctypes call (``vitals_abi_version``), the wrapper's own
    work for ``ecg_peaks`` (its library function replaced by a no-op), and whole small calls
    (``ecg_peaks`` of 16 samples, ``hrv`` of 3 beats) beside the raw library calls.
(b) ``ecg_peaks`` on a 30-minute MIT-BIH record in memory (M samples/s, best of 5) against every
    NeuroKit2 detector on the same array (best of 3): ``ecg_clean`` + ``ecg_peaks`` and ``ecg_peaks``
    alone on the cleaned signal ("promac", which runs all of them, is left out).
(c) ``vitals.dask.analyze`` over the MIT-BIH records on a LocalCluster of 1 and of 2 worker
    processes (one thread each); with --long DIR, also over the recordings in DIR. Each cluster is
    warmed by one untimed call; the best of --repeat calls, alternating between the clusters, is
    reported, and the results of 1 and 2 workers must be equal. Measured twice: with Dask's default
    settings, and with both clusters started under ``vitals.dask.QUIET_CONFIG``.
(d) 1000 statistics partials (one per synthetic samples file of one hour of heart rate) merged
    with ``merge_partials`` as a tree (8 per merge) and in one call, against ``stats_partial``
    aggregating the same 1000 files in one call (merges: the best of 5).
"""

from __future__ import annotations

import argparse
import ctypes
import datetime
import json
import os
import pathlib
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import vitals
from vitals import _native

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("VITALS_SHARED_DATA", REPOSITORY.parent / "shared" / "data"))
NEUROKIT_METHODS = (
    "neurokit", "pantompkins1985", "hamilton2002", "elgendi2010", "engzeemod2012", "kalidas2017", "rodrigues2021",
)
RECORDING_SUFFIXES = {".hea", ".edf", ".bdf", ".csv", ".tsv"}  # one per recording (not a WFDB .dat)
CLEANING = {"pantompkins1985", "hamilton2002", "elgendi2010", "engzeemod2012"}  # ecg_clean has these methods


def seconds(work: Callable[[], Any], repeat: int = 1) -> float:
    """The best wall time of `repeat` runs of `work`, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def per_call_us(work: Callable[[], Any], calls: int, blocks: int = 5) -> float:
    """µs per call of `work`: the best of `blocks` blocks of `calls` / `blocks` calls (the least
    disturbed by other work on the machine)."""
    size = max(1, calls // blocks)

    def block() -> None:  # each result dropped at once, as a caller's loop would (not kept in a list)
        for _ in range(size):
            work()

    return seconds(block, repeat=blocks) / size * 1e6


def raw_hrv(peaks: np.ndarray) -> Callable[[], None]:
    """``vitals_hrv`` through ctypes alone (no conversion, JSON decoding or DataFrame)."""
    result, error = ctypes.c_void_p(), ctypes.c_void_p()
    address = peaks.ctypes.data

    def call() -> None:
        _native.lib.vitals_hrv(address, len(peaks), 250.0, None, ctypes.byref(result), ctypes.byref(error))
        _native.lib.vitals_free(result)

    return call


def raw_peaks(signal: np.ndarray, rate: float) -> Callable[[], None]:
    """``vitals_ecg_peaks`` on one thread through ctypes alone: the library's own rate, without the
    wrapper."""
    address = signal.ctypes.data
    peaks, error, count = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_int64()

    def call() -> None:
        _native.lib.vitals_ecg_peaks(
            address, len(signal), rate, 1, ctypes.byref(peaks), ctypes.byref(count), ctypes.byref(error)
        )
        _native.lib.vitals_free(peaks)

    return call


def wrapper_only_us(work: Callable[[], Any], function: str, calls: int) -> float:
    """µs per call of `work` with the library function `function` replaced by a Python no-op that
    returns success: the wrapper's own work (argument checks and conversion, pointer arrays,
    out-parameters, the status check, result arrays), without the foreign call."""
    original = getattr(_native.lib, function)
    setattr(_native.lib, function, lambda *arguments: 0)
    try:
        return per_call_us(work, calls)
    finally:
        setattr(_native.lib, function, original)


def call_overhead(calls: int) -> list[tuple[str, float, str]]:
    """µs per call: a ctypes call, the wrappers' own work, and whole calls that do little work."""
    peaks = np.array([100, 300, 500], dtype=np.int64)
    tiny = np.zeros(16, dtype=np.float32)
    crossing = per_call_us(_native.lib.vitals_abi_version, calls)
    own = wrapper_only_us(lambda: vitals.ecg_peaks(tiny, 250), "vitals_ecg_peaks", calls)
    whole = per_call_us(lambda: vitals.ecg_peaks(tiny, 250), calls)
    raw = per_call_us(raw_peaks(tiny, 250.0), calls)
    return [
        ("raw ctypes call (vitals_abi_version)", crossing, "µs/call"),
        ("vitals.ecg_peaks's own work (library function a no-op)", own, "µs/call"),
        ("call overhead of vitals.ecg_peaks (own work + one ctypes call)", own + crossing, "µs/call"),
        ("vitals.version()", per_call_us(vitals.version, calls), "µs/call"),
        ("raw ctypes vitals_ecg_peaks, 16 samples (library work)", raw, "µs/call"),
        ("vitals.ecg_peaks, 16 samples", whole, "µs/call"),
        ("vitals.ecg_peaks − raw vitals_ecg_peaks, 16 samples", whole - raw, "µs/call"),
        ("raw ctypes vitals_hrv, 3 beats (library work)", per_call_us(raw_hrv(peaks), calls), "µs/call"),
        ("vitals.hrv, 3 beats (a one-row pandas DataFrame)", per_call_us(lambda: vitals.hrv(peaks, 250), calls), "µs/call"),
    ]


def mitdb_records() -> list[pathlib.Path]:
    return [SHARED / "mitdb" / path.stem for path in sorted((SHARED / "mitdb").glob("*.hea"))]


def detection(record: pathlib.Path) -> list[tuple[str, float, str]]:
    recording = vitals.read(record, channel="MLII")
    signal = recording.signals["MLII"]
    rate = recording.sampling_rate
    best = seconds(lambda: vitals.ecg_peaks(signal, rate), repeat=5)
    library = seconds(raw_peaks(signal, rate), repeat=5)
    rows = [
        (f"vitals.ecg_peaks, {record.name} ({len(signal)} samples)", len(signal) / best / 1e6, "M samples/s"),
        (f"raw ctypes vitals_ecg_peaks, {record.name}", len(signal) / library / 1e6, "M samples/s"),
        ("vitals.ecg_peaks rate / raw library rate", library / best, "×"),
    ]
    try:
        import neurokit2 as nk
    except ImportError:
        return rows + [("neurokit2", float("nan"), "not installed")]
    signal64 = signal.astype(np.float64)
    fastest = {"clean+peaks": (float("inf"), ""), "peaks": (float("inf"), "")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for method in NEUROKIT_METHODS:
            cleaning = method if method in CLEANING else "neurokit"
            try:
                cleaned = nk.ecg_clean(signal64, sampling_rate=int(rate), method=cleaning)
                both = seconds(lambda: nk.ecg_peaks(nk.ecg_clean(signal64, sampling_rate=int(rate), method=cleaning),
                                                    sampling_rate=int(rate), method=method), repeat=3)
                alone = seconds(lambda: nk.ecg_peaks(cleaned, sampling_rate=int(rate), method=method), repeat=3)
            except Exception as error:  # a method that fails on this record is reported, not fatal
                rows.append((f"neurokit2 {method}", float("nan"), f"failed: {error}"))
                continue
            rows.append((f"neurokit2 {method}: ecg_clean + ecg_peaks", len(signal) / both / 1e6, "M samples/s"))
            rows.append((f"neurokit2 {method}: ecg_peaks alone", len(signal) / alone / 1e6, "M samples/s"))
            fastest["clean+peaks"] = min(fastest["clean+peaks"], (both, method))
            fastest["peaks"] = min(fastest["peaks"], (alone, method))
    for kind, (elapsed, method) in fastest.items():
        if method:
            rows.append((f"fastest neurokit2 {kind} ({method}) time / vitals time", elapsed / best, "×"))
    return rows


def forgotten(client: Any) -> None:
    """Waits until the scheduler holds no task: the released results of a timed call are gone, so the
    next call (whose tasks have the same keys) computes them again."""
    while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
        time.sleep(0.01)


def dask_scaling(label: str, paths: list[str], repeat: int, quiet: bool) -> list[tuple[str, float, str]]:
    """The best wall times of `repeat` ``vitals.dask.analyze`` calls on a cluster of 1 and one of 2
    worker processes, both started under ``vitals.dask.QUIET_CONFIG`` when `quiet` (else Dask's
    defaults), the calls alternating between them (so that the machine's slower and faster
    moments fall on both). Each cluster is first warmed by one untimed call (workers import the
    package and load the library; the recordings enter the page cache), whose results are compared.
    Between them, ``vitals.analyze`` with 1 and 2 threads in this process: the speed-up this machine
    gives without Dask, the ceiling for the clusters'."""
    import contextlib

    import dask
    import distributed
    import pandas.testing

    import vitals.dask

    settings = "vitals.dask.QUIET_CONFIG" if quiet else "Dask's defaults"
    with contextlib.ExitStack() as stack:
        stack.enter_context(dask.config.set(vitals.dask.QUIET_CONFIG if quiet else {}))
        clients = {}
        for workers in (1, 2):  # the two schedulers' HTTP servers on any free ports (":0")
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=workers, processes=True, threads_per_worker=1, dashboard_address=":0", silence_logs=40
                )
            )
            clients[workers] = stack.enter_context(distributed.Client(cluster))
        results = {workers: vitals.dask.analyze(paths, client) for workers, client in clients.items()}
        times = {workers: float("inf") for workers in clients}
        threads = {jobs: float("inf") for jobs in (1, 2)}
        for _ in range(repeat):
            for workers, client in clients.items():
                forgotten(client)
                times[workers] = min(times[workers], seconds(lambda: vitals.dask.analyze(paths, client)))
                threaded = seconds(lambda: vitals.analyze(paths, jobs=workers))
                threads[workers] = min(threads[workers], threaded)
    measured = list(vitals.TIMING_FIELDS)
    pandas.testing.assert_frame_equal(results[1].drop(columns=measured), results[2].drop(columns=measured))
    return [
        (f"vitals.dask.analyze, {label}, {settings}, 1 worker", times[1], "s"),
        (f"vitals.dask.analyze, {label}, {settings}, 2 workers", times[2], "s"),
        (f"vitals.dask.analyze, {label}, {settings}, speed-up 1 → 2 workers (results equal)", times[1] / times[2], "×"),
        (f"vitals.analyze without Dask (beside {settings}), {label}, speed-up 1 → 2 threads", threads[1] / threads[2], "×"),
    ]


def write_samples_files(directory: pathlib.Path, count: int, minutes: int) -> list[pathlib.Path]:
    """`count` samples files of `minutes` of per-minute heart rate each, one after the other."""
    rng = np.random.default_rng(1)
    start = datetime.datetime(2024, 3, 10, tzinfo=datetime.timezone.utc)
    files = []
    for index in range(count):
        lines = []
        for minute in range(minutes):
            begin = start + datetime.timedelta(minutes=index * minutes + minute)
            sample = {
                "type": "heartRate",
                "start": begin.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "end": (begin + datetime.timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "value": float(rng.normal(70, 8)),
                "unit": "count/min",
                "source": "Vitals",
                "device": f"recording-{index}",
            }
            lines.append(json.dumps(sample, separators=(",", ":")))
        files.append(directory / f"recording-{index}.samples.jsonl")
        files[-1].write_text("\n".join(lines) + "\n")
    return files


def tree_merge(partials: list[bytes], split_every: int = 8) -> bytes:
    while len(partials) > 1:
        partials = [vitals.merge_partials(partials[i : i + split_every]) for i in range(0, len(partials), split_every)]
    return partials[0]


def merging(count: int, minutes: int) -> list[tuple[str, float, str]]:
    query = {"timezone": "UTC", "option": "discreteAverage"}
    with tempfile.TemporaryDirectory(prefix="vitals-bench-") as directory:
        files = write_samples_files(pathlib.Path(directory), count, minutes)
        partials = [vitals.stats_partial(file, "heartRate", "day", **query) for file in files]
        one_call = seconds(lambda: vitals.stats_partial(files, "heartRate", "day", **query))
        whole = vitals.stats_table(vitals.stats_partial(files, "heartRate", "day", **query))
    tree = seconds(lambda: tree_merge(partials), repeat=5)
    flat = seconds(lambda: vitals.merge_partials(partials), repeat=5)
    merged = vitals.stats_table(tree_merge(partials))
    assert merged["count"].tolist() == whole["count"].tolist()
    assert np.allclose(merged["value"], whole["value"], rtol=1e-12, atol=0)  # averages to rounding
    return [
        (f"stats_partial of {count} samples files ({count * minutes} samples) in one call", one_call, "s"),
        (f"merge_partials of {count} partials, tree of 8", tree, "s"),
        (f"merge_partials of {count} partials, one call", flat, "s"),
        ("tree merge / one stats_partial", tree / one_call, "×"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=100_000, help="calls timed for the overhead (default 100000)")
    parser.add_argument("--record", help="the MIT-BIH record for (b) (default: the first in the shared data)")
    parser.add_argument("--long", type=pathlib.Path, help="a directory of 24-hour recordings for (c)")
    parser.add_argument("--partials", type=int, default=1000, help="partials merged in (d) (default 1000)")
    parser.add_argument(
        "--minutes", type=int, default=1440, help="per-minute samples in each partial's file in (d) (default: a day)"
    )
    parser.add_argument(
        "--repeat", type=int, default=5, help="timed calls per cluster in (c), the best reported (default 5)"
    )
    parser.add_argument("--skip", default="", help="sections to skip, e.g. 'c' or 'bc'")
    parser.add_argument("--json", type=pathlib.Path, help="also write the results as JSON to this file")
    arguments = parser.parse_args()

    info = vitals.build_info()
    print(f"vitals {info['version']} ({info['configuration']}, simd {info['simd']}), library {_native.library_path()}")
    sections: dict[str, list[tuple[str, float, str]]] = {}
    records = mitdb_records() if (SHARED / "mitdb").exists() else []
    if "a" not in arguments.skip:
        sections["a. call overhead"] = call_overhead(arguments.calls)
    if "b" not in arguments.skip and records:
        record = SHARED / "mitdb" / arguments.record if arguments.record else records[0]
        sections["b. R-peak detection"] = detection(record)
    if "c" not in arguments.skip and records:
        batches = {f"{len(records)} MIT-BIH records": [str(path) for path in records]}
        if arguments.long:
            long = sorted(str(path) for path in arguments.long.iterdir() if path.suffix in RECORDING_SUFFIXES)
            batches[f"{len(long)} recordings of {arguments.long}"] = long
        sections["c. Dask scaling"] = [
            row
            for quiet in (False, True)
            for label, paths in batches.items()
            for row in dask_scaling(label, paths, arguments.repeat, quiet)
        ]
    if "d" not in arguments.skip:
        sections["d. merging partials"] = merging(arguments.partials, arguments.minutes)
    if not records:
        print(f"note: no MIT-BIH records under {SHARED / 'mitdb'}: sections b and c skipped", file=sys.stderr)

    print("\n| section | measurement | value | unit |\n|---|---|---:|---|")
    for section, rows in sections.items():
        for name, value, unit in rows:
            print(f"| {section} | {name} | {value:.4g} | {unit} |")
    if arguments.json:
        results = {
            "build": info,
            "sections": {
                section: [{"name": name, "value": value, "unit": unit} for name, value, unit in rows]
                for section, rows in sections.items()
            },
        }
        arguments.json.write_text(json.dumps(results, indent=2, allow_nan=True) + "\n")


if __name__ == "__main__":
    main()
