"""`vitals.neurokit` against NeuroKit2 0.2.13 itself: return shapes and types, column names, values."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import vitals
import vitals.neurokit as vnk

nk = pytest.importorskip("neurokit2")


@pytest.fixture(scope="module")
def peaks() -> np.ndarray:
    """An artifact-free beat series at 1000 Hz: RR intervals of 850 ms with LF and HF waves and noise."""
    beats = np.arange(400)
    rng = np.random.default_rng(7)
    rr = 850 + 40 * np.sin(2 * np.pi * 0.085 * beats) + 25 * np.sin(2 * np.pi * 0.2125 * beats) + rng.normal(0, 8, 400)
    return np.concatenate([[1000], 1000 + np.cumsum(np.round(rr))]).astype(np.int64)


def neurokit(function, *arguments, **keywords):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*arguments, **keywords)


def test_ecg_peaks_returns_neurokit_shapes_and_types(simulated):
    ecg = vitals.read(simulated["clean_ecg"]).signals["ecg"]
    signals, info = vnk.ecg_peaks(ecg, sampling_rate=250)
    cleaned = neurokit(nk.ecg_clean, ecg, sampling_rate=250)
    expected_signals, expected_info = neurokit(nk.ecg_peaks, cleaned, sampling_rate=250)
    assert type(signals) is type(expected_signals)
    assert signals.shape == expected_signals.shape
    assert signals.columns.tolist() == expected_signals.columns.tolist() == ["ECG_R_Peaks"]
    assert signals.dtypes.tolist() == expected_signals.dtypes.tolist()
    assert signals.index.equals(expected_signals.index)
    assert list(info) == list(expected_info)
    for key in info:
        assert type(info[key]) is type(expected_info[key]), key
    assert info["ECG_R_Peaks"].dtype == expected_info["ECG_R_Peaks"].dtype
    assert info["sampling_rate"] == 250 and info["method_peaks"] == "neurokit"
    np.testing.assert_array_equal(np.flatnonzero(signals["ECG_R_Peaks"]), info["ECG_R_Peaks"])
    np.testing.assert_array_equal(info["ECG_R_Peaks"], vitals.ecg_peaks(ecg, 250))
    # The two detectors find the same beats to within 40 ms but for the first and last second.
    inner = info["ECG_R_Peaks"][(info["ECG_R_Peaks"] > 250) & (info["ECG_R_Peaks"] < len(ecg) - 250)]
    distance = np.abs(inner[:, None] - expected_info["ECG_R_Peaks"][None, :]).min(axis=1)
    assert (distance <= 10).all()


def test_domains_have_neurokit_column_names(peaks):
    time = vnk.hrv_time(peaks, sampling_rate=1000)
    frequency = vnk.hrv_frequency(peaks, sampling_rate=1000)
    nonlinear = vnk.hrv_nonlinear(peaks, sampling_rate=1000)
    assert time.columns.tolist() == neurokit(nk.hrv_time, peaks, sampling_rate=1000).columns.tolist()
    assert frequency.columns.tolist() == neurokit(nk.hrv_frequency, peaks, sampling_rate=1000).columns.tolist()
    expected = neurokit(nk.hrv_nonlinear, peaks, sampling_rate=1000).columns
    assert set(nonlinear.columns) <= set(expected)
    assert len(nonlinear.columns) == len(vnk.NONLINEAR_COLUMNS)
    # NeuroKit2's order: DFA_alpha1 and DFA_alpha2 come before ApEn and SampEn.
    assert nonlinear.columns.tolist() == [name for name in expected if name in set(nonlinear.columns)]
    combined = vnk.hrv(peaks, sampling_rate=1000)
    assert combined.columns.tolist() == time.columns.tolist() + frequency.columns.tolist() + nonlinear.columns.tolist()
    expected_combined = neurokit(nk.hrv, peaks, sampling_rate=1000).columns
    assert combined.columns.tolist() == [name for name in expected_combined if name in set(combined.columns)]


def test_values_match_neurokit_on_an_artifact_free_series(peaks):
    time = vnk.hrv_time(peaks, sampling_rate=1000)
    expected_time = neurokit(nk.hrv_time, peaks, sampling_rate=1000)
    for name in ("HRV_SDNN", "HRV_RMSSD"):
        assert time[name][0] == pytest.approx(expected_time[name][0], rel=0.01)
    pd.testing.assert_frame_equal(time, expected_time, rtol=1e-6)
    frequency = vnk.hrv_frequency(peaks, sampling_rate=1000)
    expected_frequency = neurokit(nk.hrv_frequency, peaks, sampling_rate=1000, interpolation_rate=4, normalize=False)
    pd.testing.assert_frame_equal(frequency, expected_frequency, rtol=1e-6)
    nonlinear = vnk.hrv_nonlinear(peaks, sampling_rate=1000)
    expected_nonlinear = neurokit(nk.hrv_nonlinear, peaks, sampling_rate=1000)
    pd.testing.assert_frame_equal(nonlinear, expected_nonlinear[nonlinear.columns], rtol=1e-6)


def test_every_interval_counts_as_in_neurokit(peaks):
    """NeuroKit2's HRV functions never remove artifacts: with an ectopic-like short–long pair and a
    missed beat, vitals.neurokit gives NeuroKit2's values, and vitals.hrv (which drops them) does not."""
    intervals = np.diff(peaks)
    intervals[100], intervals[101] = intervals[100] - 300, intervals[101] + 300
    intervals[200] += intervals[201]
    with_artifacts = np.concatenate([peaks[:1], peaks[0] + np.cumsum(np.delete(intervals, 201))])
    time = vnk.hrv_time(with_artifacts, sampling_rate=1000)
    pd.testing.assert_frame_equal(time, neurokit(nk.hrv_time, with_artifacts, sampling_rate=1000), rtol=1e-6)
    frequency = vnk.hrv_frequency(with_artifacts, sampling_rate=1000)
    expected_frequency = neurokit(
        nk.hrv_frequency, with_artifacts, sampling_rate=1000, interpolation_rate=4, normalize=False
    )
    pd.testing.assert_frame_equal(frequency, expected_frequency, rtol=1e-6)
    nonlinear = vnk.hrv_nonlinear(with_artifacts, sampling_rate=1000)
    expected_nonlinear = neurokit(nk.hrv_nonlinear, with_artifacts, sampling_rate=1000)
    pd.testing.assert_frame_equal(nonlinear, expected_nonlinear[nonlinear.columns], rtol=1e-6)
    pd.testing.assert_frame_equal(time, vitals.hrv(with_artifacts, 1000, artifacts=False)[time.columns])
    assert vitals.hrv(with_artifacts, 1000)["HRV_RMSSD"][0] < time["HRV_RMSSD"][0]


def test_peaks_in_every_form_neurokit_takes(peaks):
    expected = vnk.hrv_time(peaks, sampling_rate=1000)
    marks = np.zeros(peaks[-1] + 1, dtype=np.int64)
    marks[peaks] = 1
    signals = pd.DataFrame({"ECG_R_Peaks": marks})
    info = {"ECG_R_Peaks": peaks, "sampling_rate": 1000}
    for form in (peaks.tolist(), marks, signals, info, {"PPG_Peaks": peaks}, (signals, info)):
        pd.testing.assert_frame_equal(vnk.hrv_time(form, sampling_rate=1000), expected)
    # The rate an info dict states wins over the argument, as in NeuroKit2.
    pd.testing.assert_frame_equal(vnk.hrv_time(info, sampling_rate=250), expected)


def test_uncovered_arguments_are_refused(peaks):
    with pytest.raises(vitals.ArgumentError, match="show"):
        vnk.hrv_time(peaks, show=True)
    with pytest.raises(vitals.ArgumentError, match="correct_artifacts"):
        vnk.ecg_peaks(np.zeros(1000, dtype=np.float32), correct_artifacts=True)
    with pytest.raises(vitals.ArgumentError, match="Peak"):
        vnk.hrv_time({"RSP_Troughs": peaks})
    assert not hasattr(vnk, "ecg_clean")


def test_a_column_of_indices_stays_indices(peaks):
    expected = vnk.hrv_time(peaks, sampling_rate=1000)
    pd.testing.assert_frame_equal(vnk.hrv_time(pd.DataFrame({"ECG_R_Peaks": peaks}), sampling_rate=1000), expected)


def test_a_signals_column_without_beats_is_no_peaks_not_indices():
    # ecg_peaks' signals for a flat lead: a column of zeros, read before as the indices 0, 0, 0, ...
    flat = pd.DataFrame({"ECG_R_Peaks": np.zeros(5000, dtype=np.int64)})
    assert vnk.hrv_time(flat, sampling_rate=250)["HRV_MeanNN"].isna().all()
