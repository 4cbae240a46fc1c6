#!/usr/bin/env bash
# Compiles Tests/CABI/smoke.c against the C interface (Sources/CVitals/include/vitals.h) and the
# libVitalsC of a build directory (default .build/debug; build it first with `swift build`), runs it on
# Fixtures/examples/simulated-ecg.csv, and fails on any compiler warning or error of the program.
set -euo pipefail
cd "$(dirname "$0")/../.."
build_dir="$(cd "${1:-.build/debug}" && pwd)"
[ -f "$build_dir/libVitalsC.so" ] || [ -f "$build_dir/libVitalsC.dylib" ] || {
  echo "no libVitalsC in $build_dir: run swift build first" >&2; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"${CC:-clang}" -std=c11 -Wall -Wextra -Werror -I Sources/CVitals/include Tests/CABI/smoke.c \
  -L "$build_dir" -lVitalsC -Wl,-rpath,"$build_dir" -o "$out/smoke"
"$out/smoke" Fixtures/examples/simulated-ecg.csv
