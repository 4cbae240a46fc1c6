#!/bin/sh
# Builds one libFuzzer target of Fuzz/Package.swift with the fuzzer and address sanitizers and
# runs it for a bounded time: scripts/fuzz.sh TARGET SECONDS (e.g. scripts/fuzz.sh WFDBHeaderFuzz 180).
# The corpus lives in Fuzz/corpus/TARGET (ignored by git), seeded from Fixtures/; crashes are
# written to Fuzz/ as crash-* files: turn each into a unit test.
set -eu
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS}
seconds=${2:-120}
# Swift's own backtracer would slow every crash report; libFuzzer records crashes itself.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/Fuzz"
# A clean build each time: an incremental sanitizer build once linked a target against a stale
# layout of a changed library type (a false stack-buffer-overflow).
rm -rf .build-fuzz
# With AVX2 when the machine has it (as `make build` does), so that the 256-bit kernels are fuzzed too.
arch=""
if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then arch="-Xcc -march=x86-64-v3"; fi
# shellcheck disable=SC2086
swift build -c debug --product "$target" --build-path .build-fuzz $arch \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
corpus="corpus/$target"
mkdir -p "$corpus"
case "$target" in
  WFDBHeader*) cp "$root"/Fixtures/wfdb/records/*.hea "$corpus"/ 2>/dev/null || true ;;
  WFDBAnnotation*) cp "$root"/Fixtures/wfdb/annotations/* "$corpus"/ 2>/dev/null || true ;;
  WFDBSignal*)
    for header in "$root"/Fixtures/wfdb/records/fmt*.hea; do
      name=$(basename "$header" .hea)
      { cat "$header"; printf '\0'; head -c 600 "${header%.hea}.dat"; } > "$corpus/seed-$name"
    done ;;
  EDF*) cp "$root"/Fixtures/io/edf/*.edf "$corpus"/ ;;
  CSV*) cp "$root"/Fixtures/io/csv/*.csv "$root"/Fixtures/io/csv/*.tsv "$corpus"/ ;;
  AppleHealth*) cp "$root"/Fixtures/io/apple/*.csv "$corpus"/ ;;
esac
exec ".build-fuzz/debug/$target" "$corpus" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 \
  -print_final_stats=1
