from typing import Any

import numpy.typing as npt
import pandas as pd

TIME_COLUMNS: list[str]
FREQUENCY_COLUMNS: list[str]
NONLINEAR_COLUMNS: list[str]

def ecg_peaks(
    ecg_cleaned: npt.ArrayLike,
    sampling_rate: float = 1000,
    method: str = "neurokit",
    correct_artifacts: bool = False,
    show: bool = False,
) -> tuple[pd.DataFrame, dict[str, Any]]: ...
def hrv_time(peaks: Any, sampling_rate: float = 1000, show: bool = False) -> pd.DataFrame: ...
def hrv_frequency(peaks: Any, sampling_rate: float = 1000, show: bool = False) -> pd.DataFrame: ...
def hrv_nonlinear(peaks: Any, sampling_rate: float = 1000, show: bool = False) -> pd.DataFrame: ...
def hrv(peaks: Any, sampling_rate: float = 1000, show: bool = False) -> pd.DataFrame: ...
