#!/usr/bin/env bash
# The allocation gate's release build of Benchmarks/ (scripts/bench/thresholds.sh build), run in the
# background for make test:
#
#   scripts/bench/background_build.sh start    # starts it at the idle CPU priority (SCHED_IDLE)
#   scripts/bench/background_build.sh finish   # waits for it; prints its log and fails if it failed
#
# Under SCHED_IDLE (`chrt --idle 0`, which the compilers inherit; SwiftPM starts them at nice 0 whatever
# the nice value of the build) the build takes the CPU that make test's debug build, downloads and tests
# leave idle, and next to nothing of what they use, so the gate at the end has little left to build.
# `start` stops a build left running by an interrupted make test. Its output goes to
# .build/bench-build.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
pid_file=.build/bench-build.pid
status_file=.build/bench-build.status
log=.build/bench-build.log

case "${1:?usage: background_build.sh start|finish}" in
start)
  mkdir -p .build
  if [ -f "$pid_file" ]; then kill -- -"$(cat "$pid_file")" 2>/dev/null || true; fi
  rm -f "$status_file"
  # setsid execs in place (a background job is no group leader), so $! is the group's id.
  setsid chrt --idle 0 bash -c "scripts/bench/thresholds.sh build > $log 2>&1; echo \$? > $status_file" \
    < /dev/null > /dev/null 2>&1 &
  echo $! > "$pid_file"
  ;;
finish)
  [ -f "$pid_file" ] || { echo "no background build of the benchmarks was started" >&2; exit 1; }
  started=$(date +%s)
  while [ ! -f "$status_file" ] && kill -0 "$(cat "$pid_file")" 2>/dev/null; do sleep 1; done
  rm -f "$pid_file"
  status=$(cat "$status_file" 2>/dev/null || echo "none")
  echo "benchmarks' release build: waited $(($(date +%s) - started)) s for it"
  if [ "$status" != 0 ]; then
    cat "$log" >&2
    echo "the benchmarks' release build failed (status $status)" >&2
    exit 1
  fi
  ;;
*)
  echo "usage: background_build.sh start|finish" >&2
  exit 2
  ;;
esac
