"""Beat files shared by the peer scripts: a peer's detected beats written as Vitals reads them, and their
ANSI/AAMI EC57 scores against reference annotations by `vitals score`."""
import json
import subprocess

import numpy as np


def write(path, samples):
    """Writes the sample indices `samples` as a one-column CSV with the header `sample`."""
    np.savetxt(path, np.asarray(samples, dtype=np.int64), fmt="%d", header="sample", comments="")


def score(vitals, pairs, rate=None):
    """Gross scores of `vitals score --json` over the (reference, test) file `pairs`: the "whole" record
    part of its "gross" object (se, ppv, f1 as fractions, …)."""
    arguments = [vitals, "score", "--json"]
    for reference, test in pairs:
        arguments += ["--reference", reference, "--test", test]
    if rate:
        arguments += ["--rate", str(rate)]
    out = subprocess.run(arguments, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["gross"]["whole"]

