#!/bin/sh
# The pipeline's numbers (issue 8), measured in one session with the release binary:
#  1. `vitals analyze` with --jobs 1 and --jobs 2 (best of three alternating runs each) on the MIT-BIH
#     records of ../shared/data/mitdb, then on a batch of four simulated 24-hour ECGs
#     (scripts/bench/simulated_days.sh, kept in .build/simulated-days): throughput in samples/s, CPU time
#     and the ratio (target ≥ 1.8), and whether both give the same summaries (timing fields aside); then
#     on one of those recordings alone, which --jobs 2 analyses on two threads (no target: the report).
#  2. Peak resident memory of `vitals analyze` on one 24-hour, 3-channel, 500 Hz WFDB record
#     (a synthetic ECG with beats, a PPG wave and an accelerometer axis; 130 M samples) under
#     /usr/bin/time -v (target ≤ 128 MB).
#  3. `vitals stream` latency: a 60-s simulated ECG fed through a pipe at real-time pace in 20-ms
#     blocks; each beat line's arrival time minus the time its R-peak sample was written (target ≤ 1 s).
#  4. `vitals stream` resident memory over a 24-hour, 1 kHz Float32 stream fed as fast as it is read,
#     sampled from /proc as the hours go by (it must stay flat).
# Usage: scripts/pipeline_check.sh [SCRATCH_DIR]   (MITDB=dir to point at other records)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${1:-$(mktemp -d)}
mitdb=${MITDB:-$root/../shared/data/mitdb}
cd "$root"
[ -x .build/release/vitals ] || { echo "build the release binary first: make build" >&2; exit 2; }
vitals=$root/.build/release/vitals
failed=0

# throughput LABEL TARGET INPUT...: section 1 on the recordings INPUT..., failing below the speed-up TARGET
throughput() {
  label=$1
  target=$2
  shift 2
  echo "== 1. vitals analyze throughput, $label"
  "$vitals" analyze "$@" --jobs 1 2> /dev/null > "$scratch/one-job.jsonl"
  "$vitals" analyze "$@" --jobs 2 2> /dev/null > "$scratch/two-jobs.jsonl"
  # Runs alternate (1, 2, 1, 2, …) so both see the same machine; the best wall time of three counts.
  rm -f "$scratch/throughput.txt"
  for run in 1 2 3; do
    for jobs in 1 2; do
      /usr/bin/time -f "$jobs %e %U %S" -a -o "$scratch/throughput.txt" "$vitals" analyze "$@" --jobs "$jobs" \
        > /dev/null 2>&1
    done
  done
  python3 - "$scratch" "$target" <<'PY' || failed=1
import json, sys
scratch, target = sys.argv[1], float(sys.argv[2])
def summaries(name):
    rows = [json.loads(line) for line in open(f"{scratch}/{name}")]
    for row in rows:
        for field in ("processing_s", "samples_per_s"):
            row.pop(field, None)
    return sorted(json.dumps(row, sort_keys=True) for row in rows)
one = summaries("one-job.jsonl")
samples = sum(row["samples"] * len(row["signals"]) for row in map(json.loads, one))
runs = {1: [], 2: []}
for line in open(f"{scratch}/throughput.txt"):
    jobs, wall, user, system = line.split()
    runs[int(jobs)].append((float(wall), float(user) + float(system)))
best = {jobs: min(r) for jobs, r in runs.items()}
for jobs, (wall, cpu) in best.items():
    print(f"jobs {jobs}: {wall:.2f} s wall, {cpu:.2f} s CPU ({100 * cpu / wall:.0f} % of a core), "
          f"{samples / wall / 1e6:.1f} M samples/s")
ratio = best[1][0] / best[2][0]
same = one == summaries("two-jobs.jsonl")
print(f"speed-up {ratio:.2f}x (target >= {target}x); CPU time ratio {best[2][1] / best[1][1]:.2f} "
      f"(1.00: no overhead); summaries {'the same' if same else 'DIFFERENT'}")
sys.exit(0 if ratio >= target and same else 1)
PY
  rm -f "$scratch/throughput.txt" "$scratch/one-job.jsonl" "$scratch/two-jobs.jsonl"
}
throughput "$(ls "$mitdb"/*.hea | wc -l) records of $mitdb" 1.8 "$mitdb"
scripts/bench/simulated_days.sh "$vitals" .build/simulated-days 4
throughput "4 simulated 24-hour ECGs (250 Hz) in .build/simulated-days" 1.8 .build/simulated-days
throughput "one simulated 24-hour ECG alone (.build/simulated-days/day1)" 1 .build/simulated-days/day1

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
skipped = [n["kind"] for n in r["not_analyzed"]]
print(f"beats {e['beats']}, mean HR {e['heart_rate_bpm']['mean']:.1f} bpm, processing {r['processing_s']:.1f} s, "
      f"{r['samples_per_s'] / 1e6:.1f} M samples/s; recognized but not analyzed: {skipped}")
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

echo "== 4. vitals stream memory, 24 h at 1 kHz (Float32 frames, as fast as read; resident size sampled)"
python3 - "$vitals" "$scratch/stream.jsonl" <<'PY' || failed=1
import subprocess, sys, threading, time
import numpy as np
vitals, out = sys.argv[1], sys.argv[2]
fs = 1000
process = subprocess.Popen([vitals, "stream", "--rate", str(fs), "--format", "f32"], stdin=subprocess.PIPE,
                           stdout=open(out, "w"))
samples = []  # (hours of signal written, resident KB)
written = [0]
def poll():
    while process.poll() is None:
        try:
            status = open(f"/proc/{process.pid}/status").read()
            rss = int(status.split("VmRSS:")[1].split()[0])
            samples.append((written[0] / fs / 3600, rss))
        except (IndexError, FileNotFoundError):
            pass
        time.sleep(0.2)
thread = threading.Thread(target=poll)
thread.start()
rng = np.random.default_rng(9)
beat = 0.4
start = time.monotonic()
for minute in range(24 * 60):
    t = minute * 60 + np.arange(60 * fs) / fs
    x = 0.05 * rng.standard_normal(t.size)
    while beat < (minute + 1) * 60:
        k = int(round((beat - minute * 60) * fs))
        lo, hi = max(0, k - 40), min(t.size, k + 41)
        x[lo:hi] += 1.2 * np.exp(-((np.arange(lo, hi) - k) / fs) ** 2 / (2 * 0.012 ** 2))
        beat += 0.8 + 0.04 * np.sin(2 * np.pi * 0.1 * beat)
    process.stdin.write(x.astype("<f4").tobytes())
    written[0] += t.size
process.stdin.close()
process.wait()
thread.join()
elapsed = time.monotonic() - start
lines = open(out).read().splitlines()
beats = sum('"type":"beat"' in line for line in lines)
readings = sum('"type":"heart_rate"' in line for line in lines)
print(f"{written[0] / 1e6:.1f} M samples in {elapsed:.1f} s; {beats} beats, {readings} heart-rate readings")
for hours in (1, 6, 12, 18, 23):
    near = [rss for h, rss in samples if h >= hours]
    if near:
        print(f"  resident after {hours:2d} h of signal: {near[0] / 1024:.1f} MB")
peak = max(rss for _, rss in samples)
print(f"  peak resident {peak / 1024:.1f} MB over {len(samples)} samples; exit status {process.returncode}")
sys.exit(process.returncode)
PY
exit "$failed"
