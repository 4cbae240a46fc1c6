#!/usr/bin/env python3
"""Lower-back walks from outside ../shared/data for `steps-eval --mobilised`: the Mobilise-D example lab data.

The Mobilise-D consortium's gait pipeline (mobgap, Apache-2.0) ships, in its source distribution on
PyPI, the laboratory recordings of three participants (two healthy adults, HA 001 and 002, and one
with multiple sclerosis, MS 001; Mobilise-D technical validation study, Mazzà et al. 2021, BMJ Open
11:e050785): a lower-back IMU (McRoberts DynaPort MM+, 100 Hz, acceleration in g) and, as reference,
the initial contacts of every walking bout found by the INDIP multi-sensor system (pressure insoles,
distance sensors and foot IMUs; Salis et al. 2023, Front. Bioeng. Biotechnol. 11:1143248). Test 5 is
a straight walk of about 5 m; test 11 a simulated daily-life sequence (walking between rooms, turns,
sitting down and standing up, carrying), with turns and several short bouts.

The script downloads the source distribution once (pip download, pinned version and SHA-256) into
the cache folder and writes, for each trial with a reference, `NAME.csv` (acc_x, acc_y, acc_z in g at
100 Hz, a header line) and `NAME_steps.txt` (the reference initial contacts of every walking bout, one
sample index per line; `nan` for a contact INDIP found without a time) into the output folder. Trials
where INDIP found no walking bout are listed in `skipped.txt`. Nothing of it enters the repository.

Usage (pinned packages: Fixtures/generate/requirements.txt; `make eval-steps-mobilised` runs it):
    python scripts/eval/mobilised_steps.py [--cache .build/external] [--out .build/external/mobilise-d]
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tarfile

import numpy as np
import scipy.io

VERSION = "1.2.0"
ARCHIVE = f"mobgap-{VERSION}.tar.gz"
SHA256 = "26f3ec1173f74ad873d13dabe0fd75dde8554720595ebc39159ee18dbea31351"
PARTICIPANTS = ["HA/001", "HA/002", "MS/001"]
RATE = 100.0


def archive(cache):
    """The path of the verified source distribution in `cache`, downloaded from PyPI when absent."""
    path = os.path.join(cache, ARCHIVE)
    if not os.path.exists(path):
        os.makedirs(cache, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
             "--dest", cache, f"mobgap=={VERSION}"],
            check=True)
    with open(path, "rb") as file:
        digest = hashlib.sha256(file.read()).hexdigest()
    if digest != SHA256:
        sys.exit(f"{path}: SHA-256 {digest}, expected {SHA256}")
    return path


def trials(path):
    """(participant, test, trial, acceleration in g (n × 3), reference step times in s or None) of every
    lab trial in the archive at `path`."""
    with tarfile.open(path) as bundle:
        for participant in PARTICIPANTS:
            member = f"mobgap-{VERSION}/example_data/data/lab/{participant}/data.mat"
            data = scipy.io.loadmat(bundle.extractfile(member), simplify_cells=True)["data"]
            for test, runs in data["TimeMeasure1"].items():
                for trial, run in runs.items():
                    acceleration = np.asarray(run["SU"]["LowerBack"]["Acc"], dtype=float)
                    if run["SU"]["LowerBack"]["Fs"]["Acc"] != RATE:
                        sys.exit(f"{member} {test} {trial}: not sampled at {RATE} Hz")
                    bouts = run["Standards"]["INDIP"]["MicroWB"]
                    bouts = [bouts] if isinstance(bouts, dict) else list(bouts)
                    steps = [float(t) for bout in bouts for t in np.atleast_1d(bout["InitialContact_Event"])]
                    yield participant, test, trial, acceleration, (sorted(steps) if bouts else None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", default=".build/external")
    parser.add_argument("--out", default=".build/external/mobilise-d")
    arguments = parser.parse_args()
    source = archive(arguments.cache)
    os.makedirs(arguments.out, exist_ok=True)
    skipped = []
    for participant, test, trial, acceleration, reference in trials(source):
        name = f"{participant.replace('/', '-')}_{test}_{trial}"
        if reference is None:
            skipped.append(name)
            continue
        np.savetxt(os.path.join(arguments.out, name + ".csv"), acceleration, delimiter=",",
                   header="acc_x,acc_y,acc_z", comments="", fmt="%.7g")
        with open(os.path.join(arguments.out, name + "_steps.txt"), "w") as file:
            file.writelines("nan\n" if np.isnan(t) else f"{round(t * RATE)}\n" for t in reference)
    with open(os.path.join(arguments.out, "skipped.txt"), "w") as file:
        file.writelines(name + "\n" for name in skipped)


if __name__ == "__main__":
    main()
