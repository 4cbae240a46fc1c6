#!/usr/bin/env python3
"""Lower-back walks from outside ../shared/data for `steps-eval --mobilise-d`: the Mobilise-D example lab data.

The Mobilise-D consortium's gait pipeline (mobgap, Apache-2.0) ships, in its source distribution on
PyPI, the laboratory recordings of three participants (two healthy adults, HA 001 and 002, and one
with multiple sclerosis, MS 001; Mobilise-D technical validation study, Mazzà et al. 2021, BMJ Open
11:e050785): a lower-back IMU (McRoberts DynaPort MM+, 100 Hz, acceleration in g) and, as reference,
the initial contacts of the walking bouts (`ContinuousWalkingPeriod`, mobgap's default reference
level) that the INDIP multi-sensor system found (pressure insoles, distance sensors and foot IMUs;
Salis et al. 2023, Front. Bioeng. Biotechnol. 11:1143248). Test 5 is a straight walk of about 5 m;
test 11 a simulated daily-life sequence (walking between rooms, turns, sitting down and standing up).

The script downloads the source distribution once (pinned URL and SHA-256; nothing of it runs) into
the cache folder, empties the output folder of earlier trials and writes, for each trial with a
reference, `NAME.csv` (acc_x, acc_y, acc_z in g at 100 Hz, a header line) and `NAME_steps.txt`: the
reference contacts, one per line, each a sample index (`round(time · 100 Hz)`; a contact listed in two
adjacent bouts once) or `nan` for a contact the INDIP lists without a time (of a stride it could not
delimit; mobgap's loader drops these from timing, but they are steps). For the same trials, `NAME_bouts.csv`
gives each reference bout's start and end (s), cadence (steps/min), mean stride length (m) and walking
speed (m/s) as the INDIP measured them, and the participant's height (m). Trials without a contact are
listed with the reason in `skipped.txt`. When the download fails, the script says so and writes no
trial, so that `steps-eval` reports the section as skipped. Nothing of it enters the repository.

Usage (pinned packages: Fixtures/generate/requirements.txt; `make eval-steps-mobilise-d` runs it):
    python scripts/eval/mobilise_d_steps.py [--cache .build/external] [--out .build/external/mobilise-d]
"""
import argparse
import glob
import hashlib
import os
import sys
import tarfile
import urllib.request

import numpy as np
import scipy.io

VERSION = "1.2.0"
URL = ("https://files.pythonhosted.org/packages/c6/c7/911fb766aecdc66af2003408f5a3f710367f21f1009749d1537bce02ff87/"
       f"mobgap-{VERSION}.tar.gz")
SHA256 = "26f3ec1173f74ad873d13dabe0fd75dde8554720595ebc39159ee18dbea31351"
PARTICIPANTS = ["HA/001", "HA/002", "MS/001"]
RATE = 100.0


def sha256(path):
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


def archive(cache):
    """The path of the verified source distribution in `cache`, downloaded when absent; None (said on
    standard error) when it cannot be downloaded."""
    path = os.path.join(cache, os.path.basename(URL))
    if not os.path.exists(path):
        os.makedirs(cache, exist_ok=True)
        partial = path + ".partial"
        try:
            urllib.request.urlretrieve(URL, partial)
        except OSError as error:
            print(f"mobilise_d_steps.py: cannot download {URL}: {error}; no trial written", file=sys.stderr)
            return None
        os.replace(partial, path)
    digest = sha256(path)
    if digest != SHA256:
        sys.exit(f"{path}: SHA-256 {digest}, expected {SHA256}")
    return path


BOUT_FIELDS = ["Start", "End", "Cadence", "AverageStrideLength", "WalkingSpeed"]


def trials(path):
    """(name, acceleration in g (n × 3), reference contacts as sample indices and NaNs, or the reason there
    are none, and the rows of `NAME_bouts.csv`) of every lab trial in the archive at `path`."""
    with tarfile.open(path) as bundle:
        for participant in PARTICIPANTS:
            folder = f"mobgap-{VERSION}/example_data/data/lab/{participant}"
            member = f"{folder}/data.mat"
            data = scipy.io.loadmat(bundle.extractfile(member), simplify_cells=True)["data"]
            info = scipy.io.loadmat(bundle.extractfile(f"{folder}/infoForAlgo.mat"), simplify_cells=True)
            height = info["infoForAlgo"]["TimeMeasure1"]["Height"] / 100
            for test, runs in data["TimeMeasure1"].items():
                for trial, run in runs.items():
                    name = f"{participant.replace('/', '-')}_{test}_{trial}"
                    sensor = run["SU"]["LowerBack"]
                    if sensor["Fs"]["Acc"] != RATE:
                        sys.exit(f"{member}: {test} {trial}: accelerometer at {sensor['Fs']['Acc']} Hz, not {RATE}")
                    reference = run.get("Standards", {}).get("INDIP")
                    if reference is None:
                        yield name, None, "no INDIP reference", []
                        continue
                    bouts = reference["ContinuousWalkingPeriod"]
                    bouts = [bouts] if isinstance(bouts, dict) else list(bouts)
                    times = [float(t) for bout in bouts for t in np.atleast_1d(bout["InitialContact_Event"])]
                    if not times:
                        yield name, None, "the INDIP found no walking bout", []
                        continue
                    timed = sorted({round(t * RATE) for t in times if not np.isnan(t)})
                    untimed = sum(1 for t in times if np.isnan(t))
                    rows = [[float(bout[field]) for field in BOUT_FIELDS] + [height] for bout in bouts]
                    yield name, np.asarray(sensor["Acc"], dtype=float), timed + [float("nan")] * untimed, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", default=".build/external")
    parser.add_argument("--out", default=".build/external/mobilise-d")
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    for stale in glob.glob(os.path.join(arguments.out, "*")):
        os.remove(stale)
    source = archive(arguments.cache)
    if source is None:
        return
    skipped = []
    for name, acceleration, reference, bouts in trials(source):
        if acceleration is None:
            skipped.append(f"{name} {reference}\n")
            continue
        with open(os.path.join(arguments.out, name + "_bouts.csv"), "w") as file:
            file.write("start_s,end_s,cadence_spm,stride_length_m,walking_speed_mps,height_m\n")
            file.writelines(",".join(f"{value:.6g}" for value in row) + "\n" for row in bouts)
        np.savetxt(os.path.join(arguments.out, name + ".csv"), acceleration, delimiter=",",
                   header="acc_x,acc_y,acc_z", comments="", fmt="%.7g")
        with open(os.path.join(arguments.out, name + "_steps.txt"), "w") as file:
            file.writelines("nan\n" if np.isnan(contact) else f"{contact}\n" for contact in reference)
    with open(os.path.join(arguments.out, "skipped.txt"), "w") as file:
        file.writelines(skipped)


if __name__ == "__main__":
    main()
