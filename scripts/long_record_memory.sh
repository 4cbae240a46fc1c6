#!/bin/sh
# Peak resident memory of reading a 24-hour, 3-channel, 500 Hz record (129.6 M samples) in chunks:
# generates it as EDF (259 MB) and as CSV (about 1 GB) in a scratch directory, then runs
# `vitals convert` on each (every sample read, converted and written) under /usr/bin/time -v.
# The limit is 64 MB of peak resident memory. Usage: scripts/long_record_memory.sh [SCRATCH_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${1:-$(mktemp -d)}
cd "$root"
swift build -c release --product vitals
python3 - "$scratch" <<'PY'
import os, sys
import numpy as np
out = sys.argv[1]
fs, hours, ns = 500, 24, 3
records = hours * 3600
def field(t, w): return t.encode().ljust(w)
head = b"0       " + field("X X X X", 80) + field("Startdate X X X X", 80) + field("01.01.20", 8) + field("00.00.00", 8)
head += field(str(256 * (ns + 1)), 8) + field("", 44) + field(str(records), 8) + field("1", 8) + field(str(ns), 4)
for width, values in [(16, ["ECG", "PPG", "ACC"]), (80, [""] * 3), (8, ["uV", "au", "mg"]), (8, ["-3276.8"] * 3),
                      (8, ["3276.7"] * 3), (8, ["-32768"] * 3), (8, ["32767"] * 3), (80, [""] * 3), (8, [str(fs)] * 3),
                      (32, [""] * 3)]:
    head += b"".join(field(v, width) for v in values)
rng = np.random.default_rng(1)
with open(os.path.join(out, "day.edf"), "wb") as f:
    f.write(head)
    for block in range(0, records, 3600):
        f.write(rng.integers(-32768, 32768, size=3600 * ns * fs, dtype=np.int16).astype("<i2").tobytes())
with open(os.path.join(out, "day.csv"), "w") as f:
    f.write("time_s,ecg,ppg,acc\n")
    for block in range(0, records, 600):
        n = 600 * fs
        t = (block * fs + np.arange(n)) / fs
        v = rng.integers(-30000, 30000, size=(n, 3)) / 10
        np.savetxt(f, np.column_stack([t, v]), fmt=["%.3f", "%.1f", "%.1f", "%.1f"], delimiter=",")
PY
ls -l "$scratch"
for file in day.edf day.csv; do
  echo "== vitals convert $file"
  /usr/bin/time -v .build/release/vitals convert "$scratch/$file" -o - > /dev/null 2> "$scratch/$file.time" || true
  grep -E "Maximum resident set size|Elapsed \(wall clock\)|Exit status" "$scratch/$file.time"
  peak=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$scratch/$file.time")
  if [ "${peak:-999999}" -gt 65536 ]; then echo "$file: peak $peak KB exceeds 64 MB"; failed=1; fi
done
exit "${failed:-0}"
