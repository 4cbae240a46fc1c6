"""The Python blocks of python/README.md run as written: on the shared MIT-BIH records, simulated
recordings and the Apple Health export fixture, with the names the README leaves to the reader bound
first (`paths`, the walk's axes `x, y, z` at 100 Hz, a 64 Hz `ppg` with its accelerometer `ax, ay, az`,
the samples files). The Slurm block runs under `make slurm-check` instead."""

from __future__ import annotations

import os
import re
import shutil

import pytest

import vitals
from conftest import FIXTURES, REPOSITORY, SHARED, run_cli, shared

START = "2024-03-10T08:00:00Z"


def python_blocks() -> list[str]:
    text = (REPOSITORY / "python" / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


@pytest.fixture()
def reader_names(tmp_path) -> dict:
    """The names the README's blocks use without defining them, in a working directory where its
    relative paths (``../shared/data/...``, ``a.samples.jsonl``, ``export.xml``) resolve."""
    shared("mitdb")  # skips without the shared data
    (tmp_path / "shared").symlink_to(SHARED.parent, target_is_directory=True)
    work = tmp_path / "work"
    work.mkdir()
    run_cli("simulate", "--signal", "acc", "--duration", 60, "--rate", 100, "--placement", "front-pocket",
            "--seed", 5, "-o", work / "walk.csv")
    run_cli("simulate", "--signal", "ppg", "--duration", 60, "--rate", 64, "--motion", "--ppg-channels", 1,
            "--seed", 3, "-o", work / "ppg.csv")
    run_cli("analyze", "--out", work / "out", "--start", START, work / "walk.csv")
    shutil.copy(work / "out" / "walk.samples.jsonl", work / "a.samples.jsonl")
    shutil.copy(FIXTURES / "health-export" / "export.xml", work / "export.xml")
    walk = vitals.read(work / "walk.csv")
    ppg = vitals.read(work / "ppg.csv")
    return {
        "paths": [str(shared("mitdb", "101.hea")), str(shared("mitdb", "106.hea"))],
        "x": walk.signals["acc_x"], "y": walk.signals["acc_y"], "z": walk.signals["acc_z"],
        "ppg": ppg.signals["ppg"], "ax": ppg.signals["acc_x"], "ay": ppg.signals["acc_y"], "az": ppg.signals["acc_z"],
        "files": ["a.samples.jsonl"],
        "other_partial": vitals.stats_partial([str(work / "export.xml")], "heartRate", "hour",
                                              option="discreteMax", timezone="UTC"),
        "samples_files": ["a.samples.jsonl"],
        "__name__": "__main__", "work": work,
    }


def test_readme_python_blocks_run_and_give_results(reader_names, monkeypatch, capsys):
    blocks = [block for block in python_blocks() if "dask_jobqueue" not in block]
    assert len(blocks) == 3, "library calls, the NeuroKit2 switch and the Dask cluster"
    monkeypatch.chdir(reader_names["work"])
    names = dict(reader_names)
    exec(compile(blocks[0], "python/README.md (library calls)", "exec"), names)
    assert len(names["peaks"]) > 1500 and list(names["beats"].columns[:2]) == ["sample", "label"]
    assert names["indices"]["HRV_SDNN"].iloc[0] > 0
    assert names["summary"]["steps"] > 50 and len(names["windows"]) > 0
    assert len(names["summaries"]) == 2 and names["summaries"]["error"].isna().all()
    assert len(names["table"]) >= 1
    printed = capsys.readouterr().out.splitlines()  # the merged partials' table as CSV
    assert printed[0].startswith("start,end,value") and len(printed) > 1
    exec(compile(blocks[1], "python/README.md (NeuroKit2)", "exec"), names)
    assert names["hrv"]["HRV_MeanNN"].iloc[0] > 0
    exec(compile(blocks[2], "python/README.md (Dask)", "exec"), names)
    one_machine = vitals.analyze(names["paths"]).drop(columns=list(vitals.TIMING_FIELDS))
    assert names["summaries"].drop(columns=list(vitals.TIMING_FIELDS)).equals(one_machine)
    assert len(names["rate"]) > 0 and names["steps"]["value"].sum() == names["summary"]["steps"]
