"""Reference frequency-domain HRV from pinned NeuroKit2 for Fixtures/hrv/frequency_reference.json.

Synthetic beat series only (fixed seeds): sinus rhythm with respiratory (0.25 Hz) and Mayer-wave
(0.1 Hz) modulation at several lengths and rates, the same with premature beats, an irregular
AF-like series, and an NN series with gaps (RRI + RRI_Time). For each, NeuroKit2's hrv_frequency:
- "welch": psd_method="welch", interpolation_rate=4, normalize=False (ms²; quadratic spline);
- "lomb": psd_method="lomb", interpolation_rate=None (raw NN times), normalize=False (astropy "psd");
- "welchNormalized" (first series): NeuroKit2's default normalize=True at interpolation_rate=4;
- "welchCubic10Hz" (first series): the same steps as hrv_frequency with method="cubic" at 10 Hz;
plus the peak frequency of each band of the Welch spectrum (signal_psd as hrv_frequency calls it).

Run: python Fixtures/generate/hrv_frequency.py (packages pinned in requirements.txt, astropy
included: NeuroKit2's Lomb-Scargle needs it).
"""

import json
import math
import pathlib
import warnings

import neurokit2 as nk
import numpy as np
from neurokit2.hrv.hrv_utils import _hrv_format_input
from neurokit2.hrv.intervals_process import intervals_process
from neurokit2.signal.signal_power import signal_power
from neurokit2.signal.signal_psd import signal_psd

from hrv import clean, peaks_from_rr, sinus_rr, with_ectopics  # the same synthetic series as hrv.py

OUT = pathlib.Path(__file__).resolve().parent.parent / "hrv" / "frequency_reference.json"
KEYS = ["ULF", "VLF", "LF", "HF", "VHF", "TP", "LFHF", "LFn", "HFn", "LnHF"]
BANDS = [(0, 0.0033), (0.0033, 0.04), (0.04, 0.15), (0.15, 0.4), (0.4, 0.5)]


def cases():
    rng = np.random.default_rng(19960301)
    return [
        ("sinus-5min-1000Hz", 1000.0, sinus_rr(350, rng)),
        ("sinus-30min-360Hz", 360.0, sinus_rr(2000, rng, mean=900.0, resp=35.0, mayer=30.0)),
        ("ectopic-10min-360Hz", 360.0, with_ectopics(sinus_rr(750, rng, mean=780.0), [100, 340, 600])),
        ("af-7min-250Hz", 250.0, np.clip(700.0 + 180.0 * rng.standard_normal(600), 330.0, 1400.0)),
        ("sinus-2min-500Hz", 500.0, sinus_rr(140, rng, mean=800.0, resp=40.0)),
    ]


def frequency(result):
    row = result.iloc[0]
    return {k: clean(row["HRV_" + k]) for k in KEYS}


def welch_peaks(peaks, rate, interpolation_rate=4):
    """The Welch spectrum exactly as hrv_frequency builds it; the largest bin of each band."""
    rri, rri_time, _ = _hrv_format_input(peaks, sampling_rate=rate)
    rri, _, fs = intervals_process(rri, intervals_time=rri_time, interpolate=True,
                                   interpolation_rate=interpolation_rate)
    psd = signal_psd(rri, sampling_rate=fs, method="welch", normalize=False, max_frequency=0.5)
    out = []
    for low, high in BANDS:
        band = psd[(psd["Frequency"] >= low) & (psd["Frequency"] < high)]
        out.append(None if band.empty else float(band["Frequency"].iloc[int(np.argmax(band["Power"]))]))
    return out


def welch_cubic(peaks, rate, interpolation_rate):
    """hrv_frequency's steps with a cubic-spline interpolant (its **kwargs cannot carry `method`)."""
    rri, rri_time, _ = _hrv_format_input(peaks, sampling_rate=rate)
    rri, _, fs = intervals_process(rri, intervals_time=rri_time, interpolate=True,
                                   interpolation_rate=interpolation_rate, method="cubic")
    power = signal_power(rri, frequency_band=BANDS, sampling_rate=fs, method="welch", max_frequency=0.5,
                         show=False, normalize=False, t=None)
    values = [float(v) for v in power.iloc[0].values]
    total = float(np.nansum(values))
    out = dict(zip(["ULF", "VLF", "LF", "HF", "VHF"], values))
    out.update(TP=total, LFHF=out["LF"] / out["HF"], LFn=out["LF"] / total, HFn=out["HF"] / total,
               LnHF=math.log(out["HF"]))
    return {k: clean(v) for k, v in out.items()}


def main():
    warnings.simplefilter("ignore")
    records = []
    for index, (name, rate, rr) in enumerate(cases()):
        peaks = peaks_from_rr(rr, rate)
        record = {
            "name": name,
            "samplingRate": rate,
            "peaks": [int(p) for p in peaks],
            "welch": frequency(nk.hrv_frequency(peaks, sampling_rate=rate, psd_method="welch",
                                                interpolation_rate=4, normalize=False)),
            "welchPeaks": welch_peaks(peaks, rate),
            "lomb": frequency(nk.hrv_frequency(peaks, sampling_rate=rate, psd_method="lomb",
                                               interpolation_rate=None, normalize=False)),
        }
        if index == 0:
            record["welchNormalized"] = frequency(nk.hrv_frequency(peaks, sampling_rate=rate, psd_method="welch",
                                                                   interpolation_rate=4))
            record["welchCubic10Hz"] = welch_cubic(peaks, rate, 10)
        records.append(record)

    # An NN series with gaps: the intervals next to three beats dropped, times in seconds.
    rng = np.random.default_rng(11)
    rr = np.round(sinus_rr(500, rng), 3)
    times = np.cumsum(rr) / 1000.0
    keep = np.ones(len(rr), dtype=bool)
    keep[[60, 61, 250, 251, 252, 400]] = False
    series = {"RRI": rr[keep], "RRI_Time": times[keep]}
    gaps = {
        "name": "nn-with-gaps",
        "rri": [float(x) for x in rr[keep]],
        "rriTime": [float(x) for x in times[keep]],
        "welch": frequency(nk.hrv_frequency(series, psd_method="welch", interpolation_rate=4, normalize=False)),
        "lomb": frequency(nk.hrv_frequency(series, psd_method="lomb", interpolation_rate=None, normalize=False)),
    }

    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"generator": f"neurokit2 {nk.__version__}", "series": records, "gaps": gaps}) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
