"""Development only: NeuroKit2 hrv_time, hrv_nonlinear indices and Kubios artefact classes on the
reference beats of the records dumped by dump_rhythm.py, written to one JSON file in /tmp (never
committed), for comparing Vitals on real RR series.

Usage: python scripts/dev/mitdb_hrv_reference.py /tmp/mitdb-rhythm /tmp/mitdb-hrv.json
"""

import json
import math
import pathlib
import sys
import warnings

import neurokit2 as nk
import numpy as np
from neurokit2.signal.signal_fixpeaks import _find_artifacts


def clean(value):
    value = float(value)
    return None if not math.isfinite(value) else value


def main():
    source, out = sys.argv[1:]
    warnings.simplefilter("ignore")
    results = []
    for path in sorted(pathlib.Path(source).glob("*.json")):
        record = json.loads(path.read_text())
        peaks = np.array(record["beats"])
        rate = record["sampleRate"]
        time = nk.hrv_time(peaks, sampling_rate=rate).iloc[0]
        rri = np.diff(peaks) / rate * 1000
        tolerance = 0.2 * np.std(rri, ddof=1)
        artifacts, _ = _find_artifacts(peaks, sampling_rate=rate)
        results.append(
            {
                "record": record["record"],
                "time": {k[4:]: clean(v) for k, v in time.items()},
                "sampEn": clean(nk.entropy_sample(rri, delay=1, dimension=2, tolerance=tolerance)[0]),
                "apEn": clean(nk.entropy_approximate(rri, delay=1, dimension=2, tolerance=tolerance)[0]),
                "artifacts": {k: [int(i) for i in artifacts[k]] for k in ["ectopic", "missed", "extra", "longshort"]},
            }
        )
        print(record["record"], flush=True)
    pathlib.Path(out).write_text(json.dumps(results))


if __name__ == "__main__":
    main()
