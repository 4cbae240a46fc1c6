"""`analyze` against `vitals analyze`, and the statistics functions against `vitals stats`,
`vitals stats --partial` and `vitals merge`."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pytest

import vitals
from conftest import EXAMPLE_ECG, FIXTURES, cli_json_lines, run_cli, without_timing

START = "2024-03-10T08:00:00Z"
EXPORT = FIXTURES / "health-export" / "export.xml"


def timing_free(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns=[name for name in vitals.TIMING_FIELDS if name in frame.columns])


def expected_frame(lines: list[dict]) -> pd.DataFrame:
    frame = pd.json_normalize([without_timing(line) for line in lines])
    frame["error"] = None
    return frame


@pytest.fixture(scope="module")
def recordings(simulated):
    return [EXAMPLE_ECG, simulated["walk"], simulated["ppg"]]


@pytest.fixture(scope="module")
def samples_directory(recordings, tmp_path_factory):
    """`vitals analyze --out DIR --start ...`: summaries and samples files of the recordings."""
    directory = tmp_path_factory.mktemp("analyzed")
    run_cli("analyze", "--out", directory, "--start", START, *recordings)
    return directory


def test_analyze_matches_vitals_analyze(recordings):
    expected = expected_frame(cli_json_lines("analyze", "--start", START, "--placement", "wrist", *recordings))
    sequential = vitals.analyze(recordings, start=START, placement="wrist")
    pd.testing.assert_frame_equal(timing_free(sequential), expected, check_like=True)
    threaded = vitals.analyze(recordings, jobs=2, start=START, placement="wrist")
    pd.testing.assert_frame_equal(timing_free(threaded), timing_free(sequential))
    assert sequential["processing_s"].gt(0).all()


def test_analyze_reports_an_unreadable_file_in_its_row(recordings, tmp_path):
    missing = tmp_path / "missing.csv"
    frame = vitals.analyze([missing, recordings[0]], jobs=2)
    assert frame["path"].tolist() == [str(missing), str(recordings[0])]
    assert str(missing) in frame["error"][0]
    assert frame["error"][1] is None
    assert frame["ecg.beats"][1] > 100


def test_stats_match_vitals_stats_on_an_export():
    for type, option in (("stepCount", None), ("heartRate", "discreteMax"), ("heartRate", "mostRecent")):
        query = ["--type", type, "--interval", "day", "--timezone", "Europe/Paris"]
        query += ["--option", option] if option else []
        text = run_cli("stats", EXPORT, *query, "--format", "json").stdout
        assert vitals.stats(EXPORT, type, "day", option=option, timezone="Europe/Paris", format="json") == text
        csv = run_cli("stats", EXPORT, *query).stdout
        assert vitals.stats(EXPORT, type, "day", option=option, timezone="Europe/Paris", format="csv") == csv
        frame = vitals.stats(EXPORT, type, "day", option=option, timezone="Europe/Paris")
        table = json.loads(text)
        assert frame.columns.tolist() == ["start", "end", "value", "unit", "count"]
        assert frame["count"].tolist() == [row["count"] for row in table["intervals"]]
        values = [np.nan if row["value"] is None else row["value"] for row in table["intervals"]]
        np.testing.assert_array_equal(frame["value"], values)
        starts = pd.to_datetime([row["start"] for row in table["intervals"]], utc=True, format="ISO8601")
        assert (frame["start"] == starts).all()


def test_stats_per_source_and_priority_match_vitals_stats():
    arguments = ["--type", "stepCount", "--interval", "hour", "--timezone", "UTC", "--per-source", "--format", "json"]
    table = json.loads(run_cli("stats", EXPORT, *arguments).stdout)
    rows = [(source, row) for source, intervals in table["sources"].items() for row in intervals]
    frame = vitals.stats(EXPORT, "stepCount", "hour", timezone="UTC", per_source=True)
    assert frame["source"].tolist() == [source for source, _ in rows]
    np.testing.assert_array_equal(frame["value"], [np.nan if row["value"] is None else row["value"] for _, row in rows])
    np.testing.assert_array_equal(frame["count"], [row["count"] for _, row in rows])
    arguments = ["--type", "stepCount", "--timezone", "UTC", "--source-priority", "iPhone"]
    prioritized = run_cli("stats", EXPORT, *arguments).stdout
    assert vitals.stats(EXPORT, "stepCount", timezone="UTC", source_priority=["iPhone"], format="csv") == prioritized


def test_partials_and_merge_match_vitals_stats_partial_and_merge(samples_directory, tmp_path):
    files = sorted(samples_directory.glob("*.samples.jsonl"))
    assert len(files) == 3
    query = ["--type", "heartRate", "--interval", "15min", "--timezone", "UTC", "--option", "discreteMax"]
    partials = []
    for index, file in enumerate(files):
        written = tmp_path / f"{index}.partial.json"
        run_cli("stats", file, *query, "--partial", written)
        partial = vitals.stats_partial(file, "heartRate", "15min", timezone="UTC", option="discreteMax")
        assert partial == written.read_bytes()
        partials.append(partial)
    merged = vitals.merge_partials(partials)
    expected = run_cli("merge", *sorted(tmp_path.glob("*.partial.json"))).stdout
    assert vitals.stats_table(merged, "csv") == expected
    one_run = run_cli("stats", *files, *query).stdout
    assert vitals.stats_table(merged, "csv") == one_run
    pd.testing.assert_frame_equal(
        vitals.stats_table(merged), vitals.stats(files, "heartRate", "15min", timezone="UTC", option="discreteMax")
    )


def test_merge_refuses_partials_of_different_queries(samples_directory):
    file = next(samples_directory.glob("*.samples.jsonl"))
    daily = vitals.stats_partial(file, "heartRate", "day", timezone="UTC")
    hourly = vitals.stats_partial(file, "heartRate", "hour", timezone="UTC")
    with pytest.raises(vitals.InputError, match="1"):
        vitals.merge_partials([daily, hourly])


def test_bytes_paths_work_as_str_paths_do(recordings, samples_directory):
    # A single bytes path was iterated as integers, and a list of them reached the library as "b'...'".
    frame = vitals.analyze(os.fsencode(recordings[0]))
    assert frame["path"].tolist() == [str(recordings[0])] and frame["ecg.beats"][0] > 100
    files = sorted(samples_directory.glob("*.samples.jsonl"))
    by_bytes = vitals.stats([os.fsencode(file) for file in files], "heartRate", "15min", timezone="UTC")
    pd.testing.assert_frame_equal(by_bytes, vitals.stats(files, "heartRate", "15min", timezone="UTC"))


def write_export(path, records):
    """An Apple Health export of (type suffix, unit, start, end, value) records, times in UTC."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="en_US">']
    for type, unit, start, end, value in records:
        lines.append(
            f' <Record type="HKQuantityTypeIdentifier{type}" sourceName="P" unit="{unit}"'
            f' startDate="{start} +0000" endDate="{end} +0000" value="{value}"/>'
        )
    path.write_text("\n".join(lines + ["</HealthData>", ""]))
    return path


INSTANT_LAST = [
    ("StepCount", "count", "2024-03-10 14:00:00", "2024-03-10 14:10:00", 100),
    ("StepCount", "count", "2024-03-10 14:20:00", "2024-03-10 14:20:00", 7),
]


def test_interval_all_holds_an_instantaneous_last_sample(tmp_path):
    first = write_export(tmp_path / "a.xml", INSTANT_LAST)
    second = write_export(tmp_path / "b.xml", [("StepCount", "count", "2024-03-10 13:00:00", "2024-03-10 13:00:00", 2)])
    frame = vitals.stats(first, "stepCount", "all", timezone="UTC")
    assert list(frame["value"]) == [107.0] and list(frame["count"]) == [2]
    assert frame["end"][0] == pd.Timestamp("2024-03-10T14:20:00.000000001Z")
    one_run = vitals.stats([first, second], "stepCount", "all", timezone="UTC", format="csv")
    assert one_run.endswith(",2024-03-10T14:20:00.000000001Z,109.0,count\n")
    parts = [vitals.stats_partial(path, "stepCount", "all", timezone="UTC") for path in (second, first)]
    assert vitals.stats_table(vitals.merge_partials(parts), "csv") == one_run
    cli = run_cli("stats", first, second, "--type", "stepCount", "--interval", "all", "--timezone", "UTC")
    assert cli.stdout == one_run
