"""Heart rate from PPG per window, with motion correction from accelerometer axes."""

from __future__ import annotations

from ctypes import byref
from typing import Any

import pandas as pd

from . import _native
from ._errors import ArgumentError

WINDOW_COLUMNS = ["start_s", "end_s", "bpm", "quality", "reliable", "periodic_motion"]


def ppg_rate(
    ppg: Any, sampling_rate: float, *, acceleration: Any = None, window: float = 8.0, step: float = 2.0
) -> pd.DataFrame:
    """Heart rate per window from PPG, as ``vitals hr --signal ppg`` computes it.

    Args:
        ppg: one PPG channel (1-D array, any unit) or several (2-D array with one channel per row,
            a DataFrame with one per column, or a sequence of 1-D arrays), all of one length.
        sampling_rate: in Hz (at least 25).
        acceleration: None, or the three accelerometer axes (x, y, z) in the same forms, as long
            as the PPG; their spectrum is subtracted from the PPG's.
        window: window length, in seconds.
        step: time between window starts, in seconds.

    Returns:
        One row per window: ``start_s`` and ``end_s`` (seconds from the first sample), ``bpm``
        (beats per minute, NaN without usable signal), ``quality`` (0–1; below 0.3 not
        ``reliable``), ``reliable`` (bool) and ``periodic_motion`` (0–1: how periodic the
        acceleration is, 1 in locomotion, when the pulse may lock to the cadence; NaN without axes).
    """
    signals = _native.channels(ppg, "ppg")
    axes = [] if acceleration is None else _native.channels(acceleration, "acceleration")
    if axes and len(axes) != 3:
        raise ArgumentError(f"acceleration: expected the 3 axes x, y, z, got {len(axes)} channels")
    length = _native.same_length(signals + axes, "ppg and acceleration")
    with _native.returned(1) as (result,):
        _native.call(
            _native.lib.vitals_ppg_rate,
            _native.pointers(signals),
            len(signals),
            _native.pointers(axes) if axes else None,
            len(axes),
            length,
            _native.number(sampling_rate, "sampling_rate"),
            _native.number(window, "window"),
            _native.number(step, "step"),
            byref(result),
        )
        windows = _native.json_value(result)["windows"]
    frame = pd.DataFrame(windows, columns=WINDOW_COLUMNS)
    return frame.astype({"bpm": float, "quality": float, "reliable": bool, "periodic_motion": float})
