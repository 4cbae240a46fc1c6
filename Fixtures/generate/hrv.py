"""Reference HRV values from pinned NeuroKit2 for Fixtures/hrv/hrv_reference.json.

Synthetic beat series only (fixed seeds): sinus rhythm with respiratory and Mayer-wave modulation,
sinus with premature beats, a missed and an extra detection, an irregular AF-like series, and a
short series. For each: the peaks (sample indices), NeuroKit2's hrv_time, the nonlinear indices
Vitals implements (hrv_nonlinear, plus DFA on the classic 4-16 / 16-64 beat scales), and the
artefact classes of one pass of signal_fixpeaks(method="Kubios") (Lipponen & Tarvainen 2019).
One more case feeds hrv_time an NN series with gaps (RRI + RRI_Time), as after dropping ectopics.

Run: python Fixtures/generate/hrv.py (packages pinned in requirements.txt).
"""

import json
import math
import pathlib
import warnings

import neurokit2 as nk
import numpy as np
from neurokit2.signal.signal_fixpeaks import _find_artifacts

OUT = pathlib.Path(__file__).resolve().parent.parent / "hrv" / "hrv_reference.json"

TIME_KEYS = [
    "MeanNN", "SDNN", "SDANN1", "SDNNI1", "SDANN2", "SDNNI2", "SDANN5", "SDNNI5", "RMSSD", "SDSD",
    "CVNN", "CVSD", "MedianNN", "MadNN", "MCVNN", "IQRNN", "SDRMSSD", "Prc20NN", "Prc80NN",
    "pNN50", "pNN20", "MinNN", "MaxNN", "HTI", "TINN",
]
NONLINEAR_KEYS = ["SD1", "SD2", "SD1SD2", "S", "CSI", "CVI", "ApEn", "SampEn", "DFA_alpha1", "DFA_alpha2"]


def clean(value):
    value = float(value)
    return None if not math.isfinite(value) else value


def sinus_rr(n, rng, mean=850.0, resp=25.0, mayer=20.0, noise=12.0):
    rr = np.empty(n)
    t = 0.0
    for i in range(n):
        rr[i] = mean + resp * math.sin(2 * math.pi * 0.25 * t) + mayer * math.sin(2 * math.pi * 0.1 * t)
        rr[i] += noise * rng.standard_normal()
        t += rr[i] / 1000.0
    return rr


def with_ectopics(rr, positions, prematurity=0.65):
    rr = rr.copy()
    for k in positions:
        normal = rr[k]
        rr[k] = prematurity * normal
        rr[k + 1] = 2 * normal - rr[k] + (rr[k + 1] - normal)
    return rr


def peaks_from_rr(rr, rate):
    return np.round(np.concatenate([[0.6], np.cumsum(rr) / 1000.0 + 0.6]) * rate).astype(np.int64)


def cases():
    rng = np.random.default_rng(20190301)
    out = []
    out.append(("sinus-5min-1000Hz", 1000.0, sinus_rr(350, rng)))
    out.append(("sinus-30min-360Hz", 360.0, sinus_rr(2000, rng, mean=900.0, resp=35.0, mayer=30.0)))
    rr = with_ectopics(sinus_rr(1200, rng, mean=780.0), [100, 340, 341 + 200, 900])
    rr = np.concatenate([rr[:600], [rr[600] + rr[601]], rr[602:]])  # a missed beat
    split = rr[800]
    rr = np.concatenate([rr[:800], [0.3 * split, 0.7 * split], rr[801:]])  # an extra detection
    out.append(("ectopic-16min-360Hz", 360.0, rr))
    af = 700.0 + 180.0 * rng.standard_normal(600)
    out.append(("af-7min-250Hz", 250.0, np.clip(af, 330.0, 1400.0)))
    out.append(("short-40beats-500Hz", 500.0, sinus_rr(40, rng, mean=1000.0)))
    return out


def dfa(rri, scales):
    value, _ = nk.fractal_dfa(rri, scale=np.asarray(scales), multifractal=False)
    return clean(value)


def main():
    warnings.simplefilter("ignore")
    records = []
    for name, rate, rr in cases():
        peaks = peaks_from_rr(rr, rate)
        time = nk.hrv_time(peaks, sampling_rate=rate).iloc[0]
        nonlinear = nk.hrv_nonlinear(peaks, sampling_rate=rate).iloc[0]
        rri = np.diff(peaks) / rate * 1000.0
        artifacts, _ = _find_artifacts(peaks, sampling_rate=rate)
        record = {
            "name": name,
            "samplingRate": rate,
            "peaks": [int(p) for p in peaks],
            "time": {k: clean(time["HRV_" + k]) for k in TIME_KEYS},
            "nonlinear": {k: clean(nonlinear["HRV_" + k]) if "HRV_" + k in nonlinear else None for k in NONLINEAR_KEYS},
            "dfaPeng": {
                "alpha1": dfa(rri, range(4, 17)) if len(rri) > 16 else None,
                "alpha2": dfa(rri, range(16, 65)) if len(rri) > 64 else None,
            },
            "artifacts": {k: [int(i) for i in artifacts[k]] for k in ["ectopic", "missed", "extra", "longshort"]},
        }
        records.append(record)

    # An NN series with gaps: the intervals next to three beats dropped, times in seconds.
    rng = np.random.default_rng(7)
    rr = np.round(sinus_rr(400, rng), 3)
    times = np.cumsum(rr) / 1000.0
    keep = np.ones(len(rr), dtype=bool)
    keep[[50, 51, 200, 201, 202, 333]] = False
    gap_time = nk.hrv_time({"RRI": rr[keep], "RRI_Time": times[keep]}).iloc[0]
    gaps = {
        "name": "nn-with-gaps",
        "rri": [float(x) for x in rr[keep]],
        "rriTime": [float(x) for x in times[keep]],
        "time": {k: clean(gap_time["HRV_" + k]) for k in TIME_KEYS},
    }

    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"generator": f"neurokit2 {nk.__version__}", "series": records, "gaps": gaps}) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
