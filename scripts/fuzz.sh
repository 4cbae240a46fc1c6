#!/bin/sh
# Builds the libFuzzer targets of Fuzz/Package.swift with the fuzzer and address sanitizers and runs
# one for a bounded time: scripts/fuzz.sh TARGET SECONDS (e.g. scripts/fuzz.sh WFDBHeaderFuzz 180).
# Every target is built by one build: `scripts/fuzz.sh build` only builds, FUZZ_BUILD=0 skips the build
# (`make fuzz` builds once, then runs each target with FUZZ_BUILD=0). The corpus lives in Fuzz/corpus/TARGET (ignored by git), seeded
# from Fixtures/ and, when present, small slices of ../shared/data; crashes, timeouts (an input taking
# over 10 s) and out-of-memory inputs (over 2 GiB) are written to Fuzz/artifacts/TARGET/: minimize one
# with `Fuzz/.build-fuzz/debug/TARGET -minimize_crash=1 -runs=20000 FILE`, keep it under
# Fuzz/Regressions/TARGET/ and turn it into a unit test.
set -eu
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS | scripts/fuzz.sh build}
seconds=${2:-120}
# Swift's own backtracer would slow every crash report; libFuzzer records crashes itself.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
root=$(cd "$(dirname "$0")/.." && pwd)
shared="$root/../shared/data"
cd "$root/Fuzz"
if [ "${FUZZ_BUILD:-1}" != 0 ]; then
  # A clean build each time: an incremental sanitizer build once linked a target against a stale
  # layout of a changed library type (a false stack-buffer-overflow).
  rm -rf .build-fuzz
  # With AVX2 when the machine has it (as `make build` does), so that the 256-bit kernels are fuzzed too.
  arch=""
  if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then arch="-Xcc -march=x86-64-v3"; fi
  # shellcheck disable=SC2086
  swift build -c debug --build-path .build-fuzz $arch \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
fi
if [ "$target" = build ]; then exit 0; fi
corpus="corpus/$target"
artifacts="artifacts/$target"
mkdir -p "$corpus" "$artifacts"
# The first `bytes` bytes of `file` as the seed `name` (nothing when the file is absent).
slice() {
  if [ -f "$1" ]; then head -c "$2" "$1" > "$corpus/$3"; fi
}
case "$target" in
  WFDBHeader*)
    cp "$root"/Fixtures/wfdb/records/*.hea "$corpus"/
    for header in "$shared"/wfdb-formats/*.hea "$shared"/mitdb/101.hea "$shared"/ludb/1.hea; do
      slice "$header" 4096 "shared-$(basename "$header")"
    done ;;
  WFDBAnnotation*)
    cp "$root"/Fixtures/wfdb/annotations/* "$corpus"/
    for annotations in "$shared"/mitdb/101.atr "$shared"/mitdb/208.atr "$shared"/wfdb-formats/03700181.gqrsl \
      "$shared"/edf/r01.edf.qrs; do
      slice "$annotations" 2048 "shared-$(basename "$annotations")"
    done ;;
  WFDBSignal*)
    for header in "$root"/Fixtures/wfdb/records/fmt*.hea; do
      name=$(basename "$header" .hea)
      { cat "$header"; printf '\0'; head -c 600 "${header%.hea}.dat"; } > "$corpus/seed-$name"
    done ;;
  EDF*)
    cp "$root"/Fixtures/io/edf/*.edf "$corpus"/
    slice "$shared/edf/r01.edf" 4096 shared-r01.edf ;;
  CSV*)
    cp "$root"/Fixtures/io/csv/*.csv "$root"/Fixtures/io/csv/*.tsv "$root"/Fixtures/io/csv/bad/* "$corpus"/
    slice "$root/Fixtures/examples/simulated-ecg.csv" 4000 simulated-ecg.csv ;;
  AppleHealth*) cp "$root"/Fixtures/io/apple/*.csv "$corpus"/ ;;
  HealthExport*)
    # The file's start (declaration, DTD, first records) and 4 000-byte windows further in.
    for block in 0 3 9 20 35 50; do
      dd if="$root/Fixtures/health-export/export.xml" of="$corpus/export-$block.xml" bs=4000 skip=$block count=1 \
        2>/dev/null
    done ;;
  SamplesFile*)
    {
      echo '{"type":"heartRate","start":"2024-03-10T08:15:00-04:00","end":"2024-03-10T08:16:00.25-04:00","value":72.5,"unit":"count/min","source":"Vitals","device":"Polar \"H10\"","metadata":{"lead":"I","method":"ecg"}}'
      echo '{"type":"irregularHeartRhythmEvent","start":"2024-03-09T23:00:00-05:00","end":"2024-03-10T00:30:00-05:00","source":"Vitals"}'
      echo '{"type":"stepCount","start":"2024-01-01T00:00:00Z","end":"2024-01-01T00:01:00Z","value":12,"unit":"count","source":"Watch"}'
    } > "$corpus/samples.jsonl" ;;
  BeatCSV*)
    # A byte that picks the record's length (below 128: unknown; see BeatCSVFuzz.swift), then the file.
    { printf '\000'; head -c 3000 "$root/Fixtures/examples/simulated-ecg.truth.csv"; } > "$corpus/truth-csv"
    { printf '\377'; head -c 3000 "$root/Fixtures/examples/simulated-ecg.truth.csv"; } > "$corpus/truth-csv-bounded"
    for beats in "$shared"/cpsc2019/data_00014_ann.csv "$shared"/nstdb-118/118e00_ann.csv; do
      if [ -f "$beats" ]; then { printf '\000'; head -c 2000 "$beats"; } > "$corpus/shared-$(basename "$beats")"; fi
    done ;;
  Stream*)
    # A configuration byte (see StreamFuzz.swift), a piece size, then samples: CSV text for the csv
    # configurations (0: one channel, 3: two), Int16 and Float32 frames for the binary ones.
    { printf '\000\037'; tail -c +15 "$root/Fixtures/examples/simulated-ecg.csv" | cut -d, -f2 | head -c 3000; } \
      > "$corpus/csv-one-channel"
    { printf '\003\377'; head -c 3000 "$root/Fixtures/examples/simulated-ecg.csv"; } > "$corpus/csv-two-channels"
    { printf '\002\100'; head -c 3000 "$root/Fixtures/wfdb/records/fmt16.dat"; } > "$corpus/i16-one-channel"
    { printf '\001\007'; head -c 3000 "$root/Fixtures/wfdb/records/fmt32.dat"; } > "$corpus/f32-one-channel" ;;
esac
exec ".build-fuzz/debug/$target" "$corpus" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 \
  -timeout=10 -artifact_prefix="$artifacts/" -print_final_stats=1
