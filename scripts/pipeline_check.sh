#!/bin/sh
# The pipeline's numbers (issue 8), measured in one session with the release binary:
#  1. `vitals analyze` on the MIT-BIH records of ../shared/data/mitdb with --jobs 1 and --jobs 2
#     (best of two runs each): throughput in samples/s and the ratio (target ≥ 1.8).
#  2. Peak resident memory of `vitals analyze` on one 24-hour, 3-channel, 500 Hz WFDB record
#     (a synthetic ECG with beats, a PPG wave and an accelerometer axis; 130 M samples) under
#     /usr/bin/time -v (target ≤ 128 MB).
#  3. `vitals stream` latency: a 60-s simulated ECG fed through a pipe at real-time pace in 20-ms
#     blocks; each beat line's arrival time minus the time its R-peak sample was written (target ≤ 1 s).
#  4. `vitals stream` resident memory over a 24-hour, 1 kHz Float32 stream fed as fast as it is read.
# Usage: scripts/pipeline_check.sh [SCRATCH_DIR]   (MITDB=dir to point at other records)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${1:-$(mktemp -d)}
mitdb=${MITDB:-$root/../shared/data/mitdb}
cd "$root"
swift build -c release --product vitals > /dev/null
vitals=$root/.build/release/vitals
failed=0

echo "== 1. vitals analyze throughput, $(ls "$mitdb"/*.hea | wc -l) records of $mitdb"
samples=$("$vitals" analyze "$mitdb" --jobs 1 | python3 -c '
import json, sys
print(sum(r["samples"] * len(r["signals"]) for r in map(json.loads, sys.stdin)))')
best() {
  b=999999
  for run in 1 2; do
    start=$(date +%s.%N)
    "$vitals" analyze "$mitdb" --jobs "$1" > /dev/null
    end=$(date +%s.%N)
    b=$(python3 -c "print(min($b, $end - $start))")
  done
  echo "$b"
}
one=$(best 1)
two=$(best 2)
python3 - "$samples" "$one" "$two" <<'PY' || failed=1
import sys
samples, one, two = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
print(f"jobs 1: {one:.2f} s, {samples / one / 1e6:.1f} M samples/s")
print(f"jobs 2: {two:.2f} s, {samples / two / 1e6:.1f} M samples/s")
print(f"speed-up {one / two:.2f}x (target >= 1.8x)")
sys.exit(0 if one / two >= 1.8 else 1)
PY

echo "== 2. vitals analyze peak memory, 24 h x 3 channels x 500 Hz (WFDB, in $scratch)"
python3 - "$scratch" <<'PY'
import os, sys
import numpy as np
out = sys.argv[1]
fs, seconds = 500, 24 * 3600
rng = np.random.default_rng(8)
with open(os.path.join(out, "day.hea"), "w") as f:
    f.write(f"day 3 {fs} {fs * seconds}\n")
    f.write("day.dat 16 1000/mV 16 0 0 0 0 MLII\n")
    f.write("day.dat 16 1000/adu 16 0 0 0 0 PLETH\n")
    f.write("day.dat 16 1000/g 16 0 0 0 0 acc_x\n")
beat = 0.4  # seconds of the next R peak
with open(os.path.join(out, "day.dat"), "wb") as f:
    for hour in range(24):
        t = hour * 3600 + np.arange(3600 * fs) / fs
        ecg = 0.05 * rng.standard_normal(t.size) + 0.1 * np.sin(2 * np.pi * 0.3 * t)
        peaks = []
        while beat < (hour + 1) * 3600:
            peaks.append(beat)
            beat += 0.85 + 0.05 * np.sin(2 * np.pi * 0.1 * beat) + 0.02 * rng.standard_normal()
        for p in peaks:
            k = int(round((p - hour * 3600) * fs))
            lo, hi = max(0, k - 25), min(t.size, k + 26)
            ecg[lo:hi] += 1.2 * np.exp(-((np.arange(lo, hi) - k) / fs) ** 2 / (2 * 0.012 ** 2))
        ppg = np.sin(2 * np.pi * 1.2 * t)
        acc = 1 + 0.01 * rng.standard_normal(t.size)
        frames = np.column_stack([ecg, ppg, acc]) * 1000
        f.write(np.clip(np.round(frames), -32768, 32767).astype("<i2").tobytes())
PY
ls -l "$scratch"/day.*
/usr/bin/time -v "$vitals" analyze "$scratch/day" > "$scratch/day.json" 2> "$scratch/day.time" || failed=1
grep -E "Maximum resident set size|Elapsed \(wall clock\)|Exit status" "$scratch/day.time"
python3 - "$scratch/day.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
e = r["ecg"]
skipped = [n["kind"] for n in r["not_analysed"]]
print(f"beats {e['beats']}, mean HR {e['heart_rate_bpm']['mean']:.1f} bpm, processing {r['processing_s']:.1f} s, "
      f"{r['samples_per_s'] / 1e6:.1f} M samples/s; recognised but not analysed: {skipped}")
PY
peak=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$scratch/day.time")
if [ "${peak:-999999}" -gt 131072 ]; then echo "peak $peak KB exceeds 128 MB"; failed=1; fi
rm -f "$scratch"/day.dat

echo "== 3. vitals stream latency, real-time pace"
"$vitals" simulate --signal ecg --duration 60 --rate 250 --seed 5 -o "$scratch/live.csv" > /dev/null
python3 - "$vitals" "$scratch/live.csv" <<'PY' || failed=1
import subprocess, sys, threading, time, json
vitals, path = sys.argv[1], sys.argv[2]
rate = 250.0
values = [line.split(",")[1] for line in open(path).read().splitlines()[1:]]
process = subprocess.Popen([vitals, "stream", "--rate", str(rate)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
sent = {}  # sample index -> wall time it was written
arrivals = []
def reader():
    for line in process.stdout:
        arrivals.append((time.monotonic(), json.loads(line)))
thread = threading.Thread(target=reader)
thread.start()
block = int(rate * 0.02)
start = time.monotonic()
for first in range(0, len(values), block):
    target = start + first / rate
    delay = target - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    chunk = values[first:first + block]
    process.stdin.write(("\n".join(chunk) + "\n").encode())
    process.stdin.flush()
    now = time.monotonic()
    for k in range(first, first + len(chunk)):
        sent[k] = now
process.stdin.close()
thread.join()
process.wait()
beats = [(t - sent[e["sample"]]) for t, e in arrivals if e["type"] == "beat"]
rates = [(t - sent[e["sample"]]) for t, e in arrivals if e["type"] == "heart_rate"]
beats.sort()
rates.sort()
print(f"{len(beats)} beats: latency median {beats[len(beats) // 2]:.3f} s, max {beats[-1]:.3f} s (target <= 1 s)")
print(f"{len(rates)} heart-rate readings: latency median {rates[len(rates) // 2]:.3f} s, max {rates[-1]:.3f} s")
sys.exit(0 if beats[-1] <= 1 and rates[-1] <= 1 else 1)
PY

echo "== 4. vitals stream memory, 24 h at 1 kHz (Float32 frames, as fast as read)"
python3 - <<'PY' | /usr/bin/time -v "$vitals" stream --rate 1000 --format f32 > "$scratch/stream.jsonl" 2> "$scratch/stream.time" || failed=1
import sys
import numpy as np
fs = 1000
rng = np.random.default_rng(9)
out = sys.stdout.buffer
beat = 0.4
for minute in range(24 * 60):
    t = minute * 60 + np.arange(60 * fs) / fs
    x = 0.05 * rng.standard_normal(t.size)
    while beat < (minute + 1) * 60:
        k = int(round((beat - minute * 60) * fs))
        lo, hi = max(0, k - 40), min(t.size, k + 41)
        x[lo:hi] += 1.2 * np.exp(-((np.arange(lo, hi) - k) / fs) ** 2 / (2 * 0.012 ** 2))
        beat += 0.8 + 0.04 * np.sin(2 * np.pi * 0.1 * beat)
    out.write(x.astype("<f4").tobytes())
PY
grep -E "Maximum resident set size|Elapsed \(wall clock\)|Exit status" "$scratch/stream.time"
echo "$(grep -c '"type":"beat"' "$scratch/stream.jsonl") beats, $(grep -c '"type":"heart_rate"' "$scratch/stream.jsonl") heart-rate readings streamed"
exit "$failed"
