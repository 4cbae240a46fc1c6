"""HealthKit-style statistics over samples files and Apple Health exports, with mergeable partials."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from ctypes import byref, c_int64
from typing import Any

import numpy as np
import pandas as pd

from . import _native
from ._analysis import PathLike, path_list
from ._errors import ArgumentError

TABLE_FORMATS = ("frame", "csv", "json")


def query_words(
    type: str,
    interval: str = "day",
    option: str | None = None,
    anchor: str | None = None,
    timezone: str | None = None,
    unit: str | None = None,
    per_source: bool = False,
    source_priority: str | Sequence[str] | None = None,
) -> list[str]:
    """A statistics query as ``vitals stats`` option words."""
    return _native.option_words(
        {
            "type": type,
            "option": option,
            "interval": interval,
            "anchor": anchor,
            "timezone": timezone,
            "unit": unit,
            "source_priority": source_priority,
            "per_source": per_source,
        }
    )


def partial_of(inputs: Sequence[PathLike], words: Sequence[str]) -> bytes:
    """The statistics partial of `inputs` for the query `words` (``vitals stats --partial`` bytes)."""
    files, file_count = _native.paths(inputs)
    options, option_count = _native.strings(words)
    length = c_int64()
    with _native.returned(1) as (result,):
        _native.call(
            _native.lib.vitals_stats_partial, files, file_count, options, option_count, byref(result), byref(length)
        )
        return _native.data(result.value, length.value)


def stats_partial(paths: PathLike | Iterable[PathLike], type: str, interval: str = "day", **query: Any) -> bytes:
    """The statistics partial of samples files (``*.samples.jsonl``) and Apple Health exports
    (``export.xml``): the bytes ``vitals stats --partial FILE`` writes (UTF-8 JSON), to merge with
    the partials of other shards (``merge_partials``). Query keywords as for ``stats``."""
    return partial_of(path_list(paths), query_words(type, interval, **query))


def merge_partials(partials: Iterable[bytes]) -> bytes:
    """Merges partials of one query into the partial of all their samples, as ``vitals merge`` does
    (a merge of merges equals the merge of all). A partial of another query raises InputError
    naming its index."""
    buffers = [bytes(partial) for partial in partials]
    if not buffers:
        raise ArgumentError("merge_partials: no partial given")
    addresses = _native.byte_buffers(buffers)
    lengths = np.array([len(buffer) for buffer in buffers], dtype=np.int64)
    length = c_int64()
    with _native.returned(1) as (result,):
        _native.call(
            _native.lib.vitals_stats_merge, addresses, _native.address(lengths), len(buffers), byref(result), byref(length)
        )
        return _native.data(result.value, length.value)


def stats_table(partial: bytes, format: str = "frame") -> pd.DataFrame | str:
    """The statistics table of a partial, as ``vitals stats`` / ``vitals merge`` print it: ``"csv"``
    or ``"json"`` text, or ``"frame"``: a DataFrame (see ``stats``)."""
    if format not in TABLE_FORMATS:
        raise ArgumentError(f"format: expected one of {', '.join(TABLE_FORMATS)}, got {format!r}")
    with _native.returned(1) as (result,):
        _native.call(
            _native.lib.vitals_stats_table,
            bytes(partial),
            len(partial),
            b"csv" if format == "csv" else b"json",
            byref(result),
        )
        table = _native.text(result)
    return table if format != "frame" else table_frame(json.loads(table))


def table_frame(table: dict[str, Any]) -> pd.DataFrame:
    """The JSON statistics table as a DataFrame: start and end (timezone-aware Timestamps), value
    (NaN for an interval without samples), count, unit, and with per-source statistics a source
    column (one row per source and interval, sources in the table's order)."""
    if "sources" in table:
        rows = [dict(row, source=source) for source, intervals in table["sources"].items() for row in intervals]
    else:
        rows = list(table["intervals"])
    frame = pd.DataFrame(rows, columns=["start", "end", "value", "count"] + (["source"] if "sources" in table else []))
    for column in ("start", "end"):
        frame[column] = pd.to_datetime(frame[column], utc=True, format="ISO8601")
    frame["value"] = frame["value"].astype(float)
    frame["count"] = frame["count"].astype(np.int64)
    frame.insert(3, "unit", table["unit"])
    return frame


def stats(
    paths: PathLike | Iterable[PathLike],
    type: str,
    interval: str = "day",
    option: str | None = None,
    anchor: str | None = None,
    timezone: str | None = None,
    unit: str | None = None,
    per_source: bool = False,
    source_priority: str | Sequence[str] | None = None,
    format: str = "frame",
) -> pd.DataFrame | str:
    """HealthKit-style statistics per interval, as ``vitals stats`` computes them.

    Args:
        paths: samples files (``*.samples.jsonl`` from ``vitals analyze --out``) and Apple Health
            exports (``export.xml``).
        type: a quantity type: ``stepCount``, ``heartRate``, ``heartRateVariabilitySDNN``, ... or
            ``HKQuantityTypeIdentifier...`` (quantity types only: not heartbeatSeries or
            electrocardiogram).
        interval: ``day``, ``week``, ``month``, ``hour``, ``15min``, ``30s``, ``all``, ...
        option: ``cumulativeSum``, ``discreteAverage``, ``discreteMin``, ``discreteMax``,
            ``mostRecent`` or ``duration`` (default: by the type).
        anchor: an interval boundary (``2024-03-10``, ``2024-03-10T06:00``, or with an offset).
        timezone: the IANA time zone of calendar intervals (default: the system's).
        unit: the unit of the values (default: the type's HealthKit unit: count, count/min, ms, ...).
        per_source: each source's own statistics, with a ``source`` column.
        source_priority: source names, highest first (a list or a comma-separated string).
        format: ``"frame"`` (a DataFrame: start, end (UTC Timestamps), value, unit, count[, source]),
            or ``"csv"`` / ``"json"`` for the text ``vitals stats --format`` prints.
    """
    partial = stats_partial(
        paths,
        type,
        interval,
        option=option,
        anchor=anchor,
        timezone=timezone,
        unit=unit,
        per_source=per_source,
        source_priority=source_priority,
    )
    return stats_table(partial, format)
