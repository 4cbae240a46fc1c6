"""`vitals.read` against `vitals convert` and `vitals info` on the same files."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

import vitals
from conftest import EXAMPLE_ECG, FIXTURES, run_cli, shared

FILES = [
    EXAMPLE_ECG,
    FIXTURES / "wfdb" / "records" / "fmt212",
    FIXTURES / "wfdb" / "records" / "multi",
    FIXTURES / "io" / "edf" / "plain.edf",
    FIXTURES / "io" / "edf" / "mixed.edf",
    FIXTURES / "io" / "edf" / "discontinuous.edf",
    FIXTURES / "io" / "apple" / "ecg_english.csv",
    FIXTURES / "io" / "csv" / "datetimes.csv",
]
# The C interface states no gaps: `to_frame` times are sample index / rate, while `vitals convert`
# writes an EDF+D record's real times (a gap from 2 s to 5 s).
DISCONTINUOUS = {"discontinuous.edf"}


def assert_same_as_convert(recording: vitals.Recording, path: object, *options: object) -> None:
    converted = pd.read_csv(io.StringIO(run_cli("convert", path, *options, "-o", "-").stdout))
    frame = recording.to_frame()
    assert list(frame.columns) == list(converted.columns)
    for name in converted.columns[1:]:
        assert recording.signals[name].dtype == np.float32
        np.testing.assert_array_equal(recording.signals[name], converted[name].to_numpy(np.float32))
    if getattr(path, "name", "") not in DISCONTINUOUS:
        np.testing.assert_allclose(frame["time_s"], converted["time_s"], rtol=0, atol=1e-6)


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_read_matches_convert_and_info(path):
    recording = vitals.read(path)
    assert_same_as_convert(recording, path)
    info = json.loads(run_cli("info", "--json", path).stdout)
    assert recording.format == info["format"]
    chunk_signals = [signal for signal in info["signals"] if signal["sample_rate"] == recording.sampling_rate]
    assert recording.units == {signal["name"]: signal["unit"] for signal in chunk_signals}
    for signal in chunk_signals:
        assert len(recording.signals[signal["name"]]) == signal["sample_count"]
    if info["start_time"] is None:
        assert recording.start_time is None
    else:
        assert recording.start_time.isoformat().replace("+00:00", "Z") == info["start_time"]
        assert recording.start_time.utcoffset().total_seconds() == 0


def test_options_become_command_line_words(tmp_path):
    path = tmp_path / "headerless.csv"
    values = np.round(np.sin(np.arange(300) / 10), 4)
    path.write_text("\n".join(f"{value};{-value}" for value in values) + "\n")
    recording = vitals.read(path, rate=100, no_header=True, delimiter=";", channel=[1])
    assert recording.sampling_rate == 100
    assert list(recording.signals) == ["col1"]
    assert_same_as_convert(recording, path, "--rate", 100, "--no-header", "--delimiter", ";", "--channel", 1)
    np.testing.assert_allclose(recording.signals["col1"], -values, atol=1e-6)


def test_annotations_of_a_wfdb_record():
    wfdb = pytest.importorskip("wfdb")
    record = shared("mitdb") / "101"
    recording = vitals.read(record, channel="MLII")
    assert list(recording.signals) == ["MLII"]
    reference = wfdb.rdann(str(record), "atr")
    annotations = recording.annotations
    np.testing.assert_array_equal(annotations["sample"], reference.sample)
    assert annotations["symbol"].tolist() == list(reference.symbol)
    assert [text.rstrip("\x00") for text in annotations["aux"]] == [text.rstrip("\x00") for text in reference.aux_note]


def test_no_annotations_without_an_atr_file():
    assert vitals.read(EXAMPLE_ECG).annotations is None


def test_repeated_signal_names_keep_every_signal(tmp_path):
    path = tmp_path / "repeated.csv"
    path.write_text("time_s,ecg,ecg\n0,1,2\n0.01,3,4\n0.02,5,6\n")
    recording = vitals.read(path)
    assert list(recording.signals) == ["ecg", "ecg.1"]
    assert_same_as_convert(recording, path)
