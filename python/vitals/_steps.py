"""Step counting in 3-axis acceleration."""

from __future__ import annotations

from ctypes import byref, c_int64
from typing import Any, NamedTuple

import numpy as np

from . import _native


class Steps(NamedTuple):
    """Steps found in an acceleration recording (unpacks as ``indices, summary``).

    Attributes:
        indices: the sample index (int64, 0-based) of each step.
        summary: ``steps`` (count), ``walking_s`` (seconds from the first to the last step of each
            bout, summed), ``cadence_spm`` (steps per minute of walking) and ``bouts`` (a list of
            ``{"start_s", "end_s", "steps"}``, seconds from the first sample).
    """

    indices: np.ndarray
    summary: dict[str, Any]


def steps(
    x: Any, y: Any, z: Any, sampling_rate: float, *, unit: str = "automatic", placement: str = "body"
) -> Steps:
    """Steps and walking bouts in three accelerometer axes, as ``vitals steps`` counts them.

    Args:
        x, y, z: 1-D arrays of one length, in g or m/s^2.
        sampling_rate: in Hz (15 Hz to 1 kHz).
        unit: "automatic" (recognized from the gravity level), "g" or "m/s^2".
        placement: "body" (trunk, pocket, bag, hand, arm, ankle) or "wrist" (a watch).
    """
    axes = [_native.float32_vector(axis, name) for axis, name in ((x, "x"), (y, "y"), (z, "z"))]
    length = _native.same_length(axes, "x, y, z")
    count = c_int64()
    with _native.returned(2) as (indices, summary):
        _native.call(
            _native.lib.vitals_steps,
            _native.address(axes[0]),
            _native.address(axes[1]),
            _native.address(axes[2]),
            length,
            _native.number(sampling_rate, "sampling_rate"),
            unit.encode(),
            placement.encode(),
            byref(indices),
            byref(count),
            byref(summary),
        )
        return Steps(_native.int64_array(indices.value, count.value), _native.json_value(summary))
