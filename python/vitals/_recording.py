"""Reading recordings (WFDB, EDF/EDF+, CSV/TSV, Apple Health ECG CSV) into NumPy arrays."""

from __future__ import annotations

import dataclasses
import datetime
import os
from ctypes import byref, c_int64, c_void_p
from typing import Any

import numpy as np
import pandas as pd

from . import _native

CHUNK_SAMPLES = 65536
"""Samples per channel read in one call of ``vitals_recording_read``."""


@dataclasses.dataclass
class Recording:
    """A recording read into memory.

    Attributes:
        signals: signal name → float32 samples in physical units (mV, g, m/s^2, ...), NaN where a
            sample is invalid; every signal at ``sampling_rate`` (for an EDF file with signals at
            several rates, those of the first signal's rate, or of the ``channel`` option's). A
            repeated name gets a suffix as pandas gives repeated CSV columns ("ECG.1").
        sampling_rate: the rate of the arrays, in Hz.
        sampling_rates: signal name → the rate the file states for it, in Hz.
        units: signal name → its unit as the file states it ("" when none).
        start_time: the time of the first sample (timezone-aware, UTC), or None when the file states none.
        format: the file format as the library names it ("WFDB 212", "EDF+", "CSV", ...).
        annotations: for a WFDB record with an ``atr`` file, one row per annotation (columns sample,
            symbol, subtype, channel, aux; ``sample`` in samples at ``sampling_rate``), else None.
        path: the path the recording was read from.
    """

    signals: dict[str, np.ndarray]
    sampling_rate: float
    sampling_rates: dict[str, float]
    units: dict[str, str]
    start_time: datetime.datetime | None
    format: str
    annotations: pd.DataFrame | None
    path: str

    def to_frame(self) -> pd.DataFrame:
        """The signals as a DataFrame with a ``time_s`` column first (seconds from the first sample),
        as ``vitals convert INPUT -o NAME.csv`` writes them."""
        length = len(next(iter(self.signals.values()), ()))
        columns: dict[str, np.ndarray] = {"time_s": np.arange(length) / self.sampling_rate}
        columns.update(self.signals)
        return pd.DataFrame(columns)


def read(path: str | os.PathLike[str], **options: Any) -> Recording:
    """Reads the recording at `path` (a WFDB record such as ``dir/100`` or ``dir/100.hea``, EDF/EDF+,
    CSV/TSV or an Apple Health ECG CSV) chunk by chunk.

    Options are those of ``vitals info`` / ``vitals convert``, as keywords: ``channel="MLII"`` →
    ``--channel MLII``, ``rate=250`` (Hz) → ``--rate 250``, ``no_header=True`` → ``--no-header``,
    ``time_unit="ms"``, ``start="2024-03-10T06:00:00Z"``; underscores become dashes.

    Raises InputError (unreadable or malformed file, naming it) or ArgumentError (a bad option).
    """
    words, count = _native.strings(_native.option_words(options))
    handle = c_void_p()
    _native.call(_native.lib.vitals_recording_open, _native.encoded_path(path), words, count, byref(handle))
    try:
        with _native.returned(1) as (description,):
            _native.call(_native.lib.vitals_recording_describe, handle, byref(description))
            info = _native.json_value(description)
        samples = _read_samples(handle, info["signals"])
    finally:
        _native.lib.vitals_recording_close(handle)
    names = _unique([signal["name"] for signal in info["signals"]])
    return Recording(
        signals=dict(zip(names, samples)),
        sampling_rate=float(info["sample_rate"]),
        sampling_rates={name: float(signal["sample_rate"]) for name, signal in zip(names, info["signals"])},
        units={name: signal["unit"] for name, signal in zip(names, info["signals"])},
        start_time=_start_time(info.get("start_time")),
        format=info["format"],
        annotations=annotations(path) if "atr" in info.get("annotation_files", []) else None,
        path=os.fsdecode(path),
    )


def _unique(names: list[str]) -> list[str]:
    """Signal names made unique as pandas reads repeated CSV columns: the second "ECG" is "ECG.1"."""
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        unique.append(f"{name}.{seen[name]}" if name in seen else name)
        seen[name] = seen.get(name, 0) + 1
    return unique


def _read_samples(handle: c_void_p, signals: list[dict[str, Any]]) -> list[np.ndarray]:
    """Every sample of an open recording, one float32 array per channel: preallocated from the
    stated sample count when every signal states one, grown (doubling) otherwise."""
    channel_count = _native.lib.vitals_recording_channel_count(handle)
    stated = [signal.get("sample_count") for signal in signals]
    known = all(isinstance(value, int) for value in stated)
    capacity = max(stated) if known and stated else CHUNK_SAMPLES
    result = np.empty((channel_count, max(capacity, 1)), dtype=np.float32)
    chunk = np.empty((channel_count, CHUNK_SAMPLES), dtype=np.float32)
    filled, count = 0, c_int64()
    while True:
        _native.call(_native.lib.vitals_recording_read, handle, _native.address(chunk), CHUNK_SAMPLES, byref(count))
        if count.value == 0:
            break
        if filled + count.value > result.shape[1]:
            grown = np.empty((channel_count, max(2 * result.shape[1], filled + count.value)), dtype=np.float32)
            grown[:, :filled] = result[:, :filled]
            result = grown
        result[:, filled : filled + count.value] = chunk[:, : count.value]
        filled += count.value
    return [row[:filled].copy() if filled < result.shape[1] else row for row in result]


def _start_time(text: str | None) -> datetime.datetime | None:
    """An ISO 8601 start time as a timezone-aware UTC datetime (a time without a zone is UTC)."""
    if not text:
        return None
    moment = datetime.datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc)


def annotations(record: str | os.PathLike[str], extension: str = "atr") -> pd.DataFrame:
    """The annotations of the WFDB annotation file ``record.extension`` (e.g. ``100.atr``), one row
    each: sample (0-based index at the record's rate, in samples), symbol ("N", "V", "+", ...),
    subtype, channel and aux (e.g. a rhythm "(AFIB")."""
    with _native.returned(1) as (result,):
        _native.call(
            _native.lib.vitals_annotations_read, _native.encoded_path(record), extension.encode(), byref(result)
        )
        columns = _native.json_value(result)
    return pd.DataFrame(
        {
            "sample": np.asarray(columns["samples"], dtype=np.int64),
            "symbol": columns["symbols"],
            "subtype": np.asarray(columns["subtypes"], dtype=np.int64),
            "channel": np.asarray(columns["channels"], dtype=np.int64),
            "aux": columns["aux"],
        }
    )
