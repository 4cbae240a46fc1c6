#!/usr/bin/env bash
# Runs the two Slurm recipes of the documentation on a real one-node Slurm on this machine, and
# proves that they compute what one machine computes:
#  1. WholeRecordingsGuide.md, "A study on a Slurm cluster": the job array of `vitals analyze --shard I/N`
#     + `vitals stats --partial` tasks (N = 3 over the MIT-BIH records), then the dependent job that runs
#     `vitals merge`. The merged table must equal, byte for byte, `vitals stats` over the samples files
#     of one `vitals analyze --out DIR` run of all the records (the exact statistic discreteMax; the
#     discreteAverage table, "sums to rounding", must agree in every field and to 1e-12 in its values).
#     Then the same over a folder of one record, where two of the three shards hold no recording.
#  2. python/README.md, "On a Slurm cluster with dask-jobqueue": `dask_jobqueue.SLURMCluster` and
#     `vitals.dask.analyze(paths, client)` over the 26 MIT-BIH records. The summaries must equal those
#     of `vitals.analyze(paths)` on one machine (all columns but the timing ones).
#
# Needs root: it installs the Debian packages slurm-wlm (slurmctld, slurmd, the client commands) and
# munge when missing, and runs munged, slurmctld and slurmd as root. The daemons use their own
# configuration, munge key and socket, ports (16817 and 16818, not a system Slurm's 6817 and 6818),
# state and logs under .build/slurm, and are stopped when the script exits. Apart from those packages
# every file it writes is under .build/slurm: the virtual environment of dask-jobqueue (pinned below;
# kept between runs) and, from the last run, the recipes' outputs and the daemons' logs (cluster/).
#
# Environment: VITALS_CLI (default .build/release/vitals), VITALS_LIBRARY (default
# .build/release/libVitalsC.so), VITALS_SHARED_DATA (default ../shared/data). It builds nothing.
# Usage: scripts/checks/slurm_recipes.sh   (or make slurm-check)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
vitals_cli=${VITALS_CLI:-$root/.build/release/vitals}
vitals_library=${VITALS_LIBRARY:-$root/.build/release/libVitalsC.so}
shared_data=${VITALS_SHARED_DATA:-$root/../shared/data}
mitdb=$shared_data/mitdb
scratch=$root/.build/slurm
cluster=$scratch/cluster # configuration, munge key and socket, state, logs, the recipes' outputs: new each run
venv=$scratch/venv
# The versions of python/requirements-test.txt, dask-jobqueue, and pyarrow for the recipe's to_parquet.
requirements="dask==2026.8.0 distributed==2026.8.0 numpy==2.4.6 pandas==2.3.3 dask-jobqueue==0.9.0 pyarrow==26.0.1"
# The MIT-BIH records state no start time: --start gives them one, so that they have samples for statistics.
start=2024-03-10T08:00:00Z
shards=3
started_at=$SECONDS

fail() {
  echo "slurm check FAILED: $*" >&2
  exit 1
}
note() { printf '[%4ds] %s\n' "$((SECONDS - started_at))" "$*"; }

[ "$(id -u)" = 0 ] || fail "needs root (it installs slurm-wlm and munge and runs their daemons)"
[ -x "$vitals_cli" ] || fail "no vitals CLI at $vitals_cli (make build, or set VITALS_CLI)"
[ -f "$vitals_library" ] ||
  fail "no libVitalsC at $vitals_library (swift build -c release --product VitalsC, or set VITALS_LIBRARY)"
compgen -G "$mitdb/*.hea" > /dev/null || fail "no MIT-BIH records in $mitdb (set VITALS_SHARED_DATA)"
mitdb=$(cd "$mitdb" && pwd)
vitals_cli=$(cd "$(dirname "$vitals_cli")" && pwd)/$(basename "$vitals_cli")
vitals_library=$(cd "$(dirname "$vitals_library")" && pwd)/$(basename "$vitals_library")

# ---- Packages -------------------------------------------------------------------------------------
missing=""
for command in slurmctld slurmd sbatch munged; do command -v "$command" > /dev/null || missing=yes; done
if [ -n "$missing" ]; then
  note "installing slurm-wlm and munge"
  mkdir -p "$scratch"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    slurm-wlm munge; } > "$scratch/apt.log" 2>&1 || fail "apt-get install slurm-wlm munge: see $scratch/apt.log"
fi
python3 -c 'import ensurepip, venv' 2> /dev/null || {
  note "installing python3-venv"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv > /dev/null
}
if [ "$(cat "$venv/ready" 2> /dev/null)" != "$requirements" ]; then
  note "creating $venv ($requirements)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  # shellcheck disable=SC2086  # one word per requirement
  "$venv/bin/pip" install -q --disable-pip-version-check --no-cache-dir $requirements
  echo "$requirements" > "$venv/ready"
fi
note "slurm-wlm $(dpkg-query -W -f '${Version}' slurm-wlm), munge $(dpkg-query -W -f '${Version}' munge)," \
  "dask-jobqueue $("$venv/bin/python" -c 'import dask_jobqueue; print(dask_jobqueue.__version__)')"

# ---- A one-node Slurm: munged, slurmctld and slurmd as root, everything under $cluster -------------
for pid_file in "$cluster"/run/*.pid; do
  [ -f "$pid_file" ] && kill -0 "$(cat "$pid_file")" 2> /dev/null &&
    fail "a daemon of an earlier run is still running (pid $(cat "$pid_file"), $pid_file)"
done
rm -rf "$cluster"
mkdir -p "$cluster"/{munge,key,state,spool,log,run,tmp,bin,one-machine,recipe-1}
chmod 700 "$cluster/key"
# Whatever a command of the check writes to a temporary directory stays in the scratch directory.
export TMPDIR=$cluster/tmp PYTHONDONTWRITEBYTECODE=1
export SLURM_CONF=$cluster/slurm.conf
export PATH=$cluster/bin:$PATH
ln -s "$vitals_cli" "$cluster/bin/vitals"

stop_daemons() {
  local status=$? queued pid
  if [ -f "$cluster/run/slurmctld.pid" ]; then
    queued=$(squeue -h -o %A 2> /dev/null | sort -u | tr '\n' ' ')
    # shellcheck disable=SC2086  # job ids
    [ -z "$queued" ] || scancel $queued 2> /dev/null || true
  fi
  for pid_file in "$cluster/run/slurmd.pid" "$cluster/run/slurmctld.pid" "$cluster/run/munged.pid"; do
    # A daemon removes its pid file as it begins to stop: the pid is read once.
    pid=$(cat "$pid_file" 2> /dev/null || true)
    if [ -n "$pid" ] && kill "$pid" 2> /dev/null; then
      for _ in $(seq 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    fi
  done
  [ "$status" = 0 ] || echo "the daemons' logs: $cluster/log" >&2
  exit "$status"
}
trap stop_daemons EXIT

dd if=/dev/urandom of="$cluster/key/munge.key" bs=1024 count=1 status=none
chmod 400 "$cluster/key/munge.key"
chmod 755 "$cluster/munge"
munged --force --key-file="$cluster/key/munge.key" --socket="$cluster/munge/munge.socket.2" \
  --pid-file="$cluster/run/munged.pid" --log-file="$cluster/log/munged.log" --seed-file="$cluster/key/munged.seed"

host=$(hostname)
memory_mb=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) * 9 / 10 / 1024))
# No cgroups, no accounting database, no MPI: process tracking by parent pid (proctrack/linuxproc)
# and no task binding, which is what runs in a container. Memory is a consumable resource (a job
# without --mem gets 1 GB per CPU), so tasks of one CPU run side by side. A job whose dependency can
# no longer be met is cancelled (kill_invalid_depend) rather than left pending.
cat > "$SLURM_CONF" << EOF
ClusterName=vitals-check
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$cluster/munge/munge.socket.2
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/run/slurmctld.pid
SlurmdPidFile=$cluster/run/slurmd.pid
SlurmctldLogFile=$cluster/log/slurmctld.log
SlurmdLogFile=$cluster/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1024
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerParameters=kill_invalid_depend
ReturnToService=2
MinJobAge=600
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory_mb State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  [ "$(sinfo -h -n "$host" -o %T 2> /dev/null)" = idle ] && break
  sleep 1
done
[ "$(sinfo -h -n "$host" -o %T 2> /dev/null)" = idle ] || fail "node $host not idle after 60 s: $(sinfo 2>&1)"
note "Slurm up (sinfo): node $host idle, $(nproc) CPUs, $memory_mb MB"

# Waits until job $1 (every task of an array) has left the queue, at most $2 seconds, then fails
# unless every task COMPLETED with exit code 0, printing the output of the jobs' tasks.
wait_for_job() {
  local job=$1 limit=$2 waited=0 states
  while [ -n "$(squeue -h -j "$job" -o %i 2> /dev/null || true)" ]; do
    [ "$waited" -lt "$limit" ] || fail "job $job still queued or running after $limit s: $(squeue -j "$job" 2>&1)"
    sleep 1
    waited=$((waited + 1))
  done
  states=$(scontrol -o show job "$job" | sed -E 's/.*JobState=([A-Z_]+) .* ExitCode=([0-9:]+).*/\1 (exit \2)/' |
    sort | uniq -c | awk '{printf "%s %s × %s %s %s", (NR > 1 ? "," : ""), $1, $2, $3, $4}')
  if scontrol -o show job "$job" | grep -qv 'JobState=COMPLETED .* ExitCode=0:0'; then
    for output in slurm-"$job"*.out; do [ -f "$output" ] && { echo "== $output"; cat "$output"; }; done >&2
    fail "job $job:$states"
  fi
  echo "$states"
}

# ---- Recipe 2: the job array of WholeRecordingsGuide.md ------------------------------------------
# The recipe's study.sbatch for the recordings of folder $1, with N = 3 shards (--array=1-3,
# --shard "$shard/3"), tasks of 1 CPU on this 2-CPU node, the records' --start, and heart-rate queries
# (MIT-BIH has no steps): the exact statistic discreteMax, and discreteAverage, whose merged sums
# agree "to rounding".
study_sbatch() {
  cat << EOF
#!/bin/bash
# study.sbatch: one task per shard; each writes its results and its partials.
#SBATCH --array=1-$shards
#SBATCH --cpus-per-task=1
set -euo pipefail
shard="\$SLURM_ARRAY_TASK_ID"
vitals analyze $1 --shard "\$shard/$shards" --jobs "\$SLURM_CPUS_PER_TASK" --out "results/\$shard" \\
  --start $start
samples=(results/"\$shard"/*.samples.jsonl)
[ -e "\${samples[0]}" ] || exit 0 # no recording in this shard (or none with a start time)
mkdir -p partials
vitals stats "\${samples[@]}" --type heartRate --option discreteMax --interval 15min \\
  --timezone Europe/Berlin --partial "partials/hr-max-\$shard.json"
vitals stats "\${samples[@]}" --type heartRate --option discreteAverage --interval 15min \\
  --timezone Europe/Berlin --partial "partials/hr-average-\$shard.json"
EOF
}

# Runs the recipe in folder $1 over the recordings of folder $2: sbatch study.sbatch, then the
# dependent sbatch --wrap 'vitals merge ...' of both queries, and waits for both jobs.
run_study() {
  local directory=$1 recordings=$2 job merge_job states began=$SECONDS
  mkdir -p "$directory"
  cd "$directory"
  study_sbatch "$recordings" > study.sbatch
  job=$(sbatch --parsable study.sbatch)
  merge_job=$(sbatch --parsable --dependency=afterok:"$job" --wrap \
    'vitals merge partials/hr-max-*.json > hr-max.csv && vitals merge partials/hr-average-*.json > hr-average.csv')
  states=$(wait_for_job "$job" 600)
  note "  array job $job:$states"
  states=$(wait_for_job "$merge_job" 120)
  note "  merge job $merge_job:$states"
  note "  $((SECONDS - began)) s from sbatch to the merged tables; recordings per shard:$(for s in $(seq "$shards"); do
    printf ' %s' "$(find "results/$s" -name '*.json' 2> /dev/null | wc -l)"; done)"
  if [ ! -s hr-max.csv ] || [ ! -s hr-average.csv ]; then fail "recipe 2 wrote no merged table in $directory"; fi
}

# The same queries on one machine: `vitals stats` over the samples files $2... into folder $1.
one_machine_tables() {
  local directory=$1
  shift
  vitals stats "$@" --type heartRate --option discreteMax --interval 15min --timezone Europe/Berlin \
    > "$directory/hr-max.csv"
  vitals stats "$@" --type heartRate --option discreteAverage --interval 15min --timezone Europe/Berlin \
    > "$directory/hr-average.csv"
}

# Fails unless the merged tables in folder $1 equal those in folder $2: discreteMax byte for byte,
# discreteAverage in every field but the value, and the values to 1e-12 (relative).
compare_tables() {
  if ! cmp -s "$1/hr-max.csv" "$2/hr-max.csv"; then
    diff "$1/hr-max.csv" "$2/hr-max.csv" >&2 || true
    fail "recipe 2: the merged discreteMax table $1/hr-max.csv differs from one machine's $2/hr-max.csv"
  fi
  rows=$(($(wc -l < "$2/hr-max.csv") - 1))
  note "  discreteMax: merged table == one machine's vitals stats, byte for byte ($rows rows)"
  python3 - "$1/hr-average.csv" "$2/hr-average.csv" << 'PY' || fail "recipe 2: the merged discreteAverage table differs"
import csv, math, sys
merged, whole = (list(csv.reader(open(path))) for path in sys.argv[1:])
assert len(merged) == len(whole) > 1, f"{len(merged)} rows against {len(whole)}"
worst = 0.0
for a, b in zip(merged, whole):
    assert a[:2] + a[3:] == b[:2] + b[3:], f"{a} against {b}"
    if a[2] != b[2]:
        assert a[2] and b[2] and math.isclose(float(a[2]), float(b[2]), rel_tol=1e-12), f"{a} against {b}"
        worst = max(worst, abs(float(a[2]) / float(b[2]) - 1))
rows, same = len(whole) - 1, sum(a == b for a, b in zip(merged[1:], whole[1:]))
others = "" if same == rows else f", the others' values within {worst:.1e} (relative)"
print(f"         discreteAverage: {rows} rows, {same} identical{others}")
PY
}

note "recipe 2: sbatch study.sbatch ($shards shards of $mitdb), then the dependent vitals merge"
run_study "$cluster/recipe-2" "$mitdb"
# One machine: one `vitals analyze --out DIR` of every record, then `vitals stats` over its samples files.
cd "$cluster/one-machine"
vitals analyze "$mitdb" --out results --start "$start" 2> analyze.log
records=$(find results -name '*.samples.jsonl' | wc -l)
[ "$records" -gt 0 ] || fail "the one-machine run wrote no samples files"
one_machine_tables "$cluster/one-machine" results/*.samples.jsonl
note "  one machine: vitals analyze --out DIR, then vitals stats over its $records samples files"
compare_tables "$cluster/recipe-2" "$cluster/one-machine"

# Shards without any recording: the same recipe over a folder of one record, so that two of the three
# tasks find nothing; they succeed, and the merge equals one machine's tables of that record.
first=$(find "$cluster/one-machine/results" -name '*.samples.jsonl' | sort | head -1)
record=$(basename "$first" .samples.jsonl)
mkdir -p "$cluster/one-record/data" "$cluster/one-record/one-machine"
ln -s "$mitdb/$record".* "$cluster/one-record/data/"
note "recipe 2 with empty shards: $shards shards of a folder holding record $record alone"
run_study "$cluster/one-record/recipe-2" "$cluster/one-record/data"
one_machine_tables "$cluster/one-record/one-machine" "$first"
compare_tables "$cluster/one-record/recipe-2" "$cluster/one-record/one-machine"

# ---- Recipe 1: dask_jobqueue.SLURMCluster and vitals.dask.analyze of python/README.md -------------
note "recipe 1: SLURMCluster + vitals.dask.analyze over the records of $mitdb"
cd "$cluster/recipe-1"
export PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH} VITALS_LIBRARY=$vitals_library
timeout 600 "$venv/bin/python" - "$mitdb" "$cluster" << 'PY' || fail "recipe 1 failed or ran over 600 s (see above)"
import os, pathlib, shlex, sys, time

import pandas as pd
from dask_jobqueue import SLURMCluster
from distributed import Client, get_task_stream

import vitals
import vitals.dask

mitdb, cluster_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
paths = [str(header.with_suffix("")) for header in sorted(mitdb.glob("*.hea"))]
prologue = [f"export {name}={shlex.quote(os.environ[name])}"
            for name in ("PYTHONPATH", "VITALS_LIBRARY", "PYTHONDONTWRITEBYTECODE", "TMPDIR")]

started = time.perf_counter()
# The recipe's cluster sized for this machine: 2 jobs of 1 single-threaded worker each (the recipe:
# cores=8, processes=8, memory="16GB", walltime="02:00:00", --cpus-per-task=8, 10 jobs). The check
# adds the workers' python and environment, the loopback interface and its scratch directories.
with SLURMCluster(cores=1, processes=1, memory="2GB", walltime="00:10:00",
                  python=sys.executable, job_script_prologue=prologue, interface="lo",
                  local_directory=str(cluster_dir / "tmp"), log_directory=str(cluster_dir / "recipe-1"),
                  scheduler_options={"dashboard_address": None}) as cluster:
    print("         the workers' job script:")
    print("\n".join("           " + line for line in cluster.job_script().splitlines() if line))
    cluster.scale(jobs=2)
    with Client(cluster) as client, get_task_stream(client) as tasks:
        summaries = vitals.dask.analyze(paths, client)
        summaries.to_parquet("summaries.parquet")
    workers = len({task["worker"] for task in tasks.data})
on_slurm = time.perf_counter() - started

started = time.perf_counter()
expected = vitals.analyze(paths)
one_machine = time.perf_counter() - started


def timing_free(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns=list(vitals.TIMING_FIELDS))


assert summaries["error"].isna().all(), summaries.loc[summaries["error"].notna(), ["path", "error"]]
pd.testing.assert_frame_equal(timing_free(summaries), timing_free(expected), check_like=True)
written = pd.read_parquet("summaries.parquet")
numbers = timing_free(summaries).select_dtypes("number").columns
assert list(written.columns) == list(summaries.columns), "summaries.parquet: other columns"
pd.testing.assert_frame_equal(written[numbers], summaries[numbers])
print(f"         {len(paths)} summaries by {workers} Slurm workers ({on_slurm:.1f} s, the jobs' start included) == "
      f"vitals.analyze on one machine ({one_machine:.1f} s): {summaries.shape[1] - len(vitals.TIMING_FIELDS)} columns "
      "(the timing ones left out); summaries.parquet reads back with the same numbers")
PY

note "both Slurm recipes of the docs ran on Slurm and match one machine"
