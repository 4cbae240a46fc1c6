"""Vitals on a Dask cluster: analyses and statistics of many recordings, a few recordings per task.

Every task calls the library on a worker, so the recordings (and the package, with its library)
must be reachable there under the same paths (a shared file system on a real cluster). Tasks are
keyed by their arguments (``pure=True``): a task the scheduler reruns after a worker dies computes
the same result, and the results do not depend on which worker ran what.

A task takes a run of consecutive recordings (``per_task``): by default as many as make two tasks
per worker thread the cluster has when called (one recording per task when it has none yet). Each
task costs the worker, the scheduler and the client a few milliseconds, no small part of the time a
30-minute record's analysis takes (Dask's guidance is tasks of 100 ms or more); two tasks per thread
keep the threads evenly loaded when recordings differ in length.

Statistics are computed where the recordings are: each task analyzes each of its recordings, writes
the derived samples to a worker-local temporary file, computes the statistics partial of that file,
and returns the merge of its recordings' partials (a few kB); the partials are merged by a tree of
``merge_partials`` tasks, ``split_every`` at a time, and the last partial becomes the table.

Dask's own housekeeping costs CPU on every process: at its defaults an idle ``LocalCluster`` of two
workers takes about a fifth of a core here (the 20 ms event-loop tick, the 10 ms statistical
profiler, the 100 ms memory monitor). Where the workers fill every core with the library's work,
that share comes out of the analysis; ``QUIET_CONFIG`` lowers it to a few hundredths of a core.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import dask.bag
import distributed
import pandas as pd

from . import _analysis, _native, _statistics
from ._analysis import PathLike
from ._errors import ArgumentError, InputError


QUIET_CONFIG: dict[str, Any] = {
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}
"""Dask settings for clusters whose workers fill every core with native tasks: the event-loop tick
(which detects a blocked loop) every second, the worker's statistical profiler off (the dashboard's
profile page stays empty), the system monitor (the dashboard's CPU and memory plots) every 5 s, and
the memory monitor every second (a worker over its memory limit is paused or restarted up to a
second later). Apply it where the cluster starts, e.g.
``with dask.config.set(vitals.dask.QUIET_CONFIG): cluster = LocalCluster(...)`` (workers a nanny
starts inherit it), or as the same keys in the workers' Dask configuration files."""


def _client(client: distributed.Client | None) -> distributed.Client:
    return client if client is not None else distributed.get_client()


def task_groups(files: Sequence[str], client: distributed.Client, per_task: int | None) -> list[list[str]]:
    """`files` in runs of consecutive recordings, one per task: `per_task` each, or (None) as many
    runs as two per worker thread of `client`'s cluster (at most one per file), their lengths
    differing by one at most, longer first."""
    if per_task is not None:
        if per_task < 1:
            raise ArgumentError(f"per_task: at least 1, got {per_task}")
        return [list(files[start : start + per_task]) for start in range(0, len(files), per_task)]
    threads = sum(worker.get("nthreads", 1) for worker in client.scheduler_info()["workers"].values())
    count = min(len(files), 2 * threads) if threads else len(files)
    size, longer = divmod(len(files), max(count, 1))
    groups, start = [], 0
    for index in range(count):
        end = start + size + (index < longer)
        groups.append(list(files[start:end]))
        start = end
    return groups


def summaries_of(paths: Sequence[str], words: Sequence[str]) -> list[dict[str, Any]]:
    """On a worker: the summary (or ``{"path", "error"}``) of each recording of a task."""
    return [_analysis.summary_or_error(path, words) for path in paths]


def analyze(
    paths: PathLike | Iterable[PathLike],
    client: distributed.Client | None = None,
    per_task: int | None = None,
    **options: Any,
) -> pd.DataFrame:
    """``vitals.analyze`` on a Dask cluster: tasks of consecutive recordings, keyed by their paths
    and options.

    Args:
        paths: recordings the workers can read under these paths.
        client: the ``distributed.Client`` to use (default: the current one, ``distributed.get_client()``).
        per_task: recordings per task (default: two tasks per worker thread, see the module).
        options: ``vitals analyze`` options as keywords, as for ``vitals.analyze``.

    Returns:
        The DataFrame ``vitals.analyze`` returns for the same paths and options (rows in input
        order, an ``error`` column for recordings that cannot be read).
    """
    connection = _client(client)
    words = _native.option_words(options)
    groups = task_groups(_analysis.path_list(paths), connection, per_task)
    futures = connection.map(summaries_of, groups, words=words, pure=True)
    return _analysis.summaries_frame([summary for part in connection.gather(futures) for summary in part])


def analyze_bag(paths: PathLike | Iterable[PathLike], **options: Any) -> dask.bag.Bag:
    """A lazy ``dask.bag`` of the summaries (dicts, as ``vitals analyze`` prints them, or
    ``{"path", "error"}``), one partition per recording; compute it with any Dask scheduler."""
    files = _analysis.path_list(paths)
    return dask.bag.from_sequence(files, npartitions=max(len(files), 1)).map(
        _analysis.summary_or_error, words=_native.option_words(options)
    )


def recording_partial(path: str, analyze_words: Sequence[str], query: Sequence[str]) -> bytes | None:
    """The statistics partial of the samples derived from one recording (None when it states no start
    time, so has no samples)."""
    samples = _analysis.analyze_recording(path, analyze_words, samples=True)[1]
    if not samples:
        return None
    with tempfile.TemporaryDirectory(prefix="vitals-") as directory:
        file = os.path.join(directory, "recording.samples.jsonl")
        with open(file, "w", encoding="utf-8") as output:
            output.write(samples)
        return _statistics.partial_of([file], query)


def recordings_partial(paths: Sequence[str], analyze_words: Sequence[str], query: Sequence[str]) -> bytes | None:
    """On a worker: the merge of the partials of a task's recordings (``recording_partial``)."""
    return merge_available([recording_partial(path, analyze_words, query) for path in paths])


def files_partial(paths: Sequence[str], query: Sequence[str]) -> bytes | None:
    """On a worker: the merge of the partials of a task's samples files or Apple Health exports, one
    partial per file (as the tree merges them, so the result does not depend on the grouping)."""
    return merge_available([_statistics.partial_of([path], query) for path in paths])


def merge_available(partials: Sequence[bytes | None]) -> bytes | None:
    """The merge of the partials that exist (None when there is none; a lone partial as it is)."""
    present = [partial for partial in partials if partial is not None]
    if len(present) <= 1:
        return present[0] if present else None
    return _statistics.merge_partials(present)


def _files(paths: PathLike | Iterable[PathLike], split_every: int) -> list[str | bytes]:
    """The files of a statistics call, its arguments checked before any task is submitted."""
    if split_every < 2:
        raise ArgumentError(f"split_every: at least 2, got {split_every}")
    files = _analysis.path_list(paths)
    if not files:
        raise ArgumentError("paths: no file given")
    return files


def _tree_merge(client: distributed.Client, futures: list[distributed.Future], split_every: int) -> bytes:
    """Merges the partials of `futures` by a tree of tasks, `split_every` partials each."""
    while len(futures) > 1:
        groups = [futures[start : start + split_every] for start in range(0, len(futures), split_every)]
        futures = [client.submit(merge_available, group, pure=True) for group in groups]
    merged = futures[0].result() if futures else None
    if merged is None:
        raise InputError("no recording has samples for statistics (none states a start time; give start=...)")
    return merged


def stats(
    paths: PathLike | Iterable[PathLike],
    type: str,
    interval: str = "day",
    client: distributed.Client | None = None,
    split_every: int = 8,
    options: Mapping[str, Any] | None = None,
    per_task: int | None = None,
    **query: Any,
) -> pd.DataFrame:
    """Statistics of the samples derived from recordings, computed on a Dask cluster.

    Equals ``vitals.stats`` over the ``NAME.samples.jsonl`` files ``vitals analyze --out DIR``
    writes for the same recordings on one machine (counts, minima, maxima, most recent values
    exactly; sums to rounding).

    Args:
        paths: recordings the workers can read; each must state its start time (or get one from
            ``options={"start": ...}``) to derive samples.
        type, interval: as for ``vitals.stats`` (quantity types only).
        client: the ``distributed.Client`` (default: the current one).
        split_every: partials merged per task of the merge tree (at least 2).
        options: ``vitals analyze`` options for every recording (``{"start": "2024-03-10T08:00:00Z",
            "height": 1.75}``).
        per_task: recordings per task (default: two tasks per worker thread, see the module).
        query: the other ``vitals.stats`` keywords (option, anchor, timezone, unit, per_source,
            source_priority).

    Returns:
        The DataFrame ``vitals.stats`` returns (start, end, value, unit, count[, source]).
    """
    connection = _client(client)
    words = _statistics.query_words(type, interval, **query)
    analyze_words = _native.option_words(options or {})
    groups = task_groups(_files(paths, split_every), connection, per_task)
    futures = connection.map(recordings_partial, groups, analyze_words=analyze_words, query=words, pure=True)
    return _statistics.stats_table(_tree_merge(connection, futures, split_every), "frame")


def stats_files(
    paths: PathLike | Iterable[PathLike],
    type: str,
    interval: str = "day",
    client: distributed.Client | None = None,
    split_every: int = 8,
    per_task: int | None = None,
    **query: Any,
) -> pd.DataFrame:
    """Statistics of samples files (``*.samples.jsonl``) and Apple Health exports on a Dask
    cluster: one partial per file on the workers, merged by a tree of tasks. Arguments as for
    ``stats``; returns the DataFrame ``vitals.stats`` returns over the same files."""
    connection = _client(client)
    words = _statistics.query_words(type, interval, **query)
    groups = task_groups(_files(paths, split_every), connection, per_task)
    futures = connection.map(files_partial, groups, query=words, pure=True)
    return _statistics.stats_table(_tree_merge(connection, futures, split_every), "frame")
