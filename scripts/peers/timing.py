"""Timing shared by the peer scripts: CPU time (user + system) of a child process or of a Python call.

On a shared machine wall clock mostly measures the other jobs; the CPU time a tool spends is the
steadier figure, and both sides of a comparison are timed the same way around the same work: Vitals
as a whole process (start-up, reading and writing included) from wait4's resource usage, the peer in
this process from `time.process_time` around a call that reads the same file and does the same
analysis (Python's start-up and imports left out, which favours the peer). Where the peer processes
many recordings in one Python process (compare_ecg.py, comparison 1 of compare_hrv.py), Vitals runs
once over all of them too (`vitals beats REC… --out-dir DIR`, `vitals hrv REC…`, `vitals hrv --beats
A --beats B …`), so each side starts once; its start-up is still counted, the peer's is not.
Input files are read once before any timing (`warm`), so that neither side pays for the disk: the
side that happened to run first would otherwise read them from the device.
"""
import os
import subprocess
import sys
import time


def run(arguments, capture=False):
    """Runs `arguments`; returns (wall seconds, CPU seconds of the child, its peak resident set size in
    MB, its standard output or None), from wait4's resource usage. Exits when the child fails."""
    start = time.perf_counter()
    child = subprocess.Popen(arguments, stdout=subprocess.PIPE if capture else subprocess.DEVNULL)
    output = child.stdout.read().decode() if capture else None
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(arguments)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, output


def process(arguments, capture=False):
    """Runs `arguments`; returns (CPU seconds of the child, its standard output or None)."""
    _, seconds, _, output = run(arguments, capture)
    return seconds, output


def call(body):
    """Calls `body()`; returns (CPU seconds of this process during the call, its result)."""
    start = time.process_time()
    result = body()
    return time.process_time() - start, result


def best_of(repeat, work, measure=call, warm_up=False):
    """The fewest CPU seconds of `repeat` measurements `measure(work)`, and the last one's result:
    `call` (the default) times a Python callable, `process` a command's arguments. With `warm_up`, one
    untimed run first (page cache, imports)."""
    if warm_up:
        measure(work)
    runs = [measure(work) for _ in range(repeat)]
    return min(seconds for seconds, _ in runs), runs[-1][1]


def warm(paths):
    """Reads every file of `paths` once, so that the timed reads come from the page cache."""
    for path in paths:
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass
