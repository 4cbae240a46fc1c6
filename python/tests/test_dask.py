"""`vitals.dask` on a local cluster of two worker processes against one machine: summaries equal to
`vitals analyze`, statistics equal to `vitals analyze --out` + `vitals stats`, also when a worker is
killed mid-run, and shards merged with `merge_partials` equal to one run."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import numpy as np
import pandas as pd
import pytest

import vitals
from conftest import cli_json_lines, mitdb_records, run_cli, shared, without_timing

distributed = pytest.importorskip("distributed")
vitals_dask = pytest.importorskip("vitals.dask")

START = "2024-03-10T08:00:00Z"
QUERIES = [
    ("heartRate", "discreteAverage", "hour"),
    ("heartRate", "discreteMax", "15min"),
    ("heartRate", "mostRecent", "hour"),
    ("stepCount", "cumulativeSum", "15min"),
]


@pytest.fixture(scope="module")
def client():
    """Two worker processes started under `vitals.dask.QUIET_CONFIG`, so every result below is also
    checked with that configuration."""
    import dask

    with dask.config.set(vitals_dask.QUIET_CONFIG), distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None, silence_logs=40
    ) as cluster, distributed.Client(cluster) as connection:
        yield connection


def test_quiet_config_names_dask_settings_and_reaches_the_workers(client):
    import dask

    defaults = dask.config.merge(*dask.config.defaults)  # as Dask ships them, without local files
    for key, value in vitals_dask.QUIET_CONFIG.items():
        assert dask.config.get(key, default=None, config=defaults) is not None, f"not a Dask setting: {key}"
        assert dask.config.get(key, config=defaults) != value, f"{key} is already {value} by default"
    seen = client.run(lambda: {key: dask.config.get(key) for key in vitals_dask.QUIET_CONFIG})
    assert len(seen) == 2
    assert all(settings == vitals_dask.QUIET_CONFIG for settings in seen.values())


@pytest.fixture(scope="module")
def recordings() -> list[str]:
    """MIT-BIH records and the Oxford phone walks."""
    walks = sorted(shared("oxford-steps").glob("*.csv"))
    return [str(path) for path in mitdb_records() + walks]


@pytest.fixture(scope="module")
def few(recordings) -> list[str]:
    """One MIT-BIH record and the walks, for the tests that analyze again."""
    records = [path for path in recordings if not path.endswith(".csv")]
    return records[:1] + [path for path in recordings if path.endswith(".csv")]


@pytest.fixture(scope="module")
def one_machine(recordings, tmp_path_factory):
    """`vitals analyze --out DIR --start ...` on this machine: the summaries (by path) and DIR."""
    directory = tmp_path_factory.mktemp("one-machine")
    run_cli("analyze", "--out", directory, "--start", START, *recordings)
    summaries = [json.loads((directory / f"{name(path)}.json").read_text()) for path in recordings]
    return summaries, directory


def name(path: str) -> str:
    """The NAME of `vitals analyze --out` outputs: the file name without extensions."""
    return os.path.basename(path).split(".")[0]


def reference_frame(summaries: list[dict]) -> pd.DataFrame:
    frame = pd.json_normalize([without_timing(summary) for summary in summaries])
    frame["error"] = None
    return frame


def timing_free(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns=list(vitals.TIMING_FIELDS))


def one_machine_table(directory, type: str, option: str, interval: str) -> dict:
    files = sorted(directory.glob("*.samples.jsonl"))
    arguments = ["--type", type, "--option", option, "--interval", interval, "--timezone", "UTC", "--format", "json"]
    return json.loads(run_cli("stats", *files, *arguments).stdout)


def assert_same_table(frame: pd.DataFrame, table: dict, option: str) -> None:
    """Counts exactly; minima, maxima and most recent values exactly; sums and averages to 1e-9."""
    rows = table["intervals"]
    assert len(frame) == len(rows) > 0
    assert frame["count"].tolist() == [row["count"] for row in rows]
    assert (frame["start"] == pd.to_datetime([row["start"] for row in rows], utc=True)).all()
    expected = np.array([np.nan if row["value"] is None else row["value"] for row in rows], dtype=float)
    if option in ("cumulativeSum", "discreteAverage"):
        np.testing.assert_allclose(frame["value"], expected, rtol=1e-9)
    else:
        np.testing.assert_array_equal(frame["value"], expected)


def test_analyze_equals_one_machine(client, recordings, one_machine):
    summaries, _ = one_machine
    started = time.perf_counter()
    frame = vitals_dask.analyze(recordings, client, start=START)
    print(f"vitals.dask.analyze: {len(recordings)} recordings in {time.perf_counter() - started:.1f} s")
    assert frame["error"].isna().all()
    pd.testing.assert_frame_equal(timing_free(frame), reference_frame(summaries), check_like=True)


def test_analyze_bag_equals_analyze(client, recordings, one_machine):
    walks = [path for path in recordings if path.endswith(".csv")]
    bag = vitals_dask.analyze_bag(walks, start=START)
    summaries = [without_timing(summary) for summary in bag.compute()]
    assert summaries == [without_timing(summary) for summary in one_machine[0] if summary["path"] in walks]


def test_analyze_of_clemson_walks_with_their_options(client):
    walks = [str(path) for path in sorted(shared("clemson-steps").glob("P001_*.txt")) if "_steps" not in path.name]
    options = {"rate": 15, "no_header": True, "delimiter": " ", "accel": "3,4,5", "placement": "body"}
    frame = vitals_dask.analyze(walks, client, **options)
    expected = cli_json_lines("analyze", "--rate", 15, "--no-header", "--delimiter", " ", "--accel", "3,4,5", *walks)
    pd.testing.assert_frame_equal(timing_free(frame), reference_frame(expected), check_like=True)
    assert frame["steps.steps"].gt(100).all()


def test_task_groups_split_the_recordings_in_order(client):
    files = [f"r{index}" for index in range(26)]
    two_per_thread = vitals_dask.task_groups(files, client, None)  # 2 single-threaded workers
    assert [len(group) for group in two_per_thread] == [7, 7, 6, 6]
    assert sum(two_per_thread, []) == files
    assert [len(group) for group in vitals_dask.task_groups(files, client, 10)] == [10, 10, 6]
    assert vitals_dask.task_groups(files[:3], client, None) == [["r0"], ["r1"], ["r2"]]
    with pytest.raises(vitals.ArgumentError, match="per_task: at least 1, got 0"):
        vitals_dask.task_groups(files, client, 0)


def test_results_do_not_depend_on_the_grouping(client, few):
    grouped = vitals_dask.analyze(few, client, start=START)
    pd.testing.assert_frame_equal(
        timing_free(vitals_dask.analyze(few, client, per_task=1, start=START)), timing_free(grouped)
    )
    tables = [
        vitals_dask.stats(few, "heartRate", "hour", client, options={"start": START}, per_task=size, timezone="UTC")
        for size in (1, len(few))
    ]
    pd.testing.assert_frame_equal(tables[0], tables[1])


@pytest.mark.parametrize(("type", "option", "interval"), QUERIES[::3], ids=lambda value: str(value))
def test_stats_equals_one_machine(client, recordings, one_machine, type, option, interval):
    paths = [path for path in recordings if type == "heartRate" or path.endswith(".csv")]
    frame = vitals_dask.stats(
        paths, type, interval, client, split_every=3, options={"start": START}, option=option, timezone="UTC"
    )
    assert_same_table(frame, one_machine_table(one_machine[1], type, option, interval), option)


def test_stats_arguments_are_checked_before_any_task(client, few):
    # No file: it said that none states a start time; split_every was checked after every task ran.
    with pytest.raises(vitals.ArgumentError, match="no file given"):
        vitals_dask.stats_files([], "heartRate", "day", client)
    with pytest.raises(vitals.ArgumentError, match="split_every: at least 2"):
        vitals_dask.stats(few, "heartRate", "day", client, split_every=1, options={"start": START})


@pytest.mark.parametrize(("type", "option", "interval"), QUERIES, ids=lambda value: str(value))
def test_stats_files_equals_one_machine(client, one_machine, type, option, interval):
    files = sorted(one_machine[1].glob("*.samples.jsonl"))
    frame = vitals_dask.stats_files(files, type, interval, client, split_every=2, option=option, timezone="UTC")
    assert_same_table(frame, one_machine_table(one_machine[1], type, option, interval), option)


def test_a_worker_killed_mid_run_changes_nothing(client, few, one_machine):
    pids = client.run(os.getpid)
    results: list[pd.DataFrame] = []
    # Every worker is stopped (SIGSTOP) before the run, so none can finish a task before one of them is
    # killed, however fast the machine: the killed worker's tasks are then certainly retried elsewhere.
    killed = None
    for pid in pids.values():
        os.kill(pid, signal.SIGSTOP)
    try:
        # An option at its default value gives the tasks new keys, so nothing is reused from earlier tests.
        run = threading.Thread(
            target=lambda: results.append(vitals_dask.analyze(few, client, start=START, event_minutes=10))
        )
        run.start()
        deadline = time.monotonic() + 120
        busy: list[str] = []
        while not busy and time.monotonic() < deadline:
            busy = [worker for worker, tasks in client.processing().items() if tasks and worker in pids]
            time.sleep(0.05)
        assert busy, "no task was sent to a worker within 120 s"
        killed = busy[0]
        os.kill(pids[killed], signal.SIGKILL)
        assert run.is_alive(), "the run ended although every worker was stopped"
    finally:
        for worker, pid in pids.items():
            if worker != killed:
                os.kill(pid, signal.SIGCONT)
    run.join(timeout=600)
    assert results, "the run did not complete"
    assert sorted(client.run(os.getpid).values()) != sorted(pids.values()), "the killed worker was not replaced"
    expected = [summary for summary in one_machine[0] if summary["path"] in few]
    pd.testing.assert_frame_equal(timing_free(results[0]), reference_frame(expected), check_like=True)


@pytest.fixture(scope="module")
def shard_directories(few, tmp_path_factory) -> list:
    """`vitals analyze --shard I/3 --out DIR_I --start ...` of the few recordings."""
    directories = []
    for index in range(1, 4):
        directory = tmp_path_factory.mktemp(f"shard-{index}")
        run_cli("analyze", "--shard", f"{index}/3", "--out", directory, "--start", START, *few)
        directories.append(directory)
    return directories


@pytest.mark.parametrize(("type", "option", "interval"), QUERIES[1::2], ids=lambda value: str(value))
def test_shards_merged_equal_one_run(few, one_machine, shard_directories, type, option, interval, tmp_path):
    partials = []
    for directory in shard_directories:
        files = sorted(directory.glob("*.samples.jsonl"))
        assert files, f"{directory} is empty"
        partials.append(vitals.stats_partial(files, type, interval, option=option, timezone="UTC"))
    whole = tmp_path / "whole"
    whole.mkdir()
    for path in few:
        (whole / f"{name(path)}.samples.jsonl").symlink_to(one_machine[1] / f"{name(path)}.samples.jsonl")
    merged = vitals.stats_table(vitals.merge_partials(partials))
    assert_same_table(merged, one_machine_table(whole, type, option, interval), option)


def test_stats_files_with_interval_all_hold_instantaneous_last_samples(client, tmp_path):
    files = []
    for k, (start, end, value) in enumerate(
        [("13:00:00", "13:00:00", 2), ("14:00:00", "14:10:00", 100), ("14:20:00", "14:20:00", 7)]
    ):
        path = tmp_path / f"{k}.samples.jsonl"
        path.write_text(
            json.dumps(
                {
                    "type": "stepCount",
                    "start": f"2024-03-10T{start}Z",
                    "end": f"2024-03-10T{end}Z",
                    "value": value,
                    "unit": "count",
                    "source": "P",
                }
            )
            + "\n"
        )
        files.append(path)
    frame = vitals_dask.stats_files(files, "stepCount", "all", client, split_every=2, timezone="UTC")
    pd.testing.assert_frame_equal(frame, vitals.stats(files, "stepCount", "all", timezone="UTC"))
    assert list(frame["value"]) == [109.0] and list(frame["count"]) == [3]
    assert frame["end"][0] == pd.Timestamp("2024-03-10T14:20:00.000000001Z")
