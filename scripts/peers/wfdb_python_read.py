"""Peer measurement: wfdb-python's `rdrecord` on a generated format-212 record.

Writes a two-signal format-212 record of pseudo-random bytes (the MIT-BIH layout, like the
WFDBReading benchmark's) into a temporary directory, reads it with `wfdb.rdrecord` (physical
values, as Vitals yields them) several times from a warm page cache, and prints the best time as
MB/s of .dat. Usage: python3 scripts/peers/wfdb_python_read.py [MEGABYTES] (default 30; pinned wfdb
in Fixtures/generate/requirements.txt).
"""

import os
import sys
import tempfile
import time

import numpy as np
import wfdb


def main():
    megabytes = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
    frames = int(megabytes * 1e6) // 3
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as directory:
        with open(os.path.join(directory, "gen.dat"), "wb") as f:
            f.write(rng.integers(0, 256, 3 * frames, dtype=np.uint8).tobytes())
        with open(os.path.join(directory, "gen.hea"), "w") as f:
            f.write(
                f"gen 2 360 {frames}\ngen.dat 212 200 11 1024 0 0 0 MLII\n"
                "gen.dat 212 200 11 1024 0 0 0 V5\n"
            )
        record = os.path.join(directory, "gen")
        wfdb.rdrecord(record)  # warm the page cache and imports
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            wfdb.rdrecord(record)
            best = min(best, time.perf_counter() - start)
    print(f"wfdb {wfdb.__version__} rdrecord format 212 -> float64: {3 * frames / best / 1e6:.1f} MB/s "
          f"({3 * frames / 1e6:.1f} MB, best of 5)")


if __name__ == "__main__":
    main()
