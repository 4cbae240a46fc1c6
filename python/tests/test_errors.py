"""Failures become the package's exceptions with the library's message; arrays of other dtypes,
shapes and layouts are converted once or refused clearly."""

from __future__ import annotations

import math

import numpy as np
import pytest

import vitals
from conftest import EXAMPLE_ECG, FIXTURES


@pytest.fixture(scope="module")
def ecg() -> np.ndarray:
    return vitals.read(EXAMPLE_ECG).signals["ecg"]


def test_a_missing_file_is_an_input_error_naming_it(tmp_path):
    missing = tmp_path / "absent.csv"
    for call in (
        lambda: vitals.read(missing),
        lambda: vitals.stats(missing, "stepCount"),
        lambda: vitals.annotations(tmp_path / "absent"),
    ):
        with pytest.raises(vitals.InputError, match="absent"):
            call()


@pytest.mark.parametrize("rate", [math.nan, -250.0, 0.0, math.inf])
def test_absurd_rates_are_argument_errors(ecg, rate):
    with pytest.raises(vitals.ArgumentError, match="sample_rate"):
        vitals.ecg_peaks(ecg, rate)
    with pytest.raises(vitals.ArgumentError, match="sample_rate"):
        vitals.hrv([100, 300, 500], rate)
    with pytest.raises(vitals.ArgumentError, match="sample_rate"):
        vitals.steps(ecg, ecg, ecg, rate)


@pytest.mark.parametrize("rate", [math.nan, -5])
def test_a_bad_rate_option_is_an_argument_error(rate):
    with pytest.raises(vitals.ArgumentError, match="--rate must be"):
        vitals.read(EXAMPLE_ECG, rate=rate)


def test_bad_options_are_argument_errors(ecg):
    with pytest.raises(vitals.ArgumentError, match="--bogus"):
        vitals.read(EXAMPLE_ECG, bogus=1)
    with pytest.raises(vitals.ArgumentError, match="placement"):
        vitals.analyze([EXAMPLE_ECG], placement="hat")
    with pytest.raises(vitals.ArgumentError, match="unit"):
        vitals.steps(ecg, ecg, ecg, 250, unit="furlongs")
    with pytest.raises(vitals.ArgumentError, match="interval"):
        vitals.stats(FIXTURES / "health-export" / "export.xml", "stepCount", "fortnight")
    with pytest.raises(vitals.ArgumentError, match="strictly increasing"):
        vitals.hrv([300, 200, 100], 250)
    with pytest.raises(vitals.ArgumentError):
        vitals.stats_table(b"{}", "xml")


def test_argument_errors_are_value_errors_and_vitals_errors(ecg):
    with pytest.raises(ValueError):
        vitals.ecg_peaks(ecg, -1)
    assert issubclass(vitals.InputError, vitals.VitalsError)
    assert issubclass(vitals.OutputError, vitals.VitalsError)


def test_contiguous_float32_and_int64_arrays_pass_without_a_copy(ecg):
    from vitals import _native

    assert _native.float32_vector(ecg, "signal") is ecg
    peaks = vitals.ecg_peaks(ecg, 250)
    assert _native.int64_vector(peaks, "peaks") is peaks
    assert _native.float32_vector(ecg[::2], "signal") is not ecg


def test_float64_strided_and_list_inputs_give_the_float32_result(ecg):
    expected = vitals.ecg_peaks(ecg, 250)
    np.testing.assert_array_equal(vitals.ecg_peaks(ecg.astype(np.float64), 250), expected)
    interleaved = np.empty(2 * len(ecg), dtype=np.float32)
    interleaved[::2] = ecg
    np.testing.assert_array_equal(vitals.ecg_peaks(interleaved[::2], 250), expected)
    np.testing.assert_array_equal(vitals.ecg_peaks(ecg.tolist(), 250), expected)
    np.testing.assert_array_equal(vitals.hrv(expected.astype(np.int32), 250), vitals.hrv(expected, 250))


def test_wrong_shapes_and_lengths_are_argument_errors(ecg):
    with pytest.raises(vitals.ArgumentError, match="1-D"):
        vitals.ecg_peaks(np.stack([ecg, ecg]), 250)
    with pytest.raises(vitals.ArgumentError, match="1-D"):
        vitals.ecg_peaks(np.float32(1.0), 250)
    with pytest.raises(vitals.ArgumentError, match="different lengths"):
        vitals.ecg_beats([ecg, ecg[:-1]], 250)
    with pytest.raises(vitals.ArgumentError, match="different lengths"):
        vitals.steps(ecg, ecg, ecg[:-1], 250)
    with pytest.raises(vitals.ArgumentError, match="3 axes"):
        vitals.ppg_rate(ecg, 250, acceleration=[ecg, ecg])
    with pytest.raises(vitals.ArgumentError, match="integer"):
        vitals.hrv([1.5, 2.5, 3.5], 250)
    with pytest.raises(vitals.ArgumentError, match="one per beat"):
        vitals.hrv([100, 300, 500], 250, labels="NN")


def test_a_two_dimensional_array_holds_one_lead_per_row(ecg):
    leads = np.stack([ecg, -ecg])
    by_rows = vitals.ecg_beats(leads, 250)
    by_list = vitals.ecg_beats([leads[0], leads[1]], 250)
    assert by_rows.equals(by_list)
    np.testing.assert_array_equal(by_rows["sample"], vitals.ecg_peaks(ecg, 250))


def test_samples_by_channels_is_refused_not_read_as_thousands_of_channels(ecg):
    # DataFrame.to_numpy() and np.column_stack give (samples, channels); read by rows, that was
    # thousands of two-sample leads and no beat, without an error.
    columns = np.column_stack([ecg, -ecg])
    with pytest.raises(vitals.ArgumentError, match=r"\.T"):
        vitals.ecg_beats(columns, 250)
    with pytest.raises(vitals.ArgumentError, match="one channel per row"):
        vitals.ppg_rate(np.column_stack([ecg, ecg, ecg, ecg]), 250)
    assert vitals.ecg_beats(columns.T, 250).equals(vitals.ecg_beats(np.stack([ecg, -ecg]), 250))


def test_a_float64_lead_on_a_large_offset_keeps_its_beats(ecg):
    # float32 keeps 24 bits: 1e7 + an ECG in mV lost the ECG before it reached the detector (346 beats).
    expected = vitals.ecg_peaks(ecg, 250)
    np.testing.assert_array_equal(vitals.ecg_peaks(ecg.astype(np.float64) + 1e7, 250), expected)
    both = vitals.ecg_beats([ecg.astype(np.float64) + 1e7, -ecg.astype(np.float64) - 5e6], 250)
    assert both.equals(vitals.ecg_beats([ecg, -ecg], 250))


def test_non_numeric_rates_name_the_argument(ecg):
    import decimal

    expected = vitals.ecg_peaks(ecg, 250)
    for good in (np.float32(250), np.int64(250), np.array(250.0), decimal.Decimal("250")):
        np.testing.assert_array_equal(vitals.ecg_peaks(ecg, good), expected)
    for bad in ("250", True, None):
        with pytest.raises(vitals.ArgumentError, match="sampling_rate: expected a number"):
            vitals.ecg_peaks(ecg, bad)
    with pytest.raises(vitals.ArgumentError, match="window: expected a number"):
        vitals.ppg_rate(ecg, 250, window="8")
