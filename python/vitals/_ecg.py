"""R-peak detection and beat classification in ECG arrays."""

from __future__ import annotations

import ctypes
from ctypes import c_int64, c_void_p
from typing import Any

import numpy as np
import pandas as pd

from . import _native


class _Outputs(ctypes.Structure):
    """A one-lead pointer and the out-parameters of one ``vitals_ecg_beats`` call, in one ctypes object
    whose fields' addresses the call takes: on a short signal, a ctypes object and a ``byref`` per
    out-parameter would cost more than the detection."""

    _fields_ = [("lead", c_void_p), ("peaks", c_void_p), ("labels", c_void_p), ("count", c_int64), ("error", c_void_p)]


_LEAD, _PEAKS, _LABELS, _COUNT, _ERROR = (
    getattr(_Outputs, field).offset for field in ("lead", "peaks", "labels", "count", "error")
)


def _beats(leads: list[np.ndarray], sampling_rate: float, classify: bool) -> tuple[np.ndarray, str | None]:
    """Peak indices (int64, samples) and, with `classify`, one EC57 class letter per beat."""
    outputs = _Outputs()
    base = ctypes.addressof(outputs)
    if len(leads) == 1:
        outputs.lead = _native.address(leads[0])
        lead_pointers: Any = base + _LEAD
    else:
        lead_pointers = _native.pointers(leads)
    try:
        status = _native.lib.vitals_ecg_beats(
            lead_pointers,
            len(leads),
            len(leads[0]),
            float(sampling_rate),
            base + _PEAKS,
            base + _LABELS if classify else None,
            base + _COUNT,
            base + _ERROR,
        )
        if status:
            _native.raise_failure(status, outputs.error)
        letters = _native.data(outputs.labels, outputs.count).decode("ascii") if classify else None
        return _native.int64_array(outputs.peaks, outputs.count), letters
    finally:
        for pointer in (outputs.peaks, outputs.labels):
            if pointer:
                _native.lib.vitals_free(pointer)


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
