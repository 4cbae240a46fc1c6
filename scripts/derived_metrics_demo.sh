#!/usr/bin/env bash
# Derived HealthKit metrics from a synthetic multi-day wearable recording, end to end:
#   vitals simulate (ECG + wrist accelerometer, segment by segment) → one CSV with absolute times
#   → vitals analyze --out → DIR/NAME.samples.jsonl → vitals stats.
#
# Each simulated day (UTC): sleep (still, 55 bpm), a 20-minute low-heart-rate stretch (38 bpm, still),
# a morning walk, desk work (typing), a 20-minute high-heart-rate stretch at rest (130 bpm), 30 minutes of
# atrial fibrillation, an evening walk, rest. Every derived metric comes out: heartRate and
# heartRateVariabilitySDNN per minute, stepCount per minute, restingHeartRate and walkingHeartRateAverage
# per day, highHeartRateEvent, lowHeartRateEvent and irregularHeartRhythmEvent.
#
# Environment: VITALS (binary, default .build/release/vitals), DAYS (default 2), RATE (Hz, default 100:
# the QRS detector needs ≥ 100 Hz), START (Unix seconds of the first sample, default 2026-03-02T00:00:00Z),
# WORK (directory, default /tmp/vitals-derived-demo). Disk: about 0.4 GB of CSV per day at 100 Hz.
set -euo pipefail

VITALS=${VITALS:-.build/release/vitals}
DAYS=${DAYS:-2}
RATE=${RATE:-100}
START=${START:-1772409600}
WORK=${WORK:-/tmp/vitals-derived-demo}

# duration_s heart_rate activity afib(0/1), one line per segment of a day (86,400 s in all).
DAY_PLAN="21600 55 still 0
1200 38 still 0
2400 62 still 0
1800 105 walking 0
16200 72 typing 0
1200 130 still 0
6000 75 typing 0
1800 78 still 1
9000 70 still 0
2700 110 walking 0
22500 64 still 0"

rm -rf "$WORK"
mkdir -p "$WORK/segments"
csv="$WORK/wearable.csv"
echo "time,ecg,acc_x,acc_y,acc_z" > "$csv"
offset=0
seed=1
for ((day = 0; day < DAYS; day++)); do
  while read -r duration rate activity afib; do
    ecg="$WORK/segments/ecg.csv"
    acc="$WORK/segments/acc.csv"
    afib_option=()
    if [[ $afib == 1 ]]; then afib_option=(--afib "0:$duration"); fi
    "$VITALS" simulate --signal ecg --duration "$duration" --rate "$RATE" --heart-rate "$rate" --seed "$seed" \
      "${afib_option[@]}" -o "$ecg"
    "$VITALS" simulate --signal acc --activity "$activity" --duration "$duration" --rate "$RATE" \
      --seed "$seed" -o "$acc"
    # Absolute time stamps (exact to the nanosecond in decimal), the ECG and the three axes.
    paste -d, \
      <(tail -n +2 "$ecg" | awk -F, -v base="$((START + offset))" -v rate="$RATE" \
        '{ n = NR - 1; s = int(n / rate); f = n - s * rate; printf "%d.%09d,%s\n", base + s, f * 1000000000 / rate, $2 }') \
      <(tail -n +2 "$acc" | cut -d, -f2-) >> "$csv"
    offset=$((offset + duration))
    seed=$((seed + 1))
  done <<< "$DAY_PLAN"
done
rm -rf "$WORK/segments"
echo "recording: $csv ($(du -h "$csv" | cut -f1), $DAYS day(s) at $RATE Hz)"

/usr/bin/time -f "analyze: %e s wall, %M KB peak resident" \
  "$VITALS" analyze "$csv" --out "$WORK/out" --jobs 1 --timezone UTC
samples="$WORK/out/wearable.samples.jsonl"
echo "samples by type:"
grep -o '"type":"[A-Za-z]*"' "$samples" | sort | uniq -c
echo "events:"
grep -E 'HeartRateEvent|RhythmEvent' "$samples"

for query in "heartRate --interval day" "restingHeartRate --interval day" "walkingHeartRateAverage --interval day" \
  "heartRateVariabilitySDNN --interval day" "stepCount --interval day"; do
  echo "vitals stats $samples --type $query --timezone UTC"
  # shellcheck disable=SC2086
  "$VITALS" stats "$samples" --type $query --timezone UTC
done
echo "vitals stats $samples --type heartRate --interval hour --timezone UTC (first 8 hours)"
"$VITALS" stats "$samples" --type heartRate --interval hour --timezone UTC | head -9
