import datetime
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, NamedTuple, overload

import numpy as np
import numpy.typing as npt
import pandas as pd

_Path = str | bytes | os.PathLike[str]
_Paths = _Path | Iterable[_Path]
_Samples = npt.ArrayLike
_Channels = npt.ArrayLike | pd.DataFrame | Mapping[str, npt.ArrayLike] | Sequence[npt.ArrayLike]

__version__: str
TIMING_FIELDS: tuple[str, ...]

class VitalsError(Exception): ...
class InputError(VitalsError): ...
class ArgumentError(VitalsError, ValueError): ...
class OutputError(VitalsError): ...

class Recording:
    signals: dict[str, np.ndarray]
    sampling_rate: float
    sampling_rates: dict[str, float]
    units: dict[str, str]
    start_time: datetime.datetime | None
    format: str
    annotations: pd.DataFrame | None
    path: str
    def __init__(
        self,
        signals: dict[str, np.ndarray],
        sampling_rate: float,
        sampling_rates: dict[str, float],
        units: dict[str, str],
        start_time: datetime.datetime | None,
        format: str,
        annotations: pd.DataFrame | None,
        path: str,
    ) -> None: ...
    def to_frame(self) -> pd.DataFrame: ...

class Steps(NamedTuple):
    indices: np.ndarray
    summary: dict[str, Any]

def version() -> str: ...
def build_info() -> dict[str, Any]: ...
def read(path: _Path, **options: Any) -> Recording: ...
def annotations(record: _Path, extension: str = "atr") -> pd.DataFrame: ...
def ecg_peaks(signal: _Samples, sampling_rate: float, jobs: int = 1) -> np.ndarray: ...
def ecg_beats(leads: _Channels, sampling_rate: float) -> pd.DataFrame: ...
def hrv(
    peaks: npt.ArrayLike, sampling_rate: float, labels: str | Sequence[str] | None = None, *, artifacts: bool = True
) -> pd.DataFrame: ...
def ppg_rate(
    ppg: _Channels,
    sampling_rate: float,
    *,
    acceleration: _Channels | None = None,
    window: float = 8.0,
    step: float = 2.0,
) -> pd.DataFrame: ...
def steps(
    x: _Samples,
    y: _Samples,
    z: _Samples,
    sampling_rate: float,
    *,
    unit: Literal["automatic", "g", "m/s^2"] = "automatic",
    placement: Literal["body", "wrist"] = "body",
) -> Steps: ...
def analyze(paths: _Paths, jobs: int | None = None, **options: Any) -> pd.DataFrame: ...
@overload
def stats(
    paths: _Paths,
    type: str,
    interval: str = "day",
    option: str | None = None,
    anchor: str | None = None,
    timezone: str | None = None,
    unit: str | None = None,
    per_source: bool = False,
    source_priority: str | Sequence[str] | None = None,
    format: Literal["frame"] = "frame",
) -> pd.DataFrame: ...
@overload
def stats(
    paths: _Paths,
    type: str,
    interval: str = "day",
    option: str | None = None,
    anchor: str | None = None,
    timezone: str | None = None,
    unit: str | None = None,
    per_source: bool = False,
    source_priority: str | Sequence[str] | None = None,
    *,
    format: Literal["csv", "json"],
) -> str: ...
def stats_partial(
    paths: _Paths,
    type: str,
    interval: str = "day",
    *,
    option: str | None = None,
    anchor: str | None = None,
    timezone: str | None = None,
    unit: str | None = None,
    per_source: bool = False,
    source_priority: str | Sequence[str] | None = None,
) -> bytes: ...
def merge_partials(partials: Iterable[bytes]) -> bytes: ...
@overload
def stats_table(partial: bytes, format: Literal["frame"] = "frame") -> pd.DataFrame: ...
@overload
def stats_table(partial: bytes, format: Literal["csv", "json"]) -> str: ...
