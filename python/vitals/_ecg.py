"""R-peak detection and beat classification in ECG arrays."""

from __future__ import annotations

import ctypes
from ctypes import c_int64, c_void_p
from typing import Any

import numpy as np
import pandas as pd

from . import _native


class _Outputs(ctypes.Structure):
    """The out-parameters of one ``vitals_ecg_peaks`` or ``vitals_ecg_beats`` call, in one ctypes object
    whose fields' addresses the call takes: on a short signal, a ctypes object and a ``byref`` per
    out-parameter would cost more than the detection."""

    _fields_ = [("peaks", c_void_p), ("labels", c_void_p), ("count", c_int64), ("error", c_void_p)]


_ONE = 1
_PEAKS, _LABELS, _COUNT, _ERROR = (getattr(_Outputs, field).offset for field in ("peaks", "labels", "count", "error"))


def _peaks(outputs: _Outputs, status: int) -> np.ndarray:
    """The peaks a ``vitals_ecg_peaks`` or ``vitals_ecg_beats`` call left in `outputs` (int64, samples), or its failure raised;
    the library's peak buffer is freed either way."""
    try:
        if status:
            _native.raise_failure(status, outputs.error)
        return _native.int64_array(outputs.peaks, outputs.count)
    finally:
        if outputs.peaks:
            _native.lib.vitals_free(outputs.peaks)


def ecg_peaks(signal: Any, sampling_rate: float, jobs: int = 1) -> np.ndarray:
    """The R peaks of one ECG lead, as ``vitals beats`` finds them (causal QRS detector with search-back).

    Args:
        signal: 1-D samples in mV (float32 C-contiguous arrays pass without a copy; others are
            converted once).
        sampling_rate: in Hz.
        jobs: threads (at least 1). With 2 or more, a second thread filters the signal while the
            calling one decides on the beats: the same peaks, sooner on a long signal where two cores
            are free (the GIL is released either way).

    Returns:
        The sample indices (0-based, int64) of the R peaks.
    """
    lead = _native.centered_float32_vector(signal, "signal")
    if jobs is not _ONE:  # the default passes as it is; anything else (True included) is checked
        jobs = _native.positive_int32(jobs, "jobs")
    rate = _native.number(sampling_rate, "sampling_rate")
    outputs = _Outputs()
    base = ctypes.addressof(outputs)
    status = _native.lib.vitals_ecg_peaks(
        _native.address(lead), len(lead), rate, jobs, base + _PEAKS, base + _COUNT, base + _ERROR
    )
    return _peaks(outputs, status)


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
    arrays = _native.channels(leads, "leads", centered=True)
    outputs = _Outputs()
    base = ctypes.addressof(outputs)
    status = _native.lib.vitals_ecg_beats(
        _native.pointers(arrays),
        len(arrays),
        len(arrays[0]),
        _native.number(sampling_rate, "sampling_rate"),
        base + _PEAKS,
        base + _LABELS,
        base + _COUNT,
        base + _ERROR,
    )
    try:
        labels = _native.data(outputs.labels, outputs.count).decode("ascii")
    finally:
        if outputs.labels:
            _native.lib.vitals_free(outputs.labels)
    return pd.DataFrame({"sample": _peaks(outputs, status), "label": list(labels)})
