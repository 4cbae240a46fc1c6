"""The array functions against the command line on the same recordings: `ecg_peaks` and `ecg_beats`
vs `vitals beats`, `hrv` vs `vitals hrv --json` (and `--no-artifacts`), `ppg_rate` vs `vitals hr --signal ppg`, `steps`
vs `vitals steps`."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import vitals
from conftest import EXAMPLE_ECG, cli_csv, mitdb_records, run_cli, shared

# The MIT beat symbols (wfdb's beat annotation codes); other annotations are rhythm, noise, ...
BEAT_SYMBOLS = set("NLRBAaJSVrFejnE/fQ?")


def flat_hrv(line: dict) -> dict[str, float]:
    """`vitals hrv --json` values by NeuroKit2 column name, None as NaN."""
    return {
        "HRV_" + name: np.nan if value is None else value
        for domain in ("time", "frequency", "nonlinear")
        for name, value in line[domain].items()
    }


def assert_same_hrv(frame: pd.DataFrame, line: dict) -> None:
    expected = flat_hrv(line)
    assert frame.shape == (1, len(expected))
    assert set(frame.columns) == set(expected)
    np.testing.assert_array_equal(frame.iloc[0].to_numpy(float), [expected[name] for name in frame.columns])


def test_ecg_peaks_and_beats_match_vitals_beats():
    recording = vitals.read(EXAMPLE_ECG)
    beats = cli_csv("beats", EXAMPLE_ECG)
    peaks = vitals.ecg_peaks(recording.signals["ecg"], recording.sampling_rate)
    assert peaks.dtype == np.int64
    np.testing.assert_array_equal(peaks, beats["sample"])
    classified = vitals.ecg_beats(recording.signals["ecg"], recording.sampling_rate)
    assert classified.columns.tolist() == ["sample", "label"]
    np.testing.assert_array_equal(classified["sample"], beats["sample"])
    assert classified["label"].tolist() == beats["label"].tolist()


def test_peaks_alone_equal_the_classified_beats_on_every_record():
    """`ecg_peaks` runs the detector alone (no classes asked), on one thread or two; its peaks are those
    of `ecg_beats`."""
    for record in mitdb_records():
        recording = vitals.read(record)
        signal = next(iter(recording.signals.values()))  # MLII, or V5 in 102 and 104
        classified = vitals.ecg_beats(signal, recording.sampling_rate)
        np.testing.assert_array_equal(vitals.ecg_peaks(signal, recording.sampling_rate), classified["sample"])
        np.testing.assert_array_equal(vitals.ecg_peaks(signal, recording.sampling_rate, jobs=2), classified["sample"])


@pytest.mark.parametrize("jobs", [0, -1, 2**31, 1.5, "2", True])
def test_ecg_peaks_refuses_a_number_of_jobs_that_is_not_a_positive_int32(jobs):
    with pytest.raises(vitals.ArgumentError, match="jobs"):
        vitals.ecg_peaks(np.zeros(1000, dtype=np.float32), 250, jobs=jobs)


def test_two_lead_beats_match_vitals_beats_with_both_channels():
    record = shared("mitdb") / "101"
    recording = vitals.read(record)
    beats = cli_csv("beats", "--channel", "MLII,V1", record)
    classified = vitals.ecg_beats(recording.signals, recording.sampling_rate)
    np.testing.assert_array_equal(classified["sample"], beats["sample"])
    assert classified["label"].tolist() == beats["label"].tolist()


def test_hrv_matches_vitals_hrv():
    recording = vitals.read(EXAMPLE_ECG)
    peaks = vitals.ecg_peaks(recording.signals["ecg"], recording.sampling_rate)
    frame = vitals.hrv(peaks, recording.sampling_rate)
    assert frame.columns[:3].tolist() == ["HRV_MeanNN", "HRV_SDNN", "HRV_SDANN1"]
    assert_same_hrv(frame, json.loads(run_cli("hrv", "--json", EXAMPLE_ECG).stdout))


def test_hrv_with_labels_matches_vitals_hrv_on_annotations():
    record = shared("mitdb") / "101"
    annotations = vitals.annotations(record)
    beats = annotations[annotations["symbol"].isin(BEAT_SYMBOLS)]
    frame = vitals.hrv(beats["sample"].to_numpy(), 360, labels=beats["symbol"].tolist())
    line = json.loads(run_cli("hrv", "--json", "--beats", f"{record}.atr").stdout)
    assert line["beats"] == len(beats)
    assert_same_hrv(frame, line)


def beats_with_artifacts() -> np.ndarray:
    """300 beats at 250 Hz, RR intervals of about 800 ms on a slow wave, with an ectopic-like short–long
    pair (520 ms, 1080 ms) and a missed beat (an interval of two)."""
    intervals = 200 + np.round(12 * np.sin(np.arange(300) / 5)).astype(np.int64)
    intervals[100], intervals[101] = 130, 270
    intervals[200] += intervals[201]
    intervals = np.delete(intervals, 201)
    return np.concatenate([[500], 500 + np.cumsum(intervals)])


def test_hrv_keeps_every_interval_as_vitals_hrv_no_artifacts(tmp_path):
    peaks = beats_with_artifacts()
    beat_file = tmp_path / "beats.csv"
    pd.DataFrame({"sample": peaks}).to_csv(beat_file, index=False)
    default = vitals.hrv(peaks, 250)
    every = vitals.hrv(peaks, 250, artifacts=False)
    assert_same_hrv(default, json.loads(run_cli("hrv", "--json", "--beats", beat_file, "--rate", 250).stdout))
    line = json.loads(run_cli("hrv", "--json", "--no-artifacts", "--beats", beat_file, "--rate", 250).stdout)
    assert_same_hrv(every, line)
    pd.testing.assert_frame_equal(vitals.hrv(peaks, 250, artifacts=np.True_), default)
    # The premature beat's 520 ms and the missed beat's 1600 ms intervals count only with artifacts=False.
    assert every["HRV_MinNN"][0] == pytest.approx(520) and every["HRV_MaxNN"][0] > 1500
    assert default["HRV_MinNN"][0] > 700 and default["HRV_MaxNN"][0] < 900
    assert every["HRV_RMSSD"][0] > default["HRV_RMSSD"][0]


@pytest.mark.parametrize("artifacts", [0, 1, "no", None])
def test_hrv_refuses_an_artifacts_switch_that_is_not_a_bool(artifacts):
    with pytest.raises(vitals.ArgumentError, match="artifacts"):
        vitals.hrv([100, 300, 500], 250, artifacts=artifacts)


def test_ppg_rate_matches_vitals_hr(simulated):
    recording = vitals.read(simulated["ppg"])
    signals = recording.signals
    windows = vitals.ppg_rate(
        [signals["ppg1"], signals["ppg2"]],
        recording.sampling_rate,
        acceleration=np.stack([signals["acc_x"], signals["acc_y"], signals["acc_z"]]),
    )
    expected = cli_csv("hr", "--signal", "ppg", simulated["ppg"])
    assert len(windows) == len(expected) > 20
    np.testing.assert_array_equal(windows["start_s"], expected["window_start_s"])
    np.testing.assert_array_equal(windows["end_s"], expected["window_end_s"])
    np.testing.assert_allclose(windows["bpm"], expected["bpm"], atol=0.005)
    np.testing.assert_allclose(windows["quality"], expected["quality"], atol=0.0005)
    assert windows["reliable"].tolist() == (windows["quality"] >= 0.3).tolist()


def test_ppg_rate_without_acceleration_window_and_step(simulated, tmp_path):
    alone = tmp_path / "ppg1.csv"
    run_cli("convert", simulated["ppg"], "--channel", "ppg1", "-o", alone)
    recording = vitals.read(alone)
    windows = vitals.ppg_rate(recording.signals["ppg1"], recording.sampling_rate, window=10, step=5)
    expected = cli_csv("hr", "--window", 10, "--step", 5, alone)
    np.testing.assert_array_equal(windows["end_s"], expected["window_end_s"])
    np.testing.assert_allclose(windows["bpm"], expected["bpm"], atol=0.005)
    np.testing.assert_allclose(windows["quality"], expected["quality"], atol=0.0005)
    assert windows["periodic_motion"].isna().all()


def test_steps_match_vitals_steps(simulated, tmp_path):
    recording = vitals.read(simulated["walk"])
    signals = recording.signals
    indices, summary = vitals.steps(signals["acc_x"], signals["acc_y"], signals["acc_z"], recording.sampling_rate)
    events = tmp_path / "events.csv"
    expected = json.loads(run_cli("steps", simulated["walk"], "--events", events).stdout)
    assert summary == expected
    np.testing.assert_array_equal(indices, pd.read_csv(events)["sample"])
    assert len(indices) == summary["steps"] > 50


@pytest.mark.parametrize("placement", ["body", "wrist"])
def test_steps_of_a_phone_walk_match_vitals_steps(placement, tmp_path):
    walk = shared("oxford-steps") / "user1_hand_1506421989895.csv"
    recording = vitals.read(walk)
    axes = [recording.signals[name] for name in ("col1", "col2", "col3")]
    result = vitals.steps(*axes, recording.sampling_rate, unit="m/s^2", placement=placement)
    events = tmp_path / "events.csv"
    arguments = ("--unit", "m/s^2", "--placement", placement, "--events", events)
    assert result.summary == json.loads(run_cli("steps", walk, *arguments).stdout)
    np.testing.assert_array_equal(result.indices, pd.read_csv(events)["sample"])
