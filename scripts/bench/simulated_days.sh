#!/usr/bin/env bash
# Writes COUNT simulated 24-hour ECG recordings (250 Hz, ambulatory noise, 1 % premature ventricular
# beats, seeds 1…COUNT) as WFDB records DIR/dayN.hea + .dat, unless they are there already: the long
# recordings of make bench-python's Dask scaling. Usage: simulated_days.sh VITALS DIR COUNT
set -euo pipefail
vitals="$1" directory="$2" count="$3"
mkdir -p "$directory"
for seed in $(seq 1 "$count"); do
  record="$directory/day$seed"
  [ -f "$record.hea" ] && [ -f "$record.dat" ] && continue
  "$vitals" simulate --signal ecg --duration 86400 --rate 250 --seed "$seed" --noise ambulatory --pvc 0.01 \
    -o "$record.csv" > /dev/null
  "$vitals" convert "$record.csv" -o "$record.hea" > /dev/null
  rm -f "$record.csv" "$record.truth.csv"
done
