"""Shared fixtures: the CLI the library is compared with, the repository's fixtures, the shared data
and small recordings the CLI simulates once per session."""

from __future__ import annotations

import io
import json
import os
import pathlib
import subprocess

import pandas as pd
import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPOSITORY / "Fixtures"
SHARED = pathlib.Path(os.environ.get("VITALS_SHARED_DATA", REPOSITORY.parent / "shared" / "data"))
CLI = pathlib.Path(os.environ.get("VITALS_CLI", REPOSITORY / ".build" / "debug" / "vitals"))
EXAMPLE_ECG = FIXTURES / "examples" / "simulated-ecg.csv"


def run_cli(*arguments: object, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Runs the vitals command line; fails the test with its stderr when it exits non-zero and `check`."""
    if not CLI.exists():
        pytest.skip(f"the vitals command line is not built at {CLI} (set VITALS_CLI)")
    process = subprocess.run([str(CLI), *map(str, arguments)], capture_output=True, text=True)
    if check and process.returncode != 0:
        pytest.fail(f"vitals {' '.join(map(str, arguments))} exited {process.returncode}: {process.stderr}")
    return process


def cli_csv(*arguments: object) -> pd.DataFrame:
    """The CSV the command line writes to standard output, as a DataFrame."""
    return pd.read_csv(io.StringIO(run_cli(*arguments).stdout))


def cli_json_lines(*arguments: object) -> list[dict]:
    """The JSON Lines the command line writes to standard output."""
    return [json.loads(line) for line in run_cli(*arguments).stdout.splitlines() if line.strip()]


def shared(*parts: str) -> pathlib.Path:
    """A path under the shared data, skipping the test visibly when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path} (see ../shared/data/README.md)")
    return path


def without_timing(summary: dict) -> dict:
    """A `vitals analyze` summary without the fields that measure the run (processing_s, samples_per_s)."""
    return {key: value for key, value in summary.items() if key not in ("processing_s", "samples_per_s")}


@pytest.fixture(scope="session")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pathlib.Path]:
    """Small recordings simulated by the command line: a clean ECG, a PPG with motion and a walk."""
    directory = tmp_path_factory.mktemp("simulated")
    recipes = {
        "clean_ecg": ["--signal", "ecg", "--duration", 300, "--rate", 250, "--noise", "none", "--seed", 11],
        "ppg": ["--signal", "ppg", "--duration", 60, "--rate", 64, "--motion", "--ppg-channels", 2, "--seed", 3],
        "walk": ["--signal", "acc", "--duration", 60, "--rate", 50, "--placement", "front-pocket", "--seed", 5],
    }
    paths = {}
    for name, arguments in recipes.items():
        paths[name] = directory / f"{name}.csv"
        run_cli("simulate", *arguments, "-o", paths[name])
    return paths


# The Dask tests analyze every MIT-BIH record of the shared data (26 × 30 min) with a release
# library or VITALS_FULL_DATA=1; with a debug library (about 3.5 s per record) these four.
MITDB_SUBSET = ("101", "106", "119", "217")


def full_data() -> bool:
    import vitals

    return os.environ.get("VITALS_FULL_DATA") == "1" or vitals.build_info()["configuration"] == "release"


def mitdb_records() -> list[pathlib.Path]:
    """The MIT-BIH records the Dask tests analyze (see MITDB_SUBSET)."""
    directory = shared("mitdb")
    names = sorted(path.stem for path in directory.glob("*.hea"))
    return [directory / name for name in names if full_data() or name in MITDB_SUBSET]


def pytest_report_header(config: pytest.Config) -> list[str]:
    import vitals

    info = vitals.build_info()
    subset = f"{len(MITDB_SUBSET)} of 26 ({', '.join(MITDB_SUBSET)}; VITALS_FULL_DATA=1 for all)"
    scope = "all 26" if full_data() else subset
    return [
        f"vitals library: {vitals._native.library_path()} ({info['configuration']}, simd {info['simd']})",
        f"vitals CLI: {CLI}; shared data: {SHARED}",
        f"Dask tests: {scope} MIT-BIH records",
    ]
