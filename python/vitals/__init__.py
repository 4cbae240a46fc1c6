"""Vitals for Python: the Vitals biosignal engine (ECG, PPG and accelerometer recordings) through its
C interface.

Functions (units in each docstring):

- ``read(path, **options)`` → ``Recording``: WFDB, EDF/EDF+, CSV/TSV, Apple Health ECG CSV.
- ``ecg_peaks``, ``ecg_beats``: R peaks and EC57 beat classes in ECG arrays.
- ``hrv``: heart-rate variability with NeuroKit2's column names.
- ``ppg_rate``: heart rate per window from PPG, motion-corrected with accelerometer axes.
- ``steps``: steps and walking bouts in 3-axis acceleration.
- ``analyze``: the whole-recording summary of ``vitals analyze``, one row per recording.
- ``stats``, ``stats_partial``, ``merge_partials``, ``stats_table``: HealthKit-style statistics
  and their mergeable partials.
- ``version``, ``build_info``.

``vitals.neurokit`` is a NeuroKit2-compatible layer; ``vitals.dask`` runs analyses and statistics on
a Dask cluster. Every call into the library releases the GIL (it is loaded with ``ctypes.CDLL``), so
threads run calls in parallel. Failures raise ``VitalsError`` subclasses: ``InputError``,
``ArgumentError`` (also a ``ValueError``) and ``OutputError``, with the library's message.
"""

from __future__ import annotations

import json
from typing import Any

from . import _native
from ._analysis import TIMING_FIELDS, analyze
from ._ecg import ecg_beats, ecg_peaks
from ._errors import ArgumentError, InputError, OutputError, VitalsError
from ._hrv import hrv
from ._ppg import ppg_rate
from ._recording import Recording, annotations, read
from ._statistics import merge_partials, stats, stats_partial, stats_table
from ._steps import Steps, steps

__version__ = "0.1.0"


def version() -> str:
    """The version of the loaded Vitals library (as ``vitals --version`` prints it)."""
    return _native.lib.vitals_version().decode("utf-8")


def build_info() -> dict[str, Any]:
    """How the loaded library was built: version, abi, swift (the compiler), configuration (debug
    or release), simd (the kernels' lane width), fftw."""
    return json.loads(_native.lib.vitals_build_info().decode("utf-8"))


__all__ = [
    "ArgumentError",
    "InputError",
    "OutputError",
    "Recording",
    "Steps",
    "TIMING_FIELDS",
    "VitalsError",
    "analyze",
    "annotations",
    "build_info",
    "ecg_beats",
    "ecg_peaks",
    "hrv",
    "merge_partials",
    "ppg_rate",
    "read",
    "stats",
    "stats_partial",
    "stats_table",
    "steps",
    "version",
]
