"""Whole-recording analysis: the JSON summary ``vitals analyze`` prints, one per recording."""

from __future__ import annotations

import concurrent.futures
import os
from collections.abc import Iterable, Sequence
from ctypes import byref
from typing import Any, Union

import pandas as pd

from . import _native
from ._errors import InputError

PathLike = Union[str, bytes, "os.PathLike[str]"]
TIMING_FIELDS = ("processing_s", "samples_per_s")
"""Summary fields that measure the run rather than the recording (they differ between runs)."""


def path_list(paths: PathLike | Iterable[PathLike]) -> list[str | bytes]:
    """One path (a str, bytes or path object), or an iterable of them, as a list of str or bytes."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(path) for path in paths]


def analyze_recording(path: PathLike, words: Sequence[str], samples: bool = False) -> tuple[dict[str, Any], str]:
    """The summary of one recording (a dict) and, with `samples`, its derived samples file
    (``NAME.samples.jsonl`` text; "" when the recording states no start time)."""
    options, count = _native.strings(words)
    with _native.returned(2) as (summary, derived):
        _native.call(
            _native.lib.vitals_analyze,
            _native.encoded_path(path),
            options,
            count,
            byref(summary),
            byref(derived) if samples else None,
        )
        return _native.json_value(summary), _native.text(derived)


def summary_or_error(path: PathLike, words: Sequence[str]) -> dict[str, Any]:
    """The summary of one recording, or ``{"path", "error"}`` when it cannot be read (InputError)."""
    try:
        return analyze_recording(path, words)[0]
    except InputError as error:
        return {"path": os.fsdecode(path), "error": str(error)}


def summaries_frame(summaries: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Summaries as a DataFrame: one row each, nested objects flattened to dotted columns
    (``ecg.hrv.SDNN``), lists kept as objects, and an ``error`` column (None where analyzed)."""
    frame = pd.json_normalize(list(summaries)).drop(columns="error", errors="ignore")
    frame["error"] = pd.Series([summary.get("error") for summary in summaries], dtype=object)
    return frame


def analyze(paths: PathLike | Iterable[PathLike], jobs: int | None = None, **options: Any) -> pd.DataFrame:
    """Analyzes recordings as ``vitals analyze`` does: ECG (beats, heart rate, HRV, rhythm), PPG
    (pulse rate) and accelerometer (steps, motion) pipelines, by the channels each recording has.

    Args:
        paths: a recording or recordings (WFDB records, EDF/EDF+, CSV/TSV files; not folders or globs).
        jobs: recordings analyzed at once on a thread pool (the library releases the GIL); None
            analyzes them one after the other in the calling thread.
        options: ``vitals analyze`` options as keywords (``placement="wrist"``, ``height=1.75`` (m),
            ``start="2024-03-10T08:00:00Z"``, ``ecg="MLII"``, ``rate=100`` (Hz), ...).

    Returns:
        One row per recording in input order, the summary ``vitals analyze`` prints flattened to
        dotted columns (``duration_s``, ``ecg.beats``, ``ecg.hrv.RMSSD`` (ms), ``steps.steps``, ...).
        A recording that cannot be read (InputError) does not stop the others: its row has the
        library's message in the ``error`` column (None elsewhere). Other errors (a bad option:
        ArgumentError) raise.
    """
    files = path_list(paths)
    words = _native.option_words(options)
    if jobs is None:
        summaries = [summary_or_error(path, words) for path in files]
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as executor:
            summaries = list(executor.map(lambda path: summary_or_error(path, words), files))
    return summaries_frame(summaries)
