import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import dask.bag
import distributed
import pandas as pd

_Path = str | bytes | os.PathLike[str]
_Paths = _Path | Iterable[_Path]

QUIET_CONFIG: dict[str, Any]

def task_groups(files: Sequence[str], client: distributed.Client, per_task: int | None) -> list[list[str]]: ...
def summaries_of(paths: Sequence[str], words: Sequence[str]) -> list[dict[str, Any]]: ...
def analyze(
    paths: _Paths, client: distributed.Client | None = None, per_task: int | None = None, **options: Any
) -> pd.DataFrame: ...
def analyze_bag(paths: _Paths, **options: Any) -> dask.bag.Bag: ...
def recording_partial(path: str, analyze_words: Sequence[str], query: Sequence[str]) -> bytes | None: ...
def recordings_partial(paths: Sequence[str], analyze_words: Sequence[str], query: Sequence[str]) -> bytes | None: ...
def files_partial(paths: Sequence[str], query: Sequence[str]) -> bytes | None: ...
def merge_available(partials: Sequence[bytes | None]) -> bytes | None: ...
def stats(
    paths: _Paths,
    type: str,
    interval: str = "day",
    client: distributed.Client | None = None,
    split_every: int = 8,
    options: Mapping[str, Any] | None = None,
    per_task: int | None = None,
    *,
    option: str | None = None,
    anchor: str | None = None,
    timezone: str | None = None,
    unit: str | None = None,
    per_source: bool = False,
    source_priority: str | Sequence[str] | None = None,
) -> pd.DataFrame: ...
def stats_files(
    paths: _Paths,
    type: str,
    interval: str = "day",
    client: distributed.Client | None = None,
    split_every: int = 8,
    per_task: int | None = None,
    *,
    option: str | None = None,
    anchor: str | None = None,
    timezone: str | None = None,
    unit: str | None = None,
    per_source: bool = False,
    source_priority: str | Sequence[str] | None = None,
) -> pd.DataFrame: ...
