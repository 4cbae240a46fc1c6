"""Reference vectors for Vitals' IIR filter design and SOS filtering (Fixtures/filters/).

Writes:
  butter.json  scipy.signal.butter(order, corners, band, fs, output='sos') for orders 1-8, the four band
               types and sample rates 25 Hz - 1 kHz, and iirnotch at 50/60 Hz.
  sosfilt.json a fixed-seed float32 signal and, for a few designs, scipy.signal.sosfilt (zero and
               steady-state initial conditions) and sosfiltfilt outputs.
Run with the pinned versions of requirements.txt (numpy 2.4.6, scipy 1.17.1).
"""
import json
import pathlib

import numpy as np
from scipy import signal

OUT = pathlib.Path(__file__).resolve().parent.parent / "filters"
RATES = [25.0, 50.0, 100.0, 128.0, 250.0, 360.0, 500.0, 1000.0]


def corners(band, fs, order):
    """Corner frequencies in Hz typical of biosignal work, varied with the order to cover more designs."""
    nyquist = fs / 2
    spread = 1 + 0.03 * order
    if band == "lowpass":
        return [min(40.0, 0.3 * nyquist) * spread]
    if band == "highpass":
        return [0.5 * spread]
    if band == "bandpass":
        return [0.5 * spread, min(40.0, 0.7 * nyquist) / spread]
    return [0.3 * nyquist * spread, 0.45 * nyquist * spread]


def butter_cases():
    cases = []
    for fs in RATES:
        for band in ["lowpass", "highpass", "bandpass", "bandstop"]:
            for order in range(1, 9):
                wn = corners(band, fs, order)
                sos = signal.butter(order, wn if len(wn) > 1 else wn[0], band, fs=fs, output="sos")
                cases.append({"order": order, "band": band, "corners": wn, "fs": fs, "sos": sos.tolist()})
    return cases


def notch_cases():
    cases = []
    for fs in [125.0, 128.0, 250.0, 360.0, 500.0, 1000.0]:
        for f0 in [50.0, 60.0]:
            for q in [10.0, 30.0]:
                b, a = signal.iirnotch(f0, q, fs=fs)
                cases.append({"frequency": f0, "q": q, "fs": fs, "sos": [list(b) + list(a)]})
    return cases


def rounded(values, digits=8):
    """Values to `digits` significant digits (9 round-trips float32 exactly): keeps the file small."""
    return [float(f"{v:.{digits}g}") for v in values]


def filtering_cases():
    rng = np.random.default_rng(20260521)
    n = 500
    t = np.arange(n)
    x = (np.sin(2 * np.pi * t / 97.0) + 0.5 * rng.standard_normal(n) + 2.0).astype(np.float32)
    designs = [
        ("butter 4 highpass 0.5 Hz at 250 Hz", signal.butter(4, 0.5, "highpass", fs=250, output="sos")),
        ("butter 2 bandpass 5-15 Hz at 250 Hz", signal.butter(2, [5, 15], "bandpass", fs=250, output="sos")),
        ("butter 5 lowpass 40 Hz at 360 Hz", signal.butter(5, 40, "lowpass", fs=360, output="sos")),
        ("butter 3 bandstop 45-55 Hz at 500 Hz", signal.butter(3, [45, 55], "bandstop", fs=500, output="sos")),
        ("iirnotch 50 Hz Q 30 at 500 Hz", np.array([np.concatenate(signal.iirnotch(50, 30, fs=500))])),
    ]
    cases = []
    for name, sos in designs:
        zi = signal.sosfilt_zi(sos)
        y = signal.sosfilt(sos, x)
        y_steady, zf = signal.sosfilt(sos, x, zi=zi * x[0])
        cases.append({
            "name": name,
            "sos": sos.tolist(),
            "zi": rounded(zi.ravel(), 17),
            "sosfilt": rounded(y),
            "sosfiltSteady": rounded(y_steady),
            "sosfiltSteadyFinalState": rounded(zf.ravel(), 12),
            "sosfiltfilt": rounded(signal.sosfiltfilt(sos, x)),
            "sosfiltfiltPad10": rounded(signal.sosfiltfilt(sos, x, padlen=10)),
        })
    return {"signal": rounded(x, 9), "cases": cases}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "butter.json", "w") as f:
        json.dump({"butter": butter_cases(), "notch": notch_cases()}, f, separators=(",", ":"))
    with open(OUT / "sosfilt.json", "w") as f:
        json.dump(filtering_cases(), f, separators=(",", ":"))


if __name__ == "__main__":
    main()
