"""R-peak detection and beat classification in ECG arrays."""

from __future__ import annotations

from ctypes import byref, c_int64, c_void_p
from typing import Any

import numpy as np
import pandas as pd

from . import _native


def _beats(leads: list[np.ndarray], sampling_rate: float, classify: bool) -> tuple[np.ndarray, str | None]:
    """Peak indices (int64, samples) and, with `classify`, one EC57 class letter per beat.

    The out-parameters are plain ctypes objects freed in one ``finally`` (rather than
    `_native.returned`): ``ecg_peaks`` on short arrays is the call whose overhead matters most."""
    peaks, count = c_void_p(), c_int64()
    labels = c_void_p() if classify else None
    try:
        _native.call(
            _native.lib.vitals_ecg_beats,
            _native.pointers(leads),
            len(leads),
            len(leads[0]),
            float(sampling_rate),
            byref(peaks),
            byref(labels) if labels is not None else None,
            byref(count),
        )
        letters = _native.data(labels, count.value).decode("ascii") if labels is not None else None
        return _native.int64_array(peaks, count.value), letters
    finally:
        if peaks.value:
            _native.lib.vitals_free(peaks)
        if labels is not None and labels.value:
            _native.lib.vitals_free(labels)


def ecg_peaks(signal: Any, sampling_rate: float) -> np.ndarray:
    """The R peaks of one ECG lead, as ``vitals beats`` finds them (causal QRS detector with search-back).

    Args:
        signal: 1-D samples in mV (float32 C-contiguous arrays pass without a copy; others are
            converted once).
        sampling_rate: in Hz.

    Returns:
        The sample indices (0-based, int64) of the R peaks.
    """
    return _beats([_native.float32_vector(signal, "signal")], sampling_rate, classify=False)[0]


def ecg_beats(leads: Any, sampling_rate: float) -> pd.DataFrame:
    """The beats of an ECG with their EC57 class, as ``vitals beats`` gives them.

    Args:
        leads: one lead (a 1-D array in mV) or several: a 2-D array with one lead per row, a
            DataFrame with one lead per column, a mapping name → array (``Recording.signals``) or
            a sequence of equally long 1-D arrays. Detection
            runs on the first lead; the class of each beat comes from its morphology on every lead
            and its timing.
        sampling_rate: in Hz.

    Returns:
        A DataFrame with columns ``sample`` (int64 R-peak index, in samples) and ``label`` (N, S, V,
        F or Q).
    """
    peaks, labels = _beats(_native.channels(leads, "leads"), sampling_rate, classify=True)
    return pd.DataFrame({"sample": peaks, "label": list(labels or "")})
