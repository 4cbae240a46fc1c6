"""Heart-rate variability of beat sequences, with NeuroKit2's column names."""

from __future__ import annotations

from ctypes import byref
from typing import Any

import numpy as np
import pandas as pd

from . import _native
from ._errors import ArgumentError


def hrv_values(peaks: Any, sampling_rate: float, labels: Any = None, artifacts: Any = True) -> dict[str, float]:
    """The HRV indices as the library returns them (NeuroKit2's names, the library's order, NaN for
    undefined); with `artifacts` False, of every interval (``vitals hrv --no-artifacts``)."""
    indices = _native.int64_vector(peaks, "peaks")
    rate = _native.number(sampling_rate, "sampling_rate")
    options, option_count = _native.strings([] if _native.boolean(artifacts, "artifacts") else ["--no-artifacts"])
    letters = None
    if labels is not None:
        try:
            letters = "".join(labels).encode("ascii")
        except (TypeError, UnicodeEncodeError) as error:
            raise ArgumentError(f"labels: expected MIT beat symbols such as N and V, one per peak ({error})") from None
        if len(letters) != len(indices):
            raise ArgumentError(f"labels: {len(letters)} letters for {len(indices)} peaks; give one per beat")
    with _native.returned(1) as (result,):
        _native.call(
            _native.lib.vitals_hrv_with_options,
            _native.address(indices),
            len(indices),
            rate,
            letters,
            options,
            option_count,
            byref(result),
        )
        values = _native.json_value(result)
    return {name: np.nan if value is None else float(value) for name, value in values.items()}


def hrv(peaks: Any, sampling_rate: float, labels: Any = None, *, artifacts: bool = True) -> pd.DataFrame:
    """Time, frequency and nonlinear HRV indices of a beat sequence, as ``vitals hrv`` computes them.

    RR artifacts (Lipponen & Tarvainen 2019) are found and the intervals around them dropped, unless
    ``artifacts=False``; the frequency domain uses Welch's method on a 4 Hz quadratic-spline
    tachogram (NeuroKit2's ``interpolation_rate=4, normalize=False``).

    Args:
        peaks: strictly increasing beat sample indices (int64 arrays pass without a copy).
        sampling_rate: of the indices, in Hz.
        labels: optional, one MIT beat symbol per peak ("N", "V", ...; a string or a sequence of
            one-letter strings); then only N-to-N intervals count.
        artifacts: True (the default) to find RR artifact beats (ectopic, missed and extra beats) and
            drop the intervals around them; False to keep every interval, as ``vitals hrv
            --no-artifacts``.

    Returns:
        One row; columns named as NeuroKit2's (``HRV_MeanNN``, ``HRV_SDNN``, ``HRV_RMSSD``, ...) in
        the library's order, in NeuroKit2's units (intervals in ms, powers in ms^2, frequencies in
        Hz, rates in beats per minute), NaN where undefined (too short a record).
    """
    return one_row(hrv_values(peaks, sampling_rate, labels, artifacts))


def one_row(values: dict[str, float]) -> pd.DataFrame:
    """A one-row float64 DataFrame of `values`, columns in their order (built from one array: about
    ten times faster than from a list of one dict)."""
    return pd.DataFrame(np.fromiter(values.values(), float, len(values))[None, :], columns=list(values))
