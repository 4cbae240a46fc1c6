"""A NeuroKit2-compatible layer: ``import vitals.neurokit as nk`` in a script written for NeuroKit2
0.2.13 runs these functions on Vitals instead, with the same arguments and return shapes.

Covered: ``ecg_peaks``, ``hrv_time``, ``hrv_frequency``, ``hrv_nonlinear`` and ``hrv``. Functions
of NeuroKit2 that are not listed here do not exist in this module.

Differences from NeuroKit2:

- ``ecg_peaks`` runs Vitals' QRS detector (Pan & Tompkins with Hamilton & Tompkins' rules and a
  search-back) on the signal given, raw or cleaned; ``method`` is accepted and recorded in
  ``info["method_peaks"]`` but does not select another detector. ``correct_artifacts=True`` and
  ``show=True`` are not covered (ArgumentError).
- The HRV functions take every interval, as NeuroKit2's do (``vitals.hrv(..., artifacts=False)``,
  ``vitals hrv --no-artifacts``): an ectopic or missed beat counts as NeuroKit2 counts it, and the
  time domain agrees with NeuroKit2's. ``vitals.hrv`` and ``vitals hrv`` by default drop the
  intervals around RR artifacts (Lipponen & Tarvainen 2019) instead.
- ``hrv_frequency`` computes Welch's PSD on a 4 Hz quadratic-spline tachogram without
  normalization: NeuroKit2's ``hrv_frequency(..., interpolation_rate=4, normalize=False)``, not its
  defaults (100 Hz, normalized), and NeuroKit2's default bands; it takes no band or PSD keywords.
- ``hrv_nonlinear`` gives the indices Vitals computes (SD1, SD2, SD1SD2, S, CSI, CVI, ApEn,
  SampEn, DFA_alpha1, DFA_alpha2), a subset of NeuroKit2's columns in NeuroKit2's order.
- The domains are split, and their columns ordered, by NeuroKit2 0.2.13's own column lists (below);
  the indices Vitals adds to
  ``vitals.hrv`` (``HRV_MeanHR``, ``HRV_MinHR``, ``HRV_MaxHR``, the ``*_Peak`` frequencies) are not
  in these tables.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from . import _ecg, _hrv
from ._errors import ArgumentError as _ArgumentError

# NeuroKit2 0.2.13's columns of hrv_time and hrv_frequency, and those of hrv_nonlinear that Vitals
# computes, in NeuroKit2's order.
TIME_COLUMNS = (
    "MeanNN SDNN SDANN1 SDNNI1 SDANN2 SDNNI2 SDANN5 SDNNI5 RMSSD SDSD CVNN CVSD MedianNN MadNN MCVNN "
    "IQRNN SDRMSSD Prc20NN Prc80NN pNN50 pNN20 MinNN MaxNN HTI TINN"
).split()
FREQUENCY_COLUMNS = "ULF VLF LF HF VHF TP LFHF LFn HFn LnHF".split()
NONLINEAR_COLUMNS = "SD1 SD2 SD1SD2 S CSI CVI DFA_alpha1 DFA_alpha2 ApEn SampEn".split()
_DOMAINS = {
    "time": ["HRV_" + name for name in TIME_COLUMNS],
    "frequency": ["HRV_" + name for name in FREQUENCY_COLUMNS],
    "nonlinear": ["HRV_" + name for name in NONLINEAR_COLUMNS],
}


def _not_covered(show: bool) -> None:
    if show:
        raise _ArgumentError("show=True: plots are not covered by vitals.neurokit")


def ecg_peaks(
    ecg_cleaned: Any,
    sampling_rate: float = 1000,
    method: str = "neurokit",
    correct_artifacts: bool = False,
    show: bool = False,
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """R peaks of an ECG (mV) at `sampling_rate` Hz, shaped as NeuroKit2's ``ecg_peaks`` returns them.

    ``method`` is accepted for compatibility and ignored: the detector is Vitals' (see the module
    docstring), which needs no prior ``ecg_clean``.

    Returns:
        ``(signals, info)``: ``signals`` a DataFrame with one int64 column ``ECG_R_Peaks`` (1 at each
        R peak, else 0) as long as the signal; ``info`` a dict with ``method_peaks``,
        ``method_fixpeaks`` ("None"), ``ECG_R_Peaks`` (int64 sample indices) and ``sampling_rate``.
    """
    _not_covered(show)
    if correct_artifacts:
        raise _ArgumentError(
            "correct_artifacts=True is not covered; vitals.hrv (not vitals.neurokit) drops the intervals around "
            "RR artifacts"
        )
    signal = np.asarray(ecg_cleaned)
    peaks = _ecg.ecg_peaks(signal, sampling_rate)
    marks = np.zeros(len(signal), dtype=np.int64)
    marks[peaks] = 1
    info = {"method_peaks": method.lower(), "method_fixpeaks": "None", "ECG_R_Peaks": peaks}
    info["sampling_rate"] = sampling_rate
    return pd.DataFrame({"ECG_R_Peaks": marks}), info


def _peak_indices(peaks: Any, sampling_rate: float) -> tuple[np.ndarray, float]:
    """Peak indices and rate from the inputs NeuroKit2's HRV functions take: indices, a 0/1 series,
    a dict (``info``, with ``sampling_rate`` taking precedence), a DataFrame with a ``*Peak*``
    column, or an ``(signals, info)`` tuple."""
    if isinstance(peaks, tuple):
        info = next((part for part in peaks if isinstance(part, dict)), None)
        if info is None:
            raise _ArgumentError("peaks: a tuple must hold the info dict of ecg_peaks or ppg_peaks")
        return _peak_indices(info, sampling_rate)
    if isinstance(peaks, (dict, pd.DataFrame)):
        names = [name for name in (peaks.keys() if isinstance(peaks, dict) else peaks.columns) if "Peak" in name]
        if len(names) > 1:
            names = [name for name in names if "ECG" in name or "PPG" in name]
        if not names:
            raise _ArgumentError("peaks: no column or key with 'Peak' in its name (e.g. ECG_R_Peaks)")
        if isinstance(peaks, dict) and "sampling_rate" in peaks:
            sampling_rate = peaks["sampling_rate"]
        column = np.asarray(peaks[names[0]])
        if isinstance(peaks, pd.DataFrame) and column.size and np.isin(column, (0, 1)).all():
            # A signals column marks each peak with 1 (all zeros when no beat was found).
            return np.flatnonzero(column), sampling_rate
        peaks = column
    values = np.asarray(peaks)
    if values.size and np.array_equal(np.unique(values), [0, 1]):
        values = np.flatnonzero(values)
    return values, sampling_rate


def _domains(peaks: Any, sampling_rate: float, domains: tuple[str, ...]) -> pd.DataFrame:
    """One row of the library's HRV indices of every interval that belong to `domains`, in NeuroKit2's
    order (the domains in turn, each in its column list's order)."""
    indices, rate = _peak_indices(peaks, sampling_rate)
    values = _hrv.hrv_values(indices, rate, artifacts=False)
    return _hrv.one_row({name: values[name] for domain in domains for name in _DOMAINS[domain]})


def hrv_time(peaks: Any, sampling_rate: float = 1000, show: bool = False) -> pd.DataFrame:
    """Time-domain HRV as NeuroKit2's ``hrv_time``: one row, ``HRV_MeanNN`` ... ``HRV_TINN``
    (intervals in ms, pNN in %)."""
    _not_covered(show)
    return _domains(peaks, sampling_rate, ("time",))


def hrv_frequency(peaks: Any, sampling_rate: float = 1000, show: bool = False) -> pd.DataFrame:
    """Frequency-domain HRV as NeuroKit2's ``hrv_frequency(interpolation_rate=4, normalize=False)``:
    one row, ``HRV_ULF`` ... ``HRV_LnHF`` (powers in ms^2, NaN for bands the record is too short for)."""
    _not_covered(show)
    return _domains(peaks, sampling_rate, ("frequency",))


def hrv_nonlinear(peaks: Any, sampling_rate: float = 1000, show: bool = False) -> pd.DataFrame:
    """Nonlinear HRV: the columns of NeuroKit2's ``hrv_nonlinear`` Vitals computes, in its order
    (``HRV_SD1`` (ms), ``HRV_SD2`` (ms), ``HRV_SD1SD2``, ``HRV_S`` (ms^2), ``HRV_CSI``, ``HRV_CVI``,
    ``HRV_DFA_alpha1``, ``HRV_DFA_alpha2``, ``HRV_ApEn``, ``HRV_SampEn``)."""
    _not_covered(show)
    return _domains(peaks, sampling_rate, ("nonlinear",))


def hrv(peaks: Any, sampling_rate: float = 1000, show: bool = False) -> pd.DataFrame:
    """All three domains as NeuroKit2's ``hrv``: the columns of ``hrv_time``, ``hrv_frequency`` and
    ``hrv_nonlinear`` in one row."""
    _not_covered(show)
    return _domains(peaks, sampling_rate, ("time", "frequency", "nonlinear"))
