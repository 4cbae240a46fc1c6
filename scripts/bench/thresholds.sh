#!/bin/bash
# The benchmarks' regression gate: allocations per iteration (p90 of mallocCountTotal, deterministic for
# a fixed workload) of every benchmark against the static thresholds of the running Swift version,
# Benchmarks/Thresholds/<major.minor>/<Suite>.<benchmark>.p90.json (ordo-one/benchmark's format).
#
#   scripts/bench/thresholds.sh build [PRODUCT...] # the release build of the suites and BenchmarkTool,
#                                                  # and of the root package's PRODUCTs from the same
#                                                  # modules (make test: libVitalsC and vitals for pytest)
#   scripts/bench/thresholds.sh check [--built] [SUITE...]  # exit 0 when every count equals its
#                                                  # threshold (--built: the build is current, skip it)
#   scripts/bench/thresholds.sh update [SUITE...]  # rewrite the thresholds (then review `git diff` and commit)
#
# `check` and `update` build first (nothing to do after `build`). Without suites, `check` runs those
# that have thresholds (a new suite joins once it has them) and `update` runs all of them.
#
# The suites run under BenchmarkTool exactly as `swift package benchmark` runs them (the same
# arguments, with the malloc interposer preloaded), but built by one `swift build -c release`: the
# plugin asks the package manager for one build per suite, with build parameters of its own that
# rebuild the whole package even after `swift build -c release` (in a clean clone, 9 of make test's
# 20 minutes; run directly, the suites take under 2 minutes once built).
#
# Wall clock and the rates are left out of the files: the machine is shared and they are not
# deterministic. Benchmarks run with VITALS_BENCHMARK_GATE set, i.e. a few iterations each (see
# Benchmarks/Support/Rates.swift).
set -euo pipefail

operation=${1:?usage: thresholds.sh build|check|update [SUITE...]}
shift
cd "$(dirname "$0")/../../Benchmarks"
swift=${SWIFT:-swift}
version=$("$swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -1)
[ -n "$version" ] || { echo "cannot tell the Swift version" >&2; exit 1; }
thresholds="Thresholds/$version"

# No debug information: the code, and with it every allocation, is the same, and the build takes less.
build_flags=(-c release -Xswiftc -gnone)

build() {
  "$swift" build "${build_flags[@]}"
  for product in BenchmarkTool "$@"; do "$swift" build "${build_flags[@]}" --product "$product"; done
}

# run_thresholds OPERATION PATH SUITE...: BenchmarkTool's `thresholds OPERATION` over the suites,
# reading the thresholds from (check) or writing them to (update) the directory PATH.
run_thresholds() {
  local operation=$1 path=$2
  shift 2
  local products
  products=$("$swift" build "${build_flags[@]}" --show-bin-path)
  local arguments=()
  for suite in "$@"; do
    [ -x "$products/$suite" ] || { echo "no benchmark suite $suite in Benchmarks/Benchmarks" >&2; exit 1; }
    arguments+=(--targets "$suite" --benchmark-executable-paths "$products/$suite")
  done
  VITALS_BENCHMARK_GATE=1 LD_PRELOAD="$products/libMallocInterposerSwift.so" "$products/BenchmarkTool" \
    --command thresholds --thresholds-operation "$operation" --path "$path" \
    --baseline-storage-path "$PWD/" --format text --grouping benchmark \
    --benchmark-package-identifier benchmark --no-progress "${arguments[@]}"
}

case "$operation" in
build)
  build "$@"
  ;;
check)
  if [ ! -d "$thresholds" ]; then
    echo "SKIPPED: no allocation thresholds for Swift $version; scripts/bench/thresholds.sh update creates" \
      "$thresholds (commit it)" >&2
    exit 0
  fi
  if [ "${1:-}" = --built ]; then shift; else build; fi
  [ $# -gt 0 ] || set -- $(ls "$thresholds" | cut -d. -f1 | sort -u)
  set +e
  run_thresholds check "$PWD/$thresholds/" "$@"
  status=$?
  set -e
  case $status in
  0) echo "allocations equal the thresholds of Swift $version" ;;
  2) echo "allocations went up against $thresholds (see above)" >&2 ;;
  4) echo "allocations went down against $thresholds (see above): when intended, run" \
       "scripts/bench/thresholds.sh update and commit the files" >&2 ;;
  *) echo "the benchmark run failed with status $status (see above)" >&2 ;;
  esac
  exit $status
  ;;
update)
  build
  scratch=.build/thresholds-update
  rm -rf "$scratch"
  mkdir -p "$scratch" "$thresholds"
  [ $# -gt 0 ] || set -- $(ls Benchmarks)
  run_thresholds update "$PWD/$scratch/" "$@"
  # Keep the deterministic metrics only, in files named as `thresholds check` looks them up: the
  # update writes spaces as underscores, the check reads the benchmark's name as is (benchmark 1.38.1),
  # so names must not contain underscores or slashes.
  python3 - "$scratch" "$thresholds" <<'EOF'
import json, pathlib, sys
source, target = (pathlib.Path(p) for p in sys.argv[1:])
for path in sorted(source.glob("*.p90.json")):
    gated = {k: v for k, v in json.loads(path.read_text()).items() if k in ("mallocCountTotal", "instructions")}
    suite, name = path.name[: -len(".p90.json")].split(".", 1)
    out = target / f"{suite}.{name.replace('_', ' ')}.p90.json"
    out.write_text(json.dumps(gated, indent=2, sort_keys=True) + "\n")
    print(f"{out}: {gated}")
EOF
  ;;
*)
  echo "usage: thresholds.sh build|check|update [SUITE...]" >&2
  exit 1
  ;;
esac
