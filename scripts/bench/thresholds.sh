#!/bin/bash
# The benchmarks' regression gate: allocations per iteration (p90 of mallocCountTotal, deterministic for
# a fixed workload) of every benchmark against the static thresholds of the running Swift version,
# Benchmarks/Thresholds/<major.minor>/<Suite>.<benchmark>.p90.json (ordo-one/benchmark's format).
#
#   scripts/bench/thresholds.sh check    # exit 0 when every count equals its threshold
#   scripts/bench/thresholds.sh update   # rewrite the thresholds (then review `git diff` and commit)
#
# Wall clock and the rates are left out of the files: the machine is shared and they are not
# deterministic. Benchmarks run with VITALS_BENCHMARK_GATE set, i.e. a few iterations each (see
# Benchmarks/Support/Rates.swift). Extra arguments go to `swift package benchmark` (e.g. --target HRV).
set -euo pipefail

operation=${1:?usage: thresholds.sh check|update [benchmark options]}
shift
cd "$(dirname "$0")/../../Benchmarks"
swift=${SWIFT:-swift}
version=$("$swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -1)
[ -n "$version" ] || { echo "cannot tell the Swift version" >&2; exit 1; }
thresholds="Thresholds/$version"
export VITALS_BENCHMARK_GATE=1

case "$operation" in
check)
  if [ ! -d "$thresholds" ]; then
    echo "SKIPPED: no allocation thresholds for Swift $version; scripts/bench/thresholds.sh update creates" \
      "$thresholds (commit it)" >&2
    exit 0
  fi
  # Without options, only the suites that have thresholds run (a new suite joins once it has them).
  if [ $# = 0 ]; then
    suites=$(ls "$thresholds" | cut -d. -f1 | sort -u | paste -sd '|' -)
    set -- --target "^($suites)\$"
  fi
  set +e
  "$swift" package --disable-sandbox benchmark thresholds check --path "$PWD/$thresholds/" --no-progress "$@"
  status=$?
  set -e
  # `swift package` reports the tool's regression (2) and improvement (4) codes as 1, like a failed
  # run: the table above tells them apart.
  if [ $status = 0 ]; then
    echo "allocations equal the thresholds of Swift $version"
  else
    echo "allocations differ from $thresholds, or the run failed (see above); when the change is" \
      "intended, run scripts/bench/thresholds.sh update and commit the files" >&2
  fi
  exit $status
  ;;
update)
  scratch=.build/thresholds-update
  rm -rf "$scratch"
  mkdir -p "$scratch" "$thresholds"
  "$swift" package --disable-sandbox --allow-writing-to-package-directory benchmark thresholds update \
    --path "$scratch/" --no-progress "$@"
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
  echo "usage: thresholds.sh check|update [benchmark options]" >&2
  exit 1
  ;;
esac
